// Product files as spreadsheets save them (issue 26, Deliver 6), through the harness and the real import: a CSV
// saved by Excel or WPS on Chinese Windows (GB18030), Excel's "Unicode text" (UTF-16 LE, tab-separated) and UTF-16
// BE over HTTP IPC import with their Chinese intact and one note naming the encoding; a binary file is one error.
import type { Page } from '@playwright/test';
import type { Product } from '../src-shared/ipc/index.ts';
import { binaryFile, gb18030Csv, utf16beCsv, utf16leTabFile } from '../src-main/batch/product-files.test-support.ts';
import { expect, test } from './fixtures/harness.ts';
import { ipc } from './support/ipc.ts';
import { chooseLook, openStudio } from './support/studio.ts';

async function openCatalog(page: Page): Promise<void> {
  await page.getByTestId('open-batch').click();
  await expect(page.getByTestId('batch-page')).toBeVisible();
}

async function importFile(page: Page, name: string, buffer: Buffer): Promise<void> {
  await page.getByTestId('product-import').setInputFiles({ name, mimeType: 'text/csv', buffer });
}

test('product import: GB18030 and UTF-16 files keep their Chinese names and say which encoding was read, in both languages; a binary file is one error', async ({ page, harness }) => {
  await openStudio(page, harness.url);
  await chooseLook(page, 'zh', 'light');
  await openCatalog(page);

  // Excel or WPS on Chinese Windows: GB18030/GBK, comma-separated.
  await importFile(page, '商品.csv', gb18030Csv());
  const rows = page.getByTestId('product-row');
  // The rows in SKU order, names intact (the quoted comma too).
  await expect(rows).toContainText(['TEA-1', 'TEA-2']);
  await expect(rows).toContainText(['青花瓷茶杯', '白瓷盘, 26cm']);
  await expect(rows).toHaveCount(2);
  await expect(page.getByTestId('product-import-error')).toHaveCount(0);
  const result = page.getByTestId('product-import-result');
  await expect(result).toHaveAttribute('data-created', '2');
  const note = page.getByTestId('product-import-encoding');
  await expect(note).toHaveAttribute('data-encoding', 'gb18030');
  await expect(note).toHaveText('文件编码：GB18030/GBK（中文 Windows 上的 Excel 或 WPS）。');

  // Excel's "Unicode text": UTF-16 LE with BOM, tab-separated; the same SKUs are updated.
  await chooseLook(page, 'en', 'light');
  await openCatalog(page);
  await importFile(page, 'products.txt', utf16leTabFile());
  await expect(result).toHaveAttribute('data-updated', '2');
  await expect(note).toHaveAttribute('data-encoding', 'utf-16le');
  await expect(note).toHaveAttribute('data-separator', 'tab');
  await expect(note).toHaveText('Read as UTF-16 LE (Excel’s “Unicode text”), tab-separated.');
  await expect(rows).toContainText(['青花瓷茶杯', '白瓷盘, 26cm']);

  // Not a text file: one error for the file, no list of problems per cell, nothing imported.
  await importFile(page, 'photo.csv', binaryFile());
  const error = page.getByTestId('product-import-error');
  await expect(error).toHaveAttribute('data-code', 'product_csv_encoding');
  await expect(error).toContainText('could not be read as text');
  await expect(page.getByTestId('product-import-problems')).toHaveCount(0);
  await expect(rows).toHaveCount(2);

  // The same import over the harness's HTTP IPC: the bytes of a UTF-16 BE file.
  const answer = await ipc<{ updated: number; encoding: string; separator: string }>(harness, 'product:import', { fileBase64: utf16beCsv().toString('base64') });
  expect(answer).toMatchObject({ updated: 2, encoding: 'utf-16be', separator: 'comma' });
  const products = await ipc<Product[]>(harness, 'product:list');
  expect(products.map((p) => [p.sku, p.name, p.prompt, p.notes])).toEqual([
    ['TEA-1', '青花瓷茶杯', '一只青花瓷茶杯，放在木桌上', '易碎'],
    ['TEA-2', '白瓷盘, 26cm', '白色陶瓷餐盘，俯拍', ''],
  ]);
});
