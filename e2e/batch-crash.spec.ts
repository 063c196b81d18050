// kill -9 of the app (the harness: the same main-process core as Electron) in the middle of a batch, then a
// restart on the same data folder (docs/catalog.md "After a crash"): no job is sent twice, completed results are
// in the library with their files, the jobs that were in flight are reconciled from the service (or marked
// unknown), and the rest wait for Resume; after Resume the books balance. The library's trigger-kept counts
// match its images throughout.
import { mkdtempSync, rmSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import type { BatchDetail, Product, ShotList } from '../src-shared/ipc/index.ts';
import { startHarness } from './fixtures/harness.ts';
import { ipc, until } from './support/ipc.ts';

const sends = (b: BatchDetail): number => b.jobs.reduce((s, j) => s + j.turnIds.length, 0);

/**
 * The counts the library keeps by triggers (per session and per turn: images, not rejected, newest, mark cells)
 * that differ from a recount of its images, read from the file while the app runs; and how many turns have images.
 */
function statsDrift(dataDir: string): { drift: unknown[]; turns: number } {
  const db = new DatabaseSync(join(dataDir, 'library.db'), { readOnly: true });
  try {
    const cells = Array.from({ length: 24 }, (_, k) => k);
    const recount = (by: string) =>
      `SELECT ${by}, COUNT(*), ${cells.map((k) => `SUM(starred * 12 + rating * 2 + rejected = ${k})`).join(', ')} FROM images GROUP BY ${by}`;
    const kept = (by: string) => `SELECT ${by}, images, ${cells.map((k) => `c${k}`).join(', ')}`;
    const differ = (a: string, b: string) => db.prepare(`SELECT * FROM (${a} EXCEPT ${b}) UNION ALL SELECT * FROM (${b} EXCEPT ${a})`).all();
    const turnTimes = `SELECT session_id, turn_id, kept, images_at, kept_at FROM turn_stats`;
    const turnTimesWant = `SELECT session_id, turn_id, SUM(rejected = 0), MAX(created_at), MAX(CASE WHEN rejected = 0 THEN created_at END) FROM images GROUP BY session_id, turn_id`;
    return {
      drift: [
        ...differ(`${kept('session_id, turn_id')} FROM turn_stats`, recount('session_id, turn_id')),
        ...differ(turnTimes, turnTimesWant),
        ...differ(`${kept('session_id')} FROM session_stats WHERE images > 0`, recount('session_id')),
      ],
      turns: (db.prepare('SELECT COUNT(*) AS n FROM turn_stats').get() as { n: number }).n,
    };
  } finally {
    db.close();
  }
}

test('kill -9 mid-batch: nothing is sent twice, finished results survive, in-flight jobs are reconciled, the rest wait for Resume', async () => {
  test.setTimeout(240_000);
  const dataDir = mkdtempSync(join(tmpdir(), 'studio-batch-crash-'));
  try {
    const first = await startHarness({ dataDir });
    const h1 = first.harness;
    await ipc(h1, 'settings:set-language', { language: 'en' });
    const before = (await ipc<{ account: { credits: number } }>(h1, 'local:status')).account.credits;
    const products: Product[] = [];
    for (let i = 1; i <= 3; i++) products.push(await ipc<Product>(h1, 'product:save', { sku: `KILL-${i}`, name: `Kill product ${i}`, prompt: `a glass vase ${i}` }));
    const shot = (name: string) => ({ name, purpose: 'free', model: 'seedream-5-0-pro', ratio: '1:1', resolution: '1K', n: 1, promptAddition: name });
    const list = await ipc<ShotList>(h1, 'shotlist:save', { name: 'crash list', shots: [shot('a'), shot('b'), shot('c'), shot('d')] });
    await ipc(h1, 'local:set-faults', { generate: { latency_ms: 1200 } });
    const created = await ipc<BatchDetail>(h1, 'batch:create', { productIds: products.map((p) => p.id), shotListId: list.id, concurrency: 2 });
    expect(created.jobs).toHaveLength(12);
    // Kill once some jobs are done and two are in the service's hands.
    const atKill = await until('2 jobs done and 2 in flight on the service', async () => {
      const [b, status] = await Promise.all([
        ipc<BatchDetail>(h1, 'batch:get', { batchId: created.id }),
        ipc<{ account: { reserved: number } }>(h1, 'local:status'),
      ]);
      return b.counts.succeeded >= 2 && b.counts.running === 2 && status.account.reserved === 12 ? b : null;
    }, 90_000);
    first.child.kill('SIGKILL');
    const inFlight = atKill.jobs.filter((j) => j.status === 'running').map((j) => j.id);
    const sentAtKill = sends(atKill);

    const second = await startHarness({ dataDir });
    try {
      const h = second.harness;
      const restarted = await ipc<BatchDetail>(h, 'batch:get', { batchId: created.id });
      expect(restarted.state).toBe('paused');
      expect(restarted.pause?.reason).toBe('restarted');
      expect(restarted.counts.running).toBe(0);
      // In-flight jobs: reconciled from the service (its run was cut and refunded) or unknown; never queued again.
      for (const id of inFlight) expect(['succeeded', 'failed', 'unknown']).toContain(restarted.jobs.find((j) => j.id === id)!.status);
      expect(sends(restarted)).toBe(sentAtKill);
      // Nothing more is sent without Resume.
      await new Promise((r) => setTimeout(r, 2000));
      const waiting = await ipc<BatchDetail>(h, 'batch:get', { batchId: created.id });
      expect(sends(waiting)).toBe(sentAtKill);
      expect(waiting.counts.queued).toBe(12 - sentAtKill);
      // Finished results are in the library, with their files.
      for (const job of waiting.jobs.filter((j) => j.status === 'succeeded')) {
        for (const imageId of job.imageIds) {
          const image = await until(`image ${imageId} downloaded`, async () => {
            const detail = await ipc<{ image: { download: string } }>(h, 'library:get-image', { imageId });
            return detail.image.download === 'done' ? detail : null;
          }, 60_000);
          expect(image.image.download).toBe('done');
        }
      }

      // The library's own counts survived the kill exactly (they are written with the images, in one transaction).
      const stats = statsDrift(dataDir);
      expect(stats.drift).toEqual([]);
      expect(stats.turns).toBeGreaterThanOrEqual(2);

      await ipc(h, 'local:set-faults', { generate: { latency_ms: 0 } });
      await ipc(h, 'batch:resume', { batchId: created.id });
      const done = await until('the batch to finish', async () => {
        const b = await ipc<BatchDetail>(h, 'batch:get', { batchId: created.id });
        return b.state === 'done' ? b : null;
      }, 90_000);
      // Every job was sent exactly once: the in-flight ones were not resent.
      expect(done.jobs.every((j) => j.turnIds.length === 1)).toBe(true);
      expect(done.counts.queued).toBe(0);
      for (const id of inFlight) expect(done.jobs.find((j) => j.id === id)!.status).toBe(restarted.jobs.find((j) => j.id === id)!.status);
      // The books: the balance moved by exactly what the batch's jobs were charged.
      const after = await until('reservations settled', async () => {
        const s = await ipc<{ account: { credits: number; reserved: number } }>(h, 'local:status');
        return s.account.reserved === 0 ? s.account : null;
      });
      const charged = done.jobs.reduce((s, j) => s + (j.creditsCharged ?? 0), 0);
      expect(before - after.credits).toBe(charged);
      expect(done.spent).toBe(charged);
      expect(statsDrift(dataDir).drift).toEqual([]);
    } finally {
      await second.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
