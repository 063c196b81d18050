// A text file's bytes as text, in the encodings spreadsheets save (docs/catalog.md "Importing products"): UTF-8
// with or without BOM (Excel's "CSV UTF-8", LibreOffice, Numbers), UTF-16 LE/BE with BOM (Excel's "Unicode
// text"), and GB18030/GBK (Excel and WPS on Chinese Windows, "CSV (逗号分隔)"). Node's TextDecoder (full ICU)
// reads all of them, so no library is needed. The rule, in order: a BOM names the encoding; else bytes that are
// valid UTF-8 are UTF-8 (a GBK file is almost never valid UTF-8); else bytes that decode as GB18030 into text that
// reads as Chinese are GB18030; else the file is none of them, and when it reads as another East Asian encoding
// (Japanese, Korean, Traditional Chinese) the refusal names it.
import type { CsvEncoding, CsvForeignEncoding } from '../../src-shared/ipc/batch.ts';

export type DecodedText = { ok: true; text: string; encoding: CsvEncoding } | { ok: false; looksLike?: CsvForeignEncoding };

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
/**
 * Of the non-ASCII characters, the largest share that may lie outside GB2312 (the characters of everyday
 * Simplified Chinese) for GB18030 to be believed: a few rare names pass, but Shift-JIS read as GB18030 lands almost
 * wholly in GBK's extension (its kana and kanji lead bytes are 0x81–0x9F), and Big5 half in it.
 */
const RARE_SHARE = 0.25;
/** In a Japanese reading, the share of kana among the letters that says Japanese (sentences are full of kana). */
const KANA_SHARE = 0.2;
/** In a Korean reading, the share of Hangul syllables among the letters that says Korean (Hanja is rare today). */
const HANGUL_SHARE = 0.9;
/**
 * The fewest Hangul syllables that say Korean. EUC-KR's Hangul sits on the GB2312 characters whose first byte is
 * 0xB0–0xC8, and about a third of everyday Chinese characters lie above 0xC8 (seen in our sample files), so a Chinese
 * file this long that has none of them is 0.69^20, about 1 in 1,700; a shorter one cannot be told apart, and is
 * read as Chinese (our users' files).
 */
const HANGUL_MIN = 20;
/** The fewest ideographs that name Big5 or Shift-JIS as what a refused file looks like. */
const IDEOGRAPHS_MIN = 8;
/** Bytes of the start of the file judged: a header and thousands of rows (a 20 MB file is read in main). */
const SAMPLE_BYTES = 256 * 1024;

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

/**
 * The start of the file, cut after a line feed: in every encoding judged here a byte below 0x40 is ASCII only, so
 * the cut never splits a character.
 */
function sampleOf(bytes: Uint8Array): Uint8Array {
  if (bytes.length <= SAMPLE_BYTES) return bytes;
  const end = bytes.lastIndexOf(0x0a, SAMPLE_BYTES);
  return bytes.subarray(0, end > 0 ? end + 1 : SAMPLE_BYTES);
}

/** GB18030 maps almost any byte pair to some character, so the result must also read as Chinese text. */
function looksLikeChineseText(text: string): boolean {
  let wide = 0;
  let chinese = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (isNotText(c)) return false;
    if (c < 0x80) continue;
    wide++;
    if (isChineseText(c)) chinese++;
  }
  return wide === 0 || chinese / wide >= CHINESE_SHARE;
}

/**
 * The share of a GB18030 file's characters beyond ASCII that are not in GB2312 (leads 0xA1–0xF7, trails 0xA1–0xFE):
 * GBK's extension (a lead of 0x81–0xA0 or a trail below 0xA1) and GB18030's four-byte codes.
 */
function rareShare(bytes: Uint8Array): number {
  let wide = 0;
  let rare = 0;
  for (let i = 0; i < bytes.length; ) {
    const lead = bytes[i]!;
    if (lead < 0x80) {
      i++;
      continue;
    }
    wide++;
    const trail = bytes[i + 1] ?? 0;
    // A second byte 0x30–0x39 starts a four-byte code (Unicode beyond GBK, e.g. 𠮷).
    const fourBytes = trail >= 0x30 && trail <= 0x39;
    if (fourBytes || lead < 0xa1 || lead > 0xf7 || trail < 0xa1) rare++;
    i += fourBytes ? 4 : 2;
  }
  return wide === 0 ? 0 : rare / wide;
}

/** Letters beyond ASCII by script: kana, Hangul syllables, and all of them (those two and CJK ideographs). */
function scriptCounts(text: string): { kana: number; hangul: number; letters: number } {
  const counts = { kana: 0, hangul: 0, letters: 0 };
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const kana = c >= 0x3041 && c <= 0x30fa;
    const hangul = c >= 0xac00 && c <= 0xd7a3;
    const ideograph = (c >= 0x3400 && c <= 0x9fff) || (c >= 0xf900 && c <= 0xfaff);
    if (kana) counts.kana++;
    if (hangul) counts.hangul++;
    if (kana || hangul || ideograph) counts.letters++;
  }
  return counts;
}

/** Whether the bytes read as Japanese in that encoding: valid, and kana among the letters as Japanese has them. */
function readsAsJapanese(sample: Uint8Array, decoder: 'shift_jis' | 'euc-jp'): boolean {
  const text = decodeStrict(sample, decoder);
  if (text === null) return false;
  const { kana, letters } = scriptCounts(text);
  return letters > 0 && kana / letters >= KANA_SHARE;
}

/**
 * Whether the bytes read as Korean (EUC-KR and its Windows superset): valid, and nearly all Hangul. Needed because
 * EUC-KR's Hangul sits on GB2312's everyday characters, so a Korean file also reads as plausible GB18030.
 */
function readsAsKorean(sample: Uint8Array): boolean {
  const text = decodeStrict(sample, 'euc-kr');
  if (text === null) return false;
  const { hangul, letters } = scriptCounts(text);
  return hangul >= HANGUL_MIN && hangul / letters >= HANGUL_SHARE;
}

/**
 * Whether the bytes read as text in CJK ideographs in that encoding (asked only once GB18030 failed), with enough
 * of them to name it: a few bytes of anything are valid Big5.
 */
function readsAsIdeographs(sample: Uint8Array, decoder: 'big5' | 'shift_jis'): boolean {
  const text = decodeStrict(sample, decoder);
  return text !== null && !text.includes(NUL) && looksLikeChineseText(text) && scriptCounts(text).letters >= IDEOGRAPHS_MIN;
}

/** Japanese or Korean: scripts Chinese text does not have in such numbers, so they outrank a GB18030 reading. */
function otherScriptOf(sample: Uint8Array): CsvForeignEncoding | null {
  if (readsAsJapanese(sample, 'shift_jis')) return 'shift_jis';
  if (readsAsJapanese(sample, 'euc-jp')) return 'euc-jp';
  if (readsAsKorean(sample)) return 'euc-kr';
  return null;
}

/** Whether GB18030 reads the bytes as Chinese text: valid, text, Chinese, and mostly everyday characters. */
function readsAsChinese(bytes: Uint8Array, sample: Uint8Array): string | null {
  const gb = decodeStrict(bytes, 'gb18030');
  if (gb === null || gb.includes(NUL)) return null;
  const start = decodeStrict(sample, 'gb18030') ?? '';
  return looksLikeChineseText(start) && rareShare(sample) <= RARE_SHARE ? gb : null;
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
  const sample = sampleOf(bytes);
  const other = otherScriptOf(sample);
  const gb = other === null ? readsAsChinese(bytes, sample) : null;
  if (gb !== null) return { ok: true, text: gb, encoding: 'gb18030' };
  // Refused: named when another encoding reads it (Big5 and then Shift-JIS without kana only now: GB2312 bytes are
  // valid Big5 too, and Japanese written only in kanji is still Japanese).
  const looksLike = other ?? (readsAsIdeographs(sample, 'big5') ? 'big5' : readsAsIdeographs(sample, 'shift_jis') ? 'shift_jis' : null);
  return looksLike ? { ok: false, looksLike } : { ok: false };
}
