// The iTXt writer and reader (png-chunks.ts) and the generation data on top (generation-data.ts), checked
// against independent implementations: sharp (libpng) must still decode the file to the same pixels, node:zlib's
// crc32 must agree with every chunk's stored CRC (libpng silently drops an ancillary chunk with a bad CRC, so
// decoding alone cannot prove the iTXt CRC), and a chunk made by hand must read back.
import { crc32 as zlibCrc32 } from 'node:zlib';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  embedGenerationData,
  generationDataXmp,
  GENERATION_DATA_MAX_BYTES,
  GENERATION_DATA_KEYWORD,
  readGenerationData,
  recallableRequest,
  type GenerationData,
} from './generation-data.ts';
import { crc32, encodeChunk, insertITXt, isValidKeyword, readChunks, readITXt } from './png-chunks.ts';

const DATA: GenerationData = {
  schemaVersion: 1,
  app: { name: 'Image Studio', version: '0.1.0' },
  imageId: 'img_AbCd1234',
  turnId: 'lt_0123456789',
  serviceTurnId: 't_AbCdEfGhIj',
  sessionId: 'ls_0123456789',
  serviceSessionId: 's_AbCdEfGhIj',
  environment: 'local',
  requestId: 'req_AbCdEfGhIjKlMnOpQrSt',
  request: {
    prompt: '白瓷杯放在胡桃木桌上，晨光 — "quoted" & <tagged> \u{1F375}',
    model: 'gpt-image-2',
    ratio: '4:5',
    resolution: '2K',
    quality: 'high',
    n: 2,
    purpose_id: 'free',
    ref_image_ids: ['img_Ref00001', 'img_Ref00002'],
    session_id: 's_AbCdEfGhIj',
  },
  referenceImageIds: ['img_Ref00001', 'img_Ref00002'],
  model: 'gpt-image-2',
  resolution: '2K',
  quality: 'high',
  width: 64,
  height: 80,
  creditsCharged: 102,
  creditsEstimated: 102,
  createdAt: '2026-03-01T09:30:00.000Z',
};

let png: Uint8Array;

beforeAll(async () => {
  png = new Uint8Array(
    await sharp({ create: { width: 64, height: 80, channels: 3, background: { r: 200, g: 120, b: 40 } } })
      .png()
      .toBuffer(),
  );
});

function chunkTypes(bytes: Uint8Array): string[] {
  const read = readChunks(bytes);
  if (!read.ok) throw new Error(read.reason);
  return read.chunks.map((c) => c.type);
}

describe('PNG chunks', () => {
  it('computes the standard CRC-32 (the check value of "123456789" and node:zlib agree)', () => {
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
    const random = crypto.getRandomValues(new Uint8Array(4096));
    expect(crc32(random)).toBe(zlibCrc32(random));
  });

  it('inserts one iTXt chunk right before IEND, leaves every other byte as it was, and sharp still decodes it', async () => {
    const out = insertITXt(png, 'image-studio', '{"a":"杯子"}');
    expect(chunkTypes(out)).toEqual([...chunkTypes(png).slice(0, -1), 'iTXt', 'IEND']);
    const before = readChunks(png);
    if (!before.ok) throw new Error('fixture');
    const iend = before.chunks.at(-1)!;
    // Everything up to IEND is untouched; the tail is the new chunk then the original IEND.
    expect(Buffer.from(out.subarray(0, iend.offset)).equals(Buffer.from(png.subarray(0, iend.offset)))).toBe(true);
    expect(Buffer.from(out.subarray(out.length - 12)).equals(Buffer.from(png.subarray(iend.offset)))).toBe(true);
    // libpng (through sharp) decodes it, CRCs of the critical chunks checked, to the very same pixels.
    const decoded = await sharp(out, { failOn: 'warning' }).raw().toBuffer({ resolveWithObject: true });
    expect(decoded.info).toMatchObject({ width: 64, height: 80 });
    const original = await sharp(png).raw().toBuffer();
    expect(decoded.data.equals(original)).toBe(true);
  });

  it('writes CRCs an independent implementation (node:zlib) agrees with, chunk by chunk', () => {
    const out = insertITXt(png, 'image-studio', 'x'.repeat(10_000));
    const read = readChunks(out, (b) => zlibCrc32(b));
    if (!read.ok) throw new Error(read.reason);
    for (const c of read.chunks) expect(c.crcOk, c.type).toBe(true);
    const view = Buffer.from(out);
    for (const c of read.chunks) expect(view.readUInt32BE(c.offset + 8 + c.length)).toBe(zlibCrc32(view.subarray(c.offset + 4, c.offset + 8 + c.length)));
  });

  it('lays the iTXt chunk out as the spec says: keyword, NUL, flag 0, method 0, empty language and translated keyword, UTF-8 text', () => {
    const out = insertITXt(png, 'image-studio', 'héllo');
    const read = readChunks(out);
    if (!read.ok) throw new Error(read.reason);
    const c = read.chunks.find((x) => x.type === 'iTXt')!;
    const data = Buffer.from(out.subarray(c.offset + 8, c.offset + 8 + c.length));
    expect(data.equals(Buffer.concat([Buffer.from('image-studio\0\0\0\0\0', 'latin1'), Buffer.from('héllo', 'utf8')]))).toBe(true);
  });

  it('reads a chunk it did not write (made by hand, with zlib’s CRC) and refuses one whose CRC is wrong', () => {
    const data = Buffer.concat([Buffer.from('image-studio\0\0\0en\0Bild\0', 'latin1'), Buffer.from('{"z":1}', 'utf8')]);
    const chunk = Buffer.alloc(12 + data.length);
    chunk.writeUInt32BE(data.length, 0);
    chunk.write('iTXt', 4, 'latin1');
    data.copy(chunk, 8);
    chunk.writeUInt32BE(zlibCrc32(chunk.subarray(4, 8 + data.length)), 8 + data.length);
    const iendAt = png.length - 12;
    const handmade = Buffer.concat([png.subarray(0, iendAt), chunk, png.subarray(iendAt)]);
    expect(readITXt(handmade, 'image-studio')).toEqual({ ok: true, text: '{"z":1}' });
    const damaged = Buffer.from(handmade);
    damaged.writeUInt8(damaged.readUInt8(iendAt + 8 + 20) ^ 0x01, iendAt + 8 + 20);
    expect(readITXt(damaged, 'image-studio')).toEqual({ ok: false, reason: 'bad_crc' });
  });

  it('replaces an earlier chunk with the same keyword instead of adding a second, and keeps other keywords', () => {
    const once = insertITXt(png, 'image-studio', 'first');
    const other = insertITXt(once, 'Comment', 'kept');
    const twice = insertITXt(other, 'image-studio', 'second');
    expect(chunkTypes(twice).filter((t) => t === 'iTXt')).toHaveLength(2);
    expect(readITXt(twice, 'image-studio')).toEqual({ ok: true, text: 'second' });
    expect(readITXt(twice, 'Comment')).toEqual({ ok: true, text: 'kept' });
  });

  it('tells a non-PNG, a truncated PNG and a PNG without the chunk apart', () => {
    expect(readITXt(new TextEncoder().encode('GIF89a……'), 'image-studio')).toEqual({ ok: false, reason: 'not_png' });
    expect(readITXt(png.subarray(0, png.length - 6), 'image-studio')).toEqual({ ok: false, reason: 'truncated' });
    expect(readITXt(png, 'image-studio')).toEqual({ ok: false, reason: 'absent' });
    expect(() => insertITXt(png.subarray(0, 30), 'image-studio', 'x')).toThrow(/truncated/);
  });

  it('accepts only keywords the spec allows', () => {
    expect(isValidKeyword('image-studio')).toBe(true);
    for (const bad of ['', ' lead', 'trail ', 'two  spaces', 'x'.repeat(80), 'caf\u00e9\u4e2d']) expect(isValidKeyword(bad), bad).toBe(false);
    expect(() => encodeChunk('IT', new Uint8Array())).toThrow();
  });
});

describe('generation data', () => {
  it('round-trips through the PNG: the JSON read back equals what was written, Chinese and emoji included', () => {
    const out = embedGenerationData(png, DATA);
    const read = readGenerationData(out);
    expect(read).toEqual({ ok: true, data: DATA, from: 'png' });
    const raw = readITXt(out, GENERATION_DATA_KEYWORD);
    expect(raw.ok && JSON.parse(raw.text)).toEqual(DATA);
  });

  it('round-trips through XMP in JPEG and WebP made by sharp', async () => {
    for (const format of ['jpeg', 'webp'] as const) {
      const bytes = await sharp(png)[format]({ quality: 80 }).withXmp(generationDataXmp(DATA)).toBuffer();
      expect(readGenerationData(bytes), format).toEqual({ ok: true, data: DATA, from: 'xmp' });
      // sharp reads the packet back as XMP (what other tools see).
      expect((await sharp(bytes).metadata()).xmp?.toString('utf8')).toContain('urn:image-studio:generation:1');
    }
  });

  it('says absent for a plain image, damaged for a broken chunk, not_image for anything else', async () => {
    expect(readGenerationData(png)).toEqual({ ok: false, reason: 'absent' });
    expect(readGenerationData(await sharp(png).jpeg().toBuffer())).toEqual({ ok: false, reason: 'absent' });
    expect(readGenerationData(insertITXt(png, GENERATION_DATA_KEYWORD, '{"schemaVersion":1}'))).toEqual({ ok: false, reason: 'damaged' });
    expect(readGenerationData(insertITXt(png, GENERATION_DATA_KEYWORD, 'not json'))).toEqual({ ok: false, reason: 'damaged' });
    expect(readGenerationData(insertITXt(png, GENERATION_DATA_KEYWORD, JSON.stringify({ ...DATA, schemaVersion: 2 })))).toEqual({ ok: false, reason: 'damaged' });
    expect(readGenerationData(new Uint8Array([137, 80, 78, 71]))).toEqual({ ok: false, reason: 'not_image' });
  });

  it('holds data from a file to the limits of a request: 16 references, a 4000-character prompt, and its size before parsing', async () => {
    const refs = (n: number) => Array.from({ length: n }, (_, i) => `img_R${String(i).padStart(7, '0')}`);
    const withData = (data: unknown) => insertITXt(png, GENERATION_DATA_KEYWORD, JSON.stringify(data));
    // At the limits: read.
    const sixteen = { ...DATA, referenceImageIds: refs(16), request: { ...DATA.request, ref_image_ids: refs(16), prompt: '\u{1F375}'.repeat(4000) } };
    expect(readGenerationData(withData(sixteen))).toMatchObject({ ok: true });
    // One past: refused, naming the limit, whichever list holds the ids.
    expect(readGenerationData(withData({ ...DATA, referenceImageIds: refs(17) }))).toEqual({ ok: false, reason: 'over_limit', limit: 'references', found: 17, max: 16 });
    expect(readGenerationData(withData({ ...DATA, request: { ...DATA.request, ref_image_ids: refs(17) } }))).toMatchObject({ reason: 'over_limit', limit: 'references', found: 17 });
    // Code points, not UTF-16 units: 4001 emoji are 8002 units.
    expect(readGenerationData(withData({ ...DATA, request: { ...DATA.request, prompt: '\u{1F375}'.repeat(4001) } }))).toEqual({ ok: false, reason: 'over_limit', limit: 'prompt', found: 4001, max: 4000 });
    // 100,000 reference ids or a 2 MB prompt are past the size cap: refused before the text is decoded or parsed.
    const flood = withData({ ...DATA, referenceImageIds: refs(100_000) });
    expect(readGenerationData(flood)).toMatchObject({ ok: false, reason: 'over_limit', limit: 'size', max: GENERATION_DATA_MAX_BYTES });
    const huge = withData({ ...DATA, request: { ...DATA.request, prompt: 'x'.repeat(2 * 1024 * 1024) } });
    expect(readGenerationData(huge)).toMatchObject({ reason: 'over_limit', limit: 'size', found: expect.any(Number) });
    // The same in XMP (WebP: a JPEG segment cannot hold that much).
    const webp = await sharp(png).webp().withXmp(generationDataXmp({ ...DATA, referenceImageIds: refs(5_000) })).toBuffer();
    expect(readGenerationData(webp)).toMatchObject({ reason: 'over_limit', limit: 'size' });
    const jpeg17 = await sharp(png).jpeg().withXmp(generationDataXmp({ ...DATA, referenceImageIds: refs(17) })).toBuffer();
    expect(readGenerationData(jpeg17)).toMatchObject({ reason: 'over_limit', limit: 'references', found: 17 });
    // An id no app writes (a megabyte long fits nothing) is damaged data.
    expect(readGenerationData(withData({ ...DATA, imageId: 'img_' + 'x'.repeat(500) }))).toEqual({ ok: false, reason: 'damaged' });
  });

  it('recalls the request without the session it was sent to', () => {
    const request = recallableRequest(DATA);
    expect(request).not.toHaveProperty('session_id');
    expect(request).toMatchObject({ prompt: DATA.request.prompt, model: 'gpt-image-2', ratio: '4:5', n: 2, ref_image_ids: ['img_Ref00001', 'img_Ref00002'] });
  });
});
