// Culling marks, boards, smart boards, automatic session titles and the per-session counts that triggers
// keep, on a real library.db.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { estimateCredits } from '../../src-shared/pricing.ts';
import { StudioError } from '../domain/errors.ts';
import { openLibraryDatabase, transaction } from './database.ts';
import { LibraryRepo } from './library-repo.ts';

function open(): { db: DatabaseSync; repo: LibraryRepo } {
  const db = openLibraryDatabase(join(mkdtempSync(join(tmpdir(), 'studio-cull-')), 'library.db'));
  return { db, repo: new LibraryRepo(db) };
}

let turnNo = 0;
/** A turn with `n` images (ids `img_<turn>_<i>`) in a session created if needed. */
function turn(repo: LibraryRepo, db: DatabaseSync, sessionId: string, at: number, prompt: string, n = 2): string[] {
  const turnId = `lt_${turnNo++}`;
  const ids = Array.from({ length: n }, (_, i) => `img_${turnId.slice(3)}_${i}`);
  transaction(db, () => {
    if (!repo.sessionRow(sessionId)) repo.createSession(sessionId, 'local', at);
    repo.createTurn({ id: turnId, sessionId, environment: 'local', request: { prompt }, estimate: estimateCredits({ model: 'nano-banana-2', referenceCount: 0, n: 1 }), startedAt: at, retryOf: null, referenceImageIds: [] });
    repo.insertImages({ id: turnId, sessionId, environment: 'local', model: 'nano-banana-2', purpose: 'free', prompt }, ids.map((id) => ({ id, filename: `${id}.png`, width: 1, height: 1 })), at);
  });
  return ids;
}

function studioError(fn: () => unknown): StudioError {
  try {
    fn();
  } catch (error) {
    if (error instanceof StudioError) return error;
    throw error;
  }
  throw new Error('did not throw');
}

/** session_stats as the triggers keep it, and as it is recomputed from the images. */
function statsBothWays(db: DatabaseSync): { kept: unknown[]; recomputed: unknown[] } {
  const cells = Array.from({ length: 24 }, (_, k) => k);
  const kept = db.prepare(`SELECT session_id, newest_at, oldest_at, images, ${cells.map((k) => `c${k}`).join(', ')} FROM session_stats WHERE images > 0 ORDER BY session_id`).all();
  const recomputed = db
    .prepare(
      `SELECT session_id, MAX(created_at) AS newest_at, MIN(created_at) AS oldest_at, COUNT(*) AS images,
       ${cells.map((k) => `SUM(starred * 12 + rating * 2 + rejected = ${k}) AS c${k}`).join(', ')} FROM images GROUP BY session_id ORDER BY session_id`,
    )
    .all();
  return { kept, recomputed };
}

describe('culling marks', () => {
  it('rates, rejects and stars many images in one call; marks not given stay', () => {
    const { db, repo } = open();
    const a = turn(repo, db, 'ls_a', 1000, 'mug', 3);
    const b = turn(repo, db, 'ls_b', 2000, 'bag', 2);
    const marked = repo.mark([a[2] as string, a[0] as string, a[2] as string, b[1] as string], { rating: 4, rejected: true });
    // In the order asked, each once.
    expect(marked.map((i) => [i.id, i.rating, i.rejected, i.starred])).toEqual([
      [a[2], 4, true, false],
      [a[0], 4, true, false],
      [b[1], 4, true, false],
    ]);
    expect(repo.mark([a[0] as string], { starred: true })[0]).toMatchObject({ rating: 4, rejected: true, starred: true });
    expect(repo.mark([a[0] as string], { rating: 0, rejected: false })[0]).toMatchObject({ rating: 0, rejected: false, starred: true });
    expect(repo.getImage(a[1] as string)).toMatchObject({ rating: 0, rejected: false, starred: false });
    // libraryStar's path still works and reads the same columns.
    expect(repo.setStarred(a[1] as string, true)).toBe(true);
    expect(repo.getImage(a[1] as string)?.starred).toBe(true);
    const { kept, recomputed } = statsBothWays(db);
    expect(kept).toEqual(recomputed);
  });

  it('refuses the whole call when one image is unknown, naming it, and changes nothing', () => {
    const { db, repo } = open();
    const ids = turn(repo, db, 'ls_a', 1000, 'mug', 2);
    const before = db.prepare('SELECT id, rating, rejected, starred FROM images ORDER BY id').all();
    const error = studioError(() => repo.mark([ids[0] as string, 'img_nope', 'img_gone'], { rating: 5 }));
    expect(error.code).toBe('images_not_found');
    expect(error.params).toEqual({ imageIds: ['img_nope', 'img_gone'] });
    expect(error.toIpc('en').message).toBe('These images are not in the library: img_nope, img_gone. Nothing was changed.');
    expect(error.toIpc('zh').message).toBe('图库中没有这些图片：img_nope, img_gone。未做任何更改。');
    expect(db.prepare('SELECT id, rating, rejected, starred FROM images ORDER BY id').all()).toEqual(before);
    expect(studioError(() => repo.mark([ids[0] as string], {})).code).toBe('invalid_input');
  });

  it('keeps per-session and per-turn counts exact through inserts, marks and deletes (triggers)', () => {
    const { db, repo } = open();
    const ids = [...turn(repo, db, 'ls_a', 1000, 'mug', 4), ...turn(repo, db, 'ls_a', 5000, 'mug', 4), ...turn(repo, db, 'ls_b', 3000, 'bag', 4)];
    for (let i = 0; i < 40; i++) {
      const id = ids[(i * 7) % ids.length] as string;
      repo.mark([id], { rating: i % 6, rejected: i % 3 === 0, starred: i % 4 === 0 });
    }
    repo.mark(ids, { rating: 2 });
    expect(statsBothWays(db).kept).toEqual(statsBothWays(db).recomputed);
    // The app deletes no images today; the trigger keeps the counts and the time span right if it ever does.
    db.prepare('DELETE FROM images WHERE id = ?').run(ids[7] as string);
    db.prepare('DELETE FROM images WHERE id = ?').run(ids[0] as string);
    const { kept, recomputed } = statsBothWays(db);
    expect(kept).toEqual(recomputed);
    const turnStats = 'SELECT t.id, t.image_count AS n, t.images_at AS at FROM turns t ORDER BY t.id';
    const turnTruth = 'SELECT t.id, (SELECT COUNT(*) FROM images i WHERE i.turn_id = t.id) AS n, (SELECT MAX(created_at) FROM images i WHERE i.turn_id = t.id) AS at FROM turns t ORDER BY t.id';
    expect(db.prepare(turnStats).all()).toEqual(db.prepare(turnTruth).all());
  });
});

describe('boards', () => {
  it('creates boards with unique names (any case, full-width forms too), lists them by name', () => {
    const { repo } = open();
    const spring = repo.boards.create('Spring', 10);
    expect(spring).toMatchObject({ name: 'Spring', imageCount: 0, coverImageId: null, createdAt: 10, updatedAt: 10 });
    expect(spring.id).toMatch(/^bd_[A-Za-z0-9]{10}$/);
    for (const name of ['spring', 'SPRING', 'ＳＰＲＩＮＧ']) {
      const error = studioError(() => repo.boards.create(name, 11));
      expect(error.code).toBe('board_name_taken');
      expect(error.params).toEqual({ name, existing: 'Spring', kind: 'board' });
    }
    expect(studioError(() => repo.boards.create('spring', 11)).toIpc('en').message).toBe(
      'A board named “Spring” already exists (names ignore case). Choose another name. Nothing was changed.',
    );
    repo.boards.create('autumn', 12);
    repo.boards.create('Best 春季', 13);
    expect(repo.boards.list().map((b) => b.name)).toEqual(['autumn', 'Best 春季', 'Spring']);
  });

  it('renames (its own name in another case is fine, another board’s is not)', () => {
    const { repo } = open();
    const a = repo.boards.create('Spring', 1);
    repo.boards.create('Autumn', 2);
    expect(repo.boards.rename(a.id, 'SPRING', 3)).toMatchObject({ name: 'SPRING', updatedAt: 3 });
    expect(studioError(() => repo.boards.rename(a.id, 'autumn', 4)).code).toBe('board_name_taken');
    expect(repo.boards.get(a.id)?.name).toBe('SPRING');
    expect(studioError(() => repo.boards.rename('bd_nope', 'X', 5))).toMatchObject({ code: 'board_not_found', params: { boardId: 'bd_nope' } });
  });

  it('adds and removes images (idempotent), counts them, covers with the last added, deletes without touching images', () => {
    const { db, repo } = open();
    const ids = [...turn(repo, db, 'ls_a', 1000, 'mug', 3), ...turn(repo, db, 'ls_b', 2000, 'bag', 3)];
    const board = repo.boards.create('Picks', 1);
    const req = (x: readonly string[]) => repo.requireImages(x);
    expect(repo.boards.add(board.id, [ids[0] as string, ids[4] as string, ids[0] as string], 5, req)).toMatchObject({ imageCount: 2, updatedAt: 5 });
    expect(repo.boards.add(board.id, [ids[4] as string, ids[1] as string], 6, req)).toMatchObject({ imageCount: 3, coverImageId: ids[1], updatedAt: 6 });
    // Unknown images refuse the whole call; nothing is added.
    const error = studioError(() => repo.boards.add(board.id, [ids[2] as string, 'img_nope'], 7, req));
    expect(error).toMatchObject({ code: 'images_not_found', params: { imageIds: ['img_nope'] } });
    expect(repo.boards.get(board.id)).toMatchObject({ imageCount: 3, updatedAt: 6 });
    expect(studioError(() => repo.boards.add('bd_nope', [ids[2] as string], 7, req)).code).toBe('board_not_found');
    // The image's detail names its boards; the board's order is the gallery's.
    expect(repo.imageDetail(ids[1] as string)?.boards).toEqual([{ id: board.id, name: 'Picks' }]);
    expect(repo.boardImageIds(board.id)).toEqual([ids[4], ids[0], ids[1]]);
    expect(repo.gallery({ boardId: board.id }, null, 10).groups.map((g) => g.images.map((i) => i.id))).toEqual([[ids[4]], [ids[0], ids[1]]]);
    expect(repo.boardImageIds('bd_nope')).toBeNull();
    expect(repo.boards.remove(board.id, [ids[1] as string, ids[5] as string], 8, req)).toMatchObject({ imageCount: 2, coverImageId: ids[4] });
    repo.boards.delete(board.id);
    expect(repo.boards.get(board.id)).toBeNull();
    expect(db.prepare('SELECT COUNT(*) AS n FROM board_images').get()).toEqual({ n: 0 });
    expect(db.prepare('SELECT COUNT(*) AS n FROM images').get()).toEqual({ n: 6 });
    expect(repo.imageDetail(ids[4] as string)?.boards).toEqual([]);
    expect(studioError(() => repo.boards.delete(board.id)).code).toBe('board_not_found');
  });
});

describe('smart boards', () => {
  it('saves filters under a unique name, updates them, lists and deletes', () => {
    const { repo } = open();
    const best = repo.boards.smartSave({ name: 'Best of spring', filters: { minRating: 4, rejected: 'hide', query: 'mug' } }, 1);
    expect(best).toMatchObject({ name: 'Best of spring', filters: { minRating: 4, rejected: 'hide', query: 'mug' }, createdAt: 1, updatedAt: 1 });
    expect(best.id).toMatch(/^sb_/);
    expect(studioError(() => repo.boards.smartSave({ name: 'BEST OF SPRING', filters: {} }, 2))).toMatchObject({ code: 'board_name_taken', params: { kind: 'smart' } });
    // A board and a smart board may share a name (they are listed apart).
    repo.boards.create('Best of spring', 2);
    const updated = repo.boards.smartSave({ id: best.id, name: 'Best', filters: { starred: true } }, 3);
    expect(updated).toEqual({ id: best.id, name: 'Best', filters: { starred: true }, createdAt: 1, updatedAt: 3 });
    expect(studioError(() => repo.boards.smartSave({ id: 'sb_nope', name: 'X', filters: {} }, 4))).toMatchObject({ code: 'smart_board_not_found' });
    repo.boards.smartSave({ name: 'a rejects', filters: { rejected: 'only' } }, 5);
    expect(repo.boards.smartList().map((b) => b.name)).toEqual(['a rejects', 'Best']);
    repo.boards.smartDelete(best.id);
    expect(repo.boards.smartList().map((b) => b.name)).toEqual(['a rejects']);
    expect(studioError(() => repo.boards.smartDelete(best.id)).code).toBe('smart_board_not_found');
  });
});

describe('automatic session titles', () => {
  it('titles a session from its first prompt, tells equal ones apart by time, and the user’s title wins', () => {
    const { db, repo } = open();
    const at = new Date(2026, 2, 14, 14, 5).getTime();
    turn(repo, db, 'ls_a', at, 'Shampoo bottle on marble');
    turn(repo, db, 'ls_a', at + 60_000, 'Something else entirely');
    expect(repo.sessionSummary('ls_a')).toMatchObject({ title: 'Shampoo bottle on marble', localTitle: null });
    turn(repo, db, 'ls_b', at + 3_600_000, 'Shampoo   bottle on marble');
    expect(repo.sessionSummary('ls_b')?.title).toBe('Shampoo bottle on marble · 15:05');
    // A session whose first turn had no prompt (references only) takes the first prompt it gets.
    turn(repo, db, 'ls_c', at, '');
    expect(repo.sessionSummary('ls_c')?.title).toBe('API generation');
    turn(repo, db, 'ls_c', at + 1000, 'Lipstick macro, studio light');
    expect(repo.sessionSummary('ls_c')?.title).toBe('Lipstick macro, studio light');
    expect(repo.renameSession('ls_a', 'Spring shampoo')).toBe(true);
    expect(repo.sessionSummary('ls_a')).toMatchObject({ title: 'Spring shampoo', localTitle: 'Spring shampoo' });
    // A title the user chose counts as shown: a new session with that prompt is told apart from it.
    turn(repo, db, 'ls_d', at + 7_200_000, 'Spring shampoo');
    expect(repo.sessionSummary('ls_d')?.title).toBe('Spring shampoo · 16:05');
  });
});
