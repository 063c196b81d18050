// Snapshots and reset (docs/local-service.md "Snapshots and reset"): save, list, restore and delete named snapshots of
// the whole state, and reset to an empty service, while it runs. Routes only parse and delegate (services/snapshots.ts).
import type { Hono } from 'hono';
import { CreateSnapshotBodySchema, SNAPSHOT_NAME } from '../../src-shared/admin.ts';
import type { AppEnv, ServiceDeps } from '../deps.ts';
import { readJson } from '../http/body.ts';

export function registerSnapshotRoutes(app: Hono<AppEnv>, deps: ServiceDeps): void {
  const admin = deps.requireAdmin;
  const { snapshots } = deps;
  /** A name in the path that cannot be a snapshot's is no snapshot: 404 like any unknown one. */
  const nameOf = (name: string): string =>
    SNAPSHOT_NAME.test(name) ? name : deps.fail('not_found', { what: `snapshot ${name}`, what_zh: `快照 ${name}`, admin: true });

  app.get('/admin/snapshots', admin, (c) => c.json({ snapshots: snapshots.list() }));
  app.post('/admin/snapshots', admin, async (c) => c.json(await snapshots.save((await readJson(c, CreateSnapshotBodySchema)).name), 201));
  app.post('/admin/snapshots/:name/restore', admin, async (c) => c.json(await snapshots.restore(nameOf(c.req.param('name')))));
  app.delete('/admin/snapshots/:name', admin, (c) => {
    snapshots.remove(nameOf(c.req.param('name')));
    return c.body(null, 204);
  });
  // Like a fresh data folder: no accounts, no files, an empty ledger, default settings, no faults, real time.
  app.post('/admin/reset', admin, async (c) => {
    await snapshots.reset();
    deps.faults.clearAll();
    return c.json({ reset: true, now: deps.clock.nowSeconds(), offset_s: deps.clock.offsetSeconds() });
  });
}
