// Admin routes for the notification settings (DESIGN.md §4; spec §6 "Configuration").
import type { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv, ServiceDeps } from '../deps.ts';
import { readJson } from '../http/body.ts';
import { fail } from '../http/errors.ts';
import { webhookServiceFor } from '../services/webhooks.ts';

const PutWebhookSchema = z.strictObject({ url: z.string().max(2048), enabled: z.boolean() });
const LimitSchema = z.coerce.number().int().min(1).max(200).default(20);

export function registerWebhookAdminRoutes(app: Hono<AppEnv>, deps: ServiceDeps): void {
  const admin = deps.requireAdmin;
  // Created at start-up, so deliveries left pending by the last run resume at once (DESIGN.md §4).
  const service = webhookServiceFor(deps);
  const svc = () => service;

  app.get('/admin/accounts/:id/webhook', admin, (c) => c.json(svc().get(c.req.param('id'))));
  app.get('/admin/accounts/:id/webhook/deliveries', admin, (c) => {
    const limit = LimitSchema.safeParse(c.req.query('limit'));
    if (!limit.success) fail('invalid_request', { detail: 'limit must be an integer from 1 to 200', detail_zh: 'limit 必须是 1 到 200 的整数' });
    return c.json({ deliveries: svc().deliveries(c.req.param('id'), limit.data) });
  });
  app.put('/admin/accounts/:id/webhook', admin, async (c) => c.json(svc().put(c.req.param('id'), await readJson(c, PutWebhookSchema))));
  app.post('/admin/accounts/:id/webhook/regenerate', admin, (c) => c.json(svc().regenerate(c.req.param('id'))));
  app.post('/admin/accounts/:id/webhook/ping', admin, (c) => c.json(svc().ping(c.req.param('id')), 202));
}
