// product:import: a whole CSV checked first (all or nothing: one bad row imports nothing), then written in
// chunks, each its own transaction, with the event loop let go between chunks, so 100,000 rows never hold
// main for seconds. The answer is counts; the renderer refetches the list (a reply with every row was 15 MB).
// A file sent as bytes is read in the encoding text-encoding.ts detects; the answer names it (one note for the file).
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { CsvEncoding, CsvSeparator } from '../../src-shared/ipc/batch.ts';
import { parseProductCsv, type ProductCsvRow } from '../../src-shared/product-csv.ts';
import { StudioError } from '../domain/errors.ts';
import { transaction, type LibraryDatabase } from '../library/index.ts';
import type { CatalogRepo } from './catalog-repo.ts';
import { decodeText } from './text-encoding.ts';

/** Rows written per transaction: a few milliseconds of main each. */
export const IMPORT_CHUNK_ROWS = 2000;

export interface ProductImportCounts {
  /** Rows written: created + updated. */
  imported: number;
  created: number;
  updated: number;
  /** What the fields were split on. */
  separator: CsvSeparator;
}

/** The product:import input: the file as text, or its bytes (base64) read in the encoding they are in. */
export type ProductImportInput = { csv: string } | { fileBase64: string };

/** Creates a product per new SKU and updates the product of a known one; a chunk is one transaction. */
function writeChunk(db: LibraryDatabase, catalog: CatalogRepo, rows: ProductCsvRow[], withNotes: boolean, at: number, counts: Omit<ProductImportCounts, 'separator'>): void {
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
  // A file without a notes column leaves the notes of products it updates as they are.
  const withNotes = parsed.hasNotes;
  const counts = { imported: 0, created: 0, updated: 0 };
  for (let start = 0; start < parsed.rows.length; start += chunkRows) {
    if (start > 0) await nextTurn();
    writeChunk(db, catalog, parsed.rows.slice(start, start + chunkRows), withNotes, at, counts);
  }
  return { ...counts, separator: parsed.separator };
}

/** A product file's bytes: decoded first (one `product_csv_encoding` for a file in no encoding it knows), then imported. */
export async function importProductFile(db: LibraryDatabase, catalog: CatalogRepo, bytes: Uint8Array, at: number): Promise<ProductImportCounts & { encoding: CsvEncoding }> {
  const decoded = decodeText(bytes);
  if (!decoded.ok) {
    // What the file looks like (Shift-JIS, EUC-KR…) names it in the message (and reaches scripts as details.looksLike).
    throw new StudioError('product_csv_encoding', { bytes: bytes.length, ...(decoded.looksLike ? { looksLike: decoded.looksLike } : {}) });
  }
  return { ...(await importProducts(db, catalog, decoded.text, at)), encoding: decoded.encoding };
}

/** What product:import does with its input: text as it is, bytes decoded. */
export function importProductInput(db: LibraryDatabase, catalog: CatalogRepo, input: ProductImportInput, at: number): Promise<ProductImportCounts & { encoding?: CsvEncoding }> {
  return 'fileBase64' in input ? importProductFile(db, catalog, Buffer.from(input.fileBase64, 'base64'), at) : importProducts(db, catalog, input.csv, at);
}
