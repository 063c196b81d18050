// export:run end to end in plain Node: createStudioApp with the real bundled local service (child process), real
// SQLite, real files. A session is generated, then exported as PNG + CSV, JPEG q=80 and WebP; the files are
// decoded with sharp and their embedded generation data compared with the turns. Bad input writes nothing.
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTemplate, renderTemplate, templateImage, templateValues, TEMPLATE_FIELDS } from '../../src-shared/export-template.ts';
import { generationDataXmp, readGenerationData, type GenerationData } from '../../src-shared/generation-data.ts';
import type { ExportProgress, ExportSummary, IpcEventName, SessionSummary, TurnRecord } from '../../src-shared/ipc/index.ts';
import { readChunks } from '../../src-shared/png-chunks.ts';
import { createStudioApp } from '../app/create-app.ts';
import { NodeLocalServiceHost } from '../service-host/node-service-host.ts';
import type { CoreStudioApp } from '../app/studio-app.ts';
import { RecordingShell } from '../ports/desktop-shell.ts';
import { APP_VERSION } from './app-version.ts';
import { parseCsv } from './csv-reader.test-support.ts';
import { ipcCalls } from '../app/ipc-calls.test-support.ts';

let app: CoreStudioApp;
let shell: RecordingShell;
let root: string;
const progress: ExportProgress[] = [];

const { call, ok } = ipcCalls(() => app);
async function generate(request: Record<string, unknown>, sessionId?: string): Promise<TurnRecord> {
  const { turnId } = await ok<{ turnId: string }>('generateStart', { request, ...(sessionId ? { sessionId } : {}) });
  await app.whenGenerationsSettled();
  await app.whenDownloadsIdle();
  return ok<TurnRecord>('libraryGetTurn', { turnId });
}
function folder(name: string): string {
  return join(root, 'exports', name);
}


let first: TurnRecord;
let second: TurnRecord;
let session: SessionSummary;
/** The session's images in export order (oldest turn first, then the turn's order). */
let images: Array<{ id: string; turn: TurnRecord }>;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'studio-export-'));
  shell = new RecordingShell();
  app = await createStudioApp({
    dataDir: join(root, 'data'),
    shell,
    localService: new NodeLocalServiceHost({ dataDir: join(root, 'local-service') }),
    keychainService: `image-studio-test-${randomUUID()}`,
    secretStore: 'memory',
  });
  app.on('export:progress' as IpcEventName, (p) => progress.push(p as ExportProgress));
  first = await generate({ prompt: '白瓷杯, on walnut, "morning" light', model: 'nano-banana-2', ratio: '4:5', resolution: '1K', n: 2, purpose_id: 'free' });
  expect(first.status).toBe('succeeded');
  const ref = first.images[0]!.id;
  second = await generate({ prompt: 'same cup, side view', ref_image_ids: [ref], model: 'gpt-image-2', ratio: '1:1', quality: 'high', n: 1 }, first.sessionId);
  expect(second.status).toBe('succeeded');
  session = await ok<SessionSummary>('libraryRenameSession', { sessionId: first.sessionId, title: '春季新品: 杯子' });
  images = [...first.images.map((i) => ({ id: i.id, turn: first })), ...second.images.map((i) => ({ id: i.id, turn: second }))];
}, 120_000);

afterAll(async () => {
  await app?.close();
  rmSync(root, { recursive: true, force: true });
});

function expectedData(id: string, turn: TurnRecord): GenerationData {
  const image = turn.images.find((i) => i.id === id)!;
  return {
    schemaVersion: 1,
    app: { name: 'Image Studio', version: APP_VERSION },
    imageId: id,
    turnId: turn.id,
    serviceTurnId: turn.serviceTurnId,
    sessionId: turn.sessionId,
    serviceSessionId: turn.serviceSessionId,
    environment: 'local',
    requestId: turn.requestId,
    request: turn.request,
    referenceImageIds: turn.referenceImageIds,
    model: turn.estimate.model,
    resolution: turn.estimate.resolution,
    quality: turn.estimate.quality,
    width: image.width,
    height: image.height,
    creditsCharged: turn.creditsCharged,
    creditsEstimated: turn.estimate.total,
    createdAt: new Date(image.createdAt).toISOString(),
  };
}

function expectedName(index: number, ext: string, template = '{session}_{date}_{model}_{index}'): string {
  const { id, turn } = images[index]!;
  const image = turn.images.find((i) => i.id === id)!;
  const parsed = parseTemplate(template);
  if (!parsed.ok) throw new Error('template');
  return `${renderTemplate(parsed.parts, templateValues(templateImage(image, turn, session.title), index + 1, images.length))}.${ext}`;
}

describe('export:run against the real local service', () => {
  it('exports a session as PNG + CSV: the cached pixels byte for byte plus the generation data, names from the template', async () => {
    progress.length = 0;
    const out = folder('png');
    const summary = await ok<ExportSummary>('exportRun', { source: { sessionId: first.sessionId }, template: '{session}_{date}_{model}_{index}', format: 'png', csv: true, folder: out });
    expect(summary.folder).toBe(out);
    expect(summary.skipped).toEqual([]);
    expect(summary.written.map((w) => w.imageId)).toEqual(images.map((i) => i.id));
    expect(summary.written.map((w) => w.file)).toEqual(images.map((_, i) => expectedName(i, 'png')));
    expect(summary.written[0]?.file).toMatch(/^春季新品-杯子_\d{8}_nano-banana-2_1\.png$/);
    expect(readdirSync(out).sort()).toEqual([...summary.written.map((w) => w.file), summary.csvFile].sort());

    let bytes = 0;
    for (const [i, w] of summary.written.entries()) {
      const file = readFileSync(join(out, w.file));
      bytes += file.length;
      const { turn } = images[i]!;
      const record = turn.images.find((x) => x.id === w.imageId)!;
      // Decodes, at the image's size, to the very pixels of the cached PNG.
      const cached = (await app.imageFile('full', w.imageId)) as string;
      const decoded = await sharp(file, { failOn: 'warning' }).raw().toBuffer({ resolveWithObject: true });
      expect([decoded.info.width, decoded.info.height]).toEqual([record.width, record.height]);
      expect(decoded.data.equals(await sharp(cached).raw().toBuffer())).toBe(true);
      // The original chunks are all there, in order; the iTXt chunk comes right before IEND.
      const original = readChunks(readFileSync(cached));
      const exported = readChunks(file);
      if (!original.ok || !exported.ok) throw new Error('not a PNG');
      expect(exported.chunks.map((c) => c.type)).toEqual([...original.chunks.slice(0, -1).map((c) => c.type), 'iTXt', 'IEND']);
      expect(file.subarray(0, original.chunks.at(-1)!.offset).equals(readFileSync(cached).subarray(0, original.chunks.at(-1)!.offset))).toBe(true);
      // The generation data matches the turn exactly.
      expect(readGenerationData(file)).toEqual({ ok: true, data: expectedData(w.imageId, turn), from: 'png' });
    }
    const third = readGenerationData(readFileSync(join(out, summary.written[2]!.file)));
    expect(third.ok && third.data).toMatchObject({ request: { prompt: 'same cup, side view', model: 'gpt-image-2', quality: 'high', ratio: '1:1' }, referenceImageIds: [first.images[0]!.id], creditsCharged: second.creditsCharged });

    // The CSV: BOM, one row per written image, Chinese and quotes intact, the JSON in its column.
    const csvBytes = readFileSync(join(out, summary.csvFile!));
    bytes += csvBytes.length;
    expect(summary.bytes).toBe(bytes);
    expect([...csvBytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows = parseCsv(csvBytes.toString('utf8').slice(1));
    const header = rows[0]!;
    expect(header).toEqual(expect.arrayContaining(['file', 'image_id', 'session', 'prompt', 'model', 'ratio', 'resolution', 'quality', 'purpose', 'width', 'height', 'credits_charged', 'created_at', 'rating', 'starred', 'rejected', 'generation_data']));
    expect(rows).toHaveLength(4);
    const col = (row: string[], name: string) => row[header.indexOf(name)];
    const row0 = rows[1]!;
    expect(col(row0, 'file')).toBe(summary.written[0]!.file);
    expect(col(row0, 'session')).toBe('春季新品: 杯子');
    expect(col(row0, 'prompt')).toBe('白瓷杯, on walnut, "morning" light');
    expect([col(row0, 'model'), col(row0, 'ratio'), col(row0, 'resolution'), col(row0, 'width'), col(row0, 'height')]).toEqual(['nano-banana-2', '4:5', '1K', String(first.images[0]!.width), String(first.images[0]!.height)]);
    expect(col(row0, 'credits_charged')).toBe(String(first.creditsCharged! / 2));
    expect(col(row0, 'created_at')).toBe(new Date(first.images[0]!.createdAt).toISOString());
    expect(col(row0, 'starred')).toBe('false');
    expect(JSON.parse(col(rows[3]!, 'generation_data')!)).toEqual(expectedData(images[2]!.id, second));
    expect(col(rows[3]!, 'quality')).toBe('high');

    // Progress: once before the first file, then after each.
    expect(progress.map((p) => [p.done, p.total])).toEqual([[0, 3], [1, 3], [2, 3], [3, 3]]);
    expect(progress.at(-1)?.currentFile).toBe(summary.written[2]!.file);
    expect(new Set(progress.map((p) => p.exportId))).toEqual(new Set([summary.exportId]));
  });

  it('exports JPEG at q=80 and WebP: decodable at the image size, the quality applied, the data in XMP and the CSV', async () => {
    for (const [format, quality, ext] of [['jpeg', 80, 'jpg'], ['webp', undefined, 'webp']] as const) {
      const out = folder(format);
      const summary = await ok<ExportSummary>('exportRun', { source: { imageIds: images.map((i) => i.id) }, template: '{id}_{ratio}_{index}', format, ...(quality ? { quality } : {}), csv: true, folder: out });
      expect(summary.written).toHaveLength(3);
      for (const [i, w] of summary.written.entries()) {
        const { id, turn } = images[i]!;
        const record = turn.images.find((x) => x.id === id)!;
        expect(w.file).toBe(`${id}_${turn.request.ratio!.replace(':', 'x')}_${i + 1}.${ext}`);
        const file = readFileSync(join(out, w.file));
        const meta = await sharp(file, { failOn: 'warning' }).metadata();
        expect([meta.format, meta.width, meta.height]).toEqual([format, record.width, record.height]);
        const data = expectedData(id, turn);
        expect(readGenerationData(file)).toEqual({ ok: true, data, from: 'xmp' });
        // The same encoder settings give the same bytes: the quality asked for (80, WebP's default 90) was used.
        const cached = readFileSync((await app.imageFile('full', id)) as string);
        const reference =
          format === 'jpeg'
            ? await sharp(cached).flatten({ background: '#ffffff' }).jpeg({ quality: 80 }).withIccProfile('srgb').withXmp(generationDataXmp(data)).toBuffer()
            : await sharp(cached).webp({ quality: 90 }).withIccProfile('srgb').withXmp(generationDataXmp(data)).toBuffer();
        // An sRGB profile and the prompt as the caption Lightroom and Bridge show.
        expect(meta.icc).toBeDefined();
        if (data.request.prompt) expect((meta.xmp as Buffer).toString('utf8')).toContain('<dc:description><rdf:Alt><rdf:li xml:lang="x-default">');
        expect(file.equals(reference)).toBe(true);
      }
      const rows = parseCsv(readFileSync(join(out, summary.csvFile!), 'utf8').slice(1));
      const at = rows[0]!.indexOf('generation_data');
      expect(rows.slice(1).map((r) => (JSON.parse(r[at]!) as GenerationData).imageId)).toEqual(images.map((i) => i.id));
    }
    // A lower quality gives a smaller file (the setting reaches the encoder).
    const low = await ok<ExportSummary>('exportRun', { source: { imageIds: [images[0]!.id] }, template: 'low', format: 'jpeg', quality: 10, csv: false, folder: folder('jpeg') });
    expect(statSync(join(folder('jpeg'), low.written[0]!.file)).size).toBeLessThan(statSync(join(folder('jpeg'), `${images[0]!.id}_4x5_1.jpg`)).size);
  });

  it('never overwrites: a second export into the same folder gets _2 names and leaves the first files as they were', async () => {
    const out = folder('twice');
    await ok<ExportSummary>('exportRun', { source: { sessionId: first.sessionId }, template: '{session}_{date}_{model}_{index}', format: 'png', csv: false, folder: out });
    const before = new Map(readdirSync(out).map((f) => [f, readFileSync(join(out, f))]));
    const summary = await ok<ExportSummary>('exportRun', { source: { sessionId: first.sessionId }, template: '{session}_{date}_{model}_{index}', format: 'png', csv: false, folder: out });
    expect(summary.written.map((w) => w.file)).toEqual(images.map((_, i) => expectedName(i, 'png').replace(/\.png$/, '_2.png')));
    expect(summary.csvFile).toBeNull();
    for (const [f, content] of before) expect(readFileSync(join(out, f)).equals(content), f).toBe(true);
    // A file created under the exact next name (another program, different case) is not replaced either.
    const name = expectedName(0, 'png').replace(/\.png$/, '_3.PNG');
    writeFileSync(join(out, name), 'not ours');
    const again = await ok<ExportSummary>('exportRun', { source: { imageIds: [images[0]!.id] }, template: '{session}_{date}_{model}_1', format: 'png', csv: false, folder: out });
    expect(again.written[0]!.file).toBe(expectedName(0, 'png').replace(/\.png$/, '_4.png'));
    expect(readFileSync(join(out, name), 'utf8')).toBe('not ours');
  });

  it('asks for the folder when none is given, and a cancelled chooser writes nothing', async () => {
    const out = folder('chosen');
    shell.chooseFolderAnswer = out;
    const callsBefore = shell.calls.length;
    const summary = await ok<ExportSummary>('exportRun', { source: { imageIds: [images[1]!.id] }, template: '{id}', format: 'png', csv: false });
    expect(summary.folder).toBe(out);
    expect(readdirSync(out)).toEqual([`${images[1]!.id}.png`]);
    const asked = shell.calls.slice(callsBefore).filter((c) => c.kind === 'chooseFolder');
    expect(asked).toHaveLength(1);
    shell.chooseFolderAnswer = null;
    const cancelled = await ok<ExportSummary>('exportRun', { source: { imageIds: [images[1]!.id] }, template: '{id}', format: 'png', csv: true });
    expect(cancelled).toMatchObject({ folder: null, written: [], skipped: [], csvFile: null, bytes: 0 });
    // The chooser opens where the last export went.
    const last = shell.calls.filter((c) => c.kind === 'chooseFolder').at(-1);
    expect(last?.kind === 'chooseFolder' && last.request.defaultPath).toBe(out);
    expect(readdirSync(out)).toHaveLength(1);
  });

  it('exports a board in the board\'s order (the gallery\'s under its filter), and says not_found for an unknown board', async () => {
    const board = await ok<{ id: string }>('boardCreate', { name: '春季主图' });
    await ok('boardAdd', { boardId: board.id, imageIds: [images[2]!.id, images[0]!.id] });
    const order = await ok<{ ids: string[] }>('libraryImageIds', { filters: { boardId: board.id }, limit: 100 });
    expect([...order.ids].sort()).toEqual([images[0]!.id, images[2]!.id].sort());
    const out = folder('board');
    const summary = await ok<ExportSummary>('exportRun', { source: { boardId: board.id }, template: '{index}_{id}', format: 'png', csv: true, folder: out });
    expect(summary.written).toEqual(order.ids.map((id, i) => ({ imageId: id, file: `${i + 1}_${id}.png` })));
    expect(readdirSync(out).filter((f) => f.endsWith('.png')).sort()).toEqual(summary.written.map((w) => w.file).sort());
    const unknown = await call('exportRun', { source: { boardId: 'bd_nope' }, template: '{id}', format: 'png', csv: false, folder: folder('no-board') });
    expect(unknown.ok ? null : unknown.error).toMatchObject({ code: 'not_found' });
    expect(existsSync(folder('no-board'))).toBe(false);
  });

  it('takes the default template and no CSV when they are left out', async () => {
    const out = folder('defaults');
    const summary = await ok<ExportSummary>('exportRun', { source: { imageIds: [images[2]!.id] }, format: 'webp', folder: out });
    const parsed = parseTemplate('{session}_{date}_{model}_{index}');
    if (!parsed.ok) throw new Error('template');
    const image = second.images[0]!;
    expect(summary.written).toEqual([{ imageId: image.id, file: `${renderTemplate(parsed.parts, templateValues(templateImage(image, second, session.title), 1, 1))}.webp` }]);
    expect(summary.csvFile).toBeNull();
    expect(readdirSync(out)).toHaveLength(1);
  });

  it('skips what it cannot export, with a reason each, and exports the rest', async () => {
    const missing = images[1]!.id;
    const cached = (await app.imageFile('full', missing)) as string;
    renameSync(cached, `${cached}.away`);
    try {
      const out = folder('partial');
      const summary = await ok<ExportSummary>('exportRun', { source: { imageIds: [images[0]!.id, 'img_NotThere', missing, images[0]!.id] }, template: '{index}', format: 'png', csv: true, folder: out });
      expect(summary.written).toEqual([{ imageId: images[0]!.id, file: '1.png' }]);
      expect(summary.skipped).toEqual([
        { imageId: 'img_NotThere', reason: 'not_found' },
        { imageId: missing, reason: 'file_missing' },
      ]);
      expect(readdirSync(out).filter((f) => f.endsWith('.csv'))).toHaveLength(1);
    } finally {
      renameSync(`${cached}.away`, cached);
    }
  });

  describe('bad input: a specific error and nothing written', () => {
    const nothingIn = (path: string) => !existsSync(path) || readdirSync(path).length === 0;

    it('an unknown template field names the allowed ones, before any folder is asked for', async () => {
      const asked = shell.calls.length;
      const out = folder('bad-template');
      const result = await call('exportRun', { source: { sessionId: first.sessionId }, template: '{session}_{camera}', format: 'png', csv: true });
      expect(result.ok ? null : result.error).toMatchObject({ code: 'export_template_unknown_field', details: { field: 'template', allowed: [...TEMPLATE_FIELDS] } });
      expect(result.ok ? '' : result.error.message).toMatch(/\{camera\}.*\{session\} \{date\}/s);
      expect(shell.calls.length).toBe(asked);
      const syntax = await call('exportRun', { source: { sessionId: first.sessionId }, template: '{session', format: 'png', csv: true, folder: out });
      expect(syntax.ok ? null : syntax.error.code).toBe('export_template_syntax');
      expect(nothingIn(out)).toBe(true);
    });

    it('an empty selection, and a session without images', async () => {
      const out = folder('empty');
      const empty = await call('exportRun', { source: { imageIds: [] }, template: '{id}', format: 'png', csv: true, folder: out });
      expect(empty.ok ? null : empty.error.code).toBe('export_empty');
      const none = await call('exportRun', { source: { imageIds: ['img_NotThere'] }, template: '{id}', format: 'png', csv: true, folder: out });
      expect(none.ok ? null : none.error).toMatchObject({ code: 'export_nothing_ready', details: { skipped: [{ imageId: 'img_NotThere', reason: 'not_found' }] } });
      const unknown = await call('exportRun', { source: { sessionId: 'ls_nope' }, template: '{id}', format: 'png', csv: true, folder: out });
      expect(unknown.ok ? null : unknown.error.code).toBe('not_found');
      expect(nothingIn(out)).toBe(true);
    });

    it('a folder that cannot be written (under a file, or a file itself)', async () => {
      const file = join(root, 'exports', 'a-file');
      mkdirSync(join(root, 'exports'), { recursive: true });
      writeFileSync(file, 'x');
      for (const target of [join(file, 'sub'), file]) {
        const result = await call('exportRun', { source: { sessionId: first.sessionId }, template: '{id}', format: 'png', csv: true, folder: target });
        expect(result.ok ? null : result.error, target).toMatchObject({ code: 'export_folder_not_writable', details: { path: target, written: 0 } });
        expect(result.ok ? '' : result.error.message).toContain(target);
      }
      expect(readFileSync(file, 'utf8')).toBe('x');
      const chosen = shell.calls.length;
      shell.chooseFolderAnswer = file;
      const viaChooser = await call('exportRun', { source: { sessionId: first.sessionId }, template: '{id}', format: 'png', csv: true });
      expect(viaChooser.ok ? null : viaChooser.error.code).toBe('export_folder_not_writable');
      expect(shell.calls.length).toBe(chosen + 1);
    });

    it('the contract refuses a relative folder, an out-of-range quality and an unknown format', async () => {
      const base = { source: { sessionId: first.sessionId }, template: '{id}', csv: false };
      for (const [input, field] of [
        [{ ...base, format: 'png', folder: 'relative/dir' }, 'folder'],
        [{ ...base, format: 'jpeg', quality: 0, folder: folder('q') }, 'quality'],
        [{ ...base, format: 'jpeg', quality: 101, folder: folder('q') }, 'quality'],
        [{ ...base, format: 'gif', folder: folder('q') }, 'format'],
        [{ ...base, format: 'png', source: { imageIds: ['a'], sessionId: 'b' } }, 'source'],
      ] as const) {
        const result = await call('exportRun', input);
        expect(result.ok ? null : result.error, JSON.stringify(input)).toMatchObject({ code: 'invalid_input' });
        expect(result.ok ? '' : String(result.error.message), field).toContain(field);
      }
      expect(nothingIn(folder('q'))).toBe(true);
      // PNG is lossless: a quality sent along with it is ignored, the file is the cached PNG plus its chunk.
      const png = await ok<ExportSummary>('exportRun', { ...base, source: { imageIds: [images[0]!.id] }, format: 'png', quality: 10, folder: folder('q') });
      const bytes = readFileSync(join(folder('q'), png.written[0]!.file));
      expect(await sharp(bytes).raw().toBuffer()).toEqual(await sharp((await app.imageFile('full', images[0]!.id)) as string).raw().toBuffer());
    });
  });
});
