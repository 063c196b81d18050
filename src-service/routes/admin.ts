// The admin API of DESIGN.md §4 (accounts, keys, images, faults, clock, settings) plus read-only extras
// for the app's console. Routes only parse and delegate.
import type { Hono } from 'hono';
import {
  AdvanceClockBodySchema,
  CreateAccountBodySchema,
  CreateApiKeyBodySchema,
  FaultsSchema,
  PatchAccountBodySchema,
  PatchApiKeyBodySchema,
  ScenarioSchema,
  ServiceSettingsSchema,
} from '../../src-shared/admin.ts';
import type { AppEnv, ServiceDeps } from '../deps.ts';
import { readJson } from '../http/body.ts';
import { createAccountService } from '../services/accounts.ts';
import { createImageService } from '../services/images.ts';
import { createTurnService } from '../services/turns.ts';

/** ?since=<unix s>: required, a whole number of seconds. */
const SINCE = /^\d{1,12}$/;

export function registerAdminRoutes(app: Hono<AppEnv>, deps: ServiceDeps): void {
  const accounts = createAccountService(deps.db, deps.clock, () => deps.settings.get().default_rate_limit_per_24h);
  const images = createImageService(deps);
  const turns = createTurnService(deps);
  const admin = deps.requireAdmin;

  app.post('/admin/accounts', admin, async (c) => c.json(accounts.create(await readJson(c, CreateAccountBodySchema, {})), 201));
  app.get('/admin/accounts/:id', admin, (c) => c.json(accounts.get(c.req.param('id'))));
  app.patch('/admin/accounts/:id', admin, async (c) => c.json(accounts.patch(c.req.param('id'), await readJson(c, PatchAccountBodySchema))));
  app.post('/admin/accounts/:id/api-keys', admin, async (c) =>
    c.json(accounts.createKey(c.req.param('id'), await readJson(c, CreateApiKeyBodySchema)), 201),
  );
  app.get('/admin/accounts/:id/api-keys', admin, (c) => c.json({ api_keys: accounts.listKeys(c.req.param('id')) }));
  app.post('/admin/api-keys/:id/revoke', admin, (c) => c.json(accounts.revokeKey(c.req.param('id'))));
  app.patch('/admin/api-keys/:id', admin, async (c) => {
    const body = await readJson(c, PatchApiKeyBodySchema);
    return c.json(accounts.setKeyRateLimit(c.req.param('id'), body.rate_limit_per_24h));
  });

  // Read-only addition (docs/local-service.md): the outcome of generations an app lost track of.
  app.get('/admin/accounts/:id/turns', admin, (c) => {
    const since = c.req.query('since');
    if (since === undefined || !SINCE.test(since)) {
      deps.fail('invalid_request', {
        detail: `since: required, Unix seconds (a whole number), got ${since === undefined ? 'nothing' : JSON.stringify(since)}`,
        detail_zh: `since：必填，Unix 秒（整数），收到的是 ${since === undefined ? '空' : JSON.stringify(since)}`,
      });
    }
    return c.json({ turns: turns.listSince(c.req.param('id'), Number(since)) });
  });

  app.delete('/admin/images/:id', admin, async (c) => {
    await images.cleanUp(c.req.param('id'));
    return c.body(null, 204);
  });

  app.get('/admin/faults', admin, (c) => c.json(deps.faults.get()));
  app.put('/admin/faults', admin, async (c) => c.json(deps.faults.arm(await readJson(c, FaultsSchema))));
  // Fault scenarios (docs/local-service.md "Fault scenarios"): a PUT replaces the scenario and starts it afresh.
  app.get('/admin/scenario', admin, (c) => c.json(deps.faults.scenario.view()));
  app.put('/admin/scenario', admin, async (c) => c.json(deps.faults.scenario.replace(await readJson(c, ScenarioSchema))));
  app.delete('/admin/scenario', admin, (c) => c.json(deps.faults.scenario.clear()));

  // The business clock (docs/local-service.md "The service clock"); webhook signatures keep real time.
  const clockView = () => ({ now: deps.clock.nowSeconds(), offset_s: deps.clock.offsetSeconds() });
  app.get('/admin/clock', admin, (c) => c.json(clockView()));
  app.post('/admin/clock', admin, async (c) => {
    const body = await readJson(c, AdvanceClockBodySchema);
    if (body.reset) deps.clock.reset();
    if (body.advance_s !== undefined) deps.clock.advance(body.advance_s);
    return c.json(clockView());
  });

  app.get('/admin/settings', admin, (c) => c.json(deps.settings.get()));
  app.put('/admin/settings', admin, async (c) => c.json(deps.settings.update(await readJson(c, ServiceSettingsSchema))));
}
