import { describe, expect, it } from 'vitest';
import { parseProductCsv } from '../../../src-shared/product-csv.ts';
import { textIn } from '../../i18n/text.ts';
import { csvProblemText } from './csv-problems.ts';
import { batchText } from './i18n.ts';

const tIn = (lng: string) => textIn(batchText, lng);

function problemsOf(csv: string) {
  const parsed = parseProductCsv(csv);
  if (parsed.ok) throw new Error('expected problems');
  return parsed.problems;
}

describe('CSV problem lines', () => {
  it('names the line, column and field, and the other line of a repeated SKU', () => {
    const [p] = problemsOf('sku,name,prompt\nA-1,One,x\nA-1,Again,y\n');
    expect(csvProblemText(p!, tIn('en'))).toBe('line 3, column 1 (sku): this SKU is already on line 2');
    expect(csvProblemText(p!, tIn('zh-CN'))).toBe('第 3 行，第 1 列（sku）：该 SKU 已出现在第 2 行');
  });

  it('says how many values a row has against the header', () => {
    const [p] = problemsOf('sku,name,prompt\nA-1,One,x,extra\n');
    expect(csvProblemText(p!, tIn('en'))).toMatch(/^line 2, column 4.*: the row has 4 values but the header has 3$/);
  });

  it('gives the limit of a value that is too long, and says a required value is empty', () => {
    const long = problemsOf(`sku,name,prompt\n${'x'.repeat(65)},One,x\n`)[0]!;
    expect(csvProblemText(long, tIn('en'))).toBe('line 2, column 1 (sku): too long: 65 characters, at most 64');
    const empty = problemsOf('sku,name,prompt\nA-1,,x\n')[0]!;
    expect(csvProblemText(empty, tIn('en'))).toBe('line 2, column 2 (name): empty; this column needs a value');
  });

  it('has a sentence for every reason the parser reports, in both languages (no raw keys)', () => {
    const files = ['', 'sku,name,prompt,colour\n', 'sku,name,sku,prompt\n', 'sku,prompt\nA,x\n', 'sku,name,prompt\nA,"One,x\n', 'sku,name,prompt\nA,O"ne,x\n', 'sku,name,prompt\n'];
    for (const file of files) {
      for (const p of problemsOf(file)) {
        for (const lng of ['en', 'zh-CN']) {
          const text = csvProblemText(p, tIn(lng));
          expect(text, `${p.reason} in ${lng}`).not.toMatch(/csv\.|\{\{|\?\)/);
        }
      }
    }
  });
});
