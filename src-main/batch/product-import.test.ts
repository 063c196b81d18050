import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openLibraryDatabase } from '../library/index.ts';
import { CatalogRepo } from './catalog-repo.ts';
import { IMPORT_CHUNK_ROWS, importProducts } from './product-import.ts';

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

    expect(answer).toEqual({ imported: 20_000, created: 19_999, updated: 1 });
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
});
