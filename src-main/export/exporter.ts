// Export (docs/main-process.md "Export"): a selection, a session or a board written to a folder under names
// made from a template. PNG keeps the cached file's pixels byte for byte and gains an iTXt chunk with the
// generation data; JPEG and WebP are converted by sharp at the chosen quality and carry the same JSON as XMP.
// An optional CSV lists the set. Everything is checked before the first byte is written, and no existing file
// is ever replaced (names get `_2`, `_3`…, and every file is created exclusively).
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 as zlibCrc32 } from 'node:zlib';
import sharp from 'sharp';
import type { ImageRecord } from '../../src-shared/ipc/generation.ts';
import { DEFAULT_EXPORT_QUALITY, isAbsolutePath, type ExportFormat, type ExportSkipReason, type ExportSummary, type PathPlatform } from '../../src-shared/ipc/export.ts';
import type { ExportRunSchema } from '../../src-shared/ipc/export.ts';
import {
  nameKey,
  parseTemplate,
  renderTemplate,
  templateImage,
  templateValues,
  TEMPLATE_FIELDS,
  uniqueFileName,
  type TemplatePart,
} from '../../src-shared/export-template.ts';
import { embedGenerationData, generationDataJson, generationDataXmp, GENERATION_DATA_SCHEMA_VERSION, type GenerationData } from '../../src-shared/generation-data.ts';
import type { Language } from '../../src-shared/language.ts';
import type { z } from 'zod';
import type { Emit } from '../ports/events.ts';
import type { DesktopShell } from '../ports/desktop-shell.ts';
import { StudioError } from '../domain/errors.ts';
import { mainMessage } from '../domain/messages.ts';
import type { StoredTurn } from '../domain/turns.ts';
import { existingCachePath, type CacheDirs } from '../files/index.ts';
import type { LibraryRepo } from '../library/index.ts';
import { APP_NAME, APP_VERSION } from './app-version.ts';
import { csvDocument, type CsvCell } from './csv.ts';

type ExportInput = z.output<typeof ExportRunSchema>;

export interface ExporterDeps {
  repo: Pick<LibraryRepo, 'getImage' | 'getTurn' | 'listTurns' | 'sessionSummary'>;
  dirs: CacheDirs;
  shell: Pick<DesktopShell, 'chooseFolder'>;
  emit: Emit;
  language: () => Language;
  /**
   * The image ids of a board in board order, or null when there is no such board. Absent while the app has no
   * boards: a `{boardId}` export then fails with `export_boards_unavailable`.
   */
  boardImageIds?: (boardId: string) => string[] | null;
  now?: () => number;
}

export interface Exporter {
  run(input: ExportInput): Promise<ExportSummary>;
}

export const EXTENSIONS: Record<ExportFormat, string> = { png: 'png', jpeg: 'jpg', webp: 'webp' };
/** Error codes of a folder the app may not (or can no longer) write. ENOSPC and EDQUOT stay `disk_full`. */
const NOT_WRITABLE = new Set(['EACCES', 'EPERM', 'EROFS', 'ENOTDIR', 'ENOENT', 'EISDIR', 'EEXIST', 'ELOOP', 'ENAMETOOLONG', 'EINVAL']);

interface Ready {
  image: ImageRecord;
  turn: StoredTurn;
  sessionTitle: string;
  file: string;
  stem: string;
}

export function errorCode(error: unknown): string | undefined {
  return error && typeof error === 'object' && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}

/** `export_folder_not_writable` for the codes of a folder that cannot be written; anything else (a full disk) as it is. */
export function notWritable(path: string, error: unknown, written: number): Error {
  const code = errorCode(error);
  if (code !== undefined && !NOT_WRITABLE.has(code)) return error as Error;
  return new StudioError('export_folder_not_writable', { path, cause: code ?? (error instanceof Error ? error.message : String(error)), written }, { details: { path, written } });
}

/** Optional library facts (the culling work adds ratings and rejections); blank where the library has none. */
function optionalFact<T extends 'number' | 'boolean'>(image: ImageRecord, key: string, type: T): (T extends 'number' ? number : boolean) | null {
  const value = (image as unknown as Record<string, unknown>)[key];
  return typeof value === type ? (value as T extends 'number' ? number : boolean) : null;
}

export function generationDataOf(image: ImageRecord, turn: StoredTurn): GenerationData {
  const estimate: Partial<StoredTurn['estimate']> = turn.estimate ?? {};
  return {
    schemaVersion: GENERATION_DATA_SCHEMA_VERSION,
    app: { name: APP_NAME, version: APP_VERSION },
    imageId: image.id,
    turnId: turn.id,
    serviceTurnId: turn.serviceTurnId,
    sessionId: turn.sessionId,
    serviceSessionId: turn.serviceSessionId,
    environment: turn.environment,
    requestId: turn.requestId,
    request: turn.request,
    referenceImageIds: turn.referenceImageIds,
    model: estimate.model ?? image.model,
    resolution: estimate.resolution ?? turn.request.resolution ?? '',
    quality: estimate.quality ?? null,
    width: image.width,
    height: image.height,
    creditsCharged: turn.creditsCharged,
    creditsEstimated: estimate.total ?? 0,
    createdAt: new Date(image.createdAt).toISOString(),
  };
}

const CSV_HEADER = [
  'file',
  'image_id',
  'turn_id',
  'session',
  'prompt',
  'model',
  'ratio',
  'resolution',
  'quality',
  'purpose',
  'width',
  'height',
  'credits_charged',
  'turn_credits_charged',
  'turn_credits_estimated',
  'created_at',
  'rating',
  'starred',
  'rejected',
  'request_id',
  'generation_data',
] as const;
/** Text the user typed (session title, prompt) is guarded against spreadsheet formulas. */
const CSV_TEXT_COLUMNS = new Set([CSV_HEADER.indexOf('session'), CSV_HEADER.indexOf('prompt')]);

function csvRow(r: Ready, data: GenerationData): CsvCell[] {
  const charged = r.turn.creditsCharged;
  const share = charged === null ? null : Math.round((charged / Math.max(1, r.turn.images.length)) * 100) / 100;
  return [
    r.file,
    r.image.id,
    r.turn.id,
    r.sessionTitle,
    r.turn.request.prompt ?? r.image.prompt,
    data.model,
    r.turn.request.ratio ?? '',
    data.resolution,
    data.quality,
    r.turn.request.purpose_id ?? '',
    r.image.width,
    r.image.height,
    share,
    charged,
    data.creditsEstimated,
    data.createdAt,
    optionalFact(r.image, 'rating', 'number'),
    r.image.starred,
    optionalFact(r.image, 'rejected', 'boolean'),
    r.turn.requestId,
    generationDataJson(data),
  ];
}

function stamp(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}${p(d.getMonth() + 1)}${p(d.getDate())}_${p(d.getHours())}${p(d.getMinutes())}${p(d.getSeconds())}`;
}

async function encode(format: ExportFormat, quality: number, png: Buffer, data: GenerationData): Promise<Uint8Array> {
  if (format === 'png') return embedGenerationData(png, data, (bytes) => zlibCrc32(bytes));
  const pipeline = sharp(png, { failOn: 'error' });
  // sRGB profile embedded, so colour-managed viewers show the colours the service made.
  if (format === 'jpeg') return pipeline.flatten({ background: '#ffffff' }).jpeg({ quality }).withIccProfile('srgb').withXmp(generationDataXmp(data)).toBuffer();
  return pipeline.webp({ quality }).withIccProfile('srgb').withXmp(generationDataXmp(data)).toBuffer();
}

/** The parts of a file-name template, or the StudioError naming what is wrong with it (`field: 'template'`). */
export function templatePartsOrThrow<F extends string>(template: string, fields: readonly F[]): TemplatePart<F>[] {
  const parsed = parseTemplate(template, fields);
  if (!parsed.ok) {
    const { code, ...params } = parsed.problem;
    throw new StudioError(code, params, { details: { ...params, field: 'template' } });
  }
  return parsed.parts;
}

/**
 * Writes `content` as `stem.extension` in `folder`, or `stem_2.extension`… whichever `taken` (name keys of the
 * folder) does not hold, creating the file exclusively: never replaces a file. `written` (files written so far)
 * goes into the error when the folder cannot be written.
 */
export async function createExclusive(folder: string, stem: string, extension: string, content: Uint8Array | string, taken: Set<string>, written: number): Promise<string> {
  absoluteHereOrThrow(folder);
  for (;;) {
    const name = uniqueFileName(stem, extension, taken);
    const path = join(folder, name);
    try {
      await writeFile(path, content, { flag: 'wx' });
      return name;
    } catch (error) {
      // Someone made that name since the folder was read: take the next one. Never replace a file.
      if (errorCode(error) === 'EEXIST') continue;
      await rm(path, { force: true }).catch(() => undefined);
      throw notWritable(folder, error, written);
    }
  }
}

/** The platform main runs on, whose rules say which folders are absolute. */
const HERE: PathPlatform = process.platform === 'win32' ? 'win32' : 'posix';

/**
 * Every folder the app writes to is absolute on this computer: the contract takes either platform's form, and a
 * `C:\…` folder on Linux or macOS would otherwise land under main's working directory.
 */
export function absoluteHereOrThrow(folder: string, platform: PathPlatform = HERE): void {
  if (!isAbsolutePath(folder, platform)) throw new StudioError('invalid_input', { field: 'folder', why: `must be an absolute path on this computer (${platform === 'win32' ? 'C:\\…' : '/…'})` });
}

/** Creates the folder if needed and proves a file can be created in it (then removes the probe). */
export async function prepareFolder(folder: string): Promise<void> {
  absoluteHereOrThrow(folder);
  try {
    await mkdir(folder, { recursive: true });
    if (!(await stat(folder)).isDirectory()) throw Object.assign(new Error('not a folder'), { code: 'ENOTDIR' });
    const probe = join(folder, `.image-studio-probe-${randomBytes(6).toString('hex')}`);
    await writeFile(probe, '', { flag: 'wx' });
    await rm(probe, { force: true });
  } catch (error) {
    throw notWritable(folder, error, 0);
  }
}

export function createExporter(deps: ExporterDeps): Exporter {
  const now = deps.now ?? Date.now;
  /** The chooser opens where the last export went (this run only). */
  let lastFolder: string | null = null;

  function sourceImages(source: ExportInput['source']): { kind: 'selection' | 'session' | 'board'; ids: string[] } {
    if ('imageIds' in source) return { kind: 'selection', ids: [...new Set(source.imageIds)] };
    if ('sessionId' in source) {
      if (!deps.repo.sessionSummary(source.sessionId)) throw new StudioError('not_found', { what: 'session', id: source.sessionId });
      return { kind: 'session', ids: deps.repo.listTurns(source.sessionId).flatMap((t) => t.images.map((i) => i.id)) };
    }
    if (!deps.boardImageIds) throw new StudioError('export_boards_unavailable', {}, { details: { boardId: source.boardId } });
    const ids = deps.boardImageIds(source.boardId);
    if (ids === null) throw new StudioError('not_found', { what: 'board', id: source.boardId });
    return { kind: 'board', ids: [...new Set(ids)] };
  }

  function classify(ids: string[]): { ready: Array<Omit<Ready, 'file' | 'stem'>>; skipped: ExportSummary['skipped'] } {
    const ready: Array<Omit<Ready, 'file' | 'stem'>> = [];
    const skipped: ExportSummary['skipped'] = [];
    const turns = new Map<string, StoredTurn | null>();
    const titles = new Map<string, string>();
    const skip = (imageId: string, reason: ExportSkipReason) => skipped.push({ imageId, reason });
    for (const id of ids) {
      const image = deps.repo.getImage(id);
      if (!image) {
        skip(id, 'not_found');
        continue;
      }
      if (image.download !== 'done') {
        skip(id, 'not_downloaded');
        continue;
      }
      if (!existingCachePath(deps.dirs, 'full', id)) {
        skip(id, 'file_missing');
        continue;
      }
      if (!turns.has(image.turnId)) turns.set(image.turnId, deps.repo.getTurn(image.turnId));
      const turn = turns.get(image.turnId);
      if (!turn) {
        skip(id, 'not_found');
        continue;
      }
      if (!titles.has(image.sessionId)) titles.set(image.sessionId, deps.repo.sessionSummary(image.sessionId)?.title ?? '');
      ready.push({ image, turn, sessionTitle: titles.get(image.sessionId) ?? '' });
    }
    return { ready, skipped };
  }

  async function run(input: ExportInput): Promise<ExportSummary> {
    const exportId = `exp_${randomBytes(6).toString('hex')}`;
    // 1. Everything that can be wrong with the request, before a folder is asked for or anything written.
    const parts: TemplatePart[] = templatePartsOrThrow(input.template, TEMPLATE_FIELDS);
    const source = sourceImages(input.source);
    if (source.ids.length === 0) throw new StudioError('export_empty', { source: source.kind });
    const { ready: found, skipped } = classify(source.ids);
    if (found.length === 0) throw new StudioError('export_nothing_ready', { count: source.ids.length }, { details: { skipped } });
    const quality = input.quality ?? DEFAULT_EXPORT_QUALITY;
    const ext = EXTENSIONS[input.format];

    // 2. The folder: given, or asked for. A cancelled chooser writes nothing.
    const folder =
      input.folder ?? (await deps.shell.chooseFolder({ title: mainMessage('export_folder_title', {}, deps.language()), ...(lastFolder ? { defaultPath: lastFolder } : {}) }));
    if (folder === null) return { exportId, folder: null, written: [], skipped: [], csvFile: null, bytes: 0 };
    await prepareFolder(folder);
    lastFolder = folder;

    // 3. Names unique in the folder (ignoring case, as Windows and macOS do), then one exclusive create each.
    let existing: string[];
    try {
      existing = await readdir(folder);
    } catch (error) {
      throw notWritable(folder, error, 0);
    }
    const taken = new Set(existing.map(nameKey));
    const written: ExportSummary['written'] = [];
    const rows: CsvCell[][] = [];
    let bytes = 0;
    const total = found.length;
    const progress = (done: number, currentFile: string | null) => deps.emit('export:progress', { exportId, done, total, currentFile });
    progress(0, null);

    const create = (stem: string, extension: string, content: Uint8Array | string) => createExclusive(folder, stem, extension, content, taken, written.length);

    for (const [i, r] of found.entries()) {
      const data = generationDataOf(r.image, r.turn);
      let content: Uint8Array;
      try {
        const cached = existingCachePath(deps.dirs, 'full', r.image.id);
        if (!cached) throw new Error('file_missing');
        content = await encode(input.format, quality, await readFile(cached), data);
      } catch (error) {
        skipped.push({ imageId: r.image.id, reason: error instanceof Error && error.message === 'file_missing' ? 'file_missing' : 'unreadable' });
        progress(i + 1, null);
        continue;
      }
      // {index} counts the files written, so an image skipped on the way leaves no gap.
      const stem = renderTemplate(parts, templateValues(templateImage(r.image, r.turn, r.sessionTitle), written.length + 1, total));
      const file = await create(stem, ext, content);
      bytes += content.byteLength;
      written.push({ imageId: r.image.id, file });
      rows.push(csvRow({ ...r, file, stem }, data));
      progress(i + 1, file);
    }

    let csvFile: string | null = null;
    if (input.csv && written.length > 0) {
      const text = csvDocument(CSV_HEADER, rows, CSV_TEXT_COLUMNS);
      csvFile = await create(`image-studio-export_${stamp(now())}`, 'csv', text);
      bytes += Buffer.byteLength(text, 'utf8');
    }
    return { exportId, folder, written, skipped, csvFile, bytes };
  }

  return { run };
}
