// The product × shot board and picks through the app core's IPC against the real local service (child process)
// and a real library.db: cells and their statuses (done, failed with code and request id, over budget), candidates
// with marks, a pick set, moved, cleared, refused (not a candidate, rejected, bad input: nothing changes), the
// change event; and the marketplace export's modes: exactly the picks, products lacking a pick listed, rejected
// images never written.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BatchDetail, BatchPlan, CatalogBoard, BoardCell, MarketplaceExportSummary } from '../../src-shared/ipc/index.ts';
import { cheap, useEnglishApp } from './batch-app.test-support.ts';

function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)).split('\\').join('/'))
    .sort();
}

describe('the catalog board and picks, against the real local service', () => {
  const { c, app, dataDir } = useEnglishApp('studio-board-', { downloads: true });
  const board = (batchId: string) => c.ok<CatalogBoard>('catalogGetBoard', { batchId });
  const cellOf = (b: CatalogBoard, sku: string, shot: string) => b.cells.find((x) => x.sku === sku && x.shotName === shot) as BoardCell;
  const errorOf = async (input: unknown) => {
    const answer = await c.call('catalogSetPick', input);
    return answer.ok ? null : answer.error;
  };

  it('answers products × shots with each cell’s status, candidates, marks, pick and cost; a pick is one candidate, refusals change nothing', async () => {
    const ps = await c.products(2, 'BOARD');
    const l = await c.list('board', [cheap('main', { n: 2, purpose: 'main_white' }), cheap('detail', { n: 2 })]);
    // 12 credits a job: a budget of 36 sends three and sets the fourth aside.
    const created = await c.ok<BatchDetail>('batchCreate', { productIds: ps.map((p) => p.id), shotListId: l.id, concurrency: 1, budget: 36 });
    await c.settled(created.id, 'done');
    await app().whenDownloadsIdle();

    const b = await board(created.id);
    expect(b.products.map((p) => [p.sku, p.name, p.masterImageId])).toEqual([
      ['BOARD-1', 'BOARD product 1', null],
      ['BOARD-2', 'BOARD product 2', null],
    ]);
    expect(b.shots).toEqual([{ name: 'main', kind: 'main_white' }, { name: 'detail', kind: 'free' }]);
    expect(b.cells.map((x) => [x.sku, x.shotName, x.status])).toEqual([
      ['BOARD-1', 'main', 'done'],
      ['BOARD-1', 'detail', 'done'],
      ['BOARD-2', 'main', 'done'],
      ['BOARD-2', 'detail', 'over_budget'],
    ]);
    const main1 = cellOf(b, 'BOARD-1', 'main');
    expect(main1).toMatchObject({ pick: null, charged: 12, estimated: 12, code: null, startedAt: null });
    expect(main1.candidates).toHaveLength(2);
    expect(main1.candidates.every((x) => x.download === 'done' && x.rating === 0 && !x.rejected && !x.starred)).toBe(true);
    // Over budget: nothing charged; the shot is expected to cost its job's price once sent.
    expect(cellOf(b, 'BOARD-2', 'detail')).toMatchObject({ candidates: [], charged: 0, estimated: 12, pick: null });

    // Pick the first candidate (by product id), then move it to the second (by SKU): one pick per cell, the cell stays done.
    const [first, second] = main1.candidates.map((x) => x.imageId) as [string, string];
    const changed: string[] = [];
    const off = app().on('batch:changed', ({ batchId }) => changed.push(batchId));
    const picked = await c.ok<BoardCell>('catalogSetPick', { batchId: created.id, productId: ps[0]!.id, shot: 'main', imageId: first });
    expect(picked).toMatchObject({ pick: first, status: 'done' });
    await c.ok('catalogSetPick', { batchId: created.id, sku: 'BOARD-1', shot: 'main', imageId: second });
    off();
    expect(changed).toEqual([created.id, created.id]);
    expect(cellOf(await board(created.id), 'BOARD-1', 'main')).toMatchObject({ pick: second, status: 'done' });

    // Refusals: another cell's image, a rejected candidate, unknown batch or shot, bad input; the pick stays.
    const otherCell = cellOf(b, 'BOARD-1', 'detail').candidates[0]!.imageId;
    expect(await errorOf({ batchId: created.id, sku: 'BOARD-1', shot: 'main', imageId: otherCell })).toMatchObject({ code: 'batch_pick_not_candidate', details: { imageId: otherCell } });
    expect((await errorOf({ batchId: created.id, sku: 'BOARD-1', shot: 'main', imageId: otherCell }))?.message).toMatch(/not a candidate of BOARD-1 · main/);
    await c.ok('libraryMark', { imageIds: [first], rejected: true });
    expect(await errorOf({ batchId: created.id, sku: 'BOARD-1', shot: 'main', imageId: first })).toMatchObject({ code: 'batch_pick_rejected' });
    expect(await errorOf({ batchId: 'bt_nope', sku: 'BOARD-1', shot: 'main', imageId: second })).toMatchObject({ code: 'batch_not_found' });
    expect(await errorOf({ batchId: created.id, sku: 'BOARD-1', shot: 'nope', imageId: second })).toMatchObject({ code: 'batch_cell_not_found' });
    expect(await errorOf({ batchId: created.id, sku: 'NOPE', shot: 'main', imageId: second })).toMatchObject({ code: 'batch_cell_not_found' });
    expect(await errorOf({ batchId: created.id, productId: ps[0]!.id, sku: 'BOARD-1', shot: 'main', imageId: second })).toMatchObject({ code: 'invalid_input' });
    expect(await errorOf({ batchId: created.id, shot: 'main', imageId: second })).toMatchObject({ code: 'invalid_input' });
    expect(await errorOf({ batchId: created.id, sku: 'BOARD-1', shot: 'main', imageId: '../etc/passwd' })).toMatchObject({ code: 'invalid_input', details: { field: 'imageId' } });
    expect(await errorOf({ batchId: created.id, sku: 'BOARD-1', shot: 'main' })).toMatchObject({ code: 'invalid_input' });
    const after = cellOf(await board(created.id), 'BOARD-1', 'main');
    expect(after.pick).toBe(second);
    // The marks show on the board's candidates.
    expect(after.candidates.find((x) => x.imageId === first)).toMatchObject({ rejected: true });

    // Cleared with null.
    expect(await c.ok<BoardCell>('catalogSetPick', { batchId: created.id, sku: 'BOARD-1', shot: 'main', imageId: null })).toMatchObject({ pick: null });
    expect(cellOf(await board(created.id), 'BOARD-1', 'main').pick).toBeNull();
  });

  it('a failed cell carries its code and request id; the other cell of the product can still be picked', async () => {
    const [p] = await c.products(1, 'FAIL');
    const l = await c.list('fail', [cheap('main'), cheap('side')]);
    await c.ok('localSetFaults', { generate: { fail: 2 } });
    const created = await c.ok<BatchDetail>('batchCreate', { productIds: [p!.id], shotListId: l.id, concurrency: 1 });
    await c.settled(created.id, 'done');
    const b = await board(created.id);
    const failed = cellOf(b, 'FAIL-1', 'main');
    expect(failed).toMatchObject({ status: 'failed', code: 'internal_error', candidates: [], pick: null });
    expect(failed.requestId).toMatch(/^req_/);
    // Nothing charged (both 500s refunded); what the shot is expected to cost is one send's price, not the sends'.
    expect([failed.charged, failed.estimated]).toEqual([0, 6]);
    const side = cellOf(b, 'FAIL-1', 'side');
    await c.ok('catalogSetPick', { batchId: created.id, productId: p!.id, shot: 'side', imageId: side.candidates[0]!.imageId });
    expect(cellOf(await board(created.id), 'FAIL-1', 'side').pick).toBe(side.candidates[0]!.imageId);

    // Its retry by hand fails too (refunded), then a re-shoot makes the shot: three jobs, one charged send. The cell
    // costs what was charged; the refunded failures are not expected spend (they summed to 18 before).
    await c.ok('localSetFaults', { generate: { fail: 2 } });
    await c.ok('batchRetryJob', { batchId: created.id, jobId: failed.jobIds.at(-1)! });
    await c.settled(created.id, 'done');
    await c.ok('localSetFaults', { generate: { fail: 0 } });
    await c.ok('batchRerunCell', { batchId: created.id, productId: p!.id, shotName: 'main' });
    await c.settled(created.id, 'done');
    const made = cellOf(await board(created.id), 'FAIL-1', 'main');
    expect(made.jobIds).toHaveLength(3);
    expect(made).toMatchObject({ status: 'done', charged: 6, estimated: 6 });
  });

  it('exports exactly the picks in picks mode and lists product × shots without one; never a rejected image in any mode', async () => {
    const ps = await c.products(2, 'SHIP');
    const l = await c.list('ship', [cheap('main', { n: 2 }), cheap('detail', { n: 2 })]);
    const created = await c.ok<BatchDetail>('batchCreate', { productIds: ps.map((p) => p.id), shotListId: l.id, concurrency: 2 });
    await c.settled(created.id, 'done');
    await app().whenDownloadsIdle();
    const b = await board(created.id);
    // Pick the second candidate of three cells and reject the first; SHIP-2 · detail gets no pick.
    const pickedIds: string[] = [];
    for (const [sku, shot] of [['SHIP-1', 'main'], ['SHIP-1', 'detail'], ['SHIP-2', 'main']] as const) {
      const cell = cellOf(b, sku, shot);
      const [reject, pick] = cell.candidates.map((x) => x.imageId) as [string, string];
      await c.ok('libraryMark', { imageIds: [reject], rejected: true });
      await c.ok('catalogSetPick', { batchId: created.id, sku, shot, imageId: pick });
      pickedIds.push(pick);
    }
    const folder = join(dataDir(), 'picks-out');
    const summary = await c.ok<MarketplaceExportSummary>('batchExport', { batchId: created.id, presetId: 'taobao-tmall-main', folder, mode: 'picks' });
    expect(summary.mode).toBe('picks');
    expect(summary.written.map((w) => w.imageId).sort()).toEqual([...pickedIds].sort());
    expect(files(folder)).toEqual(['SHIP-1/SHIP-1_detail_2.jpg', 'SHIP-1/SHIP-1_main_2.jpg', 'SHIP-2/SHIP-2_main_2.jpg', 'manifest.csv']);
    expect(summary.missingPicks).toEqual([{ sku: 'SHIP-2', productName: 'SHIP product 2', shotName: 'detail', reason: 'no_pick' }]);
    const manifest = readFileSync(join(folder, 'manifest.csv'), 'utf8').trim().split(/\r?\n/);
    expect(manifest).toHaveLength(1 + 3 + 1);
    // …, status, selection, picked, candidate (1 or 2 of the cell), fit, the product's credits, the batch's credits.
    for (const id of pickedIds) expect(manifest.find((line) => line.includes(id))).toMatch(/,written,picks,yes,[12],(cover|pad),[1-9]\d*,[1-9]\d*$/);
    expect(manifest.at(-1)).toMatch(/^,SHIP-2,SHIP product 2,detail,.*,no_pick,picks,no_pick,,,[1-9]\d*,[1-9]\d*$/);

    // Everything not rejected: the three picks and SHIP-2 · detail's two; the three rejected never.
    const all = await c.ok<MarketplaceExportSummary>('batchExport', { batchId: created.id, presetId: 'taobao-tmall-main', folder: join(dataDir(), 'all-out'), mode: 'not_rejected' });
    expect(all.written).toHaveLength(5);
    expect(all.missingPicks).toEqual([]);
    // No mode named: the same (what a caller got before picks, rejects left out).
    const unnamed = await c.ok<MarketplaceExportSummary>('batchExport', { batchId: created.id, presetId: 'taobao-tmall-main', folder: join(dataDir(), 'unnamed-out') });
    expect(unnamed).toMatchObject({ mode: 'not_rejected' });
    expect(unnamed.written).toHaveLength(5);
    // Starred: only starred, not rejected images.
    await c.ok('libraryMark', { imageIds: [pickedIds[0]!], starred: true });
    const starred = await c.ok<MarketplaceExportSummary>('batchExport', { batchId: created.id, presetId: 'taobao-tmall-main', folder: join(dataDir(), 'starred-out'), mode: 'starred' });
    expect(starred.written.map((w) => w.imageId)).toEqual([pickedIds[0]]);
    // A pick rejected after it was made is listed, not written.
    await c.ok('libraryMark', { imageIds: [pickedIds[2]!], rejected: true });
    const again = await c.ok<MarketplaceExportSummary>('batchExport', { batchId: created.id, presetId: 'taobao-tmall-main', folder: join(dataDir(), 'again-out'), mode: 'picks' });
    expect(again.written.map((w) => w.imageId).sort()).toEqual(pickedIds.slice(0, 2).sort());
    expect(again.missingPicks.map((m) => [m.sku, m.shotName, m.reason])).toEqual([['SHIP-2', 'main', 'pick_rejected'], ['SHIP-2', 'detail', 'no_pick']]);
    expect(await c.call('batchExport', { batchId: created.id, presetId: 'taobao-tmall-main', folder, mode: 'everything' })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
  });
});

describe('a product’s master reference, against the real local service', () => {
  const { c, app } = useEnglishApp('studio-master-', { downloads: true });
  const board = (batchId: string, part: Record<string, unknown> = {}) => c.ok<CatalogBoard>('catalogGetBoard', { batchId, ...part });

  it('is one of the product’s candidates, stored in library.db, on the board, and the next re-shoot sends it as its reference', async () => {
    const ps = await c.products(2, 'MASTER');
    const l = await c.list('master', [cheap('main', { n: 2 }), cheap('side')]);
    const created = await c.ok<BatchDetail>('batchCreate', { productIds: ps.map((p) => p.id), shotListId: l.id, concurrency: 2 });
    await c.settled(created.id, 'done');
    await app().whenDownloadsIdle();
    const b = await board(created.id);
    const [master, other] = b.cells.find((x) => x.sku === 'MASTER-1' && x.shotName === 'main')!.candidates.map((x) => x.imageId) as [string, string];
    const otherProducts = b.cells.find((x) => x.sku === 'MASTER-2' && x.shotName === 'main')!.candidates[0]!.imageId;
    const set = (imageId: string | null, productId = ps[0]!.id) => c.call('catalogSetProductMaster', { batchId: created.id, productId, imageId });

    // Refused, nothing changes: another product's image, a rejected one.
    expect(await set(otherProducts)).toMatchObject({ ok: false, error: { code: 'batch_master_not_candidate' } });
    await c.ok('libraryMark', { imageIds: [other], rejected: true });
    expect(await set(other)).toMatchObject({ ok: false, error: { code: 'batch_master_rejected' } });
    expect((await board(created.id)).products[0]).toMatchObject({ masterImageId: null, masterChosen: false });

    expect(await c.ok('catalogSetProductMaster', { batchId: created.id, productId: ps[0]!.id, imageId: master })).toMatchObject({ productId: ps[0]!.id, masterImageId: master, masterChosen: true });
    const after = await board(created.id);
    expect(after.products.map((p) => [p.sku, p.masterImageId, p.masterChosen])).toEqual([['MASTER-1', master, true], ['MASTER-2', null, false]]);
    // A window of the board: one product's row, and how many there are in all.
    const row = await board(created.id, { productIds: [ps[1]!.id] });
    expect([row.products.map((p) => p.sku), row.cells.map((x) => x.shotName), row.productCount]).toEqual([['MASTER-2'], ['main', 'side'], 2]);
    expect((await board(created.id, { offset: 1, limit: 5 })).products.map((p) => p.sku)).toEqual(['MASTER-2']);

    // The re-shoot of MASTER-1 · side sends the master as its reference: the job's request and the service's ledger.
    await c.ok('batchRerunCell', { batchId: created.id, productId: ps[0]!.id, shotName: 'side', promptTweak: 'closer' });
    const done = await c.settled(created.id, 'done');
    const rerun = done.jobs.at(-1)!;
    expect(rerun.request.ref_image_ids).toEqual([master]);
    const sent = (await board(created.id)).cells.find((x) => x.sku === 'MASTER-1' && x.shotName === 'side')!;
    expect(sent.candidates).toHaveLength(2);
    // A next batch's plan builds the product's requests with it.
    const plan = await c.ok<BatchPlan>('batchPlan', { productIds: [ps[0]!.id], shotListId: l.id });
    expect(plan.jobs.map((j) => j.request.ref_image_ids)).toEqual([[master], [master]]);
    // Cleared: the product goes back to its own references (none here).
    expect(await c.ok('catalogSetProductMaster', { batchId: created.id, productId: ps[0]!.id, imageId: null })).toMatchObject({ masterImageId: null, masterChosen: false });
  });
});
