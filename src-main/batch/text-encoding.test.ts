import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  big5Csv,
  binaryFile,
  eucKrCsv,
  FOUR_BYTE_CSV,
  fourByteGb18030Csv,
  gb18030Csv,
  MARKET_CSV,
  marketGb18030Csv,
  RARE_CSV,
  rareNamesGbkCsv,
  shiftJisCsv,
  utf16beCsv,
  utf16leTabFile,
  utf8Csv,
} from './product-files.test-support.ts';
import { decodeText } from './text-encoding.ts';

/** The bytes written to a real file and read back, as the import gets them. */
function throughDisk(bytes: Buffer): Uint8Array {
  const file = join(mkdtempSync(join(tmpdir(), 'studio-encoding-')), 'products.csv');
  writeFileSync(file, bytes);
  return readFileSync(file);
}

describe('decodeText', () => {
  it('reads UTF-8 with and without BOM, UTF-16 LE and BE by their BOM, and GB18030, naming each', () => {
    const cases = [
      [utf8Csv(true), 'utf-8-bom'],
      [utf8Csv(false), 'utf-8'],
      [utf16leTabFile(), 'utf-16le'],
      [utf16beCsv(), 'utf-16be'],
      [gb18030Csv(), 'gb18030'],
    ] as const;
    for (const [bytes, encoding] of cases) {
      const decoded = decodeText(throughDisk(bytes));
      expect(decoded, encoding).toMatchObject({ ok: true, encoding });
      if (!decoded.ok) continue;
      // The BOM is not part of the text; the Chinese is intact.
      expect(decoded.text.startsWith('sku'), encoding).toBe(true);
      expect(decoded.text, encoding).toContain('青花瓷茶杯');
      expect(decoded.text, encoding).toContain('白色陶瓷餐盘，俯拍');
    }
  });

  it('reads real Chinese GB18030 and GBK sheets exactly: Latin mixed in, rare GBK-extension names, a four-byte character', () => {
    const cases = [
      [marketGb18030Csv(), MARKET_CSV],
      [rareNamesGbkCsv(), RARE_CSV],
      [fourByteGb18030Csv(), FOUR_BYTE_CSV],
    ] as const;
    for (const [bytes, text] of cases) expect(decodeText(throughDisk(bytes))).toEqual({ ok: true, encoding: 'gb18030', text });
  });

  it('refuses Japanese, Korean and Traditional Chinese sheets that GB18030 would read as garbage, naming what they look like', () => {
    // Shift-JIS read as GB18030 was "儅僌僇僢僾" for "マグカップ"; EUC-KR read as GB18030 is everyday Chinese characters.
    expect(decodeText(throughDisk(shiftJisCsv()))).toEqual({ ok: false, looksLike: 'shift_jis' });
    expect(decodeText(throughDisk(eucKrCsv()))).toEqual({ ok: false, looksLike: 'euc-kr' });
    expect(decodeText(throughDisk(big5Csv()))).toEqual({ ok: false, looksLike: 'big5' });
  });

  it('judges a large file by its start, cut at a line end: 300 kB of a Chinese sheet is GB18030, of a Japanese one Shift-JIS', () => {
    const repeat = (bytes: Buffer) => Buffer.concat(Array.from({ length: Math.ceil(300_000 / bytes.length) }, () => bytes));
    const chinese = decodeText(repeat(marketGb18030Csv()));
    expect(chinese).toMatchObject({ ok: true, encoding: 'gb18030' });
    if (chinese.ok) expect(chinese.text.endsWith(MARKET_CSV)).toBe(true);
    expect(decodeText(repeat(shiftJisCsv()))).toEqual({ ok: false, looksLike: 'shift_jis' });
  });

  it('refuses a file that is not text in any of them: a binary file, UTF-16 without BOM, a cut UTF-16 file, GB18030 bytes that make no Chinese', () => {
    expect(decodeText(throughDisk(binaryFile()))).toEqual({ ok: false });
    expect(decodeText(Buffer.from('sku,name,prompt\r\nA,杯,p\r\n', 'utf16le'))).toEqual({ ok: false });
    expect(decodeText(utf16leTabFile().subarray(0, 41))).toEqual({ ok: false });
    // Valid GB18030 (two-byte codes of the user-defined area) but private-use characters, not text.
    expect(decodeText(Buffer.from('sku,name\r\n\xaa\xa1\xaa\xa2\r\n', 'latin1'))).toEqual({ ok: false });
    // Valid GB18030 pairs that decode to Latin and box-drawing letters rather than Chinese.
    expect(decodeText(Buffer.from('sku,name\r\n\xa8\xa1\xa8\xa2\xa8\xa3\xa9\xa4\xa9\xa5\r\n', 'latin1'))).toEqual({ ok: false });
    // A file of only ASCII is UTF-8; an empty one too.
    expect(decodeText(Buffer.from('sku,name,prompt\n'))).toMatchObject({ ok: true, encoding: 'utf-8' });
    expect(decodeText(new Uint8Array())).toMatchObject({ ok: true, encoding: 'utf-8', text: '' });
  });
});
