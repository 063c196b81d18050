// The generation data an exported image carries (docs/main-process.md "Export"): what was asked, which turn and
// session made it, what it cost. Written by main into a PNG iTXt chunk (keyword `image-studio`, UTF-8 JSON) or,
// for JPEG and WebP, into an XMP packet; read back by the renderer from a file dropped on the compose panel.
//
// Read from a file that may come from anywhere, the data is held to the limits of a request before it reaches
// the form: its text is measured before it is decoded or parsed, and a prompt or a reference list longer than a
// request may carry refuses the file at once, saying which.
import { z } from 'zod';
import { GenerateRequestSchema, type GenerateRequest } from './api.ts';
import { MAX_REFERENCE_IMAGES, PROMPT_MAX_CODE_POINTS } from './catalog.ts';
import { insertITXt, isPng, readITXt, type Crc32 } from './png-chunks.ts';
import { codePointLength } from './validation.ts';

export const GENERATION_DATA_KEYWORD = 'image-studio';
export const GENERATION_DATA_SCHEMA_VERSION = 1;
/** The XMP namespace and property holding the same JSON in JPEG and WebP exports. */
export const GENERATION_XMP_NAMESPACE = 'urn:image-studio:generation:1';
const XMP_PROPERTY = 'imagestudio:generation';
/**
 * The most bytes of generation data read from a file. The largest real one is a 4000-code-point prompt escaped
 * twice (JSON, then XML in XMP: at most 7 bytes a character) with 16 reference ids: under 32 KB.
 */
export const GENERATION_DATA_MAX_BYTES = 64 * 1024;
/** Ids in the data (img_…, lt_…, s_…, req_…) are short; this bounds what a crafted file can put in one. */
const ID_MAX = 200;

const Id = z.string().max(ID_MAX);
/** A request's references: at most as many as any model takes (spec §2). */
const ReferenceIds = z.array(Id).max(MAX_REFERENCE_IMAGES);
/** A request's prompt: at most PROMPT_MAX_CODE_POINTS code points (spec §2), as the service counts them. */
const Prompt = z.string().refine((p) => codePointLength(p) <= PROMPT_MAX_CODE_POINTS, `at most ${PROMPT_MAX_CODE_POINTS} characters`);

export const GenerationDataSchema = z.object({
  schemaVersion: z.literal(GENERATION_DATA_SCHEMA_VERSION),
  app: z.object({ name: z.string(), version: z.string() }),
  imageId: Id,
  /** The app's own turn id (lt_…) and the service's (t_…), once known. */
  turnId: Id,
  serviceTurnId: Id.nullable(),
  /** The app's own session id and the service's (s_…). */
  sessionId: Id,
  serviceSessionId: Id.nullable(),
  environment: z.enum(['local', 'remote']),
  /** The service's request id (req_…) of the run. */
  requestId: Id.nullable(),
  /** The request body as it was sent (prompt, model, ratio, resolution, quality, n, purpose_id, ref_image_ids). */
  request: z.object({ ...GenerateRequestSchema.shape, prompt: Prompt.optional(), ref_image_ids: ReferenceIds.optional(), session_id: Id.optional() }),
  /** The references in request order (the same ids as request.ref_image_ids). */
  referenceImageIds: ReferenceIds,
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
  const prompt = data.request.prompt?.trim() ?? '';
  return [
    '<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>',
    '<x:xmpmeta xmlns:x="adobe:ns:meta/">',
    ' <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">',
    `  <rdf:Description rdf:about="" xmlns:imagestudio="${GENERATION_XMP_NAMESPACE}" xmlns:dc="http://purl.org/dc/elements/1.1/">`,
    // The prompt as the caption Lightroom, Bridge and most DAMs show (dc:description, a language alternative).
    ...(prompt === '' ? [] : [`   <dc:description><rdf:Alt><rdf:li xml:lang="x-default">${escapeXml(prompt)}</rdf:li></rdf:Alt></dc:description>`]),
    `   <${XMP_PROPERTY}>${escapeXml(generationDataJson(data))}</${XMP_PROPERTY}>`,
    '  </rdf:Description>',
    ' </rdf:RDF>',
    '</x:xmpmeta>',
    '<?xpacket end="w"?>',
  ].join('\n');
}

/** Which limit of a request the data goes past: its size, its reference count or its prompt's length. */
export type GenerationDataLimit = 'size' | 'references' | 'prompt';

export type ReadGenerationDataResult =
  | { ok: true; data: GenerationData; from: 'png' | 'xmp' }
  /** `absent`: a readable image without our data; `damaged`: our data is there but fails its CRC, UTF-8, JSON or schema; `not_image`: neither PNG, JPEG nor WebP. */
  | { ok: false; reason: 'absent' | 'damaged' | 'not_image' }
  /** Our data asks for more than a request may: `found` of `limit` (bytes, references or code points). */
  | { ok: false; reason: 'over_limit'; limit: GenerationDataLimit; found: number; max: number };

type Refused = Extract<ReadGenerationDataResult, { ok: false }>;
type Parsed = { ok: true; data: GenerationData } | Refused;

const DAMAGED = { ok: false, reason: 'damaged' } as const;

/** The first request limit the parsed JSON goes past, named so the user is told which. */
function overLimit(value: unknown): Refused | null {
  const data = (typeof value === 'object' && value !== null ? value : {}) as { referenceImageIds?: unknown; request?: { prompt?: unknown; ref_image_ids?: unknown } };
  for (const list of [data.referenceImageIds, data.request?.ref_image_ids]) {
    if (Array.isArray(list) && list.length > MAX_REFERENCE_IMAGES) return { ok: false, reason: 'over_limit', limit: 'references', found: list.length, max: MAX_REFERENCE_IMAGES };
  }
  const prompt = data.request?.prompt;
  // A prompt with more UTF-16 units than the limit's code points may still fit; only then are they counted.
  if (typeof prompt === 'string' && prompt.length > PROMPT_MAX_CODE_POINTS && codePointLength(prompt) > PROMPT_MAX_CODE_POINTS) {
    return { ok: false, reason: 'over_limit', limit: 'prompt', found: codePointLength(prompt), max: PROMPT_MAX_CODE_POINTS };
  }
  return null;
}

function parseData(text: string): Parsed {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return DAMAGED;
  }
  const over = overLimit(value);
  if (over) return over;
  const parsed = GenerationDataSchema.safeParse(value);
  return parsed.success ? { ok: true, data: parsed.data } : DAMAGED;
}

function tooLarge(bytes: number): Refused {
  return { ok: false, reason: 'over_limit', limit: 'size', found: bytes, max: GENERATION_DATA_MAX_BYTES };
}

function isJpeg(bytes: Uint8Array): boolean {
  return bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
}

function isWebp(bytes: Uint8Array): boolean {
  const tag = (at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));
  return bytes.length >= 12 && tag(0) === 'RIFF' && tag(8) === 'WEBP';
}

/**
 * Finds our XMP property in the bytes (JPEG APP1 and WebP XMP chunks hold the packet as plain UTF-8): its text,
 * `absent`, `damaged` (not UTF-8) or its size when it is past GENERATION_DATA_MAX_BYTES (then not decoded).
 */
function readXmp(bytes: Uint8Array): { text: string } | { absent: true } | { damaged: true } | { tooLarge: number } {
  const open = new TextEncoder().encode(`<${XMP_PROPERTY}>`);
  const close = new TextEncoder().encode(`</${XMP_PROPERTY}>`);
  const start = indexOf(bytes, open, 0);
  if (start < 0) return { absent: true };
  const end = indexOf(bytes, close, start + open.length);
  if (end < 0) return { absent: true };
  const size = end - start - open.length;
  if (size > GENERATION_DATA_MAX_BYTES) return { tooLarge: size };
  try {
    return { text: unescapeXml(new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(start + open.length, end))) };
  } catch {
    return { damaged: true };
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
    const text = readITXt(bytes, GENERATION_DATA_KEYWORD, undefined, GENERATION_DATA_MAX_BYTES);
    if (!text.ok) {
      if (text.reason === 'too_large') return tooLarge(text.bytes);
      return { ok: false, reason: text.reason === 'absent' ? 'absent' : text.reason === 'not_png' ? 'not_image' : 'damaged' };
    }
    return withSource(parseData(text.text), 'png');
  }
  if (isJpeg(bytes) || isWebp(bytes)) {
    const xmp = readXmp(bytes);
    if ('absent' in xmp) return { ok: false, reason: 'absent' };
    if ('damaged' in xmp) return DAMAGED;
    if ('tooLarge' in xmp) return tooLarge(xmp.tooLarge);
    return withSource(parseData(xmp.text), 'xmp');
  }
  return { ok: false, reason: 'not_image' };
}

function withSource(parsed: Parsed, from: 'png' | 'xmp'): ReadGenerationDataResult {
  return parsed.ok ? { ok: true, data: parsed.data, from } : parsed;
}

/** The request to put back into the compose form (the session it was sent to is not part of a recall). */
export function recallableRequest(data: GenerationData): GenerateRequest {
  const { session_id: _session, ...request } = data.request;
  return request;
}
