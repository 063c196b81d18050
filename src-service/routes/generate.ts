// POST /api/v1/generate (spec §4.1): auth and rate limit in the middleware, then the service.
import type { Hono } from 'hono';
import type { AppEnv, ServiceDeps } from '../deps.ts';
import { readBodyText } from '../http/body.ts';
import { createGenerateService } from '../services/generate.ts';

/** X-Client-Turn-Id: the app's own turn id (lt_ + 10 alphanumerics); anything else is ignored, as a real service ignores unknown headers. */
const CLIENT_TURN_ID = /^lt_[A-Za-z0-9]{10}$/;

export function registerGenerateRoutes(app: Hono<AppEnv>, deps: ServiceDeps): void {
  const service = createGenerateService(deps);
  app.post('/api/v1/generate', deps.requireApiKey('generate:write'), async (c) => {
    const header = c.req.header('x-client-turn-id');
    const clientTurnId = header !== undefined && CLIENT_TURN_ID.test(header) ? header : null;
    const result = await service.generate(c.get('auth'), await readBodyText(c), deps.languageOf(c), clientTurnId);
    return c.json(result);
  });
}
