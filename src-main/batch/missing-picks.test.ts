// batch:missing-picks through the app core's IPC against the real local service and a real library.db: before an
// export the dialog lists the product × shots with no pick to write, and it is the list the export then answers
// (and writes in the manifest), with the same reasons; it writes nothing and knows no unknown batch.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BatchDetail, CatalogBoard, MarketplaceExportSummary } from '../../src-shared/ipc/index.ts';
import { cheap, useEnglishApp } from './batch-app.test-support.ts';

describe('batch:missing-picks, against the real local service', () => {
  const { c, app, dataDir } = useEnglishApp('studio-missing-picks-', { downloads: true });

  it('lists every product × shot without a usable pick, in board order, as the picks export then answers', async () => {
    const ps = await c.products(2, 'MISS');
    const l = await c.list('missing', [cheap('main', { n: 2 }), cheap('detail', { n: 1 })]);
    const created = await c.ok<BatchDetail>('batchCreate', { productIds: ps.map((p) => p.id), shotListId: l.id, concurrency: 2 });
    await c.settled(created.id, 'done');
    await app().whenDownloadsIdle();
    const missing = async () => (await c.ok<{ missingPicks: MarketplaceExportSummary['missingPicks'] }>('batchMissingPicks', { batchId: created.id })).missingPicks;

    // Nothing picked yet: all four cells, with their product names.
    expect(await missing()).toEqual([
      { sku: 'MISS-1', productName: 'MISS product 1', shotName: 'main', reason: 'no_pick' },
      { sku: 'MISS-1', productName: 'MISS product 1', shotName: 'detail', reason: 'no_pick' },
      { sku: 'MISS-2', productName: 'MISS product 2', shotName: 'main', reason: 'no_pick' },
      { sku: 'MISS-2', productName: 'MISS product 2', shotName: 'detail', reason: 'no_pick' },
    ]);

    // Pick MISS-1 · main and MISS-2 · main, then reject MISS-2's pick and MISS-1 · detail's only candidate.
    const board = await c.ok<CatalogBoard>('catalogGetBoard', { batchId: created.id });
    const first = (sku: string, shot: string) => board.cells.find((x) => x.sku === sku && x.shotName === shot)!.candidates[0]!.imageId;
    await c.ok('catalogSetPick', { batchId: created.id, sku: 'MISS-1', shot: 'main', imageId: first('MISS-1', 'main') });
    await c.ok('catalogSetPick', { batchId: created.id, sku: 'MISS-2', shot: 'main', imageId: first('MISS-2', 'main') });
    await c.ok('libraryMark', { imageIds: [first('MISS-2', 'main'), first('MISS-1', 'detail')], rejected: true });
    const before = await missing();
    expect(before.map((m) => [m.sku, m.shotName, m.reason])).toEqual([
      ['MISS-1', 'detail', 'no_result'],
      ['MISS-2', 'main', 'pick_rejected'],
      ['MISS-2', 'detail', 'no_pick'],
    ]);

    // The export in picks mode answers exactly that list; asking wrote nothing.
    const folder = join(dataDir(), 'missing-out');
    expect(existsSync(folder)).toBe(false);
    const summary = await c.ok<MarketplaceExportSummary>('batchExport', { batchId: created.id, presetId: 'taobao-tmall-main', folder, mode: 'picks' });
    expect(summary.missingPicks).toEqual(before);
    expect(summary.written).toHaveLength(1);

    expect(await c.call('batchMissingPicks', { batchId: 'b_unknown' })).toMatchObject({ ok: false, error: { code: 'batch_not_found' } });
  });
});
