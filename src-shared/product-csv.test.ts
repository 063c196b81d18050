import { describe, expect, it } from 'vitest';
import { PRODUCT_NAME_MAX, PRODUCT_NOTES_MAX, PRODUCT_PROMPT_MAX, SKU_MAX, type CsvProblem } from './ipc/batch.ts';
import { CSV_PROBLEMS_MAX, parseProductCsv, productsCsv, type ProductCsvRow } from './product-csv.ts';

function rows(text: string): ProductCsvRow[] {
  const result = parseProductCsv(text);
  if (!result.ok) throw new Error(`expected rows, got ${JSON.stringify(result.problems)}`);
  return result.rows;
}

function problems(text: string): CsvProblem[] {
  const result = parseProductCsv(text);
  if (result.ok) throw new Error(`expected problems, got ${JSON.stringify(result.rows)}`);
  expect(Object.keys(result)).toEqual(['ok', 'problems']);
  return result.problems;
}

describe('parseProductCsv: reading', () => {
  it('reads a file with a BOM and one without the same way', () => {
    const text = 'sku,name,prompt,notes\r\nA-1,Mug,a red mug,fragile\r\n';
    const expected = [{ line: 2, sku: 'A-1', name: 'Mug', prompt: 'a red mug', notes: 'fragile' }];
    expect(rows(text)).toEqual(expected);
    expect(rows(`\uFEFF${text}`)).toEqual(expected);
    // The BOM is not part of the first cell, so a quoted first column name is still quoted.
    expect(rows(`\uFEFF"sku","name","prompt","notes"\r\nA-1,Mug,a red mug,fragile\r\n`)).toEqual(expected);
  });

  it('takes LF and CRLF line ends, with or without a final line end', () => {
    expect(rows('sku,name,prompt\nA,Mug,p1\nB,Cup,p2')).toEqual([
      { line: 2, sku: 'A', name: 'Mug', prompt: 'p1', notes: '' },
      { line: 3, sku: 'B', name: 'Cup', prompt: 'p2', notes: '' },
    ]);
    expect(rows('sku,name,prompt\r\nA,Mug,p1\r\nB,Cup,p2\r\n').map((r) => r.sku)).toEqual(['A', 'B']);
  });

  it('takes a lone CR as a line end too (old spreadsheets write them)', () => {
    expect(rows('sku,name,prompt\rA,Mug,"p\rq"\rB,Cup,p\r').map((r) => [r.sku, r.line, r.prompt])).toEqual([
      ['A', 2, 'p\rq'],
      ['B', 4, 'p'],
    ]);
  });

  it('matches column names trimmed and case-insensitively, in any order', () => {
    expect(rows(' Prompt ,SKU,\tName,NOTES\na red mug,A-1,Mug,n')).toEqual([{ line: 2, sku: 'A-1', name: 'Mug', prompt: 'a red mug', notes: 'n' }]);
  });

  it('keeps commas, line breaks and doubled quotes inside quoted fields', () => {
    const text = 'sku,name,prompt,notes\r\n"A,1","Mug ""Deluxe""","line one\r\nline two\nline three","a, b"\r\n';
    expect(rows(text)).toEqual([{ line: 2, sku: 'A,1', name: 'Mug "Deluxe"', prompt: 'line one\r\nline two\nline three', notes: 'a, b' }]);
  });

  it('counts physical lines after a quoted field that spans lines', () => {
    const text = 'sku,name,prompt\nA,Mug,"one\ntwo\r\nthree"\nB,Cup,p\n\nC,Bowl,"x\ny"\nD,,p\n';
    const result = parseProductCsv(text);
    expect(result).toEqual({ ok: false, problems: [{ line: 9, column: 2, field: 'name', reason: 'empty' }] });
    expect(rows(text.replace('D,,p', 'D,Plate,p')).map((r) => [r.sku, r.line])).toEqual([
      ['A', 2],
      ['B', 5],
      ['C', 7],
      ['D', 9],
    ]);
  });

  it('keeps Chinese text exactly', () => {
    const prompt = '一只白色陶瓷马克杯，放在木桌上，柔和的自然光。「限量版」';
    expect(rows(`sku,name,prompt,notes\n杯-001,马克杯 白色,"${prompt}",易碎品 轻拿轻放\n`)).toEqual([
      { line: 2, sku: '杯-001', name: '马克杯 白色', prompt, notes: '易碎品 轻拿轻放' },
    ]);
  });

  it('trims the ends of every value and keeps inner spacing', () => {
    expect(rows('sku,name,prompt,notes\n  A-1 ,  Mug  ,"  a  red\n  mug  ",  n  \n')).toEqual([
      { line: 2, sku: 'A-1', name: 'Mug', prompt: 'a  red\n  mug', notes: 'n' },
    ]);
  });

  it('skips blank lines, including lines of spaces and trailing ones', () => {
    expect(rows('\n\nsku,name,prompt\n\nA,Mug,p\n   \r\n\r\nB,Cup,p\n\n\n').map((r) => [r.sku, r.line])).toEqual([
      ['A', 5],
      ['B', 8],
    ]);
  });

  it('splits on tabs when the header holds tabs and no comma (Excel\'s "Unicode text"), and says which it split on', () => {
    const tab = parseProductCsv('sku\tname\tprompt\tnotes\r\nA-1\tMug, white\t "a\tmug" \t\r\n');
    expect(tab).toEqual({ ok: true, separator: 'tab', hasNotes: true, rows: [{ line: 2, sku: 'A-1', name: 'Mug, white', prompt: 'a\tmug', notes: '' }] });
    // A header with commas is comma-separated even when a column name holds a tab.
    expect(parseProductCsv('sku,\tname,prompt\nA,Mug,p\tq\n')).toMatchObject({ ok: true, separator: 'comma', hasNotes: false, rows: [{ sku: 'A', prompt: 'p\tq' }] });
  });

  it('allows spaces around a quoted field', () => {
    expect(rows('sku,name,prompt\nA,  "Mug, large"  ,p')).toEqual([{ line: 2, sku: 'A', name: 'Mug, large', prompt: 'p', notes: '' }]);
  });

  it('takes an empty prompt (a product may rely on its reference images)', () => {
    expect(rows('sku,name,prompt\nA,Mug,\n')).toEqual([{ line: 2, sku: 'A', name: 'Mug', prompt: '', notes: '' }]);
  });

  it('takes values exactly at the limits', () => {
    const text = `sku,name,prompt,notes\n${'S'.repeat(SKU_MAX)},${'N'.repeat(PRODUCT_NAME_MAX)},${'P'.repeat(PRODUCT_PROMPT_MAX)},${'O'.repeat(PRODUCT_NOTES_MAX)}\n`;
    expect(rows(text)[0]?.prompt.length).toBe(PRODUCT_PROMPT_MAX);
  });

  it("removes one apostrophe before a formula character and keeps other apostrophes", () => {
    expect(rows("sku,name,prompt,notes\n'=A1,'+1 pack,'-20% deal,'@home\nB,'tis mug,''=x,'\n").map(({ sku, name, prompt, notes }) => [sku, name, prompt, notes])).toEqual([
      ['=A1', '+1 pack', '-20% deal', '@home'],
      ['B', "'tis mug", "'=x", "'"],
    ]);
  });
});

describe('parseProductCsv: problems', () => {
  it('an empty file, or one of blank lines, has no header', () => {
    expect(problems('')).toEqual([{ line: 1, column: 1, field: null, reason: 'missing_header' }]);
    expect(problems('\uFEFF\r\n  \n')).toEqual([{ line: 1, column: 1, field: null, reason: 'missing_header' }]);
  });

  it('a file whose first line names no known column has no header', () => {
    expect(problems('A-1,Mug,a red mug\nA-2,Cup,a cup\n')).toEqual([{ line: 1, column: 1, field: null, reason: 'missing_header' }]);
  });

  it('a header with no data rows is "empty" on the line after the header', () => {
    expect(problems('sku,name,prompt\r\n')).toEqual([{ line: 2, column: 1, field: null, reason: 'empty' }]);
    // A header cell spanning two lines (names are trimmed, so it is still `prompt`): the header ends on line 2.
    expect(problems('sku,name,"prompt\n"\n\n\n')).toEqual([{ line: 3, column: 1, field: null, reason: 'empty' }]);
  });

  it('reports unknown, repeated and missing columns on the header line', () => {
    expect(problems('sku,Price,SKU,name,\nA,1,A,Mug,\n')).toEqual([
      { line: 1, column: 2, field: 'price', reason: 'unknown_column' },
      { line: 1, column: 3, field: 'sku', reason: 'duplicate_column', params: { firstColumn: 1 } },
      { line: 1, column: 5, field: '', reason: 'unknown_column' },
      { line: 1, column: 6, field: 'prompt', reason: 'missing_column' },
    ]);
  });

  it('refuses a control character in a SKU or a name at its field; the prompt and notes may hold line breaks', () => {
    expect(problems('sku,name,prompt\n"A\nB",Mug,p\nC,"Mug\tBlue",p\nD,"Bell\u0007",p\n')).toEqual([
      { line: 2, column: 1, field: 'sku', reason: 'control_character' },
      { line: 4, column: 2, field: 'name', reason: 'control_character' },
      { line: 5, column: 2, field: 'name', reason: 'control_character' },
    ]);
    expect(rows('sku,name,prompt,notes\nA,Mug,"two\nlines","tab\there"\n')[0]).toMatchObject({ prompt: 'two\nlines', notes: 'tab\there' });
  });

  it('reports a quote inside an unquoted field, and text after a closing quote, at their field', () => {
    expect(problems('sku,name,prompt\nA,12" pizza,p\nB,"Mug"s,p\n')).toEqual([
      { line: 2, column: 2, field: 'name', reason: 'stray_quote' },
      { line: 3, column: 2, field: 'name', reason: 'stray_quote' },
    ]);
  });

  it('reports a quote never closed where it opened', () => {
    expect(problems('sku,name,prompt\nA,Mug,p\nB,Cup,"a cup\nC,Bowl,p\nD,Plate,p\n')).toEqual([
      { line: 3, column: 3, field: 'prompt', reason: 'unclosed_quote' },
    ]);
  });

  it('reports a record with too few or too many fields on its first line, at the first missing or extra field', () => {
    expect(problems('sku,name,prompt\nA,Mug\nB,Cup,p,extra\nC,"Bowl\nlarge",p,x\n')).toEqual([
      { line: 2, column: 3, field: 'prompt', reason: 'wrong_field_count', params: { expected: 3, got: 2 } },
      { line: 3, column: 4, field: null, reason: 'wrong_field_count', params: { expected: 3, got: 4 } },
      { line: 4, column: 4, field: null, reason: 'wrong_field_count', params: { expected: 3, got: 4 } },
    ]);
  });

  it('reports an empty SKU or name after trimming', () => {
    expect(problems('sku,name,prompt\n  ,Mug,p\nB,"  ",p\n')).toEqual([
      { line: 2, column: 1, field: 'sku', reason: 'empty' },
      { line: 3, column: 2, field: 'name', reason: 'empty' },
    ]);
  });

  it('reports values over the limits with the limit', () => {
    const text = `notes,prompt,name,sku\n${'o'.repeat(PRODUCT_NOTES_MAX + 1)},${'p'.repeat(PRODUCT_PROMPT_MAX + 1)},${'n'.repeat(PRODUCT_NAME_MAX + 1)},${'s'.repeat(SKU_MAX + 1)}\n`;
    expect(problems(text)).toEqual([
      { line: 2, column: 4, field: 'sku', reason: 'too_long', params: { limit: SKU_MAX, length: SKU_MAX + 1 } },
      { line: 2, column: 3, field: 'name', reason: 'too_long', params: { limit: PRODUCT_NAME_MAX, length: PRODUCT_NAME_MAX + 1 } },
      { line: 2, column: 2, field: 'prompt', reason: 'too_long', params: { limit: PRODUCT_PROMPT_MAX, length: PRODUCT_PROMPT_MAX + 1 } },
      { line: 2, column: 1, field: 'notes', reason: 'too_long', params: { limit: PRODUCT_NOTES_MAX, length: PRODUCT_NOTES_MAX + 1 } },
    ]);
  });

  it('reports a repeated SKU with the line of its first use (compared exactly, after trimming)', () => {
    expect(problems('sku,name,prompt\nA-1,Mug,"p\nq"\na-1,Cup,p\n A-1 ,Bowl,p\n')).toEqual([
      { line: 5, column: 1, field: 'sku', reason: 'duplicate_sku', params: { firstLine: 2 } },
    ]);
  });

  it('reports U+FFFD (a file that was not UTF-8) on the line of the character', () => {
    expect(problems('sku,name,prompt\nA,Mug,"first line\nbad \uFFFD here"\nB,\uFFFD\uFFFD,p\n')).toEqual([
      { line: 3, column: 3, field: 'prompt', reason: 'invalid_utf8' },
      { line: 4, column: 2, field: 'name', reason: 'invalid_utf8' },
    ]);
  });

  it('collects every problem of the file at once, and no rows', () => {
    const text = 'sku,name,prompt\nA,,p\nB,Cup\nA,Mug,p\n,Bowl,p\nC,Plate,p\n';
    const result = parseProductCsv(text);
    expect(result).toEqual({
      ok: false,
      problems: [
        { line: 2, column: 2, field: 'name', reason: 'empty' },
        { line: 3, column: 3, field: 'prompt', reason: 'wrong_field_count', params: { expected: 3, got: 2 } },
        { line: 4, column: 1, field: 'sku', reason: 'duplicate_sku', params: { firstLine: 2 } },
        { line: 5, column: 1, field: 'sku', reason: 'empty' },
      ],
    });
  });

  it(`stops at ${CSV_PROBLEMS_MAX} problems`, () => {
    const lines = ['sku,name,prompt'];
    for (let i = 0; i < 500; i++) lines.push(`S${i},,p`);
    const found = problems(lines.join('\n'));
    expect(found).toHaveLength(CSV_PROBLEMS_MAX);
    expect(found.at(-1)).toEqual({ line: CSV_PROBLEMS_MAX + 1, column: 2, field: 'name', reason: 'empty' });
  });
});

describe('productsCsv', () => {
  const products = [
    { sku: 'A-1', name: 'Mug, large', prompt: 'A "hand-made" mug\non oak', notes: '' },
    { sku: '杯-002', name: '马克杯（白色）', prompt: '白色陶瓷马克杯，木桌，自然光', notes: '易碎，轻拿轻放' },
    { sku: '=HYPERLINK("x")', name: '+1 pack', prompt: '-20% deal\r\nsecond line', notes: '@home' },
    { sku: "'=x", name: "'tis", prompt: "''+y", notes: "it's fine" },
  ];

  it('writes a BOM, the header, CRLF line ends and RFC 4180 quotes', () => {
    expect(productsCsv(products.slice(0, 1))).toBe('\uFEFFsku,name,prompt,notes\r\nA-1,"Mug, large","A ""hand-made"" mug\non oak",\r\n');
    expect(productsCsv([])).toBe('\uFEFFsku,name,prompt,notes\r\n');
  });

  it('writes an apostrophe before a cell a spreadsheet would run as a formula', () => {
    expect(productsCsv(products.slice(2, 3))).toBe('\uFEFFsku,name,prompt,notes\r\n"\'=HYPERLINK(""x"")",\'+1 pack,"\'-20% deal\r\nsecond line",\'@home\r\n');
  });

  it('reads back exactly what it wrote (Chinese, commas, quotes, line breaks, formula characters, apostrophes)', () => {
    const back = rows(productsCsv(products)).map(({ sku, name, prompt, notes }) => ({ sku, name, prompt, notes }));
    expect(back).toEqual(products);
  });
});
