// After an n=1 run, the board's status filter and "Pick the only candidate in N cells" (issue 26 Deliver 1 and 2),
// through the harness against a real local service: 3 products × 2 shots with n=1 and a budget of 24, the first job
// forced to fail (a 500 twice), the last over budget. "Failed or unknown" shows only the failed cell's product, "over
// budget or not sent" only the over-budget one, while "needs attention" shows every product (no pick yet). The bulk
// button picks the 4 done cells in one call; the board and main show them picked; one Ctrl+Z takes all 4 back.
import type { BatchDetail, CatalogBoard, Product, ShotList } from '../src-shared/ipc/index.ts';
import { expect, test } from './fixtures/harness.ts';
import { batchDone, boardCell, candidateIds } from './support/catalog.ts';
import { ipc } from './support/ipc.ts';
import { chooseLook, openStudio, screenshot, SIZES } from './support/studio.ts';

const SKUS = ['ONE-1', 'ONE-2', 'ONE-3'];
const SHOTS = ['main', 'detail'];

test('status filter apart from attention, and one press picks every only candidate; one Ctrl+Z takes them back', async ({ page, harness }) => {
  test.setTimeout(180_000);
  const products: Product[] = [];
  for (const [i, sku] of SKUS.entries()) products.push(await ipc<Product>(harness, 'product:save', { sku, name: `mug ${i + 1}`, prompt: `a ceramic mug ${i + 1}` }));
  const list = await ipc<ShotList>(harness, 'shotlist:save', {
    name: 'one each',
    shots: SHOTS.map((name) => ({ name, purpose: 'free', model: 'seedream-5-0-pro', ratio: '1:1', resolution: '1K', n: 1, promptAddition: name })),
  });
  // 6 credits a job: the first gets a 500 twice (failed, refunded), four succeed within 24, the last is over budget.
  await ipc(harness, 'local:set-faults', { generate: { fail: 2 } });
  const created = await ipc<BatchDetail>(harness, 'batch:create', { productIds: products.map((p) => p.id), shotListId: list.id, concurrency: 1, budget: 24 });
  const done = await batchDone(harness, created.id);
  expect(done.jobs.map((j) => j.status)).toEqual(['failed', 'succeeded', 'succeeded', 'succeeded', 'succeeded', 'over_budget']);

  await page.setViewportSize(SIZES[0]);
  await openStudio(page, harness.url);
  await chooseLook(page, 'en', 'light');
  await page.getByTestId('open-batch').click();
  const board = page.getByTestId('catalog-board');
  await expect(board.getByTestId('catalog-cell')).toHaveCount(6);
  const shownSkus = () => board.getByTestId('catalog-cell').evaluateAll((els) => [...new Set(els.map((e) => e.getAttribute('data-sku')))]);

  // "Needs attention" mixes no pick yet with errors: every product. The status filter tells them apart.
  await page.getByTestId('board-filter-attention').check();
  await expect(page.getByTestId('board-shown')).toHaveAttribute('data-shown', '3');
  await page.getByTestId('board-filter-attention').uncheck();
  const status = page.getByTestId('board-filter-status');
  await status.selectOption('failed');
  await expect(page.getByTestId('board-shown')).toHaveAttribute('data-shown', '1');
  expect(await shownSkus()).toEqual(['ONE-1']);
  await expect(boardCell(board, 'ONE-1', 'main')).toHaveAttribute('data-status', 'failed');
  await status.selectOption('unsent');
  await expect(page.getByTestId('board-shown')).toHaveAttribute('data-shown', '1');
  expect(await shownSkus()).toEqual(['ONE-3']);
  await status.selectOption('picked');
  await expect(page.getByTestId('board-shown')).toHaveAttribute('data-shown', '0');
  await status.selectOption('all');
  await expect(board.getByTestId('catalog-cell')).toHaveCount(6);

  // One press picks the only candidate of the 4 done cells.
  const done4 = [['ONE-1', 'detail'], ['ONE-2', 'main'], ['ONE-2', 'detail'], ['ONE-3', 'main']] as const;
  const only = new Map<string, string>();
  for (const [sku, shot] of done4) only.set(`${sku}/${shot}`, (await candidateIds(boardCell(board, sku, shot)))[0] as string);
  const button = page.getByTestId('pick-only-candidates');
  await expect(button).toHaveText('Pick the only candidate in 4 cells');
  await button.click();
  await expect(page.getByTestId('mark-note')).toHaveText('Picked the only candidate in 4 cells');
  for (const [sku, shot] of done4) await expect(boardCell(board, sku, shot)).toHaveAttribute('data-picked-image-id', only.get(`${sku}/${shot}`)!);
  const storedPicks = async () => (await ipc<CatalogBoard>(harness, 'catalog:get-board', { batchId: created.id })).cells.flatMap((c): Array<[string, string]> => (c.pick ? [[`${c.sku}/${c.shotName}`, c.pick]] : []));
  await expect.poll(async () => new Map(await storedPicks())).toEqual(only);
  // Nothing is left to pick: the button is gone.
  await expect(button).toHaveCount(0);
  await status.selectOption('picked');
  await expect(page.getByTestId('board-shown')).toHaveAttribute('data-shown', '3');
  await status.selectOption('all');

  // One Ctrl+Z takes all four back; the next finds nothing more to undo.
  await page.keyboard.press('Control+z');
  await expect(page.getByTestId('mark-note')).toHaveText('Undone: the picks of 4 cells');
  for (const [sku, shot] of done4) await expect(boardCell(board, sku, shot)).toHaveAttribute('data-picked-image-id', '');
  await expect.poll(storedPicks).toEqual([]);
  await expect(button).toHaveText('Pick the only candidate in 4 cells');
  await page.keyboard.press('Control+z');
  await expect(page.getByTestId('mark-note')).toHaveText('Nothing to undo');

  // Looked at: the filters and the button in both languages (the board at the column's top).
  for (const language of ['en', 'zh'] as const) {
    await chooseLook(page, language, 'light');
    await page.getByTestId('open-batch').click();
    await board.scrollIntoViewIfNeeded();
    await expect(button).toBeVisible();
    await screenshot(page, `pick-only-candidates-${language}`);
  }
});
