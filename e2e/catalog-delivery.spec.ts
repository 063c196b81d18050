// The Catalog's whole delivery through the harness against a real local service (issue 26; docs/catalog.md
// "Marketplace export"): 3 products × a 4-shot list at n=2 run within a budget while the first job gets a 500 twice;
// on the board the failed job is retried, the over-budget one finished by raising the budget, one cell re-shot with
// a prompt tweak; every cell is culled by keyboard (P picks one candidate, X rejects another); the export in picks
// mode writes exactly the picks, each at its shot's size under the Taobao/Tmall preset, as JPEG with the sRGB
// profile and the prompt as caption (XMP dc:description), and the manifest names each pick with its candidate and
// the products' and batch's costs; the plan total plus the re-shoot is what was charged and what left the balance.
// Screenshots of the export dialog at both window sizes in both languages go to .tmp/shots-export/.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import sharp from 'sharp';
import type { BatchDetail, CatalogBoard, Product, ShotList } from '../src-shared/ipc/index.ts';
import { parseCsv } from '../src-main/export/csv-reader.test-support.ts';
import { expect, test } from './fixtures/harness.ts';
import { batchDone, boardCell, charges, pickAndRejectByKeys, settledCredits } from './support/catalog.ts';
import { ipc, until } from './support/ipc.ts';
import { chooseLook, LANGUAGES, openStudio, SIZES } from './support/studio.ts';

const SKUS = ['DLV-1', 'DLV-2', 'DLV-3'];
// A Taobao/Tmall set: a square white main image, two 3:4 details, and a 16:9 scene the preset has no size for.
const SHOTS = [
  { name: 'main', purpose: 'main_white', ratio: '1:1' },
  { name: 'detail', purpose: 'detail', ratio: '3:4' },
  { name: 'in-use', purpose: 'free', ratio: '3:4' },
  { name: 'wide', purpose: 'free', ratio: '16:9' },
];
// Under taobao-tmall-main: what each shot is written at, and whether it is padded (and says so).
const EXPECTED_SIZE: Record<string, { width: number; height: number; fit: 'cover' | 'pad' }> = {
  main: { width: 800, height: 800, fit: 'cover' },
  detail: { width: 750, height: 1000, fit: 'cover' },
  'in-use': { width: 750, height: 1000, fit: 'cover' },
  wide: { width: 800, height: 800, fit: 'pad' },
};
const SHOTS_DIR = '.tmp/shots-export';

/** The manifest as objects by column (after its BOM), as any RFC 4180 reader gets it. */
function readManifest(file: string): Array<Record<string, string>> {
  const text = readFileSync(file, 'utf8');
  expect(text.startsWith('\uFEFF')).toBe(true);
  const [header, ...rows] = parseCsv(text.slice(1)) as [string[], ...string[][]];
  return rows.map((row) => Object.fromEntries(header.map((h, i) => [h, row[i] ?? ''])));
}

test('deliver a batch: retry, raise the budget, re-shoot, cull by keys, export exactly the picks at each shot’s size with ICC and caption', async ({ page, harness }) => {
  test.setTimeout(420_000);
  const before = await settledCredits(harness);
  const products: Product[] = [];
  for (const [i, sku] of SKUS.entries()) products.push(await ipc<Product>(harness, 'product:save', { sku, name: `陶瓷碗 bowl ${i + 1}`, prompt: `陶瓷碗 a stoneware bowl ${i + 1}` }));
  const list = await ipc<ShotList>(harness, 'shotlist:save', {
    name: 'delivery list',
    shots: SHOTS.map((s) => ({ ...s, model: 'seedream-5-0-pro', resolution: '1K', n: 2, promptAddition: `${s.name} view` })),
  });
  // Every job costs the same; the budget takes all but one after the first job failed (500 twice, refunded).
  await ipc(harness, 'local:set-faults', { generate: { fail: 2 } });
  const plan = await ipc<BatchDetail>(harness, 'batch:create', { productIds: products.map((p) => p.id), shotListId: list.id, concurrency: 1, budget: 10 * 12 });
  const price = plan.jobs[0]!.estimate;
  expect(plan.jobs.map((j) => j.estimate)).toEqual(plan.jobs.map(() => 12));
  const ran = await batchDone(harness, plan.id);
  expect(ran.jobs.map((j) => j.status)).toEqual(['failed', ...Array<string>(10).fill('succeeded'), 'over_budget']);
  const failed = ran.jobs[0]!;
  const overBudget = ran.jobs[11]!;

  await page.setViewportSize(SIZES[0]);
  await openStudio(page, harness.url);
  await chooseLook(page, 'en', 'light');
  await page.getByTestId('open-batch').click();
  const board = page.getByTestId('catalog-board');
  await expect(board.getByTestId('catalog-cell')).toHaveCount(SKUS.length * SHOTS.length);
  await expect(boardCell(board, failed.sku, failed.shotName)).toHaveAttribute('data-status', 'failed');
  await expect(boardCell(board, overBudget.sku, overBudget.shotName)).toHaveAttribute('data-status', 'over_budget');

  // Raise the budget so the over-budget job is sent, then retry the failed job from its cell: both in this batch.
  await page.getByTestId('budget-raise-input').fill(String(15 * price));
  await page.getByTestId('budget-raise').click();
  await expect(boardCell(board, overBudget.sku, overBudget.shotName)).toHaveAttribute('data-status', 'done', { timeout: 60_000 });
  await boardCell(board, failed.sku, failed.shotName).getByTestId('job-retry').click();
  await expect(boardCell(board, failed.sku, failed.shotName)).toHaveAttribute('data-status', 'done', { timeout: 60_000 });

  // Re-shoot one done cell with a prompt tweak: two more candidates in the same cell.
  const reshot = boardCell(board, 'DLV-2', 'detail');
  await reshot.getByTestId('cell-rerun').click();
  await page.getByTestId('cell-rerun-tweak').fill('closer to the glaze');
  await expect(page.getByTestId('cell-rerun-price')).toHaveAttribute('data-price', String(price));
  await page.getByTestId('cell-rerun-send').click();
  await expect(page.getByTestId('cell-rerun-done')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('cell-rerun-dialog')).toHaveCount(0);
  const done = await batchDone(harness, plan.id);
  await expect(board.locator('[data-testid="catalog-cell"][data-status="done"]')).toHaveCount(12, { timeout: 60_000 });
  await expect(reshot.getByTestId('cell-candidate')).toHaveCount(4, { timeout: 60_000 });
  // Main has every file first; then the board shows each of them as a thumbnail (none left "downloading").
  await until('every candidate downloaded', async () => {
    const b = await ipc<CatalogBoard>(harness, 'catalog:get-board', { batchId: plan.id });
    const candidates = b.cells.flatMap((c) => c.candidates);
    return candidates.length === 26 && candidates.every((c) => c.download === 'done') ? b : null;
  }, 60_000);
  await expect(board.locator('[data-testid="cell-candidate"] img')).toHaveCount(26, { timeout: 60_000 });

  // Cull every cell by keys: pick one candidate (P), reject another (X); in the re-shot cell the pick is a re-shoot's.
  const picks = new Map<string, string>();
  const rejects: string[] = [];
  for (const sku of SKUS) {
    for (const { name } of SHOTS) {
      const cell = boardCell(board, sku, name);
      const [pick, reject] = sku === 'DLV-2' && name === 'detail' ? [2, 0] : [0, 1];
      const marked = await pickAndRejectByKeys(page, cell, pick, reject);
      picks.set(`${sku}/${name}`, marked.picked);
      rejects.push(marked.rejected);
    }
  }
  const stored = await ipc<CatalogBoard>(harness, 'catalog:get-board', { batchId: plan.id });
  expect(new Map(stored.cells.map((c) => [`${c.sku}/${c.shotName}`, c.pick]))).toEqual(picks);
  // Which candidate of its cell each pick is (1-based, in the cell's order: a re-shoot's come after the first run's).
  const candidateOf = new Map(stored.cells.map((c) => [c.pick as string, c.candidates.findIndex((x) => x.imageId === c.pick) + 1]));
  expect(candidateOf.get(picks.get('DLV-2/detail')!)).toBe(3);

  // The dialog: picks mode by default, and every shot's size under the preset, the padded one said so.
  const out = join(harness.dataDir, 'delivery');
  await harness.setShellAnswers({ chooseFolder: out });
  await page.getByTestId('batch-export').click();
  await expect(page.getByTestId('export-picks-mode')).toHaveValue('picks');
  await page.getByTestId('batch-export-preset').selectOption('taobao-tmall-main');
  const sizes = page.getByTestId('batch-export-shot-sizes');
  for (const { name } of SHOTS) {
    const { width, height, fit } = EXPECTED_SIZE[name]!;
    await expect(sizes.locator(`li[data-shot="${name}"]`)).toHaveAttribute('data-fit', fit);
    await expect(sizes.locator(`li[data-shot="${name}"]`)).toContainText(`${width}×${height}`);
  }
  await expect(sizes.locator('li[data-shot="wide"]')).toContainText('padded with white');
  await screenshotsOfDialog(page);

  await page.getByTestId('batch-export-run').click();
  await expect(page.getByTestId('batch-export-result')).toHaveAttribute('data-written', '12', { timeout: 120_000 });
  await expect(page.getByTestId('batch-export-missing-picks')).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS_DIR}/export-result-en-1440x900.png` });

  // Exactly the picks: one file per product × shot, named by the pick's candidate number.
  const jpgs = readdirSync(out, { recursive: true }).map(String).map((f) => f.split('\\').join('/')).filter((f) => f.endsWith('.jpg')).sort();
  const expectedFiles = SKUS.flatMap((sku) => SHOTS.map(({ name }) => `${sku}/${sku}_${name}_${candidateOf.get(picks.get(`${sku}/${name}`)!)}.jpg`)).sort();
  expect(jpgs).toEqual(expectedFiles);

  const rows = readManifest(join(out, 'manifest.csv'));
  expect(rows).toHaveLength(12);
  const promptOf = new Map(done.jobs.flatMap((j) => j.imageIds.map((id) => [id, j.request.prompt ?? ''] as const)));
  const perProduct = new Map<string, number>();
  for (const j of done.jobs) perProduct.set(j.sku, (perProduct.get(j.sku) ?? 0) + (j.creditsCharged ?? 0));
  for (const [key, imageId] of picks) {
    const [sku, shotName] = key.split('/') as [string, string];
    const row = rows.find((r) => r.image_id === imageId);
    const size = EXPECTED_SIZE[shotName]!;
    expect(row, key).toMatchObject({
      file: `${sku}/${sku}_${shotName}_${candidateOf.get(imageId)}.jpg`,
      sku,
      shot: shotName,
      status: 'written',
      selection: 'picks',
      picked: 'yes',
      candidate: String(candidateOf.get(imageId)),
      width: String(size.width),
      height: String(size.height),
      format: 'jpeg',
      fit: size.fit,
      product_credits: String(perProduct.get(sku)),
      batch_credits: String(charges(done)),
    });
    // The file itself: its shot's size, JPEG, the sRGB profile, and its prompt as the caption.
    const meta = await sharp(join(out, row!.file!)).metadata();
    expect(meta, key).toMatchObject({ format: 'jpeg', width: size.width, height: size.height, space: 'srgb' });
    // The profile's description (an ICC v4 mluc tag, UTF-16BE) names sRGB.
    expect(meta.icc?.includes(Buffer.from('sRGB', 'utf16le').swap16()), key).toBe(true);
    const prompt = promptOf.get(imageId)!.trim();
    expect(prompt).toContain('陶瓷碗');
    expect(meta.xmp?.toString('utf8'), key).toContain(`<dc:description><rdf:Alt><rdf:li xml:lang="x-default">${prompt}</rdf:li></rdf:Alt></dc:description>`);
  }
  for (const id of rejects) expect(rows.some((r) => r.image_id === id)).toBe(false);
  expect(promptOf.get(picks.get('DLV-2/detail')!)).toContain('closer to the glaze');

  // The books: the plan's total plus the re-shoot is what the jobs were charged, what the batch says it spent,
  // what left the balance, and what the manifest's batch total says.
  const reshoot = done.jobs.find((j) => j.origin === 'rerun')!;
  expect(done.reruns).toMatchObject({ retried: 1, reshot: 1 });
  expect(done.planned + reshoot.estimate).toBe(charges(done));
  expect(done.spent).toBe(charges(done));
  expect(before - (await settledCredits(harness))).toBe(charges(done));
});

/** The export dialog at both window sizes in both languages, with the Taobao/Tmall preset chosen, to look at. */
async function screenshotsOfDialog(page: Page): Promise<void> {
  for (const language of LANGUAGES) {
    await page.keyboard.press('Escape');
    await chooseLook(page, language, 'light');
    await page.getByTestId('open-batch').click();
    await page.getByTestId('batch-export').click();
    await page.getByTestId('batch-export-preset').selectOption('taobao-tmall-main');
    await expect(page.getByTestId('batch-export-shot-sizes').locator('li')).toHaveCount(SHOTS.length);
    for (const size of SIZES) {
      await page.setViewportSize(size);
      await page.screenshot({ path: `${SHOTS_DIR}/export-dialog-${language}-${size.width}x${size.height}.png` });
    }
    await page.setViewportSize(SIZES[0]);
  }
  await page.keyboard.press('Escape');
  await chooseLook(page, 'en', 'light');
  await page.getByTestId('open-batch').click();
  await page.getByTestId('batch-export').click();
  await page.getByTestId('batch-export-preset').selectOption('taobao-tmall-main');
}
