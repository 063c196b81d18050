// The CSV sidecar of an export: RFC 4180 (fields with a comma, quote, CR or LF are quoted, quotes doubled, CRLF
// between records), UTF-8 with a BOM so Excel reads Chinese text as UTF-8.

export const CSV_BOM = '\uFEFF';

/** Cells Excel and other spreadsheets would run as a formula; such text cells get a leading apostrophe. */
const FORMULA_START = /^[=+\-@\t\r]/;

export type CsvCell = string | number | boolean | null;

export function csvField(value: CsvCell, options: { text?: boolean } = {}): string {
  if (value === null) return '';
  let text = String(value);
  if (options.text && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The whole file: BOM, header, one record per row, CRLF line ends (also after the last record). */
export function csvDocument(header: readonly string[], rows: ReadonlyArray<readonly CsvCell[]>, textColumns: ReadonlySet<number> = new Set()): string {
  const lines = [header.map((h) => csvField(h)).join(',')];
  for (const row of rows) lines.push(row.map((cell, i) => csvField(cell, { text: textColumns.has(i) })).join(','));
  return CSV_BOM + lines.join('\r\n') + '\r\n';
}
