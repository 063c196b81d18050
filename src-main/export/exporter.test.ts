// The exporter over a small in-memory library and real files: the board source (through the boardImageIds seam),
// downloads that are not finished, files that cannot be decoded, and a name taken while the export runs.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readGenerationData } from '../../src-shared/generation-data.ts';
import type { ImageRecord } from '../../src-shared/ipc/generation.ts';
import type { ExportProgress } from '../../src-shared/ipc/export.ts';
import type { SessionSummary } from '../../src-shared/ipc/library.ts';
import { RecordingShell } from '../ports/desktop-shell.ts';
import { StudioError } from '../domain/errors.ts';
import type { StoredTurn } from '../domain/turns.ts';
import { cacheDirs } from '../files/image-cache.ts';
import { absoluteHereOrThrow, createExclusive, createExporter, prepareFolder, type ExporterDeps } from './exporter.ts';

let root: string;
const dirs = () => cacheDirs(join(root, 'data'));

function image(id: string, download: ImageRecord['download'] = 'done'): ImageRecord {
  return { id, turnId: 'lt_1', sessionId: 'ls_1', environment: 'local', filename: `${id}.png`, width: 40, height: 30, starred: false, download, missing: false, createdAt: Date.UTC(2026, 0, 2, 3, 4, 5), model: 'nano-banana-2', prompt: 'a cup' } as ImageRecord;
}

const IMAGES = [image('img_Board001'), image('img_Board002'), image('img_Pending1', 'pending'), image('img_Broken01')];
const TURN = {
  id: 'lt_1',
  serviceTurnId: 't_1',
  sessionId: 'ls_1',
  serviceSessionId: 's_1',
  environment: 'local',
  request: { prompt: 'a cup', model: 'nano-banana-2', ratio: '1:1', n: 4 },
  estimate: { model: 'nano-banana-2', resolution: '1K', quality: null, total: 48 },
  status: 'succeeded',
  creditsCharged: 48,
  requestId: 'req_1',
  images: IMAGES,
  referenceImageIds: [],
} as unknown as StoredTurn;

function deps(overrides: Partial<ExporterDeps> = {}): ExporterDeps & { events: ExportProgress[] } {
  const events: ExportProgress[] = [];
  const shell = new RecordingShell();
  return {
    repo: {
      getImage: (id) => IMAGES.find((i) => i.id === id) ?? null,
      getTurn: (id) => (id === 'lt_1' ? TURN : null),
      listTurns: () => [TURN],
      sessionSummary: (id) => (id === 'ls_1' ? ({ id, title: 'Board test' } as SessionSummary) : null),
    },
    dirs: dirs(),
    shell,
    emit: (event, payload) => {
      if (event === 'export:progress') events.push(payload as ExportProgress);
    },
    language: () => 'en',
    events,
    ...overrides,
  };
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'studio-exporter-'));
  mkdirSync(dirs().full, { recursive: true });
  for (const [i, im] of IMAGES.entries()) {
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 40 * i, g: 90, b: 200 } } }).png().toBuffer();
    writeFileSync(join(dirs().full, `${im.id}.png`), png);
  }
  // Downloaded, but the file is not an image any more.
  writeFileSync(join(dirs().full, 'img_Broken01.png'), 'not a png');
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('exporter', () => {
  it('exports a board in the board’s order, skipping what is not downloaded or cannot be read', async () => {
    const d = deps({ boardImageIds: (boardId) => (boardId === 'bd_1' ? ['img_Board002', 'img_Pending1', 'img_Broken01', 'img_Board001'] : null) });
    const out = join(root, 'board');
    const summary = await createExporter(d).run({ source: { boardId: 'bd_1' }, template: '{index}_{id}', format: 'png', csv: false, folder: out });
    // {index} counts written files: the unreadable one in between leaves no gap.
    expect(summary.written.map((w) => w.file)).toEqual(['1_img_Board002.png', '2_img_Board001.png']);
    expect(summary.skipped).toEqual([
      { imageId: 'img_Pending1', reason: 'not_downloaded' },
      { imageId: 'img_Broken01', reason: 'unreadable' },
    ]);
    expect(readdirSync(out).sort()).toEqual(['1_img_Board002.png', '2_img_Board001.png']);
    const read = readGenerationData(readFileSync(join(out, '1_img_Board002.png')));
    expect(read.ok && read.data).toMatchObject({ imageId: 'img_Board002', turnId: 'lt_1', creditsCharged: 48, creditsEstimated: 48, request: { prompt: 'a cup' } });
    // Progress counts every image of the set, written or not.
    expect(d.events.map((e) => e.done)).toEqual([0, 1, 2, 3]);
    expect(d.events.every((e) => e.total === 3)).toBe(true);
  });

  it('answers not_found for an unknown board, and export_boards_unavailable while the app has no boards', async () => {
    const unknown = createExporter(deps({ boardImageIds: () => null })).run({ source: { boardId: 'bd_x' }, template: '{id}', format: 'png', csv: false, folder: join(root, 'nb') });
    await expect(unknown).rejects.toMatchObject({ code: 'not_found', params: { what: 'board', id: 'bd_x' } });
    const none = createExporter(deps()).run({ source: { boardId: 'bd_1' }, template: '{id}', format: 'png', csv: false, folder: join(root, 'nb') });
    await expect(none).rejects.toBeInstanceOf(StudioError);
    await expect(none).rejects.toMatchObject({ code: 'export_boards_unavailable' });
    expect(() => readdirSync(join(root, 'nb'))).toThrow();
  });

  it('writes only to folders absolute by the rules of this computer: C:\\… on Linux or macOS is refused, nothing lands in the working directory', async () => {
    const otherPlatform = process.platform === 'win32' ? '/tmp/studio-export' : 'C:\\Users\\me\\studio-export';
    const cwdBefore = readdirSync(process.cwd()).sort();
    const run = createExporter(deps()).run({ source: { imageIds: ['img_Board001'] }, template: '{id}', format: 'png', csv: false, folder: otherPlatform });
    await expect(run).rejects.toMatchObject({ code: 'invalid_input', params: { field: 'folder' } });
    // The marketplace export and the batch's CSV files write through the same two helpers.
    await expect(prepareFolder(otherPlatform)).rejects.toMatchObject({ code: 'invalid_input', params: { field: 'folder' } });
    await expect(createExclusive(otherPlatform, 'products', 'csv', 'x', new Set(), 0)).rejects.toMatchObject({ code: 'invalid_input' });
    expect(readdirSync(process.cwd()).sort()).toEqual(cwdBefore);
    // Each platform's own forms.
    expect(() => absoluteHereOrThrow('/home/me/out', 'posix')).not.toThrow();
    for (const bad of ['C:\\out', 'C:/out', '\\\\server\\share\\out', 'out', './out']) expect(() => absoluteHereOrThrow(bad, 'posix'), bad).toThrow(StudioError);
    for (const good of ['C:\\out', 'd:/out', '\\\\server\\share\\out']) expect(() => absoluteHereOrThrow(good, 'win32'), good).not.toThrow();
    for (const bad of ['/out', '\\out', 'C:out', 'out']) expect(() => absoluteHereOrThrow(bad, 'win32'), bad).toThrow(StudioError);
  });

  it('takes the next name when a file appears under the planned one after the folder was read', async () => {
    const out = join(root, 'race');
    mkdirSync(out);
    const d = deps();
    // The progress event before the first file is the moment a racing program creates that very name.
    d.emit = (event, payload) => {
      if (event === 'export:progress' && (payload as ExportProgress).done === 0) writeFileSync(join(out, 'shot.png'), 'someone else');
    };
    const summary = await createExporter(d).run({ source: { imageIds: ['img_Board001'] }, template: 'shot', format: 'png', csv: false, folder: out });
    expect(summary.written).toEqual([{ imageId: 'img_Board001', file: 'shot_2.png' }]);
    expect(readFileSync(join(out, 'shot.png'), 'utf8')).toBe('someone else');
  });
});
