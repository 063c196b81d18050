// "Pick the only candidate" (catalog:pick-only-candidates) and its undo (catalog:clear-picks) through the app core's
// IPC against the real local service and a real library.db: only done cells without a pick and with exactly one
// candidate not rejected are picked, in one call; a second call picks nothing; the undo clears exactly those picks,
// never one made since.
import { describe, expect, it } from 'vitest';
import type { BatchDetail, BoardCell, CatalogBoard, PickOnlyCandidatesAnswer } from '../../src-shared/ipc/index.ts';
import { cheap, useEnglishApp } from './batch-app.test-support.ts';

describe('picking the only candidate of many cells at once, against the real local service', () => {
  const { c, app } = useEnglishApp('studio-pick-only-');
  const picksOf = async (batchId: string) => (await c.ok<CatalogBoard>('catalogGetBoard', { batchId })).cells.map((x) => [x.sku, x.shotName, x.status, x.pick]);
  const cellOf = async (batchId: string, sku: string, shot: string) => (await c.ok<CatalogBoard>('catalogGetBoard', { batchId })).cells.find((x) => x.sku === sku && x.shotName === shot) as BoardCell;

  it('picks each done cell’s only usable candidate in one call, and clears exactly those picks again', async () => {
    const ps = await c.products(3, 'ONLY');
    const l = await c.list('only', [cheap('main'), cheap('detail', { n: 2 })]);
    // 6 a main, 12 a detail: a budget of 48 sends five jobs and sets ONLY-3 · detail aside (over budget).
    const created = await c.ok<BatchDetail>('batchCreate', { productIds: ps.map((p) => p.id), shotListId: l.id, concurrency: 1, budget: 48 });
    await c.settled(created.id, 'done');
    const id = created.id;
    // ONLY-1 · main picked by hand already; ONLY-2 · detail has one of its two candidates rejected.
    const main1 = await cellOf(id, 'ONLY-1', 'main');
    await c.ok('catalogSetPick', { batchId: id, sku: 'ONLY-1', shot: 'main', imageId: main1.candidates[0]!.imageId });
    const [rejected, kept] = (await cellOf(id, 'ONLY-2', 'detail')).candidates.map((x) => x.imageId) as [string, string];
    await c.ok('libraryMark', { imageIds: [rejected], rejected: true });
    const main2 = (await cellOf(id, 'ONLY-2', 'main')).candidates[0]!.imageId;
    const main3 = (await cellOf(id, 'ONLY-3', 'main')).candidates[0]!.imageId;

    const changed: string[] = [];
    const off = app().on('batch:changed', ({ batchId }) => changed.push(batchId));
    const answer = await c.ok<PickOnlyCandidatesAnswer>('catalogPickOnlyCandidates', { batchId: id });
    expect(answer).toEqual({
      picked: 3,
      cells: [
        { productId: ps[1]!.id, shot: 'main', imageId: main2 },
        { productId: ps[1]!.id, shot: 'detail', imageId: kept },
        { productId: ps[2]!.id, shot: 'main', imageId: main3 },
      ],
    });
    expect(changed).toEqual([id]);
    expect(await picksOf(id)).toEqual([
      ['ONLY-1', 'main', 'done', main1.candidates[0]!.imageId],
      ['ONLY-1', 'detail', 'done', null],
      ['ONLY-2', 'main', 'done', main2],
      ['ONLY-2', 'detail', 'done', kept],
      ['ONLY-3', 'main', 'done', main3],
      ['ONLY-3', 'detail', 'over_budget', null],
    ]);
    // Nothing left to pick: a second call picks nothing and says nothing.
    expect(await c.ok<PickOnlyCandidatesAnswer>('catalogPickOnlyCandidates', { batchId: id })).toEqual({ picked: 0, cells: [] });
    expect(changed).toEqual([id]);

    // Since then ONLY-2 · detail was picked by hand (the other candidate): undoing the bulk pick keeps that one.
    await c.ok('libraryMark', { imageIds: [rejected], rejected: false });
    await c.ok('catalogSetPick', { batchId: id, sku: 'ONLY-2', shot: 'detail', imageId: rejected });
    expect(await c.ok('catalogClearPicks', { batchId: id, cells: answer.cells })).toEqual({ cleared: 2 });
    off();
    expect((await picksOf(id)).map((x) => x[3])).toEqual([main1.candidates[0]!.imageId, null, null, rejected, null, null]);

    expect(await c.call('catalogPickOnlyCandidates', { batchId: 'bt_nope' })).toMatchObject({ ok: false, error: { code: 'batch_not_found' } });
    expect(await c.call('catalogClearPicks', { batchId: id, cells: [] })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
  });
});
