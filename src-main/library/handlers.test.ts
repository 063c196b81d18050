// The culling, board and library-at-scale methods through the real IPC dispatch and the library's handlers, on a real
// library.db: inputs the contract refuses and inputs main refuses both answer a clear, specific error and
// change nothing; events are one per call.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { beforeEach, describe, expect, it } from 'vitest';
import type { IpcEventName, IpcEvents } from '../../src-shared/ipc/index.ts';
import type { Board, ImageDetail, ImageNeighbors, SmartBoard } from '../../src-shared/ipc/library.ts';
import type { ImageRecord } from '../../src-shared/ipc/generation.ts';
import type { IpcResult } from '../../src-shared/ipc/contract.ts';
import { estimateCredits } from '../../src-shared/pricing.ts';
import { presentTurn } from '../domain/turns.ts';
import type { IpcHandlers } from '../ports/ipc-table.ts';
import { dispatch } from '../ipc/index.ts';
import { openLibraryDatabase, transaction } from './database.ts';
import { createLibraryHandlers } from './handlers.ts';
import { LibraryRepo } from './library-repo.ts';

let db: DatabaseSync;
let repo: LibraryRepo;
let events: Array<{ event: IpcEventName; payload: unknown }>;
let call: (method: string, input: unknown, language?: 'en' | 'zh') => Promise<IpcResult<unknown>>;
let ids: string[];

beforeEach(() => {
  const dataDir = mkdtempSync(join(tmpdir(), 'studio-ipc-lib-'));
  db = openLibraryDatabase(join(dataDir, 'library.db'));
  repo = new LibraryRepo(db);
  events = [];
  // The library's table alone, behind the real dispatch (the other rooms' methods are not called here).
  const handlers = createLibraryHandlers({
    repo,
    emit: <E extends IpcEventName>(event: E, payload: IpcEvents[E]) => void events.push({ event, payload }),
    language: () => 'en',
    present: (t) => presentTurn(t, 'en', Date.now()),
  }) as IpcHandlers;
  call = (method, input, language = 'en') => dispatch(handlers, method, input, language);
  ids = [];
  transaction(db, () => {
    for (let s = 0; s < 3; s++) {
      repo.createSession(`ls_${s}`, 'local', 1000 * s);
      repo.createTurn({ id: `lt_${s}`, sessionId: `ls_${s}`, environment: 'local', request: { prompt: `mug ${s}` }, estimate: estimateCredits({ model: 'nano-banana-2', referenceCount: 0, n: 2 }), startedAt: 1000 * s, retryOf: null, referenceImageIds: [] });
      const images = [0, 1].map((i) => ({ id: `img_${s}${i}`, filename: 'x.png', width: 1, height: 1 }));
      repo.insertImages({ id: `lt_${s}`, sessionId: `ls_${s}`, environment: 'local', model: 'nano-banana-2', purpose: 'free', prompt: `mug ${s}` }, images, 1000 * s);
      ids.push(...images.map((i) => i.id));
    }
  });
});

/** Everything these methods could change. */
function snapshot(): unknown {
  return {
    images: db.prepare('SELECT id, rating, rejected, starred FROM images ORDER BY id').all(),
    boards: db.prepare('SELECT * FROM boards ORDER BY id').all(),
    members: db.prepare('SELECT * FROM board_images ORDER BY board_id, image_id').all(),
    smart: db.prepare('SELECT * FROM smart_boards ORDER BY id').all(),
  };
}

async function ok<T>(method: string, input: unknown): Promise<T> {
  const r = await call(method, input);
  if (!r.ok) throw new Error(`${method}: ${JSON.stringify(r.error)}`);
  return r.value as T;
}

describe('library:mark', () => {
  it('marks many images, answers them in order and sends one event for the batch', async () => {
    const marked = await ok<ImageRecord[]>('libraryMark', { imageIds: [ids[3], ids[0]], rating: 5, starred: true });
    expect(marked.map((i) => [i.id, i.rating, i.starred, i.rejected])).toEqual([
      [ids[3], 5, true, false],
      [ids[0], 5, true, false],
    ]);
    expect(events).toEqual([{ event: 'library:changed', payload: { kind: 'image', id: ids[3], ids: [ids[3], ids[0]] } }]);
    // library:star still works and answers the record with its marks.
    expect(await ok<ImageRecord>('libraryStar', { imageId: ids[3], starred: false })).toMatchObject({ starred: false, rating: 5, rejected: false });
  });

  it('refuses bad input with the field named, and unknown images by id; nothing changes, no event', async () => {
    const before = snapshot();
    const invalid: Array<[unknown, string]> = [
      [{ imageIds: [], rating: 1 }, 'imageIds'],
      [{ imageIds: Array.from({ length: 1001 }, (_, i) => `img_${i}`), rating: 1 }, 'imageIds'],
      [{ imageIds: ['img_00'], rating: 6 }, 'rating'],
      [{ imageIds: ['img_00'], rating: 2.5 }, 'rating'],
      [{ imageIds: ['img_00'], rejected: 'yes' }, 'rejected'],
      [{ imageIds: [''], starred: true }, 'imageIds.0'],
    ];
    for (const [input, field] of invalid) {
      const r = await call('libraryMark', input);
      expect(r, JSON.stringify(input).slice(0, 80)).toMatchObject({ ok: false, error: { code: 'invalid_input', details: { field } } });
    }
    const none = await call('libraryMark', { imageIds: ['img_00'] });
    expect(none).toMatchObject({ ok: false, error: { code: 'invalid_input', message: expect.stringContaining('give at least one mark: starred, rating or rejected') } });
    const unknown = await call('libraryMark', { imageIds: [ids[0], 'img_zz'], rejected: true }, 'zh');
    expect(unknown).toEqual({ ok: false, error: { code: 'images_not_found', message: '图库中没有这些图片：img_zz。未做任何更改。', details: { imageIds: ['img_zz'] } } });
    expect(snapshot()).toEqual(before);
    expect(events).toEqual([]);
  });
});

describe('boards and smart boards over IPC', () => {
  it('creates, renames, adds, removes and deletes; the image detail names its boards', async () => {
    const board = await ok<Board>('boardCreate', { name: '  Spring picks  ' });
    expect(board).toMatchObject({ name: 'Spring picks', imageCount: 0, coverImageId: null });
    expect(await ok<Board>('boardAdd', { boardId: board.id, imageIds: [ids[0], ids[5]] })).toMatchObject({ imageCount: 2, coverImageId: ids[5] });
    expect(await ok<Board>('boardRename', { boardId: board.id, name: 'Spring' })).toMatchObject({ name: 'Spring', imageCount: 2 });
    expect((await ok<ImageDetail>('libraryGetImage', { imageId: ids[0] })).boards).toEqual([{ id: board.id, name: 'Spring' }]);
    const removed = await ok<Board>('boardRemove', { boardId: board.id, imageIds: [ids[5]] });
    expect(removed).toMatchObject({ imageCount: 1, coverImageId: ids[0] });
    expect(await ok<Board[]>('boardList', {})).toEqual([removed]);
    expect(await ok('boardDelete', { boardId: board.id })).toEqual({ deleted: true });
    expect(await ok<Board[]>('boardList', {})).toEqual([]);
    expect(events.map((e) => e.payload)).toEqual([
      { kind: 'board', id: board.id },
      { kind: 'board', id: board.id, ids: [ids[0], ids[5]] },
      { kind: 'board', id: board.id },
      { kind: 'board', id: board.id, ids: [ids[5]] },
      { kind: 'board', id: board.id },
    ]);
  });

  it('refuses bad names, taken names, unknown boards and unknown images; nothing changes', async () => {
    const board = await ok<Board>('boardCreate', { name: 'Spring' });
    await ok('boardAdd', { boardId: board.id, imageIds: [ids[1]] });
    await ok<SmartBoard>('smartBoardSave', { name: 'Best', filters: { minRating: 4 } });
    events = [];
    const before = snapshot();
    const invalid: Array<[string, unknown, string]> = [
      ['boardCreate', { name: '   ' }, 'name'],
      ['boardCreate', { name: 'x'.repeat(81) }, 'name'],
      ['boardCreate', { name: 'two\nlines' }, 'name'],
      ['boardRename', { boardId: board.id, name: '' }, 'name'],
      ['boardAdd', { boardId: board.id, imageIds: [] }, 'imageIds'],
      ['boardAdd', { boardId: '', imageIds: [ids[0]] }, 'boardId'],
      ['smartBoardSave', { name: 'Bad', filters: { minRating: 0 } }, 'filters.minRating'],
      ['smartBoardSave', { name: 'Bad', filters: { rejected: 'maybe' } }, 'filters.rejected'],
      ['libraryImageIds', { filters: {}, limit: 5001 }, 'limit'],
      ['libraryNeighbors', { filters: { model: 'nope' }, imageId: ids[0] }, 'filters.model'],
    ];
    for (const [method, input, field] of invalid) {
      expect(await call(method, input), `${method} ${JSON.stringify(input).slice(0, 60)}`).toMatchObject({ ok: false, error: { code: 'invalid_input', details: { field } } });
    }
    expect(await call('boardCreate', { name: 'SPRING' })).toEqual({
      ok: false,
      error: {
        code: 'board_name_taken',
        message: 'A board named “Spring” already exists (names ignore case). Choose another name. Nothing was changed.',
        details: { name: 'SPRING', existing: 'Spring', kind: 'board' },
      },
    });
    expect(await call('boardCreate', { name: 'spring' }, 'zh')).toMatchObject({ ok: false, error: { message: '已有名为“Spring”的图板（名称不区分大小写）。请换一个名称。未做任何更改。' } });
    expect(await call('smartBoardSave', { name: 'best', filters: {} })).toMatchObject({ ok: false, error: { code: 'board_name_taken', details: { kind: 'smart' } } });
    expect(await call('smartBoardSave', { id: 'sb_nope', name: 'X', filters: {} })).toMatchObject({ ok: false, error: { code: 'smart_board_not_found' } });
    expect(await call('smartBoardDelete', { id: 'sb_nope' })).toMatchObject({ ok: false, error: { code: 'smart_board_not_found' } });
    for (const method of ['boardRename', 'boardAdd', 'boardRemove', 'boardDelete']) {
      const r = await call(method, { boardId: 'bd_nope', name: 'X', imageIds: [ids[0]] });
      expect(r, method).toMatchObject({ ok: false, error: { code: 'board_not_found', details: { boardId: 'bd_nope' } } });
    }
    expect(await call('boardAdd', { boardId: board.id, imageIds: [ids[0], 'img_zz'] })).toMatchObject({ ok: false, error: { code: 'images_not_found', details: { imageIds: ['img_zz'] } } });
    expect(await call('boardRemove', { boardId: board.id, imageIds: [ids[1], 'img_zz'] })).toMatchObject({ ok: false, error: { code: 'images_not_found' } });
    expect(await call('libraryNeighbors', { filters: {}, imageId: 'img_zz' })).toMatchObject({ ok: false, error: { code: 'not_found', details: { what: 'image', id: 'img_zz' } } });
    expect(snapshot()).toEqual(before);
    expect(events).toEqual([]);
  });

  it('answers neighbours and select-all ids in the gallery order', async () => {
    expect(await ok<ImageNeighbors>('libraryNeighbors', { filters: {}, imageId: ids[2] })).toEqual({ index: 2, total: 6, prev: ids[5], next: ids[3], inFilter: true });
    expect(await ok('libraryImageIds', { filters: { query: 'mug' }, limit: 3 })).toEqual({ ids: [ids[4], ids[5], ids[2]], total: 6 });
  });
});

describe('library:get-images', () => {
  it('answers the images it has in the order asked and names the missing ids, in one call', async () => {
    const asked = [ids[4], 'img_gone', ids[0], ids[4], ...Array.from({ length: 990 }, (_, i) => `img_x${i}`)];
    const answer = await ok<{ images: ImageRecord[]; missing: string[] }>('libraryGetImages', { imageIds: asked });
    expect(answer.images.map((i) => i.id)).toEqual([ids[4], ids[0]]);
    expect(answer.missing).toEqual(['img_gone', ...Array.from({ length: 990 }, (_, i) => `img_x${i}`)]);
    expect(events).toEqual([]);
  });

  it('refuses 10,000 ids at once with a short answer naming the field (well-formed or not)', async () => {
    const many = Array.from({ length: 10_000 }, (_, i) => `img_${String(i).padStart(8, '0')}`);
    const hostile = Array.from({ length: 10_000 }, () => '../\u0000');
    for (const imageIds of [many, hostile]) {
      const started = performance.now();
      const answer = await call('libraryGetImages', { imageIds });
      expect(performance.now() - started).toBeLessThan(500);
      expect(answer).toMatchObject({ ok: false, error: { code: 'invalid_input', details: { field: 'imageIds' } } });
      // Bounded: one issue, not one per id.
      expect(JSON.stringify(answer).length).toBeLessThan(2_000);
    }
  });
});
