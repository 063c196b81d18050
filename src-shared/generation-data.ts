// The generation data an exported image carries (docs/main-process.md "Export"): what was asked, which turn and
// session made it, what it cost. Written by main into a PNG iTXt chunk (keyword `image-studio`, UTF-8 JSON) or,
// for JPEG and WebP, into an XMP packet; read back by the renderer from a file dropped on the compose panel.
import { z } from 'zod';
import { GenerateRequestSchema, type GenerateRequest } from './api.ts';
import { insertITXt, isPng, readITXt, type Crc32 } from './png-chunks.ts';

export const GENERATION_DATA_KEYWORD = 'image-studio';
export const GENERATION_DATA_SCHEMA_VERSION = 1;
/** The XMP namespace and property holding the same JSON in JPEG and WebP exports. */
export const GENERATION_XMP_NAMESPACE = 'urn:image-studio:generation:1';
const XMP_PROPERTY = 'imagestudio:generation';

export const GenerationDataSchema = z.object({
  schemaVersion: z.literal(GENERATION_DATA_SCHEMA_VERSION),
  app: z.object({ name: z.string(), version: z.string() }),
  imageId: z.string(),
  /** The app's own turn id (lt_…) and the service's (t_…), once known. */
  turnId: z.string(),
  serviceTurnId: z.string().nullable(),
  /** The app's own session id and the service's (s_…). */
  sessionId: z.string(),
  serviceSessionId: z.string().nullable(),
  environment: z.enum(['local', 'remote']),
  /** The service's request id (req_…) of the run. */
  requestId: z.string().nullable(),
  /** The request body as it was sent (prompt, model, ratio, resolution, quality, n, purpose_id, ref_image_ids). */
  request: z.object(GenerateRequestSchema.shape),
  /** The references in request order (the same ids as request.ref_image_ids). */
  referenceImageIds: z.array(z.string()),
  /** What ran: the model auto chose, the resolution and the billed quality. */
  model: z.string(),
  resolution: z.string(),
  quality: z.string().nullable(),
  width: z.number().int(),
  height: z.number().int(),
  /** The turn's figures: the service's charge (null if unknown) and the app's estimate (what was reserved). */
  creditsCharged: z.number().nullable(),
  creditsEstimated: z.number(),
  /** ISO 8601, UTC. */
  createdAt: z.string(),
});
export type GenerationData = z.infer<typeof GenerationDataSchema>;

export function generationDataJson(data: GenerationData): string {
  return JSON.stringify(data);
}

/** The PNG with the generation data in its `image-studio` iTXt chunk, before IEND. */
export function embedGenerationData(png: Uint8Array, data: GenerationData, crc?: Crc32): Uint8Array<ArrayBuffer> {
  return insertITXt(png, GENERATION_DATA_KEYWORD, generationDataJson(data), crc);
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] as string);
}

function unescapeXml(text: string): string {
  return text.replace(/&(lt|gt|amp|quot|apos|#\d+|#x[0-9a-fA-F]+);/g, (_m, name: string) => {
    if (name.startsWith('#x')) return String.fromCodePoint(parseInt(name.slice(2), 16));
    if (name.startsWith('#')) return String.fromCodePoint(parseInt(name.slice(1), 10));
    return ({ lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" })[name] as string;
  });
}

/** An XMP packet holding the generation data as one text property (for JPEG and WebP exports). */
export function generationDataXmp(data: GenerationData): string {
  return [
    '<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>',
    '<x:xmpmeta xmlns:x="adobe:ns:meta/">',
    ' <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">',
    `  <rdf:Description rdf:about="" xmlns:imagestudio="${GENERATION_XMP_NAMESPACE}">`,
    `   <${XMP_PROPERTY}>${escapeXml(generationDataJson(data))}</${XMP_PROPERTY}>`,
    '  </rdf:Description>',
    ' </rdf:RDF>',
    '</x:xmpmeta>',
    '<?xpacket end="w"?>',
  ].join('\n');
}

export type ReadGenerationDataResult =
  | { ok: true; data: GenerationData; from: 'png' | 'xmp' }
  /** `absent`: a readable image without our data; `damaged`: our data is there but fails its CRC, UTF-8, JSON or schema; `not_image`: neither PNG, JPEG nor WebP. */
  | { ok: false; reason: 'absent' | 'damaged' | 'not_image' };

function parseData(text: string): GenerationData | null {
  try {
    const parsed = GenerationDataSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function isJpeg(bytes: Uint8Array): boolean {
  return bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
}

function isWebp(bytes: Uint8Array): boolean {
  const tag = (at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));
  return bytes.length >= 12 && tag(0) === 'RIFF' && tag(8) === 'WEBP';
}

/** Finds our XMP property in the bytes (JPEG APP1 and WebP XMP chunks hold the packet as plain UTF-8). */
function readXmp(bytes: Uint8Array): string | null {
  const open = new TextEncoder().encode(`<${XMP_PROPERTY}>`);
  const close = new TextEncoder().encode(`</${XMP_PROPERTY}>`);
  const start = indexOf(bytes, open, 0);
  if (start < 0) return null;
  const end = indexOf(bytes, close, start + open.length);
  if (end < 0) return null;
  try {
    return unescapeXml(new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(start + open.length, end)));
  } catch {
    return null;
  }
}

function indexOf(haystack: Uint8Array, needle: Uint8Array, from: number): number {
  const first = needle[0];
  outer: for (let i = haystack.indexOf(first as number, from); i >= 0 && i <= haystack.length - needle.length; i = haystack.indexOf(first as number, i + 1)) {
    for (let j = 1; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

/** The generation data of an exported file: the PNG's iTXt chunk, or the XMP packet of a JPEG or WebP. */
export function readGenerationData(bytes: Uint8Array): ReadGenerationDataResult {
  if (isPng(bytes)) {
    const text = readITXt(bytes, GENERATION_DATA_KEYWORD);
    if (!text.ok) return { ok: false, reason: text.reason === 'absent' ? 'absent' : text.reason === 'not_png' ? 'not_image' : 'damaged' };
    const data = parseData(text.text);
    return data ? { ok: true, data, from: 'png' } : { ok: false, reason: 'damaged' };
  }
  if (isJpeg(bytes) || isWebp(bytes)) {
    const text = readXmp(bytes);
    if (text === null) return { ok: false, reason: 'absent' };
    const data = parseData(text);
    return data ? { ok: true, data, from: 'xmp' } : { ok: false, reason: 'damaged' };
  }
  return { ok: false, reason: 'not_image' };
}

/** The request to put back into the compose form (the session it was sent to is not part of a recall). */
export function recallableRequest(data: GenerationData): GenerateRequest {
  const { session_id: _session, ...request } = data.request;
  return request;
}
