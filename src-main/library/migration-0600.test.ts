// Migration 0600 on a library the previous version wrote (marks, a turn without images): every turn with images
// gets its stats row, and a search matching most prompts counts by them as images one by one would.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { estimateCredits } from '../../src-shared/pricing.ts';
import { openLibraryDatabase, transaction } from './database.ts';
import { LibraryRepo } from './library-repo.ts';
import { MIGRATIONS } from './migrations/index.ts';

describe('migration 0600 on an existing library', () => {
  it('fills each turn’s stats (seq, counts, newest times, mark cells), and searches with any marks count by them', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'studio-m0600-')), 'library.db');
    const old = openLibraryDatabase(file, MIGRATIONS.filter((m) => m.version < 600));
    const repo = new LibraryRepo(old);
    const ids: string[] = [];
    transaction(old, () => {
      for (let s = 0; s < 12; s++) {
        const sessionId = `ls_${s}`;
        repo.createSession(sessionId, 'local', 1_000 + s * 100);
        for (let t = 0; t < 3; t++) {
          const id = `lt_${s}_${t}`;
          const at = 1_000 + s * 100 + t * 10;
          const prompt = `Vase ${t} on slate`;
          repo.createTurn({ id, sessionId, environment: 'local', request: { prompt, model: 'gpt-image-2', purpose_id: 'detail', n: 2 }, estimate: estimateCredits({ model: 'gpt-image-2', referenceCount: 0, n: 2 }), startedAt: at, retryOf: null, referenceImageIds: [] });
          // The last turn of each session failed: no images, no stats row.
          if (t === 2) continue;
          const images = [0, 1, 2].map((i) => ({ id: `img_${s}_${t}_${i}`, filename: `${s}_${t}_${i}.png`, width: 1, height: 1 }));
          repo.insertImages({ id, sessionId, environment: 'local', model: 'gpt-image-2', purpose: 'detail', prompt }, images.slice(0, 2), at);
          repo.insertImages({ id, sessionId, environment: 'local', model: 'gpt-image-2', purpose: 'detail', prompt }, images.slice(2), at + 5);
          ids.push(...images.map((i) => i.id));
        }
      }
    });
    // Marks of every kind: ratings, stars, rejects (each session's late images, so its kept newest is earlier).
    repo.mark(ids.filter((_, k) => k % 3 === 0), { rating: 4 });
    repo.mark(ids.filter((_, k) => k % 4 === 1), { rating: 2, starred: true });
    repo.mark(ids.filter((id) => id.endsWith('_2') && !id.startsWith('img_5_')), { rejected: true });
    old.close();

    const db = openLibraryDatabase(file);
    expect(db.prepare('SELECT name FROM schema_migrations WHERE version = 600').get()).toEqual({ name: '0600-turn-stats' });
    const stats = db.prepare('SELECT turn_id, seq, images, kept, images_at, kept_at, c0, c8, c14, c17 FROM turn_stats ORDER BY session_id, turn_id').all() as Array<Record<string, number | string | null>>;
    expect(stats).toHaveLength(24);
    const seqOf = (turnId: string) => (db.prepare('SELECT seq FROM turns WHERE id = ?').get(turnId) as { seq: number }).seq;
    // lt_4_1: image 0 rated 4 (cell 8), image 1 unmarked (cell 0), image 2 (late) rated 2, starred and rejected (cell 17).
    expect(stats.find((r) => r.turn_id === 'lt_4_1')).toEqual({ turn_id: 'lt_4_1', seq: seqOf('lt_4_1'), images: 3, kept: 2, images_at: 1_410 + 5, kept_at: 1_410, c0: 1, c8: 1, c14: 0, c17: 1 });
    expect(stats.find((r) => r.turn_id === 'lt_5_0')).toMatchObject({ images: 3, kept: 3, images_at: 1_505, kept_at: 1_505 });
    expect(stats.some((r) => r.turn_id === 'lt_3_2')).toBe(false);

    // Every prompt matches "slate": counted by turns (sparse 0) and image by image (the default, on a connection of
    // its own: kept searches are the connection's), the same.
    const byTurns = new LibraryRepo(db, { sparseSearchTurns: 0 });
    const other = openLibraryDatabase(file);
    const byImages = new LibraryRepo(other);
    for (const filters of [{ query: 'slate' }, { query: 'slate', rejected: 'hide' as const }, { query: 'slate', minRating: 3 }, { query: 'slate', starred: true, rejected: 'hide' as const }, { query: 'slate', rejected: 'only' as const }]) {
      const want = byImages.gallery(filters, null, 50).totals;
      expect(want.images, JSON.stringify(filters)).toBeGreaterThan(0);
      expect(byTurns.gallery(filters, null, 50).totals, JSON.stringify(filters)).toEqual(want);
    }
    expect(byTurns.gallery({ query: 'slate', minRating: 3 }, null, 50).totals).toEqual({ sessions: 12, images: ids.filter((_, k) => k % 3 === 0 && k % 4 !== 1).length });
    // Each took its own path: the stats' count, and the images kept one by one.
    expect(db.prepare('SELECT dense FROM temp.searches').all()).toEqual([{ dense: 1 }]);
    expect(other.prepare('SELECT dense FROM temp.searches').all()).toEqual([{ dense: 0 }]);
    other.close();
    db.close();
  });
});
