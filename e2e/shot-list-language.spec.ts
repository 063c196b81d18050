// A built-in shot list a batch ran keeps that batch's shot names in the Catalog after the UI language changes
// (docs/catalog.md "Shot lists"), through the harness against a real local service: run in Chinese, the "white
// background only" list still shows its Chinese shot names in the English UI, says why, and the board's columns are
// the same names; a built-in list no batch ran shows English names and no such line.
import type { BatchDetail, Product } from '../src-shared/ipc/index.ts';
import { expect, test } from './fixtures/harness.ts';
import { ipc, until } from './support/ipc.ts';
import { chooseLook, openStudio, SIZES } from './support/studio.ts';

const WHITE = 'sl_preset_white_only';

test('a built-in list run in Chinese keeps its Chinese shot names in the English UI, says why, and the board agrees', async ({ page, harness }) => {
  test.setTimeout(180_000);
  await page.setViewportSize(SIZES[0]);
  await openStudio(page, harness.url);
  await chooseLook(page, 'zh', 'light');
  const product = await ipc<Product>(harness, 'product:save', { sku: 'LANG-1', name: '青瓷杯', prompt: 'a celadon cup on linen' });
  const created = await ipc<BatchDetail>(harness, 'batch:create', { productIds: [product.id], shotListId: WHITE, concurrency: 2, start: true });
  const done = await until('the batch done', async () => {
    const b = await ipc<BatchDetail>(harness, 'batch:get', { batchId: created.id });
    return b.state === 'done' && b.counts.running === 0 ? b : null;
  }, 90_000);
  expect(done.jobs.map((j) => j.shotName)).toEqual(['白底主图', '纯白底']);

  await chooseLook(page, 'en', 'light');
  await page.getByTestId('open-batch').click();
  await page.getByTestId('shot-list-select').selectOption(WHITE);
  await expect(page.getByTestId('shot-name')).toHaveCount(2);
  await expect(page.getByTestId('shot-name').nth(0)).toHaveValue('白底主图');
  await expect(page.getByTestId('shot-name').nth(1)).toHaveValue('纯白底');
  const kept = page.getByTestId('shot-list-kept-words');
  await expect(kept).toHaveAttribute('data-language', 'zh');
  await expect(kept).toContainText('stay in Chinese');
  // The board of the batch on show has the same names as its columns.
  await expect(page.locator('[data-testid="catalog-cell"][data-sku="LANG-1"][data-shot="白底主图"]')).toHaveCount(1);
  await expect(page.locator('[data-testid="catalog-cell"][data-sku="LANG-1"][data-shot="纯白底"]')).toHaveCount(1);

  // A built-in list no batch ran follows the UI language.
  await page.getByTestId('shot-list-select').selectOption('sl_preset_ads');
  await expect(page.getByTestId('shot-name').nth(0)).toHaveValue('wide-lifestyle');
  await expect(kept).toHaveCount(0);
});
