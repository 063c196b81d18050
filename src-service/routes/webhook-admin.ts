// Admin routes for the notification settings (DESIGN.md §4; spec §6 "Configuration").
import type { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv, ServiceDeps } from '../deps.ts';
import { readJson } from '../http/body.ts';
import { webhookServiceFor } from '../services/webhooks.ts';

const PutWebhookSchema = z.strictObject({ url: z.string().max(2048), enabled: z.boolean() });

export function registerWebhookAdminRoutes(app: Hono<AppEnv>, deps: ServiceDeps): void {
  const admin = deps.requireAdmin;
  // Created at start-up, so deliveries left pending by the last run resume at once (DESIGN.md §4).
  const service = webhookServiceFor(deps);
  const svc = () => service;

  app.get('/admin/accounts/:id/webhook', admin, (c) => c.json(svc().get(c.req.param('id'))));
  app.put('/admin/accounts/:id/webhook', admin, async (c) => c.json(svc().put(c.req.param('id'), await readJson(c, PutWebhookSchema))));
  app.post('/admin/accounts/:id/webhook/regenerate', admin, (c) => c.json(svc().regenerate(c.req.param('id'))));
  app.post('/admin/accounts/:id/webhook/ping', admin, (c) => c.json(svc().ping(c.req.param('id')), 202));
}
