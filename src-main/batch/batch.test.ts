// Batch runs through the app core's IPC against the real local service (child process), real SQLite and files:
// the plan's price is what the service charges, the budget cap, bounded concurrency under a latency fault,
// 429 / 402 / 500 handling (spec §7), partial runs in the report, CSV import and the marketplace export.
// (kill -9 mid-batch is e2e/batch-crash.spec.ts: it needs the app as a process.)
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import sharp from 'sharp';
import { cacheDirs, existingCachePath } from '../files/image-cache.ts';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BatchDetail, BatchPlan, BatchReport, BatchSummary, LocalConsoleState, MarketplaceExportSummary, Product, ShotList, SessionSummary } from '../../src-shared/ipc/index.ts';
import { cheap, useEnglishApp } from './batch-app.test-support.ts';

describe('batch runs against the real local service', () => {
  const { c } = useEnglishApp('studio-batch-');

  it('3 products × a 4-shot preset = 12 jobs: the plan total is the sum of credits charged and the balance delta; one titled session per product', async () => {
    const ps = await c.products(3, 'HERO');
    const lists = await c.ok<ShotList[]>('shotListList', {});
    const preset = lists.find((l) => l.preset !== null && l.shots.length === 4);
    expect(preset, 'a built-in 4-shot preset').toBeDefined();
    const input = { productIds: ps.map((p) => p.id), shotListId: preset!.id };
    const plan = await c.ok<BatchPlan>('batchPlan', input);
    expect(plan.jobs).toHaveLength(12);
    expect(plan.problems).toEqual([]);
    expect(plan.total).toBe(plan.jobs.reduce((s, j) => s + j.estimate, 0));
    expect(plan.balance).toBe((await c.account()).credits);
    expect(plan.balanceAfter).toBe(plan.balance! - plan.total);

    const before = (await c.account()).credits;
    const created = await c.ok<BatchDetail>('batchCreate', { ...input, concurrency: 3, expectedTotal: plan.total });
    expect(created.jobs).toHaveLength(12);
    const done = await c.settled(created.id, 'done');
    expect(done.counts).toMatchObject({ succeeded: 12, failed: 0, unknown: 0, queued: 0, running: 0 });
    expect(done.jobs.every((j) => j.status === 'succeeded' && j.imageIds.length === j.request.n)).toBe(true);
    const charged = done.jobs.reduce((s, j) => s + (j.creditsCharged ?? 0), 0);
    expect(charged).toBe(plan.total);
    expect(done.spent).toBe(plan.total);
    const after = await c.until('reservations settled', async () => {
      const a = await c.account();
      return a.reserved === 0 ? a : null;
    });
    expect(before - after.credits).toBe(plan.total);
    // Each product's jobs in one session of its own, titled with the product.
    const sessions = new Set(done.jobs.map((j) => j.sessionId));
    expect(sessions.size).toBe(3);
    for (const p of ps) {
      const sessionId = done.jobs.find((j) => j.productId === p.id)!.sessionId;
      expect(done.jobs.filter((j) => j.sessionId === sessionId).every((j) => j.productId === p.id)).toBe(true);
      const session = await c.ok<SessionSummary>('libraryGetSession', { sessionId });
      expect(session.title).toContain(p.name);
    }
    // The report adds up.
    const report = await c.ok<BatchReport>('batchReport', { batchId: created.id });
    expect(report.total).toMatchObject({ jobs: 12, succeeded: 12, estimated: plan.total, charged: plan.total, refunded: 0, failures: 0 });
    expect(report.products.map((r) => r.sku).sort()).toEqual(ps.map((p) => p.sku).sort());
  });

  it('a plan that changed since it was shown is refused, and a bad request changes nothing', async () => {
    const ps = await c.products(1, 'CHG');
    const l = await c.list('changed', [cheap('a'), cheap('b')]);
    const bad = await c.call('batchCreate', { productIds: ps.map((p) => p.id), shotListId: l.id, expectedTotal: 1 });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error).toMatchObject({ code: 'batch_plan_changed', details: { total: 12, expected: 1 } });
    expect((await c.ok<BatchSummary[]>('batchList', {})).some((b) => b.name.startsWith('changed'))).toBe(false);
    const unknown = await c.call('batchPlan', { productIds: ['pr_nope'], shotListId: l.id });
    expect(unknown.ok ? null : unknown.error.code).toBe('product_not_found');
  });

  it('a budget below the total sends no job past it', async () => {
    const ps = await c.products(2, 'BUD');
    const l = await c.list('budget', [cheap('a'), cheap('b'), cheap('c')]);
    const input = { productIds: ps.map((p) => p.id), shotListId: l.id, budget: 27 };
    const plan = await c.ok<BatchPlan>('batchPlan', input);
    expect(plan.total).toBe(36);
    expect(plan.jobsWithinBudget).toBe(4);
    const before = (await c.account()).credits;
    const created = await c.ok<BatchDetail>('batchCreate', { ...input, concurrency: 2 });
    const done = await c.settled(created.id, 'done');
    expect(done.counts).toMatchObject({ succeeded: 4, overBudget: 2 });
    expect(done.spent).toBeLessThanOrEqual(27);
    expect(done.jobs.filter((j) => j.status === 'over_budget').every((j) => j.turnId === null && j.turnIds.length === 0)).toBe(true);
    await c.until('reservations settled', async () => (await c.account()).reserved === 0);
    expect(before - (await c.account()).credits).toBe(24);
  });

  it('with a latency fault the service never works on more generations at once than the concurrency setting', async () => {
    const ps = await c.products(3, 'CONC');
    const l = await c.list('concurrency', [cheap('a'), cheap('b')]); // 6 jobs of 6 credits each
    await c.ok('localSetFaults', { generate: { latency_ms: 600 } });
    try {
      const created = await c.ok<BatchDetail>('batchCreate', { productIds: ps.map((p) => p.id), shotListId: l.id, concurrency: 2 });
      let most = 0;
      for (;;) {
        const [a, b] = await Promise.all([c.account(), c.batch(created.id)]);
        most = Math.max(most, a.reserved / 6);
        expect(b.counts.running).toBeLessThanOrEqual(2);
        if (b.state === 'done') break;
        await new Promise((r) => setTimeout(r, 25));
      }
      expect(most).toBe(2);
    } finally {
      await c.ok('localSetFaults', { generate: { latency_ms: 0 } });
    }
  });

  it('a 500 is retried once; a second 500 fails that job only, with its code and request id; a partial run shows its refund', async () => {
    const ps = await c.products(1, 'ERR');
    const l = await c.list('errors', [cheap('twice'), cheap('once')]);
    // Three 500s in a row: job 1 gets two (fails after its one retry), job 2 one (its retry succeeds).
    await c.ok('localSetFaults', { generate: { fail: 3 } });
    const created = await c.ok<BatchDetail>('batchCreate', { productIds: ps.map((p) => p.id), shotListId: l.id, concurrency: 1 });
    const done = await c.settled(created.id, 'done');
    const [twice, once] = done.jobs;
    expect(twice!.status).toBe('failed');
    expect(twice!.turnIds).toHaveLength(2);
    expect(twice!.error).toMatchObject({ code: 'internal_error' });
    expect(twice!.requestId).toMatch(/\S/);
    expect(once!.status).toBe('succeeded');
    expect(once!.turnIds).toHaveLength(2);
    expect(done.spent).toBe(once!.estimate);
    const report = await c.ok<BatchReport>('batchReport', { batchId: created.id });
    expect(report.total).toMatchObject({ succeeded: 1, failed: 1, charged: once!.estimate, failures: 1 });
    expect(report.products[0]!.failures[0]).toMatchObject({ code: 'internal_error', requestId: twice!.requestId });

    // A partial run (1 of 2 images) is billed for what it produced; the report shows the refund.
    const l2 = await c.list('partial', [cheap('partial', { model: 'nano-banana-2', n: 2 })]);
    await c.ok('localSetFaults', { generate: { partial: { count: 1, produce: 1 } } });
    const second = await c.ok<BatchDetail>('batchCreate', { productIds: ps.map((p) => p.id), shotListId: l2.id });
    const [partial] = (await c.settled(second.id, 'done')).jobs;
    expect(partial!.status).toBe('succeeded');
    expect(partial!.imageIds).toHaveLength(1);
    expect(partial!.creditsCharged).toBe(partial!.estimate / 2);
    const report2 = await c.ok<BatchReport>('batchReport', { batchId: second.id });
    expect(report2.total).toMatchObject({ succeeded: 1, images: 1, estimated: partial!.estimate, charged: partial!.estimate / 2, refunded: partial!.estimate / 2 });
  });

  it('insufficient credits pauses the batch before sending and says how much is needed; Resume after a top-up finishes it', async () => {
    const ps = await c.products(1, 'POOR');
    const l = await c.list('poor', [cheap('a'), cheap('b')]);
    const start = (await c.account()).credits;
    await c.ok('localUpdateAccount', { credits: 8 });
    try {
      const created = await c.ok<BatchDetail>('batchCreate', { productIds: ps.map((p) => p.id), shotListId: l.id, concurrency: 1 });
      const paused = await c.settled(created.id, 'paused');
      expect(paused.counts).toMatchObject({ succeeded: 1, queued: 1 });
      expect(paused.pause).toMatchObject({ reason: 'insufficient_credits', needed: 6, until: null });
      expect(paused.pause!.message).toContain('6');
      await c.ok('localTopUp', { credits: 100 });
      await c.ok('batchResume', { batchId: created.id });
      const done = await c.settled(created.id, 'done');
      expect(done.counts.succeeded).toBe(2);
    } finally {
      await c.ok('localUpdateAccount', { credits: start });
    }
  });
});

describe('a 429 pauses the whole batch; nothing is sent during the wait', () => {
  let offset = 0;
  const { c } = useEnglishApp('studio-batch-429-', { now: () => Date.now() + offset });

  it('pauses with until, refuses an early Resume, sends nothing meanwhile, and goes on once the wait is over', async () => {
    const state = await c.ok<LocalConsoleState>('localStatus', {});
    const key = state.keys.find((k) => k.usedByApp)!;
    await c.ok('localSetKeyRateLimit', { keyId: key.id, ratePer24h: 2 });
    const ps = await c.products(1, 'RATE');
    const l = await c.list('rate', [cheap('a'), cheap('b'), cheap('c'), cheap('d')]);
    const created = await c.ok<BatchDetail>('batchCreate', { productIds: ps.map((p) => p.id), shotListId: l.id, concurrency: 1 });
    const paused = await c.settled(created.id, 'paused');
    expect(paused.pause?.reason).toBe('rate_limited');
    expect(paused.pause!.until!).toBeGreaterThan(Date.now());
    expect(paused.counts).toMatchObject({ succeeded: 2, queued: 2 });
    const sends = (b: BatchDetail) => b.jobs.reduce((s, j) => s + j.turnIds.length, 0);
    expect(sends(paused)).toBe(3);
    const early = await c.call('batchResume', { batchId: created.id });
    expect(early.ok ? null : early.error.code).toBe('batch_waiting');
    // The user's pause is stronger than the wait (it no longer goes on by itself), and the wait still holds.
    const held = await c.ok<BatchSummary>('batchPause', { batchId: created.id });
    expect(held.pause).toMatchObject({ reason: 'user', until: null });
    const stillEarly = await c.call('batchResume', { batchId: created.id });
    expect(stillEarly.ok ? null : stillEarly.error.code).toBe('batch_waiting');
    await new Promise((r) => setTimeout(r, 1500));
    expect(sends(await c.batch(created.id))).toBe(3);
    // The wait passes (both clocks), then Resume sends the rest; the 429'd job was resent once.
    await c.ok('localAdvanceClock', { seconds: 2 * 86400 });
    offset += paused.pause!.until! - Date.now() + 1000;
    await c.ok('batchResume', { batchId: created.id });
    const done = await c.settled(created.id, 'done');
    expect(done.counts.succeeded).toBe(4);
    expect(sends(done)).toBe(5);
  });
});

describe('products from CSV, and a marketplace export of a finished batch', () => {
  const { c, app, dataDir } = useEnglishApp('studio-batch-export-', { downloads: true });

  it('a CSV with a bad row imports nothing and names the line; a clean one (BOM, quotes, Chinese) imports, and a known SKU updates', async () => {
    const bad = 'sku,name,prompt\r\nMUG-1,Mug,"a mug, white"\r\n,No SKU,a plate\r\nMUG-3,Bowl,a bowl\r\n';
    const refused = await c.call('productImport', { csv: bad });
    expect(refused.ok).toBe(false);
    if (!refused.ok) {
      expect(refused.error.code).toBe('product_csv_invalid');
      expect(refused.error.message).toContain('line 3');
      expect((refused.error.details?.problems as Array<{ line: number; field: string | null; reason: string }>)[0]).toMatchObject({ line: 3, field: 'sku', reason: 'empty' });
    }
    expect(await c.ok<Product[]>('productList', {})).toEqual([]);

    const good = '\uFEFFsku,name,prompt,notes\r\nTEA-1,"青花瓷茶杯, 320ml","一只青花瓷茶杯，放在木桌上",""\r\nTEA-2,"Cup ""Classic""",a classic cup,\r\n';
    const imported = await c.ok<{ imported: number; created: number; updated: number }>('productImport', { csv: good });
    // Counts only; the list is read back.
    expect(imported).toEqual({ imported: 2, created: 2, updated: 0, separator: 'comma' });
    expect((await c.ok<Product[]>('productList', {})).map((p) => [p.sku, p.name, p.prompt])).toEqual([
      ['TEA-1', '青花瓷茶杯, 320ml', '一只青花瓷茶杯，放在木桌上'],
      ['TEA-2', 'Cup "Classic"', 'a classic cup'],
    ]);
    const again = await c.ok<{ created: number; updated: number }>('productImport', { csv: 'sku,name,prompt\nTEA-2,Cup Classic II,"a classic cup, blue"\n' });
    expect(again).toMatchObject({ created: 0, updated: 1 });
    expect((await c.ok<Product[]>('productList', {})).find((p) => p.sku === 'TEA-2')?.name).toBe('Cup Classic II');
  });

  it('exports a folder per product with the preset size and format and a manifest, and flags a white-background shot whose border is not white', async () => {
    const ps = (await c.ok<Product[]>('productList', {})).filter((p) => p.sku.startsWith('TEA-'));
    const l = await c.list('export', [cheap('hero', { purpose: 'main_white' }), cheap('life', { ratio: '16:9' })]);
    const created = await c.ok<BatchDetail>('batchCreate', { productIds: ps.map((p) => p.id), shotListId: l.id, concurrency: 2 });
    const done = await c.settled(created.id, 'done');
    expect(done.counts.succeeded).toBe(4);
    await app().whenDownloadsIdle();
    // One hero image gets a grey backdrop in the cache (as a generator that ignored the purpose would give).
    const spoiled = done.jobs.find((j) => j.sku === 'TEA-2' && j.shotName === 'hero')!.imageIds[0]!;
    const path = existingCachePath(cacheDirs(dataDir()), 'full', spoiled)!;
    writeFileSync(path, await sharp({ create: { width: 1024, height: 1024, channels: 3, background: { r: 200, g: 200, b: 200 } } }).png().toBuffer());

    const folder = join(dataDir(), 'export-out');
    const summary = await c.ok<MarketplaceExportSummary>('batchExport', { batchId: created.id, presetId: 'taobao-tmall-main', folder });
    expect(summary.written.map((w) => w.file).sort()).toEqual(['TEA-1/TEA-1_hero_1.jpg', 'TEA-1/TEA-1_life_1.jpg', 'TEA-2/TEA-2_life_1.jpg']);
    expect(summary.flagged).toEqual([expect.objectContaining({ imageId: spoiled, reason: 'not_white', sku: 'TEA-2', shotName: 'hero' })]);
    expect(readdirSync(folder).sort()).toEqual(['TEA-1', 'TEA-2', 'manifest.csv']);
    for (const w of summary.written) {
      const file = join(folder, w.file);
      const meta = await sharp(file).metadata();
      expect([meta.format, meta.width, meta.height, meta.space]).toEqual(['jpeg', 800, 800, 'srgb']);
      expect(statSync(file).size).toBe(w.bytes);
      expect(w.bytes).toBeLessThanOrEqual(3_000_000);
    }
    expect(summary.written.find((w) => w.file.endsWith('hero_1.jpg'))!.whiteCheck?.passed).toBe(true);
    const manifest = readFileSync(join(folder, 'manifest.csv'), 'utf8').trim().split(/\r?\n/);
    expect(manifest).toHaveLength(1 + 4);
    expect(manifest.filter((line) => line.includes('not_white'))).toHaveLength(1);
    expect(existsSync(join(folder, 'TEA-2', 'TEA-2_hero_1.jpg'))).toBe(false);
  });
});
