// Export file names (docs/main-process.md "Export"): a template such as `{session}_{date}_{model}_{index}` made
// into a name every desktop file system accepts (Windows, macOS, Linux), unique in its folder. Shared so the
// export dialog's preview is the name main writes.
import { DEFAULT_PURPOSE, DEFAULT_RATIO, type ModelId } from './catalog.ts';

export const TEMPLATE_FIELDS = ['session', 'date', 'time', 'model', 'purpose', 'ratio', 'resolution', 'index', 'id', 'rating', 'prompt'] as const;
export type TemplateField = (typeof TEMPLATE_FIELDS)[number];
export const DEFAULT_EXPORT_TEMPLATE = '{session}_{date}_{model}_{index}';
export const MAX_TEMPLATE_LENGTH = 200;

/** Longest file stem in UTF-8 bytes: room for a `_9999` suffix and `.jpeg` within the 255 bytes all three allow. */
export const MAX_STEM_BYTES = 200;

/** F: the fields a template may name (the image export's TEMPLATE_FIELDS unless another export has its own list). */
export type TemplatePart<F extends string = TemplateField> = { kind: 'text'; text: string } | { kind: 'field'; field: F };

export type TemplateProblem<F extends string = TemplateField> =
  | { code: 'export_template_unknown_field'; field: string; allowed: readonly F[] }
  | { code: 'export_template_syntax'; at: number }
  | { code: 'export_template_empty' };

export type TemplateParse<F extends string = TemplateField> = { ok: true; parts: TemplatePart<F>[] } | { ok: false; problem: TemplateProblem<F> };

/**
 * `{field}` placeholders and literal text; a brace that opens no known field is an error naming the allowed ones.
 * `fields` defaults to the image export's TEMPLATE_FIELDS.
 */
export function parseTemplate(template: string): TemplateParse;
export function parseTemplate<F extends string>(template: string, fields: readonly F[]): TemplateParse<F>;
export function parseTemplate(template: string, fields: readonly string[] = TEMPLATE_FIELDS): TemplateParse<string> {
  const isField = (name: string) => fields.includes(name);
  if (template.trim() === '') return { ok: false, problem: { code: 'export_template_empty' } };
  const parts: TemplatePart<string>[] = [];
  let text = '';
  for (let i = 0; i < template.length; i++) {
    const c = template[i] as string;
    if (c === '}') return { ok: false, problem: { code: 'export_template_syntax', at: i } };
    if (c !== '{') {
      text += c;
      continue;
    }
    const close = template.indexOf('}', i + 1);
    const open = template.indexOf('{', i + 1);
    if (close < 0 || (open >= 0 && open < close)) return { ok: false, problem: { code: 'export_template_syntax', at: i } };
    const name = template.slice(i + 1, close).trim();
    if (!isField(name)) return { ok: false, problem: { code: 'export_template_unknown_field', field: name, allowed: fields } };
    if (text) parts.push({ kind: 'text', text });
    text = '';
    parts.push({ kind: 'field', field: name });
    i = close;
  }
  if (text) parts.push({ kind: 'text', text });
  return { ok: true, parts };
}

/** What a file name can say about one image. */
export interface TemplateImage {
  id: string;
  /** ms since epoch. */
  createdAt: number;
  sessionTitle: string;
  /** The model that ran (not `auto`). */
  model: string;
  purpose: string;
  ratio: string;
  resolution: string;
  prompt: string;
  /** 0–5 where the library rates images; null otherwise. */
  rating: number | null;
}

/** The template facts of an image from its turn's request and estimate (main and the dialog's preview alike). */
export function templateImage(
  image: { id: string; createdAt: number; model: string; prompt: string; rating?: number | null | undefined },
  turn: { request: { model?: ModelId | undefined; ratio?: string | undefined; purpose_id?: string | undefined; prompt?: string | undefined }; estimate: { model?: string; resolution?: string } },
  sessionTitle: string,
): TemplateImage {
  return {
    id: image.id,
    createdAt: image.createdAt,
    sessionTitle,
    model: turn.estimate.model ?? image.model,
    purpose: turn.request.purpose_id ?? DEFAULT_PURPOSE,
    ratio: turn.request.ratio ?? DEFAULT_RATIO,
    resolution: turn.estimate.resolution ?? '',
    prompt: turn.request.prompt ?? image.prompt,
    rating: typeof image.rating === 'number' ? image.rating : null,
  };
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** Runs of anything but letters, digits, `.`, `_` and `-` become one `-` (Chinese titles stay readable). */
export function slug(text: string, maxChars = 40): string {
  const cleaned = text
    .normalize('NFC')
    .replace(/[^\p{L}\p{N}._-]+/gu, '-')
    .replace(/^[-.]+|[-.]+$/g, '');
  return [...cleaned].slice(0, maxChars).join('').replace(/[-.]+$/, '');
}

/** `{date}`: YYYYMMDD in this computer's time zone. */
export function templateDate(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}${pad(d.getMonth() + 1)}${pad(d.getDate())}`;
}

/** `{index}`: 1-based, zero-padded to the width of `total` so names sort in order. */
export function templateIndex(index: number, total: number): string {
  return pad(index, String(Math.max(1, total)).length);
}

/** The value of every field for the `index`-th (1-based) of `total` images; dates in this computer's time zone. */
export function templateValues(image: TemplateImage, index: number, total: number): Record<TemplateField, string> {
  const d = new Date(image.createdAt);
  return {
    session: slug(image.sessionTitle) || 'session',
    date: templateDate(image.createdAt),
    time: `${pad(d.getHours())}${pad(d.getMinutes())}${pad(d.getSeconds())}`,
    model: slug(image.model),
    purpose: slug(image.purpose),
    // 3:4 → 3x4: a colon is not allowed in Windows file names (and means a folder on old macOS).
    ratio: image.ratio.replace(':', 'x'),
    resolution: slug(image.resolution),
    index: templateIndex(index, total),
    id: image.id,
    rating: image.rating === null ? '0' : String(image.rating),
    prompt: slug(image.prompt, 32),
  };
}

/** Windows device names, reserved with any extension and in any case (also COM¹ and friends). */
const RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])$/i;

function utf8Length(text: string): number {
  return new TextEncoder().encode(text).length;
}

function truncateBytes(text: string, maxBytes: number): string {
  let out = '';
  let bytes = 0;
  for (const ch of text) {
    const size = utf8Length(ch);
    if (bytes + size > maxBytes) break;
    out += ch;
    bytes += size;
  }
  return out;
}

/**
 * A file stem every desktop file system takes: NFC; no control characters or `<>:"/\|?*` (each becomes `_`);
 * no leading dots (hidden, `..`), no trailing dots or spaces (Windows drops them); a Windows device name gets
 * a leading `_`; at most `maxBytes` UTF-8 bytes, cut between characters; never empty.
 */
export function sanitizeFileStem(stem: string, maxBytes = MAX_STEM_BYTES): string {
  let out = stem
    .normalize('NFC')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f<>:"/\\|?*]/g, '_')
    .trim()
    .replace(/^\.+/, '');
  out = truncateBytes(out, maxBytes).replace(/[. ]+$/, '');
  if (out === '') out = 'image';
  if (RESERVED.test(out.split('.')[0]?.trim() ?? '')) out = truncateBytes(`_${out}`, maxBytes);
  return out;
}

/** The sanitized file stem of one image. */
export function renderTemplate<F extends string>(parts: TemplatePart<F>[], values: Record<F, string>): string {
  return sanitizeFileStem(parts.map((p) => (p.kind === 'text' ? p.text : values[p.field])).join(''));
}

/** How names are compared: Windows and macOS folders ignore case (and macOS normalisation). */
export function nameKey(name: string): string {
  return name.normalize('NFC').toLowerCase();
}

/** `stem.ext`, or `stem_2.ext`, `stem_3.ext`… whichever `taken` does not hold yet; the name is added to `taken`. */
export function uniqueFileName(stem: string, ext: string, taken: Set<string>): string {
  let name = `${stem}.${ext}`;
  for (let n = 2; taken.has(nameKey(name)); n++) name = `${stem}_${n}.${ext}`;
  taken.add(nameKey(name));
  return name;
}
