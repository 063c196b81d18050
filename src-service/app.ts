// The HTTP app: request ids, body limit, every route module, and one error rendering (spec §7).
import { Hono } from 'hono';
import type { AppEnv, ServiceDeps } from './deps.ts';
import { MAX_BODY_BYTES, refuseDeclaredTooLarge } from './http/body.ts';
import { DomainError, errorResponse, requestIdOf } from './http/errors.ts';
import { newId } from '../src-shared/ids.ts';
import { recordRequests } from './http/record-requests.ts';
import { registerAdminRoutes } from './routes/admin.ts';
import { registerAdminOpenApiRoute } from './routes/admin-openapi.ts';
import { registerAdminRequestRoutes } from './routes/admin-requests.ts';
import { registerFileRoutes } from './routes/files.ts';
import { registerGenerateRoutes } from './routes/generate.ts';
import { registerPackRoutes } from './routes/packs.ts';
import { registerPublicationRoutes } from './routes/publications.ts';
import { registerSnapshotRoutes } from './routes/admin-snapshots.ts';
import { registerWebhookAdminRoutes } from './routes/webhook-admin.ts';

export { MAX_BODY_BYTES };

export function createApp(deps: ServiceDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  // spec §7: every response, success or failure, carries X-Request-Id (req_ + 20).
  // Request lines are debug-level (`--log-level debug`): the 4xx path must stay cheap under load.
  const logRequests = deps.logger.isLevelEnabled('debug');
  app.use('*', async (c, next) => {
    const id = newId('request');
    const started = logRequests ? performance.now() : 0;
    c.set('requestId', id);
    c.header('X-Request-Id', id);
    await next();
    if (logRequests) {
      deps.logger.debug(
        { request_id: id, method: c.req.method, path: c.req.path, status: c.res.status, ms: Math.round(performance.now() - started) },
        'request',
      );
    }
  });
  // issue 27: every request under /api goes to the request ledger once it is answered (GET /admin/requests).
  app.use('*', recordRequests(deps));
  // A declared length over the limit is refused before anything is read; an undeclared (chunked) body is
  // capped while it is read (http/body.ts). The connection is not reused (Connection: close); the rest of the
  // body is read and thrown away, and the connection closed once the client stops sending (discardRestOfBody).
  app.use('*', async (c, next) => {
    const refused = refuseDeclaredTooLarge(c);
    if (refused) return refused;
    await next();
  });

  registerGenerateRoutes(app, deps);
  registerFileRoutes(app, deps);
  registerAdminRoutes(app, deps);
  registerPackRoutes(app, deps);
  registerPublicationRoutes(app, deps);
  registerWebhookAdminRoutes(app, deps);
  registerAdminRequestRoutes(app, deps);
  registerSnapshotRoutes(app, deps);
  registerAdminOpenApiRoute(app, deps);

  // Unknown routes and wrong methods answer with the spec §7 body too (DESIGN.md §4).
  const routePatterns = (): Array<{ method: string; pattern: RegExp }> =>
    app.routes
      .filter((r) => r.method !== 'ALL')
      .map((r) => ({
        method: r.method,
        pattern: new RegExp(`^${r.path.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\/:[^/]+/g, '/[^/]+').replace(/\*/g, '.*')}/?$`),
      }));
  let patterns: Array<{ method: string; pattern: RegExp }> | null = null;
  app.notFound((c) => {
    patterns ??= routePatterns();
    const allowed = [...new Set(patterns.filter((p) => p.pattern.test(c.req.path)).map((p) => p.method))];
    if (allowed.length > 0) {
      return errorResponse(
        c,
        new DomainError('method_not_allowed', { method: c.req.method, path: c.req.path }, { Allow: allowed.join(', ') }),
      );
    }
    // No route has this path: say so, not "does not exist or is not yours", which reads like an ownership problem.
    return errorResponse(c, new DomainError('not_found', { route: `${c.req.method} ${c.req.path}` }));
  });

  app.onError((error, c) => {
    if (error instanceof DomainError) return errorResponse(c, error);
    deps.logger.error({ err: error, request_id: requestIdOf(c), path: c.req.path }, 'unhandled error');
    return errorResponse(c, new DomainError('internal_error'));
  });
  return app;
}
