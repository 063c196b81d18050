// The marketplace export dialog before exporting (issue 26 Deliver 4; docs/catalog.md "Marketplace export"),
// through the harness against the real local service: a batch of the Taobao / Tmall / JD shot list opens the dialog
// on the Taobao/Tmall preset (not the first one, Amazon); in picks mode the product × shots still lacking a pick are
// listed before the export (the count, the first five by SKU · shot, "Show all" for the rest) with the same reasons
// main gives, so the designer can go back and pick; the export then lists them as before, and the manifest too.
// Screenshots of the dialog with missing picks at both window sizes, both themes and languages: .tmp/shots-export/.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import type { BatchDetail, CatalogBoard, Product } from '../src-shared/ipc/index.ts';
import { expect, test } from './fixtures/harness.ts';
import { batchDone } from './support/catalog.ts';
import { ipc } from './support/ipc.ts';
import { chooseLook, LANGUAGES, openStudio, SIZES, THEMES } from './support/studio.ts';

const SKUS = ['CUP-1', 'CUP-2'];
const SHOTS_DIR = '.tmp/shots-export';

test('export dialog: the shot list’s marketplace preset, and the shots lacking a pick listed before exporting', async ({ page, harness }) => {
  test.setTimeout(240_000);
  const products: Product[] = [];
  for (const [i, sku] of SKUS.entries()) products.push(await ipc<Product>(harness, 'product:save', { sku, name: `青瓷杯 cup ${i + 1}`, prompt: `青瓷杯 a celadon cup ${i + 1}` }));
  const created = await ipc<BatchDetail>(harness, 'batch:create', { productIds: products.map((p) => p.id), shotListId: 'sl_preset_cn_marketplace', concurrency: 2 });
  const done = await batchDone(harness, created.id);
  const shots = [...new Set(done.jobs.map((j) => j.shotName))];
  expect(shots).toHaveLength(4);
  expect(done.jobs.every((j) => j.status === 'succeeded')).toBe(true);

  // Pick the first shot of both products; reject the only candidate of CUP-1's second shot: 6 cells lack a pick.
  const board = await ipc<CatalogBoard>(harness, 'catalog:get-board', { batchId: created.id });
  const only = (sku: string, shot: string) => board.cells.find((c) => c.sku === sku && c.shotName === shot)!.candidates[0]!.imageId;
  for (const sku of SKUS) await ipc(harness, 'catalog:set-pick', { batchId: created.id, sku, shot: shots[0], imageId: only(sku, shots[0]!) });
  await ipc(harness, 'library:mark', { imageIds: [only('CUP-1', shots[1]!)], rejected: true });
  const expected = SKUS.flatMap((sku) => shots.slice(1).map((shot) => ({ sku, shot, reason: sku === 'CUP-1' && shot === shots[1] ? 'no_result' : 'no_pick' })));

  await page.setViewportSize(SIZES[0]);
  await openStudio(page, harness.url);
  await chooseLook(page, 'en', 'light');
  await page.getByTestId('open-batch').click();
  await expect(page.getByTestId('catalog-board').getByTestId('catalog-cell')).toHaveCount(8);
  await page.getByTestId('batch-export').click();

  // The batch ran the Taobao / Tmall / JD list: its preset, not the first of the list.
  await expect(page.getByTestId('batch-export-preset')).toHaveValue('taobao-tmall-main');
  await expect(page.getByTestId('export-picks-mode')).toHaveValue('picks');

  // Before exporting: the count and the first five by SKU · shot, in board order, each with its reason.
  const before = page.getByTestId('batch-export-missing-before');
  await expect(before).toHaveAttribute('data-count', '6');
  await expect(before).toContainText('6 product × shots have no pick to export.');
  const items = before.locator('li');
  await expect(items).toHaveCount(5);
  for (const [i, m] of expected.slice(0, 5).entries()) {
    await expect(items.nth(i)).toHaveAttribute('data-sku', m.sku);
    await expect(items.nth(i)).toHaveAttribute('data-shot', m.shot);
    await expect(items.nth(i)).toHaveAttribute('data-reason', m.reason);
    await expect(items.nth(i)).toContainText(`${m.sku} · ${m.shot}`);
  }
  await expect(items.first()).toContainText('no usable result');
  // "Show all" lists every one of them, and "Show fewer" the first five again.
  const all = page.getByTestId('batch-export-missing-all');
  await expect(all).toHaveText('Show all 6');
  await all.click();
  await expect(items).toHaveCount(6);
  await expect(items.last()).toHaveAttribute('data-sku', 'CUP-2');
  await expect(all).toHaveAttribute('aria-expanded', 'true');
  await all.click();
  await expect(items).toHaveCount(5);
  // Other modes have no picks to miss: the list is for picks mode only.
  await page.getByTestId('export-picks-mode').selectOption('starred');
  await expect(before).toHaveCount(0);
  await page.getByTestId('export-picks-mode').selectOption('picks');
  await expect(before).toHaveAttribute('data-count', '6');

  // Picking one more on the board and opening the dialog again: one fewer.
  await page.keyboard.press('Escape');
  await ipc(harness, 'catalog:set-pick', { batchId: created.id, sku: 'CUP-2', shot: shots[3], imageId: only('CUP-2', shots[3]!) });
  await page.getByTestId('batch-export').click();
  await expect(before).toHaveAttribute('data-count', '5');
  await expect(page.getByTestId('batch-export-missing-all')).toHaveCount(0);
  await ipc(harness, 'catalog:set-pick', { batchId: created.id, sku: 'CUP-2', shot: shots[3], imageId: null });
  await page.keyboard.press('Escape');

  await screenshotsOfMissingPicks(page);

  // The export writes the two picks and lists the six without one, as before, in the answer and the manifest.
  const out = join(harness.dataDir, 'delivery');
  await harness.setShellAnswers({ chooseFolder: out });
  await page.getByTestId('batch-export-run').click();
  await expect(page.getByTestId('batch-export-result')).toHaveAttribute('data-written', '2', { timeout: 120_000 });
  await expect(before).toHaveCount(0);
  await expect(page.getByTestId('batch-export-missing-picks')).toHaveAttribute('data-count', '6');
  const manifest = readFileSync(join(out, 'manifest.csv'), 'utf8');
  expect(manifest.split(/\r?\n/).filter((line) => line.includes(',no_pick,picks,'))).toHaveLength(6);
});

/** The dialog with its missing picks shown in full, at both window sizes, in both themes and languages, to look at. */
async function screenshotsOfMissingPicks(page: Page): Promise<void> {
  for (const language of LANGUAGES) {
    for (const theme of THEMES) {
      await chooseLook(page, language, theme);
      await page.getByTestId('open-batch').click();
      await page.getByTestId('batch-export').click();
      await expect(page.getByTestId('batch-export-preset')).toHaveValue('taobao-tmall-main');
      await page.getByTestId('batch-export-missing-all').click();
      await expect(page.getByTestId('batch-export-missing-before').locator('li')).toHaveCount(6);
      for (const size of SIZES) {
        await page.setViewportSize(size);
        await page.screenshot({ path: `${SHOTS_DIR}/export-missing-${language}-${theme}-${size.width}x${size.height}.png` });
      }
      await page.setViewportSize(SIZES[0]);
      await page.keyboard.press('Escape');
    }
  }
  await chooseLook(page, 'en', 'light');
  await page.getByTestId('open-batch').click();
  await page.getByTestId('batch-export').click();
}
