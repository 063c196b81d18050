// Salvage of a damaged library on its first day (issue 25): the only backup is the empty one of the first start,
// yet what the damaged file still holds comes back, table by table, and the notice says what did and what did not.
// Real files, damaged as a disk or a crash would: a page overwritten, the end of the file cut off.
import { closeSync, mkdtempSync, openSync, statSync, truncateSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { estimateCredits } from '../../src-shared/pricing.ts';
import { openLibraryDatabase, transaction } from './database.ts';
import { LibraryRepo } from './library-repo.ts';
import { backupLibrary, openLibraryWithRecovery } from './recovery.ts';

const PAGE = 4096;

/** 3 sessions of one turn of 2 images each, written through the library's own write path. */
function sixImagesInThreeSessions(db: DatabaseSync): void {
  const repo = new LibraryRepo(db);
  transaction(db, () => {
    for (let s = 1; s <= 3; s++) {
      const sessionId = `ls_salvage${s}`;
      const turnId = `lt_salvage${s}`;
      const prompt = `a copper kettle number ${s} on slate`;
      const request = { prompt, model: 'seedream-5-0-pro' as const, n: 2 as const };
      repo.createSession(sessionId, 'local', s * 1000);
      repo.createTurn({ id: turnId, sessionId, environment: 'local', request, estimate: estimateCredits({ model: 'seedream-5-0-pro', prompt, referenceCount: 0, n: 2 }), startedAt: s * 1000, retryOf: null, referenceImageIds: [] });
      repo.updateTurn(turnId, { status: 'succeeded', creditsCharged: 12, finishedAt: s * 1000 + 500 });
      const images = [1, 2].map((i) => ({ id: `img_salvage${s}${i}`, filename: `salvage${s}${i}.png`, width: 1024, height: 1024 }));
      repo.insertImages({ id: turnId, sessionId, environment: 'local', model: 'seedream-5-0-pro', purpose: 'free', prompt }, images, s * 1000 + 500);
    }
  });
}

/** A first-day data folder: the empty backup of the first start, then 6 images in 3 sessions; closed (checkpointed). */
async function firstDayLibrary(options: { backup: boolean; tail?: boolean }): Promise<{ dataDir: string; file: string; rootOf: (table: string) => number }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'studio-salvage-'));
  const file = join(dataDir, 'library.db');
  const db = openLibraryDatabase(file);
  if (options.backup) await backupLibrary(db, dataDir, new Date('2026-11-20T09:00:00Z'));
  sixImagesInThreeSessions(db);
  // Facts written last fill the last pages of the file, so cutting its end hits them and not the images.
  if (options.tail) for (let i = 0; i < 40; i++) db.prepare('INSERT INTO app_meta (key, value) VALUES (?, ?)').run(`filler_${i}`, 'x'.repeat(2000));
  const roots = new Map((db.prepare("SELECT name, rootpage FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string; rootpage: number }>).map((r) => [r.name, r.rootpage]));
  db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  db.close();
  return { dataDir, file, rootOf: (table) => roots.get(table) ?? 0 };
}

function overwritePage(file: string, page: number): void {
  const fd = openSync(file, 'r+');
  try {
    writeSync(fd, Buffer.alloc(PAGE, 0xa5), 0, PAGE, (page - 1) * PAGE);
  } finally {
    closeSync(fd);
  }
}

function counts(db: DatabaseSync): { sessions: number; turns: number; images: number } {
  const n = (table: string) => Number((db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n);
  return { sessions: n('sessions'), turns: n('turns'), images: n('images') };
}

/** A first-day library whose page of `table` was overwritten, opened (and so recovered) again. */
async function recoveredWithout(table: string, options: { backup: boolean } = { backup: true }): Promise<ReturnType<typeof openLibraryWithRecovery>> {
  const { dataDir, file, rootOf } = await firstDayLibrary(options);
  overwritePage(file, rootOf(table));
  return openLibraryWithRecovery(dataDir);
}

describe('a damaged library on its first day', () => {
  it('with a page of one table overwritten: the other tables come back whole over the empty backup, the lost one is named', async () => {
    const { db, recovery } = await recoveredWithout('boards');
    expect(counts(db)).toEqual({ sessions: 3, turns: 3, images: 6 });
    expect(new LibraryRepo(db).getTurn('lt_salvage2')?.images).toHaveLength(2);
    expect(recovery?.code).toBe('library_restored');
    expect(recovery?.params.salvaged).toMatch(/sessions 3.*turns 3.*images 6|images 6/);
    expect(recovery?.params.notSalvaged.split(', ')).toContain('boards');
    // Salvaged prompts are found by search again.
    expect(db.prepare("SELECT count(*) AS n FROM prompt_words WHERE prompt_words MATCH 'kettle'").get()).toEqual({ n: 3 });
    db.close();
  });

  it('with its end cut off: every image before the cut comes back, and the table the cut hit is named', async () => {
    const { dataDir, file } = await firstDayLibrary({ backup: true, tail: true });
    truncateSync(file, statSync(file).size - 8 * PAGE);
    const { db, recovery } = openLibraryWithRecovery(dataDir);
    expect(counts(db)).toEqual({ sessions: 3, turns: 3, images: 6 });
    expect(recovery?.params.notSalvaged).toContain('app_meta');
    db.close();
  });

  it('with no backup at all: what the file holds is salvaged, and the notice says salvaged, not reset', async () => {
    const { db, recovery } = await recoveredWithout('boards', { backup: false });
    expect(counts(db)).toEqual({ sessions: 3, turns: 3, images: 6 });
    expect(recovery?.code).toBe('library_salvaged');
    db.close();
  });

  it('with its sessions lost: the sessions are made again from their turns, so no row points nowhere', async () => {
    const { db, recovery } = await recoveredWithout('sessions');
    expect(counts(db)).toEqual({ sessions: 3, turns: 3, images: 6 });
    expect(db.prepare('PRAGMA foreign_key_check').all()).toEqual([]);
    expect(new LibraryRepo(db).sessionSummary('ls_salvage2')).toMatchObject({ turnCount: 1, imageCount: 2 });
    expect(recovery?.params.notSalvaged).toContain('sessions');
    db.close();
  });

  it('with its turns lost: images without their turn are not kept, and the notice counts them', async () => {
    const { db, recovery } = await recoveredWithout('turns');
    expect(counts(db)).toMatchObject({ turns: 0, images: 0 });
    expect(db.prepare('PRAGMA foreign_key_check').all()).toEqual([]);
    expect(recovery?.params.notSalvaged.split(', ')).toEqual(expect.arrayContaining(['turns', 'images 6']));
    db.close();
  });

  it('keeps the counts the library derives (images per turn, per session) exact, as if written by the app', async () => {
    const { db } = await recoveredWithout('boards');
    expect(db.prepare('SELECT id, image_count, kept_count FROM turns ORDER BY id').all()).toEqual(
      [1, 2, 3].map((s) => ({ id: `lt_salvage${s}`, image_count: 2, kept_count: 2 })),
    );
    expect(db.prepare('SELECT session_id, images FROM session_stats ORDER BY session_id').all()).toEqual(
      [1, 2, 3].map((s) => ({ session_id: `ls_salvage${s}`, images: 2 })),
    );
    expect(db.prepare('SELECT turn_id, images FROM turn_stats ORDER BY turn_id').all()).toEqual([1, 2, 3].map((s) => ({ turn_id: `lt_salvage${s}`, images: 2 })));
    db.close();
  });

  it("gives a salvaged turn a new place in the search when the backup's turns already use its number", async () => {
    const { dataDir, file, rootOf } = await firstDayLibrary({ backup: false });
    // The backup comes from another line of the library (an earlier restore): its own turn holds seq 1 too.
    const theirs = openLibraryDatabase(join(mkdtempSync(join(tmpdir(), 'studio-salvage-other-')), 'library.db'));
    const repo = new LibraryRepo(theirs);
    const prompt = 'a glass teapot';
    transaction(theirs, () => {
      repo.createSession('ls_other', 'local', 500);
      repo.createTurn({ id: 'lt_other', sessionId: 'ls_other', environment: 'local', request: { prompt }, estimate: estimateCredits({ model: 'seedream-5-0-pro', prompt, referenceCount: 0, n: 1 }), startedAt: 500, retryOf: null, referenceImageIds: [] });
    });
    await backupLibrary(theirs, dataDir, new Date('2026-11-20T09:00:00Z'));
    theirs.close();
    overwritePage(file, rootOf('boards'));
    const { db, recovery } = openLibraryWithRecovery(dataDir);
    expect(counts(db)).toEqual({ sessions: 4, turns: 4, images: 6 });
    expect(recovery?.params.notSalvaged).not.toContain('turns');
    const seqs = db.prepare('SELECT seq FROM turns').all().map((r) => (r as { seq: number }).seq);
    expect(new Set(seqs).size).toBe(4);
    // Both lines' prompts are found by search, each at its own turn.
    const found = (word: string) => db.prepare(`SELECT t.id FROM prompt_words w JOIN turns t ON t.seq = w.rowid WHERE prompt_words MATCH ? ORDER BY t.id`).all(word).map((r) => (r as { id: string }).id);
    expect(found('kettle')).toEqual(['lt_salvage1', 'lt_salvage2', 'lt_salvage3']);
    expect(found('teapot')).toEqual(['lt_other']);
    db.close();
  });
});
