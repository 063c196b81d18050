// Admin routes for the notification settings (DESIGN.md §4; spec §6 "Configuration").
import type { Hono } from 'hono';
import { DeliveryLimitQuerySchema, PutWebhookBodySchema } from '../../src-shared/admin.ts';
import type { AppEnv, ServiceDeps } from '../deps.ts';
import { readJson } from '../http/body.ts';
import { fail } from '../http/errors.ts';


export function registerWebhookAdminRoutes(app: Hono<AppEnv>, deps: ServiceDeps): void {
  const admin = deps.requireAdmin;
  const webhooks = deps.webhooks;

  app.get('/admin/accounts/:id/webhook', admin, (c) => c.json(webhooks.get(c.req.param('id'))));
  app.get('/admin/accounts/:id/webhook/deliveries', admin, (c) => {
    const limit = DeliveryLimitQuerySchema.safeParse(c.req.query('limit'));
    if (!limit.success) fail('invalid_request', { detail: 'limit must be an integer from 1 to 200', detail_zh: 'limit 必须是 1 到 200 的整数' });
    return c.json({ deliveries: webhooks.deliveries(c.req.param('id'), limit.data) });
  });
  app.put('/admin/accounts/:id/webhook', admin, async (c) => c.json(webhooks.put(c.req.param('id'), await readJson(c, PutWebhookBodySchema))));
  app.get('/admin/accounts/:id/webhook/secret', admin, (c) => c.json(webhooks.secret(c.req.param('id'))));
  app.post('/admin/accounts/:id/webhook/regenerate', admin, (c) => c.json(webhooks.regenerate(c.req.param('id'))));
  app.post('/admin/accounts/:id/webhook/ping', admin, (c) => c.json(webhooks.ping(c.req.param('id')), 202));
}
