// Migration 0500 on a library the previous version wrote (marks included): every turn gets the number and the
// newest time of its images not rejected, and a search matching most prompts counts by them exactly.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { estimateCredits } from '../../src-shared/pricing.ts';
import { openLibraryDatabase, transaction } from './database.ts';
import { LibraryRepo } from './library-repo.ts';
import { MIGRATIONS } from './migrations/index.ts';

describe('migration 0500 on an existing library', () => {
  it('fills each turn’s images not rejected and their newest time, and searches count by them', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'studio-m0500-')), 'library.db');
    const old = openLibraryDatabase(file, MIGRATIONS.filter((m) => m.version < 500));
    const repo = new LibraryRepo(old);
    const ids: string[] = [];
    transaction(old, () => {
      for (let s = 0; s < 20; s++) {
        const sessionId = `ls_${s}`;
        repo.createSession(sessionId, 'local', 1_000 + s * 100);
        for (let t = 0; t < 3; t++) {
          const id = `lt_${s}_${t}`;
          const at = 1_000 + s * 100 + t * 10;
          repo.createTurn({ id, sessionId, environment: 'local', request: { prompt: `Mug ${t} on oak`, model: 'gpt-image-2', purpose_id: 'detail', n: 2 }, estimate: estimateCredits({ model: 'gpt-image-2', referenceCount: 0, n: 2 }), startedAt: at, retryOf: null, referenceImageIds: [] });
          const images = [0, 1].map((i) => ({ id: `img_${s}_${t}_${i}`, filename: `${s}_${t}_${i}.png`, width: 1, height: 1 }));
          repo.insertImages({ id, sessionId, environment: 'local', model: 'gpt-image-2', purpose: 'detail', prompt: `Mug ${t} on oak` }, images, at);
          // The second turn of each session got a third image later.
          if (t === 1) repo.insertImages({ id, sessionId, environment: 'local', model: 'gpt-image-2', purpose: 'detail', prompt: `Mug ${t} on oak` }, [{ id: `img_${s}_${t}_late`, filename: 'late.png', width: 1, height: 1 }], at + 5);
          ids.push(...images.map((i) => i.id), ...(t === 1 ? [`img_${s}_${t}_late`] : []));
        }
      }
    });
    // Late images rejected (their turn's newest kept image is older), and every image of session 3's newest turn.
    repo.mark([...ids.filter((id) => id.endsWith('_late') && id !== 'img_7_1_late'), 'img_3_2_0', 'img_3_2_1'], { rejected: true });
    old.close();

    const db = openLibraryDatabase(file);
    expect(db.prepare('SELECT name FROM schema_migrations WHERE version = 500').get()).toEqual({ name: '0500-search-turn-counts' });
    const turns = db.prepare('SELECT id, kept_count AS kept, kept_at AS at FROM turns ORDER BY id').all() as Array<{ id: string; kept: number; at: number | null }>;
    expect(turns).toHaveLength(60);
    expect(turns.find((t) => t.id === 'lt_4_1')).toEqual({ id: 'lt_4_1', kept: 2, at: 1_000 + 400 + 10 });
    expect(turns.find((t) => t.id === 'lt_7_1')).toEqual({ id: 'lt_7_1', kept: 3, at: 1_000 + 700 + 15 });
    expect(turns.find((t) => t.id === 'lt_3_2')).toEqual({ id: 'lt_3_2', kept: 0, at: null });
    // Every prompt matches "oak": counted by turns (sparse 0), the same totals as images one by one.
    const byTurns = new LibraryRepo(db, { sparseSearchTurns: 0 });
    const kept = ids.length - 19 - 2;
    expect(byTurns.gallery({ query: 'oak', rejected: 'hide' }, null, 5).totals).toEqual({ sessions: 20, images: kept });
    expect(byTurns.gallery({ query: 'oak', rejected: 'hide', model: 'gpt-image-2' }, null, 5).totals).toEqual({ sessions: 20, images: kept });
    expect(byTurns.gallery({ query: 'oak', purpose: 'free' }, null, 5).totals).toEqual({ sessions: 0, images: 0 });
    // Session 3's newest kept image is now in its second turn: its position counts from there.
    const first = byTurns.gallery({ query: 'oak', rejected: 'hide' }, null, 20).groups.find((g) => g.session.id === 'ls_3');
    expect(first?.images[0]?.id).toBe('img_3_1_0');
    // A mark written by another connection: the kept search and the remembered totals are not reused.
    expect(byTurns.gallery({ rejected: 'hide' }, null, 5).totals).toEqual({ sessions: 20, images: kept });
    const other = openLibraryDatabase(file);
    new LibraryRepo(other).mark(['img_0_0_0', 'img_0_0_1'], { rejected: true });
    other.close();
    expect(byTurns.gallery({ rejected: 'hide' }, null, 5).totals).toEqual({ sessions: 20, images: kept - 2 });
    expect(byTurns.gallery({ query: 'oak', rejected: 'hide' }, null, 5).totals).toEqual({ sessions: 20, images: kept - 2 });
    db.close();
  });
});
