// A library restored from an older backup never makes the user pay twice (docs/main-process.md "Recovery of local
// data", issue 25): the app against the real local service (child process) and real files. Jobs sent after the
// backup are known again from the send journal beside library.db: on Local their turns come back from the service
// with their images; with no service to ask they are `unknown`, never queued.
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { BatchDetail, LocalConsoleState, Product, ShotList, StartupNotice, TurnRecord } from '../../src-shared/ipc/index.ts';
import { RecordingShell } from '../ports/desktop-shell.ts';
import { NodeLocalServiceHost } from '../service-host/node-service-host.ts';
import { createStudioApp } from './create-app.ts';
import { ipcCalls } from './ipc-calls.test-support.ts';
import type { CoreStudioApp } from './studio-app.ts';

const ADMIN_TOKEN = `adm_${'J'.repeat(32)}`;
const open: CoreStudioApp[] = [];
afterEach(async () => {
  for (const app of open.splice(0)) await app.close();
});

/** The app on `dataDir`; `serviceDir` is the bundled service's folder (a file there keeps it from starting). */
async function start(dataDir: string, serviceDir = join(dataDir, 'local-service')) {
  const app = await createStudioApp({
    dataDir,
    shell: new RecordingShell(() => join(dataDir, 'saved.png')),
    secretStore: 'memory',
    localService: new NodeLocalServiceHost({ dataDir: serviceDir, restartDelayMs: 100, adminToken: ADMIN_TOKEN }),
    testing: { generation: { generateTimeoutMs: 20_000 } },
  });
  open.push(app);
  const { ok } = ipcCalls(() => app);
  const until = async <T,>(what: string, probe: () => Promise<T | null | undefined | false>): Promise<T> => {
    const end = Date.now() + 60_000;
    for (;;) {
      const value = await probe();
      if (value) return value;
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 40));
    }
  };
  const batch = (batchId: string) => ok<BatchDetail>('batchGet', { batchId });
  const stop = async () => {
    open.splice(open.indexOf(app), 1);
    await app.close();
  };
  return { app, ok, until, batch, stop };
}

/** A 6-job batch: some jobs done before the backup, the rest after it; then library.db is damaged. */
async function batchAcrossTheBackup() {
  const dataDir = mkdtempSync(join(tmpdir(), 'studio-restore-'));
  let s = await start(dataDir);
  const products: Product[] = [];
  for (let i = 1; i <= 3; i++) products.push(await s.ok<Product>('productSave', { sku: `RST-${i}`, name: `restore ${i}`, prompt: `a tin robot number ${i}` }));
  const shot = (name: string): ShotList['shots'][number] => ({ name, purpose: 'free', model: 'seedream-5-0-pro', ratio: '1:1', resolution: '1K', n: 1, promptAddition: name });
  const list = await s.ok<ShotList>('shotListSave', { name: 'restore', shots: [shot('front'), shot('side')] });
  const creditsAtStart = (await s.ok<LocalConsoleState>('localStatus', {})).account.credits;
  await s.ok('localSetFaults', { generate: { latency_ms: 300 } });
  const created = await s.ok<BatchDetail>('batchCreate', { productIds: products.map((p) => p.id), shotListId: list.id, concurrency: 1 });
  await s.until('2 jobs done', async () => (await s.batch(created.id)).counts.succeeded >= 2);
  await s.ok('batchPause', { batchId: created.id });
  const paused = await s.until('the batch to rest', async () => {
    const b = await s.batch(created.id);
    return b.counts.running === 0 ? b : null;
  });
  const doneBeforeBackup = paused.counts.succeeded;
  await s.ok('localSetFaults', { generate: { latency_ms: 0 } });
  await s.stop();
  // Today's backup again, now holding the jobs done so far (a start takes one when the day has none).
  rmSync(join(dataDir, 'backups'), { recursive: true });
  s = await start(dataDir);
  // The start's backup is taken in the background, and an online backup follows later writes of its connection until
  // it ends: resuming before it is in place would let it hold the jobs sent after it too (as on a loaded machine).
  await s.until('the start backup', async () => readdirSync(join(dataDir, 'backups')).some((name) => name.endsWith('.db')));
  await s.ok('batchResume', { batchId: created.id });
  const done = await s.until('the batch done', async () => {
    const b = await s.batch(created.id);
    return b.state === 'done' && b.counts.running === 0 ? b : null;
  });
  expect(done.counts.succeeded).toBe(6);
  const creditsAfterBatch = (await s.ok<LocalConsoleState>('localStatus', {})).account.credits;
  await s.stop();
  // The backup taken at that start is the newest one left: the one at quit never came (a kill -9, say).
  const backups = readdirSync(join(dataDir, 'backups')).sort();
  expect(backups.length).toBeGreaterThanOrEqual(1);
  for (const later of backups.slice(1)) rmSync(join(dataDir, 'backups', later));
  writeFileSync(join(dataDir, 'library.db'), randomBytes(20_000));
  return { dataDir, batchId: created.id, doneBeforeBackup, spent: creditsAtStart - creditsAfterBatch, creditsAfterBatch, turnIds: done.jobs.map((j) => j.turnId) };
}

describe('a restored library never resends', () => {
  it('on Local, jobs sent after the backup come back done with their images; Resume sends nothing and nothing is charged again', async () => {
    const before = await batchAcrossTheBackup();
    expect(before.doneBeforeBackup).toBeLessThan(6);
    const s = await start(before.dataDir);
    const notices = await s.ok<StartupNotice[]>('appNotices', {});
    expect(notices.map((n) => n.code)).toContain('library_restored');
    // The user is told: the jobs sent after the backup were recorded again, and reconciliation confirmed them all.
    const sentAfter = String(6 - before.doneBeforeBackup);
    expect(notices.find((n) => n.code === 'sends_brought_back')?.params).toMatchObject({ count: sentAfter, unknown: '0', batchCount: '1' });
    await s.ok('batchResume', { batchId: before.batchId });
    const after = await s.until('the batch done again', async () => {
      const b = await s.batch(before.batchId);
      return b.state === 'done' && b.counts.running === 0 ? b : null;
    });
    expect(after.counts.succeeded).toBe(6);
    // The very turns that were sent, none sent again: the same ids, and not a credit more.
    expect(after.jobs.map((j) => j.turnId)).toEqual(before.turnIds);
    expect((await s.ok<LocalConsoleState>('localStatus', {})).account.credits).toBe(before.creditsAfterBatch);
    for (const turnId of before.turnIds) {
      const turn = await s.ok<TurnRecord>('libraryGetTurn', { turnId });
      expect(turn.status).toBe('succeeded');
      expect(turn.images.length).toBeGreaterThan(0);
    }
  }, 120_000);

  it('with no service to ask, the jobs sent after the backup are unknown, never queued, and Resume sends none of them', async () => {
    const before = await batchAcrossTheBackup();
    const blocked = join(before.dataDir, 'no-service');
    writeFileSync(blocked, 'not a folder');
    const s = await start(before.dataDir, blocked);
    const restored = await s.batch(before.batchId);
    const unknown = restored.jobs.filter((j) => j.status === 'unknown');
    expect(unknown).toHaveLength(6 - before.doneBeforeBackup);
    expect(restored.jobs.filter((j) => j.status === 'queued')).toHaveLength(0);
    expect(unknown.map((j) => j.turnId)).toEqual(before.turnIds.slice(before.doneBeforeBackup));
    expect(restored.state).toBe('paused');
    // The notice says how many came back unknown and which batch is paused because of them.
    const notice = (await s.ok<StartupNotice[]>('appNotices', {})).find((n) => n.code === 'sends_brought_back');
    expect(notice?.params).toEqual({ count: String(unknown.length), unknown: String(unknown.length), batches: restored.name, batchCount: '1' });
  }, 120_000);
});

describe('a data folder an earlier version made (0755, files 0644)', () => {
  it.runIf(process.platform !== 'win32')('is narrowed to the owner at start, its settings and backups included', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'studio-old-modes-'));
    mkdirSync(join(dataDir, 'backups'));
    writeFileSync(join(dataDir, 'settings.json.bak'), '{}', { mode: 0o644 });
    for (const path of [dataDir, join(dataDir, 'backups')]) chmodSync(path, 0o755);
    const blocked = join(dataDir, 'no-service');
    writeFileSync(blocked, 'not a folder');
    const s = await start(dataDir, blocked);
    const modeOf = (path: string) => statSync(path).mode & 0o777;
    expect(modeOf(dataDir)).toBe(0o700);
    expect(modeOf(join(dataDir, 'backups'))).toBe(0o700);
    expect(modeOf(join(dataDir, 'settings.json.bak'))).toBe(0o600);
    await s.until('the start backup', async () => readdirSync(join(dataDir, 'backups')).find((f) => f.endsWith('.db')));
    for (const file of readdirSync(join(dataDir, 'backups'))) expect(modeOf(join(dataDir, 'backups', file))).toBe(0o600);
  }, 60_000);
});

describe('a failed backup', () => {
  it('is told as a notice naming the error and the folder, and the app still starts', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'studio-backup-fails-'));
    writeFileSync(join(dataDir, 'backups'), 'not a folder');
    const blocked = join(dataDir, 'no-service');
    writeFileSync(blocked, 'not a folder');
    const s = await start(dataDir, blocked);
    const notice = await s.until('the backup failure notice', async () =>
      (await s.ok<StartupNotice[]>('appNotices', {})).find((n) => n.code === 'library_backup_failed'),
    );
    expect(notice.params).toEqual({ error: expect.stringMatching(/EEXIST|ENOTDIR/), folder: join(dataDir, 'backups') });
  }, 60_000);
});
