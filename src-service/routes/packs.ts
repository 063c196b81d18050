// Admin routes for image packs (DESIGN.md §4). Routes only parse and delegate to services/packs.ts.
import type { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv, ServiceDeps } from '../deps.ts';
import { readJson } from '../http/body.ts';
import { fail } from '../http/errors.ts';
import { createPackService } from '../services/packs.ts';
import { webhookServiceFor } from '../services/webhooks.ts';

const StyleCode = z.string().min(1).max(200);
const ImageIds = z.array(z.string().min(1).max(100)).max(200);
const CreatePackSchema = z.strictObject({ style_code: StyleCode, image_ids: ImageIds });
const PatchPackSchema = z.strictObject({ style_code: StyleCode.optional(), image_ids: ImageIds.optional(), saved: z.boolean().optional() });

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
  const service = createPackService(deps, webhookServiceFor(deps));
  const svc = () => service;

  app.get('/admin/accounts/:id/image-packs', admin, (c) => c.json({ packs: svc().list(c.req.param('id')) }));
  app.post('/admin/accounts/:id/image-packs', admin, async (c) =>
    c.json(svc().create(c.req.param('id'), await readJson(c, CreatePackSchema)), 201),
  );
  app.get('/admin/image-packs/:pack_id', admin, (c) => c.json(svc().get(c.req.param('pack_id'))));
  app.patch('/admin/image-packs/:pack_id', admin, async (c) => c.json(svc().update(c.req.param('pack_id'), await readJson(c, PatchPackSchema))));
  app.post('/admin/image-packs/:pack_id/publish', admin, (c) => {
    const result = svc().publish(c.req.param('pack_id'), idempotencyKeyOf(c.req.header('idempotency-key')));
    // The body is the same for a replay; headers tell the two apart (and name the queued notification).
    if (result.replayed) c.header('Idempotent-Replayed', 'true');
    if (result.delivery_id !== null) c.header('X-Service-Delivery', result.delivery_id);
    return c.json({ published: result.published, publication: result.publication });
  });
}
