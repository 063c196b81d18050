// The plan and its Start through the app core's IPC against the real local service (child process) and real SQLite
// (docs/catalog.md "Plan and editing"): a plan priced from a shot list's unsaved edits (n changed) without saving
// them, edits Save would refuse refused by the plan too; what earlier batches of the list already made (results,
// picks) counted, and "only what is missing" sending only the products × shots with no result, never a done shot,
// the balance moving by exactly its price. A batch names the shot list it ran.
import { describe, expect, it } from 'vitest';
import type { BatchDetail, BatchPlan, BatchSummary, ShotList } from '../../src-shared/ipc/index.ts';
import { cheap, useEnglishApp } from './batch-app.test-support.ts';

describe('the plan from unsaved edits and "only what is missing", against the real local service', () => {
  const { c } = useEnglishApp('studio-plan-');
  const settledBalance = () => c.until('reservations settled', async () => {
    const a = await c.account();
    return a.reserved === 0 ? a : null;
  });

  it('prices a shot list\'s unsaved edits (n 1 → 4) without saving them; edits Save would refuse are refused', async () => {
    const ps = await c.products(2, 'EDIT');
    const l = await c.list('edits', [cheap('main'), cheap('side')]);
    const saved = await c.ok<BatchPlan>('batchPlan', { productIds: ps.map((p) => p.id), shotListId: l.id });
    expect(saved.total).toBe(24);
    const edited = [{ ...cheap('main'), n: 4 }, cheap('side')];
    const plan = await c.ok<BatchPlan>('batchPlan', { productIds: ps.map((p) => p.id), shotListId: l.id, shots: edited });
    expect(plan.jobs.map((j) => j.request.n)).toEqual([4, 1, 4, 1]);
    expect(plan.total).toBe(2 * (4 * 6 + 6));
    // Nothing was saved: the list and its saved plan are as before.
    expect((await c.ok<ShotList[]>('shotListList', {})).find((x) => x.id === l.id)!.shots).toEqual(l.shots);
    expect((await c.ok<BatchPlan>('batchPlan', { productIds: ps.map((p) => p.id), shotListId: l.id })).total).toBe(24);
    const twice = await c.call('batchPlan', { productIds: ps.map((p) => p.id), shotListId: l.id, shots: [cheap('main'), cheap('main')] });
    expect(twice.ok ? null : twice.error.code).toBe('shot_name_taken');
  });

  it('counts what earlier batches of the list made; "only what is missing" sends only the product × shots without a result', async () => {
    const ps = await c.products(3, 'MISS');
    const l = await c.list('missing', [cheap('main'), cheap('side')]);
    const first = await c.ok<BatchDetail>('batchCreate', { productIds: [ps[0]!.id, ps[1]!.id], shotListId: l.id, concurrency: 2 });
    expect(first.shotListId).toBe(l.id);
    const done = await c.settled(first.id, 'done');
    expect(done.counts.succeeded).toBe(4);
    const pickJob = done.jobs.find((j) => j.productId === ps[0]!.id && j.shotName === 'main')!;
    await c.ok('catalogSetPick', { batchId: first.id, productId: ps[0]!.id, shot: 'main', imageId: pickJob.imageIds[0] });

    const input = { productIds: ps.map((p) => p.id), shotListId: l.id };
    const plan = await c.ok<BatchPlan>('batchPlan', input);
    expect(plan.jobs).toHaveLength(6);
    expect(plan.alreadyMade).toEqual({ cells: 4, picked: 1, batches: 1 });
    expect(plan.missing).toEqual({ jobs: 2, total: 12 });
    // Another list's batches are not this list's shots.
    const other = await c.list('other', [cheap('main'), cheap('side')]);
    expect((await c.ok<BatchPlan>('batchPlan', { ...input, shotListId: other.id })).alreadyMade.cells).toBe(0);

    const only = await c.ok<BatchPlan>('batchPlan', { ...input, onlyMissing: true });
    expect(only.jobs.map((j) => `${j.sku}/${j.shotName}`)).toEqual(['MISS-3/main', 'MISS-3/side']);
    expect(only.total).toBe(12);
    const before = (await settledBalance()).credits;
    const second = await c.ok<BatchDetail>('batchCreate', { ...input, onlyMissing: true, expectedTotal: only.total, concurrency: 2 });
    expect(second.jobs.map((j) => `${j.sku}/${j.shotName}`)).toEqual(['MISS-3/main', 'MISS-3/side']);
    const after = await c.settled(second.id, 'done');
    expect(after.spent).toBe(12);
    expect(before - (await settledBalance()).credits).toBe(12);
    // Now everything is made: nothing is missing, and a Start of only what is missing is refused as empty.
    const full = await c.ok<BatchPlan>('batchPlan', input);
    expect(full.alreadyMade).toMatchObject({ cells: 6, batches: 2 });
    expect(full.missing).toEqual({ jobs: 0, total: 0 });
    const empty = await c.call('batchCreate', { ...input, onlyMissing: true });
    expect(empty.ok ? null : empty.error.code).toBe('batch_plan_empty');
    expect((await c.ok<BatchSummary[]>('batchList', {})).filter((b) => b.shotListId === l.id)).toHaveLength(2);
  });
});
