// The CSV sidecar: RFC 4180 quoting, CRLF, UTF-8 with BOM, and formulas kept out of spreadsheets.
import { describe, expect, it } from 'vitest';
import { csvDocument, csvField, CSV_BOM } from './csv.ts';
import { parseCsv } from './csv-reader.test-support.ts';


describe('CSV sidecar', () => {
  it('quotes only fields that need it and doubles quotes', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('cr\rhere')).toBe('"cr\rhere"');
    expect(csvField(12.5)).toBe('12.5');
    expect(csvField(true)).toBe('true');
    expect(csvField(null)).toBe('');
  });

  it('starts with a BOM, ends records with CRLF, and reads back exactly (Chinese, quotes, commas, newlines, JSON)', () => {
    const json = JSON.stringify({ prompt: '杯子, "白色"', n: 2 });
    const rows = [
      ['a.png', '白瓷杯，晨光 "柔和"\r\n第二行', 3, json],
      ['b.png', 'plain', null, '{}'],
    ];
    const doc = csvDocument(['file', 'prompt', 'credits', 'generation_data'], rows);
    expect(doc.startsWith(CSV_BOM)).toBe(true);
    expect(new TextEncoder().encode(doc).subarray(0, 3)).toEqual(new Uint8Array([0xef, 0xbb, 0xbf]));
    expect(doc.endsWith('\r\n')).toBe(true);
    expect(parseCsv(doc.slice(1))).toEqual([
      ['file', 'prompt', 'credits', 'generation_data'],
      ['a.png', '白瓷杯，晨光 "柔和"\r\n第二行', '3', json],
      ['b.png', 'plain', '', '{}'],
    ]);
  });

  it('keeps text that a spreadsheet would run as a formula from running, in the text columns only', () => {
    const doc = csvDocument(['prompt', 'n'], [['=HYPERLINK("http://x")', '-3'], ['+cmd', '@x']], new Set([0]));
    expect(parseCsv(doc.slice(1))).toEqual([
      ['prompt', 'n'],
      [`'=HYPERLINK("http://x")`, '-3'],
      [`'+cmd`, '@x'],
    ]);
  });
});
