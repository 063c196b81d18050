// Product files as spreadsheets save them (issue 26, Deliver 6), through the harness and the real import: a CSV
// saved by Excel or WPS on Chinese Windows (GB18030), Excel's "Unicode text" (UTF-16 LE, tab-separated) and UTF-16
// BE over HTTP IPC import with their Chinese intact and one note naming the encoding; a binary file is one error,
// and a Shift-JIS file (which GB18030 would read as garbage) one error naming Shift-JIS.
import type { Page } from '@playwright/test';
import type { Product } from '../src-shared/ipc/index.ts';
import { binaryFile, gb18030Csv, shiftJisCsv, utf16beCsv, utf16leTabFile } from '../src-main/batch/product-files.test-support.ts';
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

test('product import: a Shift-JIS sheet (Japanese Windows) is one error naming Shift-JIS, in both languages, and adds no product', async ({ page, harness }) => {
  // Two products already there (a GB18030 sheet over HTTP IPC): the refused file must leave them exactly as they are.
  await ipc(harness, 'product:import', { fileBase64: gb18030Csv().toString('base64') });
  await openStudio(page, harness.url);
  await chooseLook(page, 'en', 'light');
  await openCatalog(page);
  const rows = page.getByTestId('product-row');
  await expect(rows).toHaveCount(2);

  // Read as GB18030 this file was "儅僌僇僢僾" for "マグカップ", imported with a note saying GB18030.
  await importFile(page, 'products-ja.csv', shiftJisCsv());
  const error = page.getByTestId('product-import-error');
  await expect(error).toHaveAttribute('data-code', 'product_csv_encoding');
  await expect(error).toContainText('This file looks like Shift-JIS (Japanese)');
  await expect(error).toContainText('Nothing was imported.');
  await expect(error).toHaveCount(1);
  await expect(page.getByTestId('product-import-problems')).toHaveCount(0);
  await expect(page.getByTestId('product-import-encoding')).toHaveCount(0);
  await expect(rows).toHaveCount(2);
  await expect(rows).not.toContainText(['儅僌']);

  await chooseLook(page, 'zh', 'light');
  await openCatalog(page);
  await importFile(page, 'products-ja.csv', shiftJisCsv());
  await expect(error).toContainText('这个文件看起来是 Shift-JIS（日文）');
  await expect(rows).toHaveCount(2);
  const products = await ipc<Product[]>(harness, 'product:list');
  expect(products.map((p) => p.sku)).toEqual(['TEA-1', 'TEA-2']);
});
