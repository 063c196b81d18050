// A CSV import problem (src-shared/product-csv.ts) as a readable line in the UI language: "line 3, column 1 (sku):
// this SKU is already on line 2". Main gives the reason code and its facts; the words are made here.
import type { CsvProblem } from '../../../src-shared/ipc/batch.ts';
import type { BatchKey, BatchT } from './i18n.ts';

const CSV_REASONS = [
  'missing_header',
  'unknown_column',
  'duplicate_column',
  'missing_column',
  'unclosed_quote',
  'stray_quote',
  'empty',
  'too_long',
  'control_character',
  'duplicate_sku',
  'wrong_field_count',
  'invalid_utf8',
] as const;

function param(params: Record<string, unknown> | undefined, ...names: string[]): string | null {
  for (const name of names) {
    const v = params?.[name];
    if (typeof v === 'string' || typeof v === 'number') return String(v);
  }
  return null;
}

/** "line 3, column 2 (name): empty; this column needs a value", from the problem's reason and facts. */
export function csvProblemText(p: CsvProblem, t: BatchT): string {
  const params = p.params;
  const reason = (CSV_REASONS as readonly string[]).includes(p.reason) ? p.reason : null;
  let message: string;
  if (reason === 'wrong_field_count') {
    const got = param(params, 'got');
    const expected = param(params, 'expected');
    message = got !== null && expected !== null ? t('csv.wrong_field_count', { got, expected }) : t('csv.wrong_field_count_plain');
  } else if (reason === 'empty' && p.field === null) {
    message = t('csv.empty_file');
  } else if (reason) {
    message = t(`csv.${reason}` as BatchKey, {
      name: param(params, 'name') ?? p.field ?? '',
      first: param(params, 'firstColumn') ?? '?',
      limit: param(params, 'limit') ?? '?',
      length: param(params, 'length') ?? '?',
      other: param(params, 'firstLine') ?? '?',
    });
  } else {
    message = t('csv.other', { reason: p.reason });
  }
  return p.field ? t('csvProblem', { line: p.line, column: p.column, field: p.field, message }) : t('csvProblemNoField', { line: p.line, column: p.column, message });
}
