// Admin routes for image packs (DESIGN.md §4). Routes only parse and delegate to services/packs.ts.
import type { Hono } from 'hono';
import { CreatePackBodySchema, PatchPackBodySchema } from '../../src-shared/admin.ts';
import type { AppEnv, ServiceDeps } from '../deps.ts';
import { readJson } from '../http/body.ts';
import { fail } from '../http/errors.ts';
import { createPackService } from '../services/packs.ts';


/** Idempotency-Key: absent, or 1–255 visible ASCII characters; anything else is a clear 400. */
function idempotencyKeyOf(header: string | undefined): string | null {
  if (header === undefined) return null;
  if (!/^[\x21-\x7e]{1,255}$/.test(header)) {
    fail('invalid_request', { detail: 'Idempotency-Key must be 1 to 255 visible ASCII characters', detail_zh: 'Idempotency-Key 必须是 1 到 255 个可见 ASCII 字符' });
  }
  return header;
}

export function registerPackRoutes(app: Hono<AppEnv>, deps: ServiceDeps): void {
  const admin = deps.requireAdmin;
  const packs = createPackService(deps, deps.webhooks);

  app.get('/admin/accounts/:id/image-packs', admin, (c) => c.json({ packs: packs.list(c.req.param('id')) }));
  app.post('/admin/accounts/:id/image-packs', admin, async (c) =>
    c.json(packs.create(c.req.param('id'), await readJson(c, CreatePackBodySchema)), 201),
  );
  app.get('/admin/image-packs/:pack_id', admin, (c) => c.json(packs.get(c.req.param('pack_id'))));
  app.patch('/admin/image-packs/:pack_id', admin, async (c) => c.json(packs.update(c.req.param('pack_id'), await readJson(c, PatchPackBodySchema))));
  app.post('/admin/image-packs/:pack_id/publish', admin, (c) => {
    const result = packs.publish(c.req.param('pack_id'), idempotencyKeyOf(c.req.header('idempotency-key')));
    // The body is the same for a replay; headers tell the two apart (and name the queued notification).
    if (result.replayed) c.header('Idempotent-Replayed', 'true');
    if (result.delivery_id !== null) c.header('X-Service-Delivery', result.delivery_id);
    return c.json({ published: result.published, publication: result.publication });
  });
}
