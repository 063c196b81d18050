import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openLibraryDatabase } from '../library/index.ts';
import { CatalogRepo } from './catalog-repo.ts';
import { renderError, type StudioError } from '../domain/errors.ts';
import { binaryFile, gb18030Csv, PRODUCT_FILE_ROWS, RARE_CSV, rareNamesGbkCsv, shiftJisCsv, utf16beCsv, utf16leTabFile, utf8Csv } from './product-files.test-support.ts';
import { IMPORT_CHUNK_ROWS, importProductInput, importProducts } from './product-import.ts';

function productsCsv(count: number, from = 0): string {
  const rows = Array.from({ length: count }, (_, i) => `SKU-${from + i},Product ${from + i},"a mug, number ${from + i}"`);
  return `sku,name,prompt\n${rows.join('\n')}\n`;
}

describe('product import', () => {
  it('imports 20,000 rows in chunks, letting main answer between them, and answers counts, not rows', async () => {
    const db = openLibraryDatabase(join(mkdtempSync(join(tmpdir(), 'studio-import-')), 'library.db'));
    const catalog = new CatalogRepo(db);
    catalog.createProduct({ sku: 'SKU-5', name: 'old', prompt: 'old', notes: 'kept', referenceImageIds: [] }, 1);

    // Everything else main has to do during the import: each turn of the event loop it gets.
    let turns = 0;
    let importing = true;
    const tick = (): void => {
      turns++;
      if (importing) setImmediate(tick);
    };
    setImmediate(tick);
    const answer = await importProducts(db, catalog, productsCsv(20_000), 2);
    importing = false;

    expect(answer).toEqual({ imported: 20_000, created: 19_999, updated: 1, separator: 'comma' });
    expect(turns).toBeGreaterThanOrEqual(20_000 / IMPORT_CHUNK_ROWS - 1);
    expect(catalog.listProducts()).toHaveLength(20_000);
    // The known SKU was updated; without a notes column its notes stay.
    expect(catalog.productBySku('SKU-5')).toMatchObject({ name: 'Product 5', notes: 'kept' });
    db.close();
  });

  it('imports nothing when a row is bad, whatever its place', async () => {
    const db = openLibraryDatabase(join(mkdtempSync(join(tmpdir(), 'studio-import-bad-')), 'library.db'));
    const catalog = new CatalogRepo(db);
    const csv = `${productsCsv(5000)},No SKU,a plate\n`;
    await expect(importProducts(db, catalog, csv, 1)).rejects.toMatchObject({ code: 'product_csv_invalid' });
    expect(catalog.listProducts()).toEqual([]);
    db.close();
  });

  it('reads a file in the encoding it was saved in (GB18030, UTF-16 with tabs, UTF-8 with BOM), names it once, and keeps the Chinese', async () => {
    const files = [
      { name: 'gbk.csv', bytes: gb18030Csv(), encoding: 'gb18030', separator: 'comma' },
      { name: 'unicode.txt', bytes: utf16leTabFile(), encoding: 'utf-16le', separator: 'tab' },
      { name: 'big-endian.csv', bytes: utf16beCsv(), encoding: 'utf-16be', separator: 'comma' },
      { name: 'utf8.csv', bytes: utf8Csv(true), encoding: 'utf-8-bom', separator: 'comma' },
      { name: 'plain.csv', bytes: utf8Csv(false), encoding: 'utf-8', separator: 'comma' },
    ];
    for (const file of files) {
      const dir = mkdtempSync(join(tmpdir(), 'studio-import-file-'));
      writeFileSync(join(dir, file.name), file.bytes);
      const db = openLibraryDatabase(join(dir, 'library.db'));
      const catalog = new CatalogRepo(db);
      // As product:import gets it from the page: the file's bytes, base64.
      const answer = await importProductInput(db, catalog, { fileBase64: readFileSync(join(dir, file.name)).toString('base64') }, 1);
      expect(answer, file.name).toEqual({ imported: 2, created: 2, updated: 0, separator: file.separator, encoding: file.encoding });
      expect(
        catalog.listProducts().map((p) => ({ sku: p.sku, name: p.name, prompt: p.prompt, notes: p.notes })),
        file.name,
      ).toEqual(PRODUCT_FILE_ROWS);
      db.close();
    }
  });

  it('answers one encoding error for a file that is not text, and imports nothing', async () => {
    const db = openLibraryDatabase(join(mkdtempSync(join(tmpdir(), 'studio-import-binary-')), 'library.db'));
    const catalog = new CatalogRepo(db);
    const refused = importProductInput(db, catalog, { fileBase64: binaryFile().toString('base64') }, 1);
    await expect(refused).rejects.toMatchObject({ code: 'product_csv_encoding', details: undefined });
    await expect(refused).rejects.toThrow(/not UTF-8, UTF-16 .* or GB18030\/GBK/);
    expect(catalog.listProducts()).toEqual([]);
    db.close();
  });

  it('imports a GBK sheet with rare names intact, and refuses a Shift-JIS sheet once, naming it, importing nothing', async () => {
    const db = openLibraryDatabase(join(mkdtempSync(join(tmpdir(), 'studio-import-sjis-')), 'library.db'));
    const catalog = new CatalogRepo(db);
    const answer = await importProductInput(db, catalog, { fileBase64: rareNamesGbkCsv().toString('base64') }, 1);
    expect(answer).toEqual({ imported: 5, created: 5, updated: 0, separator: 'comma', encoding: 'gb18030' });
    const names = RARE_CSV.trim().split('\r\n').slice(1).map((line) => line.split(',')[1]);
    expect(catalog.listProducts().map((p) => p.name).sort()).toEqual(names.sort());

    // Read as GB18030 it was "儅僌僇僢僾" for "マグカップ": now one error naming Shift-JIS, in both languages.
    const refused = importProductInput(db, catalog, { fileBase64: shiftJisCsv().toString('base64') }, 2);
    await expect(refused).rejects.toMatchObject({ code: 'product_csv_encoding', params: { looksLike: 'shift_jis' } });
    const error = (await refused.then(
      () => null,
      (e: unknown) => e,
    )) as StudioError;
    expect(renderError(error, 'en')).toMatchObject({ details: { looksLike: 'shift_jis' } });
    expect(renderError(error, 'en').message).toMatch(/^This file looks like Shift-JIS \(Japanese\), which the import does not read.*Nothing was imported\.$/);
    expect(renderError(error, 'zh').message).toMatch(/^这个文件看起来是 Shift-JIS（日文）.*未导入任何商品。$/);
    expect(catalog.listProducts()).toHaveLength(5);
    db.close();
  });

  it('still takes text as it is (the csv input), tab-separated too', async () => {
    const db = openLibraryDatabase(join(mkdtempSync(join(tmpdir(), 'studio-import-text-')), 'library.db'));
    const catalog = new CatalogRepo(db);
    const answer = await importProductInput(db, catalog, { csv: 'sku\tname\tprompt\nA-1\t杯, 白\t"a ""cup"",\tred"\n' }, 1);
    expect(answer).toEqual({ imported: 1, created: 1, updated: 0, separator: 'tab' });
    expect(catalog.productBySku('A-1')).toMatchObject({ name: '杯, 白', prompt: 'a "cup",\tred' });
    db.close();
  });
});
