// PNG chunks without a runtime (main writes them, the renderer reads them from a dropped file): walk the
// chunks with their CRCs, insert an iTXt text chunk before IEND, read one back. PNG (Third Edition) §5.3 (chunk
// layout, CRC-32 over type and data), §11.3.3.4 (iTXt).

export const PNG_SIGNATURE: readonly number[] = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 (ISO 3309, the PNG and zlib one) of `bytes`, as an unsigned 32-bit number. */
export function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = (CRC_TABLE[(c ^ (bytes[i] as number)) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

export type Crc32 = (bytes: Uint8Array) => number;

export interface PngChunk {
  /** Four ASCII letters, e.g. IHDR, iTXt, IEND. */
  type: string;
  /** Where the chunk starts (its length field) in the file. */
  offset: number;
  /** Data length (without length, type and CRC). */
  length: number;
  /** The CRC stored in the file and whether it matches type + data. */
  crc: number;
  crcOk: boolean;
}

export type ChunksResult = { ok: true; chunks: PngChunk[] } | { ok: false; reason: 'not_png' | 'truncated' };

export function isPng(bytes: Uint8Array): boolean {
  return bytes.length >= 8 && PNG_SIGNATURE.every((b, i) => bytes[i] === b);
}

function u32(bytes: Uint8Array, at: number): number {
  return (((bytes[at] as number) << 24) | ((bytes[at + 1] as number) << 16) | ((bytes[at + 2] as number) << 8) | (bytes[at + 3] as number)) >>> 0;
}

function putU32(bytes: Uint8Array, at: number, value: number): void {
  bytes[at] = (value >>> 24) & 0xff;
  bytes[at + 1] = (value >>> 16) & 0xff;
  bytes[at + 2] = (value >>> 8) & 0xff;
  bytes[at + 3] = value & 0xff;
}

function latin1(bytes: Uint8Array, from: number, to: number): string {
  let out = '';
  for (let i = from; i < to; i++) out += String.fromCharCode(bytes[i] as number);
  return out;
}

/** Every chunk up to and including IEND, with its CRC checked; `truncated` when the file ends inside one or before IEND. */
export function readChunks(bytes: Uint8Array, crc: Crc32 = crc32): ChunksResult {
  if (!isPng(bytes)) return { ok: false, reason: 'not_png' };
  const chunks: PngChunk[] = [];
  let at = 8;
  while (at + 12 <= bytes.length) {
    const length = u32(bytes, at);
    const end = at + 12 + length;
    if (length > 0x7fffffff || end > bytes.length) return { ok: false, reason: 'truncated' };
    const type = latin1(bytes, at + 4, at + 8);
    const stored = u32(bytes, end - 4);
    chunks.push({ type, offset: at, length, crc: stored, crcOk: crc(bytes.subarray(at + 4, end - 4)) === stored });
    at = end;
    if (type === 'IEND') return { ok: true, chunks };
  }
  return { ok: false, reason: 'truncated' };
}

/** A whole chunk (length, type, data, CRC). */
export function encodeChunk(type: string, data: Uint8Array, crc: Crc32 = crc32): Uint8Array<ArrayBuffer> {
  if (!/^[A-Za-z]{4}$/.test(type)) throw new Error(`Not a PNG chunk type: ${type}`);
  const out = new Uint8Array(12 + data.length);
  putU32(out, 0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  putU32(out, 8 + data.length, crc(out.subarray(4, 8 + data.length)));
  return out;
}

/** A keyword the spec allows: 1–79 printable Latin-1 characters, no leading, trailing or double spaces. */
export function isValidKeyword(keyword: string): boolean {
  return (
    keyword.length >= 1 &&
    keyword.length <= 79 &&
    /^[\x20-\x7e\xa1-\xff]+$/.test(keyword) &&
    !keyword.startsWith(' ') &&
    !keyword.endsWith(' ') &&
    !keyword.includes('  ')
  );
}

/** The data of an uncompressed iTXt chunk: keyword, 0, flag 0, method 0, empty language tag, 0, empty translated keyword, 0, UTF-8 text. */
export function iTXtData(keyword: string, text: string): Uint8Array<ArrayBuffer> {
  if (!isValidKeyword(keyword)) throw new Error(`Not a valid PNG keyword: ${JSON.stringify(keyword)}`);
  const body = new TextEncoder().encode(text);
  const out = new Uint8Array(keyword.length + 5 + body.length);
  for (let i = 0; i < keyword.length; i++) out[i] = keyword.charCodeAt(i);
  // keyword NUL, compression flag 0, compression method 0, language tag "" NUL, translated keyword "" NUL.
  out.set([0, 0, 0, 0, 0], keyword.length);
  out.set(body, keyword.length + 5);
  return out;
}

interface ParsedITXt {
  keyword: string;
  compressed: boolean;
  text: Uint8Array;
}

function parseITXt(data: Uint8Array): ParsedITXt | null {
  const nul = data.indexOf(0);
  if (nul < 1 || nul + 3 > data.length) return null;
  const keyword = latin1(data, 0, nul);
  const compressed = data[nul + 1] === 1;
  const language = data.indexOf(0, nul + 3);
  if (language < 0) return null;
  const translated = data.indexOf(0, language + 1);
  if (translated < 0) return null;
  return { keyword, compressed, text: data.subarray(translated + 1) };
}

/**
 * The PNG with one uncompressed iTXt chunk `keyword` = `text` just before IEND. An earlier iTXt chunk with the
 * same keyword is dropped (exporting an exported file again keeps one). Everything else stays byte for byte.
 */
export function insertITXt(png: Uint8Array, keyword: string, text: string, crc: Crc32 = crc32): Uint8Array<ArrayBuffer> {
  const read = readChunks(png, crc);
  if (!read.ok) throw new Error(read.reason === 'not_png' ? 'Not a PNG file.' : 'The PNG file is truncated (no IEND chunk).');
  const chunk = encodeChunk('iTXt', iTXtData(keyword, text), crc);
  const iend = read.chunks.at(-1) as PngChunk;
  const kept: Array<[number, number]> = [];
  let from = 0;
  for (const c of read.chunks) {
    if (c.type !== 'iTXt') continue;
    const parsed = parseITXt(png.subarray(c.offset + 8, c.offset + 8 + c.length));
    if (parsed?.keyword !== keyword) continue;
    kept.push([from, c.offset]);
    from = c.offset + 12 + c.length;
  }
  kept.push([from, iend.offset]);
  const size = kept.reduce((n, [a, b]) => n + (b - a), 0) + chunk.length + 12;
  const out = new Uint8Array(size);
  let at = 0;
  for (const [a, b] of kept) {
    out.set(png.subarray(a, b), at);
    at += b - a;
  }
  out.set(chunk, at);
  out.set(png.subarray(iend.offset, iend.offset + 12), at + chunk.length);
  return out;
}

export type ReadTextResult =
  | { ok: true; text: string }
  | { ok: false; reason: 'not_png' | 'truncated' | 'absent' | 'bad_crc' | 'compressed' | 'bad_utf8' }
  /** The chunk's text is `bytes` long, past the caller's cap: not decoded. */
  | { ok: false; reason: 'too_large'; bytes: number };

/** The text of the first iTXt chunk named `keyword`, checked against its CRC; past `maxTextBytes` it is not decoded. */
export function readITXt(png: Uint8Array, keyword: string, crc: Crc32 = crc32, maxTextBytes = Infinity): ReadTextResult {
  const read = readChunks(png, crc);
  if (!read.ok) return read;
  for (const c of read.chunks) {
    if (c.type !== 'iTXt') continue;
    const parsed = parseITXt(png.subarray(c.offset + 8, c.offset + 8 + c.length));
    if (!parsed || parsed.keyword !== keyword) continue;
    if (!c.crcOk) return { ok: false, reason: 'bad_crc' };
    // The app writes its chunk uncompressed; a compressed one would need zlib, which src-shared does not have.
    if (parsed.compressed) return { ok: false, reason: 'compressed' };
    if (parsed.text.byteLength > maxTextBytes) return { ok: false, reason: 'too_large', bytes: parsed.text.byteLength };
    try {
      return { ok: true, text: new TextDecoder('utf-8', { fatal: true }).decode(parsed.text) };
    } catch {
      return { ok: false, reason: 'bad_utf8' };
    }
  }
  return { ok: false, reason: 'absent' };
}
