// The product list as CSV (docs/catalog.md, batch.ts `product:import` / `product:export`): RFC 4180 with a few
// deliberate choices, each written next to the code that makes it:
// - A leading BOM is ignored; CRLF, LF (and a lone CR, as old spreadsheets write) end a line.
// - Fields are separated by commas, or by tabs when the header line holds tabs and no comma (Excel's "Unicode text").
// - Spaces or tabs around a quoted field (`a, "b, c"`) are allowed; a quote anywhere else in an unquoted field is
//   `stray_quote`.
// - Lines that hold nothing but spaces are skipped; the first other line is the header.
// - Line numbers are physical lines of the file (a quoted field spanning lines moves every later number);
//   columns are 1-based field indexes, not characters.
// - Lengths count UTF-16 units, as ProductInputSchema (zod `max`) does when the import saves the rows.
// - A file with a header and no data rows is the problem `empty` (field null) on the line after the header.
// - Every problem is collected, up to CSV_PROBLEMS_MAX, so a file is fixed in one go; any problem means no rows.
import type { CsvProblem, CsvSeparator, Product } from './ipc/batch.ts';
import { CONTROL_CHARACTER, PRODUCT_NAME_MAX, PRODUCT_NOTES_MAX, PRODUCT_PROMPT_MAX, SKU_MAX } from './limits.ts';

export interface ProductCsvRow {
  /** Physical line (1-based) where the row starts. */
  line: number;
  sku: string;
  name: string;
  prompt: string;
  notes: string;
}

/** `separator`: what the fields were split on; `hasNotes`: whether the header names a notes column. */
export type ProductCsvResult = { ok: true; rows: ProductCsvRow[]; separator: CsvSeparator; hasNotes: boolean } | { ok: false; problems: CsvProblem[] };

/** Problems after which parsing stops: a file with more is the wrong file, and the list is already long. */
export const CSV_PROBLEMS_MAX = 200;

const COLUMNS = ['sku', 'name', 'prompt', 'notes'] as const;
type ColumnName = (typeof COLUMNS)[number];
const REQUIRED: readonly ColumnName[] = ['sku', 'name', 'prompt'];
const LIMITS: Record<ColumnName, number> = { sku: SKU_MAX, name: PRODUCT_NAME_MAX, prompt: PRODUCT_PROMPT_MAX, notes: PRODUCT_NOTES_MAX };

const BOM = '\uFEFF';
const REPLACEMENT_CHARACTER = '\uFFFD';

/**
 * A cell a spreadsheet would run as a formula (OWASP "CSV injection"): export writes it with one leading
 * apostrophe, import removes one. Apostrophes before the formula character count too, so that a value which
 * itself starts with `'=` gets one more on export and comes back unchanged.
 */
const FORMULA_START = /^'*[=+\-@\t\r]/;

interface Field {
  value: string;
  /** Physical line where the field starts. */
  line: number;
  quoted: boolean;
}

interface TokenProblem {
  reason: 'stray_quote' | 'unclosed_quote';
  /** 0-based field index in its record. */
  index: number;
  line: number;
}

interface CsvRecord {
  line: number;
  /** Physical line where the record's last line break is (or the last line of the file). */
  endLine: number;
  fields: Field[];
  problems: TokenProblem[];
}

const SEPARATOR_CODES: Record<CsvSeparator, number> = { comma: 44, tab: 9 };

/** Tab when the header (the first line that is not blank) holds a tab and no comma; else comma. */
export function csvSeparator(text: string): CsvSeparator {
  // Without splitting 20 MB into lines.
  const header = /^\uFEFF?(?:[ \t]*(?:\r\n|\n|\r))*([^\r\n]*)/.exec(text)?.[1] ?? '';
  return header.includes('\t') && !header.includes(',') ? 'tab' : 'comma';
}

/** Splits the text into records; each knows its physical lines. Quotes are resolved, values are not trimmed. */
function* readRecords(text: string, separator: CsvSeparator): Generator<CsvRecord> {
  const delimiter = SEPARATOR_CODES[separator];
  let pos = 0;
  let line = 1;
  const length = text.length;

  /** Consumes a line break at pos (CRLF, LF or CR); false when there is none. */
  const lineBreak = (): boolean => {
    const c = text.charCodeAt(pos);
    if (c === 13) {
      pos += text.charCodeAt(pos + 1) === 10 ? 2 : 1;
      line++;
      return true;
    }
    if (c === 10) {
      pos++;
      line++;
      return true;
    }
    return false;
  };
  // Around a quoted field: spaces, and tabs unless they separate the fields.
  const isBlank = (c: number): boolean => c === 32 || (c === 9 && delimiter !== 9);

  while (pos < length) {
    const record: CsvRecord = { line, endLine: line, fields: [], problems: [] };
    for (;;) {
      const fieldLine = line;
      const index = record.fields.length;
      // Spaces before an opening quote are not part of a quoted field.
      let look = pos;
      while (look < length && isBlank(text.charCodeAt(look))) look++;
      let value = '';
      let quoted = false;
      if (text.charCodeAt(look) === 34) {
        quoted = true;
        pos = look + 1;
        let closed = false;
        while (pos < length) {
          const next = text.indexOf('"', pos);
          const end = next < 0 ? length : next;
          // Count the line breaks inside the quoted part (CRLF once).
          for (let i = pos; i < end; i++) {
            const c = text.charCodeAt(i);
            if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) line++;
          }
          value += text.slice(pos, end);
          if (next < 0) {
            pos = length;
            break;
          }
          if (text.charCodeAt(next + 1) === 34) {
            value += '"';
            pos = next + 2;
            continue;
          }
          pos = next + 1;
          closed = true;
          break;
        }
        if (!closed) {
          record.problems.push({ reason: 'unclosed_quote', index, line: fieldLine });
          record.fields.push({ value, line: fieldLine, quoted });
          record.endLine = line;
          yield record;
          return;
        }
        while (pos < length && isBlank(text.charCodeAt(pos))) pos++;
      }
      // Unquoted text up to the delimiter; after a closing quote any such text is a stray quote's doing.
      let stray = false;
      const start = pos;
      while (pos < length) {
        const c = text.charCodeAt(pos);
        if (c === delimiter || c === 10 || c === 13) break;
        if (c === 34 || quoted) stray = true;
        pos++;
      }
      value += text.slice(start, pos);
      if (stray) record.problems.push({ reason: 'stray_quote', index, line: fieldLine });
      record.fields.push({ value, line: fieldLine, quoted });
      if (text.charCodeAt(pos) === delimiter) {
        pos++;
        continue;
      }
      record.endLine = line;
      lineBreak();
      break;
    }
    const only = record.fields[0];
    if (record.fields.length === 1 && only && !only.quoted && only.value.trim() === '' && record.problems.length === 0) continue;
    yield record;
  }
}

/** The line of the first U+FFFD in a field (a file that was not UTF-8), or null. */
function replacementLine(field: Field): number | null {
  const at = field.value.indexOf(REPLACEMENT_CHARACTER);
  if (at < 0) return null;
  let line = field.line;
  for (let i = 0; i < at; i++) {
    const c = field.value.charCodeAt(i);
    if (c === 10 || (c === 13 && field.value.charCodeAt(i + 1) !== 10)) line++;
  }
  return line;
}

/** A cell's value as stored: trimmed, then the export's formula apostrophe removed. */
function cellValue(raw: string): string {
  const trimmed = raw.trim();
  return trimmed.startsWith("'") && FORMULA_START.test(trimmed.slice(1)) ? trimmed.slice(1) : trimmed;
}

class ProblemList {
  readonly items: CsvProblem[] = [];
  get full(): boolean {
    return this.items.length >= CSV_PROBLEMS_MAX;
  }
  add(problem: CsvProblem): void {
    if (!this.full) this.items.push(problem);
  }
}

function tokenProblems(record: CsvRecord, header: ReadonlyArray<string | null>, problems: ProblemList): void {
  for (const p of record.problems) {
    problems.add({ line: p.line, column: p.index + 1, field: header[p.index] ?? null, reason: p.reason });
  }
}

/**
 * Reads a product list. All or nothing: any problem answers every problem found (up to CSV_PROBLEMS_MAX) and no
 * rows. Reasons: missing_header, unknown_column, duplicate_column, missing_column, stray_quote, unclosed_quote,
 * wrong_field_count, empty, too_long, control_character, duplicate_sku, invalid_utf8.
 */
export function parseProductCsv(text: string): ProductCsvResult {
  const source = text.startsWith(BOM) ? text.slice(1) : text;
  const separator = csvSeparator(source);
  const records = readRecords(source, separator);
  const problems = new ProblemList();

  const first = records.next();
  if (first.done) return { ok: false, problems: [{ line: 1, column: 1, field: null, reason: 'missing_header' }] };
  const headerRecord = first.value;

  // Header: names are compared trimmed and case-insensitively; a cell with no name is an unknown column ('').
  const names = headerRecord.fields.map((f) => f.value.trim().toLowerCase());
  const columnOf = new Map<ColumnName, number>();
  const headerProblems: CsvProblem[] = [];
  names.forEach((name, i) => {
    const field = headerRecord.fields[i];
    const utf8Line = field ? replacementLine(field) : null;
    if (utf8Line !== null) {
      headerProblems.push({ line: utf8Line, column: i + 1, field: null, reason: 'invalid_utf8' });
      return;
    }
    if (!(COLUMNS as readonly string[]).includes(name)) {
      headerProblems.push({ line: field?.line ?? headerRecord.line, column: i + 1, field: name, reason: 'unknown_column' });
      return;
    }
    const known = columnOf.get(name as ColumnName);
    if (known !== undefined) {
      headerProblems.push({ line: field?.line ?? headerRecord.line, column: i + 1, field: name, reason: 'duplicate_column', params: { firstColumn: known + 1 } });
      return;
    }
    columnOf.set(name as ColumnName, i);
  });
  if (columnOf.size === 0) {
    // Not a header at all (a file without one, or another kind of file): the columns cannot be told apart.
    problems.add({ line: headerRecord.line, column: 1, field: null, reason: 'missing_header' });
    tokenProblems(headerRecord, [], problems);
    for (const record of records) {
      if (problems.full) break;
      tokenProblems(record, [], problems);
    }
    return { ok: false, problems: problems.items };
  }
  const fieldNames: Array<string | null> = names.map((name) => name || null);
  tokenProblems(headerRecord, fieldNames, problems);
  for (const p of headerProblems) problems.add(p);
  for (const name of REQUIRED) {
    if (!columnOf.has(name)) problems.add({ line: headerRecord.line, column: names.length + 1, field: name, reason: 'missing_column' });
  }

  const rows: ProductCsvRow[] = [];
  const skuLines = new Map<string, number>();
  let dataRecords = 0;
  for (const record of records) {
    if (problems.full) break;
    dataRecords++;
    tokenProblems(record, fieldNames, problems);
    // The rest of the file sits in the unclosed field: nothing else of it can be judged.
    if (record.problems.some((p) => p.reason === 'unclosed_quote')) continue;
    if (record.fields.length !== names.length) {
      // Values may be shifted into the wrong columns, so they are not judged. The problem is on the record's first
      // line, at the first missing or extra field.
      const column = Math.min(record.fields.length, names.length) + 1;
      problems.add({ line: record.line, column, field: fieldNames[column - 1] ?? null, reason: 'wrong_field_count', params: { expected: names.length, got: record.fields.length } });
      continue;
    }
    const values: Record<ColumnName, string> = { sku: '', name: '', prompt: '', notes: '' };
    for (const name of COLUMNS) {
      const index = columnOf.get(name);
      const field = index === undefined ? undefined : record.fields[index];
      if (index === undefined || !field) continue;
      const at = { line: field.line, column: index + 1, field: name };
      const utf8Line = replacementLine(field);
      if (utf8Line !== null) {
        problems.add({ ...at, line: utf8Line, reason: 'invalid_utf8' });
        continue;
      }
      const value = cellValue(field.value);
      values[name] = value;
      if (value === '' && (name === 'sku' || name === 'name')) problems.add({ ...at, reason: 'empty' });
      else if (value.length > LIMITS[name]) problems.add({ ...at, reason: 'too_long', params: { limit: LIMITS[name], length: value.length } });
      // A SKU or a name is one line (the prompt and notes may hold line breaks).
      else if ((name === 'sku' || name === 'name') && CONTROL_CHARACTER.test(value)) problems.add({ ...at, reason: 'control_character' });
      else if (name === 'sku') {
        const firstLine = skuLines.get(value);
        if (firstLine !== undefined) problems.add({ ...at, reason: 'duplicate_sku', params: { firstLine } });
        else skuLines.set(value, field.line);
      }
    }
    rows.push({ line: record.line, ...values });
  }
  if (dataRecords === 0) {
    problems.add({ line: headerRecord.endLine + 1, column: 1, field: null, reason: 'empty' });
  }
  return problems.items.length > 0 ? { ok: false, problems: problems.items } : { ok: true, rows, separator, hasNotes: columnOf.has('notes') };
}

/** One cell of the export: formula-looking text gets an apostrophe; quoted when it holds a quote, comma or line break. */
function csvCell(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** The product list as the import reads it: UTF-8 BOM (for spreadsheets), header `sku,name,prompt,notes`, CRLF. */
export function productsCsv(products: ReadonlyArray<Pick<Product, 'sku' | 'name' | 'prompt' | 'notes'>>): string {
  const lines = [COLUMNS.join(',')];
  for (const p of products) lines.push([p.sku, p.name, p.prompt, p.notes].map(csvCell).join(','));
  return `${BOM}${lines.join('\r\n')}\r\n`;
}
