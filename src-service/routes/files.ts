// GET /api/file/:filename (spec §4.2) and GET /direct/:filename (DESIGN.md §3 "Files").
import type { Hono } from 'hono';
import type { AppEnv, ServiceDeps } from '../deps.ts';

export function registerFileRoutes(app: Hono<AppEnv>, deps: ServiceDeps): void {
  app.get('/api/file/:filename', deps.requireApiKey('assets:read'), () => deps.fail('not_found'));
}
