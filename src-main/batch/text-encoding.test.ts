import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { binaryFile, gb18030Csv, utf16beCsv, utf16leTabFile, utf8Csv } from './product-files.test-support.ts';
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
