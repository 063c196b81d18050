// A damaged service.db never leaves the service unable to start and never becomes a new account (docs/local-service.md
// "A damaged service.db"): real files damaged in every way the reliability run found, a real service started on them.
import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, statSync, truncateSync, writeFileSync, openSync, writeSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { readServiceRecoveries } from '../start.ts';
import { startTestService, type TestService } from '../test-support.ts';

interface Before {
  dataDir: string;
  accountId: string;
  key: string;
  credits: number;
  refImageId: string;
}

const started: TestService[] = [];
afterEach(async () => {
  for (const s of started.splice(0)) await s.stop();
});

async function start(dataDir: string): Promise<TestService> {
  const s = await startTestService({ dataDir });
  started.push(s);
  return s;
}

async function stop(s: TestService): Promise<void> {
  started.splice(started.indexOf(s), 1);
  await s.stop();
}

/**
 * An account that spent credits on one image (the app's future reference), then 600 sessions of other data after it,
 * so the middle and the end of the file hold that data and not the account. Stopped cleanly (a backup is taken).
 */
async function firstRun(): Promise<Before> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-recover-'));
  const s = await start(dataDir);
  const account = await s.account({ credits: 10_000 });
  const made = await s.api('/api/v1/generate', { key: account.key, body: { prompt: 'green teapot on oak', n: 1 } });
  expect(made.status).toBe(200);
  const credits = (await s.admin('GET', `/admin/accounts/${account.id}`)).body.credits as number;
  expect(credits).toBeLessThan(10_000);
  await stop(s);
  const db = new DatabaseSync(join(dataDir, 'service.db'));
  const add = db.prepare('INSERT INTO sessions (id, account_id, title, created_at) VALUES (?, ?, ?, ?)');
  db.exec('BEGIN');
  for (let i = 0; i < 600; i++) add.run(`s_filler${String(i).padStart(4, '0')}`, account.id, 'x'.repeat(400), Date.now());
  db.exec('COMMIT');
  db.close();
  return { dataDir, accountId: account.id, key: account.key, credits, refImageId: made.body.images[0].id };
}

/** Same account, same balance, the same key works, and the earlier image still resolves as a reference. */
async function expectSameAccount(s: TestService, before: Before, credits = before.credits): Promise<void> {
  const account = await s.admin('GET', `/admin/accounts/${before.accountId}`);
  expect(account.status).toBe(200);
  expect(account.body.credits).toBe(credits);
  const again = await s.api('/api/v1/generate', { key: before.key, body: { ref_image_ids: [before.refImageId] } });
  expect(again.status).toBe(200);
}

function damagedFiles(dataDir: string): string[] {
  return readdirSync(dataDir).filter((f) => /^service\.db\.damaged-[0-9T-]+Z$/.test(f));
}

/** Writes `bytes` over the file at `offset`. */
function overwrite(file: string, offset: number, bytes: Buffer): void {
  const fd = openSync(file, 'r+');
  writeSync(fd, bytes, 0, bytes.length, offset);
  closeSync(fd);
}

const db = (dataDir: string): string => join(dataDir, 'service.db');

/**
 * The page of session rows nearest the middle of the file (what lies there depends on the schema's layout, so it is
 * looked up): the other data after the account, which a damage there costs, while the account's pages stay readable.
 */
function middleSessionsPage(file: string): number {
  const reader = new DatabaseSync(file, { readOnly: true });
  const pages = Math.ceil(statSync(file).size / 4096);
  const found = reader.prepare("SELECT pageno FROM dbstat WHERE name = 'sessions' AND pagetype = 'leaf' ORDER BY abs(pageno - ?) LIMIT 1").get(pages / 2) as { pageno: number };
  reader.close();
  return found.pageno;
}

/** A file SQLite reads but a migration fails on: 0003 recorded as not applied, so its ALTER TABLE runs again. */
function failingMigration(dataDir: string): void {
  const file = new DatabaseSync(db(dataDir));
  file.exec('DELETE FROM schema_migrations WHERE version = 3');
  file.close();
}

const damages: Array<[string, string, (dataDir: string) => void]> = [
  ['a schema a migration fails on', 'open_failed', failingMigration],
  ['a garbage header', 'not_sqlite', (d) => overwrite(db(d), 0, randomBytes(100))],
  ['a file cut to 60 %', 'unreadable', (d) => truncateSync(db(d), Math.floor(statSync(db(d)).size * 0.6))],
  // quick_check reports the ruined page, or fails on it itself, as the bytes fall.
  ['random bytes in the middle', 'quick_check_failed|unreadable', (d) => overwrite(db(d), (middleSessionsPage(db(d)) - 1) * 4096, randomBytes(4096))],
];

describe('a damaged service.db is kept aside and rebuilt with the same account', () => {
  it.each(damages)('%s: salvaged from the damaged file itself (no backup), reason %s', async (_kind, reason, damage) => {
    const before = await firstRun();
    const original = readFileSync(db(before.dataDir));
    damage(before.dataDir);
    const damagedBytes = readFileSync(db(before.dataDir));
    expect(damagedBytes.equals(original)).toBe(false);
    rmSync(join(before.dataDir, 'backups'), { recursive: true, force: true });
    const since = Date.now();
    const s = await start(before.dataDir);
    await expectSameAccount(s, before);
    const [kept] = damagedFiles(before.dataDir);
    expect(readFileSync(join(before.dataDir, kept!)).equals(damagedBytes)).toBe(true);
    const [recovery] = readServiceRecoveries(before.dataDir, since);
    expect(recovery).toMatchObject({ reason: expect.stringMatching(new RegExp(`^(${reason})$`)), damaged_path: join(before.dataDir, kept!), backup_taken_at: null, accounts: [before.accountId] });
    expect(recovery!.salvaged).toMatchObject({ accounts: 1, api_keys: 1, images: 1 });
  });

  it('a zero-length service.db in a folder that had an account: rebuilt from the backup, not a new account', async () => {
    const before = await firstRun();
    writeFileSync(db(before.dataDir), '');
    const since = Date.now();
    const s = await start(before.dataDir);
    await expectSameAccount(s, before);
    expect(damagedFiles(before.dataDir)).toHaveLength(1);
    const [recovery] = readServiceRecoveries(before.dataDir, since);
    expect(recovery).toMatchObject({ reason: 'empty', accounts: [before.accountId], unreadable: ['all'] });
    expect(recovery!.backup_taken_at).toEqual(expect.any(String));
  });

  it('a missing service.db beside the images and backups: rebuilt from the backup, not a new account', async () => {
    const before = await firstRun();
    rmSync(db(before.dataDir));
    const since = Date.now();
    const s = await start(before.dataDir);
    await expectSameAccount(s, before);
    expect(readServiceRecoveries(before.dataDir, since)).toMatchObject([{ reason: 'missing', damaged_path: null, accounts: [before.accountId] }]);
  });

  it('a missing service.db with no backup, beside its images: said to be lost (a record, reason missing), not taken for a first start', async () => {
    const before = await firstRun();
    rmSync(db(before.dataDir));
    rmSync(join(before.dataDir, 'backups'), { recursive: true });
    const since = Date.now();
    const s = await start(before.dataDir);
    expect((await s.admin('GET', `/admin/accounts/${before.accountId}`)).status).toBe(404);
    const [recovery] = readServiceRecoveries(before.dataDir, since);
    expect(recovery).toMatchObject({ reason: 'missing', damaged_path: null, accounts: [], salvaged: {}, from_backup: {}, files_set_aside: 1 });
    // The image stays on disk for the user, out of the way of the crash clean-up (files no row names).
    expect(readdirSync(join(before.dataDir, 'files'))).toEqual([]);
    expect(readdirSync(recovery!.files_folder!)).toHaveLength(1);
  });

  it('a recovery killed between moving the damaged file aside and putting the rebuilt one in place is finished at the next start', async () => {
    const before = await firstRun();
    // What such a kill leaves: the damaged file kept aside, the rebuilt database beside it, no service.db.
    renameSync(db(before.dataDir), `${db(before.dataDir)}.rebuilding`);
    writeFileSync(`${db(before.dataDir)}.damaged-2026-11-26T220000000Z`, randomBytes(4096));
    rmSync(join(before.dataDir, 'backups'), { recursive: true });
    const since = Date.now();
    const s = await start(before.dataDir);
    await expectSameAccount(s, before);
    expect(readServiceRecoveries(before.dataDir, since)).toEqual([]);
    expect(existsSync(`${db(before.dataDir)}.rebuilding`)).toBe(false);
  });

  it('a WAL from another service.db: its pages are not taken for ours', async () => {
    const before = await firstRun();
    // Another service's WAL, copied while it runs (its writes still in the WAL).
    const other = await start(mkdtempSync(join(tmpdir(), 'svc-other-')));
    await other.account({ credits: 5 });
    copyFileSync(`${db(other.dataDir)}-wal`, `${db(before.dataDir)}-wal`);
    await stop(other);
    const since = Date.now();
    const s = await start(before.dataDir);
    await expectSameAccount(s, before);
    expect(damagedFiles(before.dataDir)).toHaveLength(1);
    expect(readServiceRecoveries(before.dataDir, since)).toMatchObject([{ reason: 'accounts_missing', accounts: [before.accountId] }]);
  });

  it('rows newer than the backup come from the damaged file: the balance is the latest one', async () => {
    const before = await firstRun();
    const s = await start(before.dataDir);
    expect((await s.api('/api/v1/generate', { key: before.key, body: { prompt: 'blue jug', n: 1 } })).status).toBe(200);
    const credits = (await s.admin('GET', `/admin/accounts/${before.accountId}`)).body.credits as number;
    expect(credits).toBeLessThan(before.credits);
    await stop(s);
    // Only the backups older than the last generation remain (as after a kill -9).
    const backups = readdirSync(join(before.dataDir, 'backups')).sort();
    rmSync(join(before.dataDir, 'backups', backups.at(-1)!));
    overwrite(db(before.dataDir), 0, randomBytes(100));
    const again = await start(before.dataDir);
    await expectSameAccount(again, before, credits);
  });

  it('a first start in an empty folder is no recovery', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-recover-'));
    const s = await start(dataDir);
    await s.account();
    expect(readServiceRecoveries(dataDir, 0)).toEqual([]);
    expect(existsSync(join(dataDir, 'recoveries.jsonl'))).toBe(false);
  });

  it('backs service.db up when it listens and at a clean stop, keeping the newest 3, each a plain file SQLite reads alone', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-recover-'));
    for (let i = 0; i < 3; i++) {
      const s = await start(dataDir);
      await s.account({ credits: 100 + i });
      await stop(s);
    }
    const names = readdirSync(join(dataDir, 'backups'));
    expect(names).toHaveLength(3);
    expect(names.every((n) => /^service-[0-9T-]+Z\.db$/.test(n))).toBe(true);
    const newest = new DatabaseSync(join(dataDir, 'backups', names.sort().at(-1)!), { readOnly: true });
    expect(newest.prepare('SELECT credits FROM accounts ORDER BY credits').all()).toEqual([{ credits: 100 }, { credits: 101 }, { credits: 102 }]);
    newest.close();
    expect(readdirSync(join(dataDir, 'backups'))).toHaveLength(3);
  });
});
