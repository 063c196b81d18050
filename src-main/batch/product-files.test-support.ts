// Product files as the spreadsheets people use save them, byte for byte, for the import's tests (unit and e2e).
// The GB18030 bytes were made by another encoder (Python's gb18030 codec), not by the decoder under test.

/** What every file below holds: two products with Chinese names, a quoted comma, notes on the first. */
export const PRODUCT_FILE_ROWS = [
  { sku: 'TEA-1', name: '青花瓷茶杯', prompt: '一只青花瓷茶杯，放在木桌上', notes: '易碎' },
  { sku: 'TEA-2', name: '白瓷盘, 26cm', prompt: '白色陶瓷餐盘，俯拍', notes: '' },
] as const;

const CSV_TEXT = 'sku,name,prompt,notes\r\nTEA-1,青花瓷茶杯,一只青花瓷茶杯，放在木桌上,易碎\r\nTEA-2,"白瓷盘, 26cm",白色陶瓷餐盘，俯拍,\r\n';
/** Excel's "Unicode text": tab-separated, quotes only where a field needs them. */
const TAB_TEXT = 'sku\tname\tprompt\tnotes\r\nTEA-1\t青花瓷茶杯\t一只青花瓷茶杯，放在木桌上\t易碎\r\nTEA-2\t白瓷盘, 26cm\t白色陶瓷餐盘，俯拍\t\r\n';

/** CSV_TEXT in GB18030, as Excel or WPS on Chinese Windows saves "CSV (逗号分隔)". */
export function gb18030Csv(): Buffer {
  return Buffer.from(
    '736b752c6e616d652c70726f6d70742c6e6f7465730d0a5445412d312cc7e0bba8b4c9b2e8b1ad2cd2bbd6bbc7e0bba8b4c9b2e8b1ada3acb7c5d4' +
      'dac4bed7c0c9cf2cd2d7cbe90d0a5445412d322c22b0d7b4c9c5cc2c203236636d222cb0d7c9abccd5b4c9b2cdc5cca3acb8a9c5c42c0d0a',
    'hex',
  );
}

/** TAB_TEXT in UTF-16 LE with its BOM: Excel's "Unicode text (*.txt)". */
export function utf16leTabFile(): Buffer {
  return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(TAB_TEXT, 'utf16le')]);
}

/** CSV_TEXT in UTF-16 BE with its BOM. */
export function utf16beCsv(): Buffer {
  return Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(CSV_TEXT, 'utf16le').swap16()]);
}

/** CSV_TEXT in UTF-8 with a BOM (Excel's "CSV UTF-8"); without it when `bom` is false. */
export function utf8Csv(bom = true): Buffer {
  return Buffer.concat([Buffer.from(bom ? [0xef, 0xbb, 0xbf] : []), Buffer.from(CSV_TEXT, 'utf8')]);
}

/** Not a text file: a PNG signature, then bytes from a fixed pseudo-random sequence. */
export function binaryFile(length = 4096): Buffer {
  const bytes = Buffer.alloc(length);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(bytes);
  let seed = 0x2545f491;
  for (let i = 8; i < length; i++) {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    bytes[i] = seed & 0xff;
  }
  return bytes;
}
