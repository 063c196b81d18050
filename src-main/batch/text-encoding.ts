// A text file's bytes as text, in the encodings spreadsheets save (docs/catalog.md "Importing products"): UTF-8
// with or without BOM (Excel's "CSV UTF-8", LibreOffice, Numbers), UTF-16 LE/BE with BOM (Excel's "Unicode
// text"), and GB18030/GBK (Excel and WPS on Chinese Windows, "CSV (逗号分隔)"). Node's TextDecoder (full ICU)
// reads all of them, so no library is needed. The rule, in order: a BOM names the encoding; else bytes that are
// valid UTF-8 are UTF-8 (a GBK file is almost never valid UTF-8); else bytes that decode as GB18030 into text that
// looks like Chinese text are GB18030; else the file is none of them.
import type { CsvEncoding } from '../../src-shared/ipc/batch.ts';

export type DecodedText = { ok: true; text: string; encoding: CsvEncoding } | { ok: false };

const BOMS: ReadonlyArray<{ bytes: readonly number[]; encoding: CsvEncoding; decoder: string }> = [
  { bytes: [0xef, 0xbb, 0xbf], encoding: 'utf-8-bom', decoder: 'utf-8' },
  { bytes: [0xff, 0xfe], encoding: 'utf-16le', decoder: 'utf-16le' },
  { bytes: [0xfe, 0xff], encoding: 'utf-16be', decoder: 'utf-16be' },
];

/** A NUL is never in a text file (the test git and grep use too): UTF-16 without BOM, images, archives. */
const NUL = '\u0000';
/** Control characters besides tab and line ends, and the private use area GBK's user-defined codes map to. */
function isNotText(c: number): boolean {
  return (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) || c === 0x7f || (c >= 0xe000 && c <= 0xf8ff);
}
/** Characters Chinese text is made of beyond ASCII: CJK ideographs, CJK and general punctuation, kana, full-width forms. */
function isChineseText(c: number): boolean {
  return (c >= 0x3400 && c <= 0x9fff) || (c >= 0x3000 && c <= 0x30ff) || (c >= 0x2010 && c <= 0x203f) || (c >= 0xff00 && c <= 0xffef) || c === 0xb7 || c === 0xd7 || c === 0xf7;
}
/** Of the non-ASCII characters, the share that must be Chinese text for GB18030 to be believed. */
const CHINESE_SHARE = 0.8;
/** UTF-16 units of the start of the text judged: a header and thousands of rows. */
const SAMPLE_UNITS = 256 * 1024;

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return prefix.every((b, i) => bytes[i] === b);
}

/** The text, or null when the bytes are not valid in that encoding (a fatal decoder refuses instead of writing U+FFFD). */
function decodeStrict(bytes: Uint8Array, decoder: string): string | null {
  try {
    // The decoder drops a BOM of its own encoding.
    return new TextDecoder(decoder, { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** GB18030 maps almost any byte pair to some character, so the result must also read as Chinese text. */
function looksLikeChineseText(text: string): boolean {
  let wide = 0;
  let chinese = 0;
  // The start of the file decides: a 20 MB file is read in main, and bytes that are not Chinese text are not
  // Chinese text anywhere (the fatal decoder has already checked every byte of the file is valid GB18030).
  const end = Math.min(text.length, SAMPLE_UNITS);
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    if (isNotText(c)) return false;
    if (c < 0x80) continue;
    wide++;
    if (isChineseText(c)) chinese++;
  }
  return wide === 0 || chinese / wide >= CHINESE_SHARE;
}

/** The bytes as text and the encoding read, or not ok when the file is in none of the encodings above (or not text). */
export function decodeText(bytes: Uint8Array): DecodedText {
  const bom = BOMS.find((b) => startsWith(bytes, b.bytes));
  if (bom) {
    const text = decodeStrict(bytes, bom.decoder);
    return text === null || text.includes(NUL) ? { ok: false } : { ok: true, text, encoding: bom.encoding };
  }
  const utf8 = decodeStrict(bytes, 'utf-8');
  if (utf8 !== null) return utf8.includes(NUL) ? { ok: false } : { ok: true, text: utf8, encoding: 'utf-8' };
  const gb = decodeStrict(bytes, 'gb18030');
  if (gb !== null && !gb.includes(NUL) && looksLikeChineseText(gb)) return { ok: true, text: gb, encoding: 'gb18030' };
  return { ok: false };
}
