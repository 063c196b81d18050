// The Catalog's product × shot board through the harness against a real local service (issue 26, docs/catalog.md
// "The board"): 3 products × a 2-shot list with n=2 run as a batch; the board shows every cell done with real
// thumbnails (none broken); one candidate per cell is picked and the other rejected with the keyboard only (a
// candidate focused, then P, arrows, X); "needs attention" then shows nothing; the marketplace export in picks mode
// writes exactly the picked files and its manifest names them. Screenshots of the board in both themes and languages.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import type { BatchDetail, CatalogBoard, MarketplaceExportSummary, Product, ShotList } from '../src-shared/ipc/index.ts';
import { expect, test } from './fixtures/harness.ts';
import { seriousViolations } from './support/axe.ts';
import { ipc, until } from './support/ipc.ts';
import { chooseLook, LANGUAGES, openStudio, screenshot, SIZES, THEMES } from './support/studio.ts';

const shot = (name: string, purpose: string) => ({ name, purpose, model: 'seedream-5-0-pro', ratio: '1:1', resolution: '1K', n: 2, promptAddition: name });
const SKUS = ['BRD-1', 'BRD-2', 'BRD-3'];

/** The mean colour of the middle 40 × 40 pixels of a 96 × 96 image (a candidate as drawn, or its thumbnail). */
async function middleColour(png: Buffer): Promise<number[]> {
  const { channels } = await sharp(png).extract({ left: 28, top: 28, width: 40, height: 40 }).removeAlpha().stats();
  return channels.map((c) => Math.round(c.mean));
}
const SHOTS = ['main', 'detail'];

test('pick one candidate per cell by keyboard on the board, reject the other, export exactly the picks', async ({ page, harness }) => {
  test.setTimeout(240_000);
  const products: Product[] = [];
  for (const [i, sku] of SKUS.entries()) products.push(await ipc<Product>(harness, 'product:save', { sku, name: `陶瓷碗 bowl ${i + 1}`, prompt: `a stoneware bowl ${i + 1}` }));
  const list = await ipc<ShotList>(harness, 'shotlist:save', { name: 'board list', shots: [shot('main', 'main_white'), shot('detail', 'free')] });
  const created = await ipc<BatchDetail>(harness, 'batch:create', { productIds: products.map((p) => p.id), shotListId: list.id, concurrency: 2 });

  await page.setViewportSize(SIZES[0]);
  await openStudio(page, harness.url);
  await chooseLook(page, 'en', 'light');
  await page.getByTestId('open-batch').click();
  const board = page.getByTestId('catalog-board');
  await expect(board).toBeVisible();
  const cells = board.getByTestId('catalog-cell');
  await expect(cells).toHaveCount(SKUS.length * SHOTS.length);
  // Wait for the run on the board itself: every cell done with its two candidates downloaded.
  await expect(board.locator('[data-testid="catalog-cell"][data-status="done"]')).toHaveCount(6, { timeout: 120_000 });
  await expect(board.locator('[data-testid="cell-candidate"] img')).toHaveCount(12, { timeout: 60_000 });
  await until('every thumbnail decoded', async () =>
    (await board.locator('[data-testid="cell-candidate"] img').evaluateAll((imgs) => imgs.every((im) => (im as unknown as { complete: boolean; naturalWidth: number }).complete && (im as unknown as { naturalWidth: number }).naturalWidth > 0))) || null,
  );
  for (const sku of SKUS) await expect(board.locator(`[data-testid="board-row"][data-sku="${sku}"]`)).toContainText(sku);
  // A row's images come in one request (its thumbnail sheet), and each candidate shows its own image: the middle of
  // what the page drew for it matches the middle of its own thumbnail.
  for (const sku of SKUS) {
    const srcs = await board.locator(`[data-testid="board-row"][data-sku="${sku}"] [data-testid="cell-candidate"] img`).evaluateAll((imgs) => imgs.map((im) => im.getAttribute('src') ?? ''));
    expect(new Set(srcs).size, sku).toBe(1);
    expect(srcs[0], sku).toContain('/studio-image/sheet/');
  }
  for (const candidate of await board.getByTestId('cell-candidate').all()) {
    const id = (await candidate.getAttribute('data-image-id')) as string;
    const drawn = await middleColour(await candidate.locator('img').screenshot());
    const own = await fetch(`${harness.origin}/studio-image/thumb/${id}`, { headers: { 'x-studio-token': harness.token } });
    const expected = await middleColour(await sharp(Buffer.from(await own.arrayBuffer())).resize(96, 96, { fit: 'cover' }).png().toBuffer());
    expect(drawn.map((c, i) => Math.abs(c - (expected[i] ?? 0))).every((d) => d < 20), `${id}: drawn ${drawn.join(',')} vs its thumbnail ${expected.join(',')}`).toBe(true);
  }

  // Keyboard only after one click: per row, focus the first candidate of main, then P, → X, → (detail) P, → X.
  const cell = (sku: string, shotName: string) => board.locator(`[data-testid="catalog-cell"][data-sku="${sku}"][data-shot="${shotName}"]`);
  const ids = async (sku: string, shotName: string) => cell(sku, shotName).getByTestId('cell-candidate').evaluateAll((els) => els.map((e) => e.getAttribute('data-image-id') as string));
  const picks = new Map<string, string>();
  const rejects = new Map<string, string>();
  for (const sku of SKUS) {
    await cell(sku, 'main').getByTestId('cell-candidate').first().click({ position: { x: 30, y: 30 } });
    for (const shotName of SHOTS) {
      const [first, second] = (await ids(sku, shotName)) as [string, string];
      await expect(page.locator(':focus')).toHaveAttribute('data-image-id', first);
      await page.keyboard.press('p');
      await expect(cell(sku, shotName)).toHaveAttribute('data-picked-image-id', first);
      await page.keyboard.press('ArrowRight');
      await expect(page.locator(':focus')).toHaveAttribute('data-image-id', second);
      await page.keyboard.press('x');
      await expect(cell(sku, shotName).locator(`[data-image-id="${second}"]`)).toHaveAttribute('data-rejected', 'true');
      picks.set(`${sku}/${shotName}`, first);
      rejects.set(`${sku}/${shotName}`, second);
      if (shotName === 'main') await page.keyboard.press('ArrowRight');
    }
  }
  // A picked cell stays done; main agrees.
  await expect(board.locator('[data-testid="catalog-cell"][data-status="done"]')).toHaveCount(6);
  // The board shows a mark at once; main has it once the one ordered queue of changes (undo.ts) has sent it.
  const stored = () => ipc<CatalogBoard>(harness, 'catalog:get-board', { batchId: created.id });
  await expect.poll(async () => new Map((await stored()).cells.map((c) => [`${c.sku}/${c.shotName}`, c.pick]))).toEqual(picks);
  await expect.poll(async () => (await stored()).cells.flatMap((c) => c.candidates.filter((x) => x.rejected).map((x) => x.imageId)).sort()).toEqual([...rejects.values()].sort());
  // ↓ from the last row's detail stays put; ↑ goes to the row above, same shot.
  await page.keyboard.press('ArrowUp');
  await expect(page.locator(':focus')).toHaveAttribute('data-image-id', rejects.get('BRD-2/detail')!);

  // Needs attention: every cell has its pick, so nothing; one shot shows one column.
  await page.getByTestId('board-filter-attention').check();
  await expect(page.getByTestId('board-shown')).toHaveAttribute('data-shown', '0');
  await page.getByTestId('board-filter-attention').uncheck();
  await page.getByTestId('board-filter-shot').selectOption('detail');
  await expect(cells).toHaveCount(3);
  await page.getByTestId('board-filter-shot').selectOption('');
  await expect(cells).toHaveCount(6);

  for (const language of LANGUAGES) {
    for (const theme of THEMES) {
      await chooseLook(page, language, theme);
      await page.getByTestId('open-batch').click();
      await expect(board.locator('[data-testid="cell-candidate"] img')).toHaveCount(12);
      await screenshot(page, `catalog-board-${language}-${theme}`);
      expect(await seriousViolations(page), `${language} ${theme}`).toEqual([]);
    }
  }
  await page.setViewportSize(SIZES[1]);
  await board.scrollIntoViewIfNeeded();
  await screenshot(page, 'catalog-board-960x600');
  await page.setViewportSize(SIZES[0]);
  await chooseLook(page, 'en', 'light');
  await page.getByTestId('open-batch').click();

  // Export in picks mode (the dialog's default): exactly the six picks, named in the manifest.
  const out = join(harness.dataDir, 'board-export');
  await harness.setShellAnswers({ chooseFolder: out });
  await page.getByTestId('batch-export').click();
  await expect(page.getByTestId('export-picks-mode')).toHaveValue('picks');
  await page.getByTestId('batch-export-preset').selectOption('taobao-tmall-main');
  await page.getByTestId('batch-export-run').click();
  const result = page.getByTestId('batch-export-result');
  await expect(result).toHaveAttribute('data-written', '6', { timeout: 120_000 });
  await expect(page.getByTestId('batch-export-missing-picks')).toHaveCount(0);
  await screenshot(page, 'catalog-board-export');
  const written = readdirSync(out, { recursive: true }).map(String).filter((f) => f.endsWith('.jpg')).map((f) => f.split('\\').join('/')).sort();
  expect(written).toEqual(SKUS.flatMap((sku) => SHOTS.map((s) => `${sku}/${sku}_${s}_1.jpg`)).sort());
  const manifest = readFileSync(join(out, 'manifest.csv'), 'utf8').trim().split(/\r?\n/);
  expect(manifest).toHaveLength(1 + 6);
  for (const id of picks.values()) expect(manifest.find((line) => line.includes(id))).toMatch(/,written,picks,yes,/);
  for (const id of rejects.values()) expect(manifest.some((line) => line.includes(id))).toBe(false);
  const summary = await ipc<MarketplaceExportSummary>(harness, 'batch:export', { batchId: created.id, presetId: 'taobao-tmall-main', folder: join(harness.dataDir, 'again'), mode: 'picks' });
  expect(summary.written.map((w) => w.imageId).sort()).toEqual([...picks.values()].sort());
});

test('a product’s master reference chosen on the board goes out with the next re-shoot of that product', async ({ page, harness }) => {
  test.setTimeout(180_000);
  const product = await ipc<Product>(harness, 'product:save', { sku: 'MST-1', name: '陶瓷杯 master mug', prompt: 'a stoneware mug' });
  const list = await ipc<ShotList>(harness, 'shotlist:save', { name: 'master list', shots: [shot('main', 'main_white'), shot('detail', 'free')] });
  const created = await ipc<BatchDetail>(harness, 'batch:create', { productIds: [product.id], shotListId: list.id, concurrency: 2 });

  await page.setViewportSize(SIZES[0]);
  await openStudio(page, harness.url);
  await chooseLook(page, 'en', 'light');
  await page.getByTestId('open-batch').click();
  const board = page.getByTestId('catalog-board');
  await expect(board.locator('[data-testid="catalog-cell"][data-status="done"]')).toHaveCount(2, { timeout: 120_000 });
  const row = board.locator('[data-testid="board-row"][data-sku="MST-1"]');
  const main = row.locator('[data-testid="catalog-cell"][data-shot="main"]');
  const second = main.getByTestId('cell-candidate').nth(1);
  await expect(second).toBeVisible({ timeout: 60_000 });
  const master = (await second.getAttribute('data-image-id')) as string;

  // Focus the candidate, then "Use as master" in its row: the row head shows it as the product's master.
  await second.click({ position: { x: 30, y: 30 } });
  await row.getByTestId('product-master').click();
  await expect(row.getByTestId('product-master')).toHaveAttribute('data-master-image-id', master);
  const stored = await ipc<CatalogBoard>(harness, 'catalog:get-board', { batchId: created.id });
  expect(stored.products[0]).toMatchObject({ masterImageId: master, masterChosen: true });

  // The next re-shoot of the product (its detail shot) sends the master as its reference: the service's ledger says so.
  await ipc(harness, 'batch:rerun-cell', { batchId: created.id, productId: product.id, shotName: 'detail', promptTweak: 'closer' });
  const done = await until('the re-shoot done', async () => {
    const b = await ipc<BatchDetail>(harness, 'batch:get', { batchId: created.id });
    return b.jobs.length === 3 && b.jobs[2]?.status === 'succeeded' ? b : null;
  });
  expect(done.jobs[2]?.request.ref_image_ids).toEqual([master]);
  const ledger = await ipc<{ requests: Array<{ route: string; request_body: { text: string } }> }>(harness, 'local:requests', { limit: 20 });
  const sent = ledger.requests.filter((r) => r.request_body.text.includes('closer'));
  expect(sent).toHaveLength(1);
  expect(JSON.parse(sent[0]!.request_body.text)).toMatchObject({ ref_image_ids: [master] });
  // The board shows the re-shoot's candidates in the same cell.
  await expect(row.locator('[data-testid="catalog-cell"][data-shot="detail"] [data-testid="cell-candidate"]')).toHaveCount(4, { timeout: 60_000 });
});
