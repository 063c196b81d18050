// GET /api/v1/image-pack-publications/<id> (spec §4.3): API key with documents:read; 404 not_found when the
// record does not exist or is another account's.
import type { Hono } from 'hono';
import type { AppEnv, ServiceDeps } from '../deps.ts';
import { fail } from '../http/errors.ts';
import { applyRequestFaults } from '../faults.ts';
import { createPackService } from '../services/packs.ts';

export function registerPublicationRoutes(app: Hono<AppEnv>, deps: ServiceDeps): void {
  const packs = createPackService(deps, deps.webhooks);

  app.get('/api/v1/image-pack-publications/:id', deps.requireApiKey('documents:read'), async (c) => {
    const raw = c.req.param('id');
    await applyRequestFaults(deps.faults, 'publication', c.get('auth'), deps.settings.get().default_rate_limit_per_24h);
    // A record id is a positive integer (spec §2.7). Any other text names no record, so it answers 404
    // not_found like a missing one: spec §4.3 lists only 404 for this endpoint, and clients branch on it.
    if (!/^[1-9][0-9]{0,15}$/.test(raw)) fail('not_found', { what: `image pack publication ${raw}`, what_zh: `图包发布记录 ${raw}` });
    return c.json(packs.publicationRecord(c.get('auth').accountId, Number(raw)));
  });
}
