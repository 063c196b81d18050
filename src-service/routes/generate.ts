// POST /api/v1/generate (spec §4.1): auth and rate limit in the middleware, then the service.
import type { Hono } from 'hono';
import type { AppEnv, ServiceDeps } from '../deps.ts';
import { readBodyText } from '../http/body.ts';
import { createGenerateService } from '../services/generate.ts';

export function registerGenerateRoutes(app: Hono<AppEnv>, deps: ServiceDeps): void {
  const service = createGenerateService(deps);
  app.post('/api/v1/generate', deps.requireApiKey('generate:write'), async (c) => {
    const result = await service.generate(c.get('auth').accountId, await readBodyText(c), deps.languageOf(c));
    return c.json(result);
  });
}
