// POST /api/v1/generate (spec §4.1).
import type { Hono } from 'hono';
import type { AppEnv, ServiceDeps } from '../deps.ts';

export function registerGenerateRoutes(app: Hono<AppEnv>, deps: ServiceDeps): void {
  app.post('/api/v1/generate', deps.requireApiKey('generate:write'), () => deps.fail('internal_error'));
}
