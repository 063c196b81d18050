// A built-in shot list a batch ran keeps the words it ran with when the UI language changes, through the app core's
// IPC against the real local service (child process) and a real library.db: the list's shot names (which picks, the
// board's columns, the export's file names and "only what is missing" key on) stay those of the batch, so after a
// switch from Chinese to English the next plan sees the shots as made, the board and the export still line up, and
// a built-in list no batch used follows the UI language.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BatchDetail, BatchPlan, CatalogBoard, MarketplaceExportSummary, ShotList } from '../../src-shared/ipc/index.ts';
import { useEnglishApp } from './batch-app.test-support.ts';

const WHITE = 'sl_preset_white_only';
const ADS = 'sl_preset_ads';

describe('a built-in shot list a batch ran, across a language switch', () => {
  const { c, app, dataDir } = useEnglishApp('studio-shot-words-', { downloads: true });
  const listOf = async (id: string) => (await c.ok<ShotList[]>('shotListList', {})).find((l) => l.id === id) as ShotList;
  const shotNames = async (id: string) => (await listOf(id)).shots.map((s) => s.name);

  it('keeps the shot names and additions it ran with; the next plan, the board, picks and the export still line up', async () => {
    await c.ok('settingsSetLanguage', { language: 'zh' });
    const [p] = await c.products(1, 'WORDS');
    expect(await shotNames(WHITE)).toEqual(['白底主图', '纯白底']);
    const zhShots = (await listOf(WHITE)).shots;
    const created = await c.ok<BatchDetail>('batchCreate', { productIds: [p!.id], shotListId: WHITE, concurrency: 2, start: true });
    const done = await c.settled(created.id, 'done');
    expect(done.jobs.map((j) => [j.shotName, j.status])).toEqual([['白底主图', 'succeeded'], ['纯白底', 'succeeded']]);
    await app().whenDownloadsIdle();
    const main = done.jobs[0]!;
    await c.ok('catalogSetPick', { batchId: created.id, productId: p!.id, shot: '白底主图', imageId: main.imageIds[0] });

    await c.ok('settingsSetLanguage', { language: 'en' });
    // The list the batch ran keeps its words (names and prompt additions), still a built-in list, not an edit.
    const kept = await listOf(WHITE);
    expect(kept).toMatchObject({ preset: 'white_only', edited: false, keptLanguage: 'zh' });
    expect(kept.shots).toEqual(zhShots);
    expect((await c.ok<ShotList>('shotListReset', { id: WHITE })).shots).toEqual(zhShots);
    // A built-in list no batch ran follows the UI language.
    expect(await shotNames(ADS)).toEqual(['wide-lifestyle', 'wide-studio', 'story-lifestyle', 'story-studio']);
    expect((await listOf(ADS)).keptLanguage).toBeNull();

    // The next plan of the same products × list sees both shots as made and the pick: nothing is missing.
    const plan = await c.ok<BatchPlan>('batchPlan', { productIds: [p!.id], shotListId: WHITE });
    expect(plan.jobs.map((j) => j.shotName)).toEqual(['白底主图', '纯白底']);
    expect(plan.alreadyMade).toEqual({ cells: 2, picked: 1, batches: 1 });
    expect(plan.missing).toEqual({ jobs: 0, total: 0 });
    // The board's columns and the pick, and the export's file name, are the batch's own.
    const board = await c.ok<CatalogBoard>('catalogGetBoard', { batchId: created.id });
    expect(board.shots.map((s) => s.name)).toEqual(['白底主图', '纯白底']);
    expect(board.cells.find((x) => x.shotName === '白底主图')?.pick).toBe(main.imageIds[0]);
    const folder = join(dataDir(), 'words-out');
    const exported = await c.ok<MarketplaceExportSummary>('batchExport', { batchId: created.id, presetId: 'taobao-tmall-main', folder, mode: 'picks' });
    expect(exported.written.map((w) => w.imageId)).toEqual([main.imageIds[0]]);
    expect(exported.missingPicks.map((m) => m.shotName)).toEqual(['纯白底']);
    expect(readdirSync(join(folder, 'WORDS-1')).filter((f) => f.endsWith('.jpg'))).toEqual([expect.stringContaining('白底主图')]);
  });
});
