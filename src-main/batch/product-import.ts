// product:import: a whole CSV checked first (all or nothing: one bad row imports nothing), then written in
// chunks, each its own transaction, with the event loop let go between chunks, so 100,000 rows never hold
// main for seconds. The answer is counts; the renderer refetches the list (a reply with every row was 15 MB).
import { setImmediate as nextTurn } from 'node:timers/promises';
import { parseProductCsv, type ProductCsvRow } from '../../src-shared/product-csv.ts';
import { StudioError } from '../domain/errors.ts';
import { transaction, type LibraryDatabase } from '../library/index.ts';
import type { CatalogRepo } from './catalog-repo.ts';

/** Rows written per transaction: a few milliseconds of main each. */
export const IMPORT_CHUNK_ROWS = 2000;

export interface ProductImportCounts {
  /** Rows written: created + updated. */
  imported: number;
  created: number;
  updated: number;
}

/** A file without a notes column leaves the notes of products it updates as they are. */
function hasNotesColumn(csv: string): boolean {
  // The header: the first line that is not blank (without splitting 20 MB into lines).
  const header = /^\uFEFF?(?:[ \t]*(?:\r\n|\n|\r))*([^\r\n]*)/.exec(csv)?.[1] ?? '';
  return header.split(',').some((cell) => cell.trim().replace(/^"|"$/g, '').trim().toLowerCase() === 'notes');
}

/** Creates a product per new SKU and updates the product of a known one; a chunk is one transaction. */
function writeChunk(db: LibraryDatabase, catalog: CatalogRepo, rows: ProductCsvRow[], withNotes: boolean, at: number, counts: ProductImportCounts): void {
  transaction(db, () => {
    for (const row of rows) {
      const fields = { sku: row.sku, name: row.name, prompt: row.prompt, ...(withNotes ? { notes: row.notes } : {}) };
      const known = catalog.productBySku(row.sku);
      if (known) {
        catalog.updateProduct(known.id, fields, at);
        counts.updated++;
      } else {
        catalog.createProduct({ notes: '', ...fields, referenceImageIds: [] }, at);
        counts.created++;
      }
      counts.imported++;
    }
  });
}

/**
 * Chunks are separate transactions so other calls (a batch job finishing, a gallery page) run between them.
 * Should one fail (a full disk), the chunks before it stay; importing the file again updates them by SKU.
 */
export async function importProducts(db: LibraryDatabase, catalog: CatalogRepo, csv: string, at: number, chunkRows = IMPORT_CHUNK_ROWS): Promise<ProductImportCounts> {
  const parsed = parseProductCsv(csv);
  if (!parsed.ok) {
    const first = parsed.problems[0];
    throw new StudioError('product_csv_invalid', { count: parsed.problems.length, line: first?.line ?? 1, column: first?.column ?? 1 }, { details: { problems: parsed.problems } });
  }
  const withNotes = hasNotesColumn(csv);
  const counts: ProductImportCounts = { imported: 0, created: 0, updated: 0 };
  for (let start = 0; start < parsed.rows.length; start += chunkRows) {
    if (start > 0) await nextTurn();
    writeChunk(db, catalog, parsed.rows.slice(start, start + chunkRows), withNotes, at, counts);
  }
  return counts;
}
