// The request ledger's admin routes (issue 27; docs/local-service.md "Look a request up") and the health route.
// Routes only parse and delegate to services/request-ledger.ts.
import type { Hono } from 'hono';
import { RequestListQuerySchema } from '../../src-shared/admin.ts';
import type { AppEnv, ServiceDeps } from '../deps.ts';
import { readQuery } from '../http/body.ts';

export function registerAdminRequestRoutes(app: Hono<AppEnv>, deps: ServiceDeps): void {
  const admin = deps.requireAdmin;

  // For CI and supervisors: answers as soon as the service listens, no token needed.
  app.get('/healthz', (c) => c.json({ ok: true }));

  app.get('/admin/requests', admin, (c) => {
    const { cursor, limit, since, ...filter } = readQuery(c, RequestListQuerySchema);
    return c.json(deps.requests.list({ ...filter, since: since === undefined ? undefined : since * 1000 }, cursor, limit));
  });
  app.get('/admin/requests/:request_id', admin, (c) => {
    const id = c.req.param('request_id');
    return c.json(deps.requests.get(id) ?? deps.fail('not_found', { what: `request ${id}`, what_zh: `请求 ${id}` }));
  });
}
