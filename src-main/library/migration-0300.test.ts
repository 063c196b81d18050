// Migration 0300 on a library an earlier version wrote: 20,000 images in 1,000 sessions inserted with the
// schema before it (as that version's rows look), then opened by this version. Everything is kept, every
// session gets its automatic title, old prompts are found by search, the per-session counts are exact, and it
// runs in about a second (bench/library.bench.ts times it at 100,000 images).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openLibraryDatabase, transaction } from './database.ts';
import { LibraryRepo } from './library-repo.ts';
import { MIGRATIONS } from './migrations/index.ts';

const SESSIONS = 1000;
const TURNS = 5;
const PER_TURN = 4;

function legacyLibrary(file: string): void {
  const db = openLibraryDatabase(file, MIGRATIONS.filter((m) => m.version < 300));
  const session = db.prepare('INSERT INTO sessions (id, environment, service_session_id, service_title, local_title, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)');
  const turn = db.prepare(
    `INSERT INTO turns (id, session_id, environment, request_json, estimate_json, model, purpose, prompt, status, started_at, client_id_sent)
     VALUES (?, ?, 'local', '{}', '{}', 'nano-banana-2', 'free', ?, 'succeeded', ?, 1)`,
  );
  const image = db.prepare(
    `INSERT INTO images (id, turn_id, session_id, environment, filename, position, width, height, starred, download, created_at, model, purpose, prompt)
     VALUES (?, ?, ?, 'local', ?, ?, 1, 1, ?, 'done', ?, 'nano-banana-2', 'free', ?)`,
  );
  transaction(db, () => {
    for (let s = 0; s < SESSIONS; s++) {
      const sid = `ls_${String(s).padStart(5, '0')}`;
      const at = Date.UTC(2025, 0, 1) + s * 3_600_000;
      session.run(sid, 'local', `s_${s}`, 'API generation', s === 3 ? 'My own title' : null, at, at + TURNS * 60_000);
      for (let t = 0; t < TURNS; t++) {
        const tid = `lt_${s}_${t}`;
        // Sessions repeat the same ten first prompts; session 5 started with a reference-only turn.
        const prompt = s === 5 && t === 0 ? '' : t === 0 ? `Product ${s % 10} on marble, soft light` : `Variation ${t} of product ${s % 10}, 洗发水瓶`;
        turn.run(tid, sid, prompt, at + t * 60_000);
        for (let i = 0; i < PER_TURN; i++) image.run(`img_${s}_${t}_${i}`, tid, sid, `${s}_${t}_${i}.png`, i, (s + t + i) % 17 === 0 ? 1 : 0, at + t * 60_000 + 20_000, prompt);
      }
    }
  });
  db.close();
}

describe('migration 0300 on an existing library', () => {
  it('keeps everything, titles every session, indexes old prompts and counts', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'studio-m0300-')), 'library.db');
    legacyLibrary(file);
    // How long it takes is a measure, not a test: bench/library.bench.ts times migrations 0300+ on 100,000 images.
    const db = openLibraryDatabase(file);
    const repo = new LibraryRepo(db);
    expect(db.prepare('SELECT name FROM schema_migrations WHERE version = 300').get()).toEqual({ name: '0300-library-at-scale' });
    expect(db.prepare('SELECT COUNT(*) AS n, SUM(rating) AS r, SUM(rejected) AS x, SUM(starred) AS s FROM images').get()).toEqual({
      n: SESSIONS * TURNS * PER_TURN,
      r: 0,
      x: 0,
      s: Array.from({ length: SESSIONS * TURNS * PER_TURN }).filter((_, k) => {
        const s = Math.floor(k / (TURNS * PER_TURN));
        const t = Math.floor(k / PER_TURN) % TURNS;
        return (s + t + (k % PER_TURN)) % 17 === 0;
      }).length,
    });
    // Titles: the oldest session with a prompt keeps it plain, later ones get their start time (UTC+local here).
    expect(repo.sessionSummary('ls_00000')?.title).toBe('Product 0 on marble, soft light');
    const tenth = new Date(Date.UTC(2025, 0, 1) + 10 * 3_600_000);
    expect(repo.sessionSummary('ls_00010')?.title).toBe(`Product 0 on marble, soft light · ${String(tenth.getHours()).padStart(2, '0')}:00`);
    expect(repo.sessionSummary('ls_00003')).toMatchObject({ title: 'My own title', localTitle: 'My own title' });
    expect(repo.sessionSummary('ls_00005')?.title).toBe('Variation 1 of product 5, 洗发水瓶');
    const titles = db.prepare('SELECT COALESCE(local_title, auto_title) AS t FROM sessions').all() as Array<{ t: string | null }>;
    expect(titles.every((r) => r.t !== null)).toBe(true);
    expect(new Set(titles.map((r) => r.t)).size).toBe(SESSIONS);
    // Old prompts are found through the new indexes, long terms and short Chinese ones.
    expect(repo.gallery({ query: 'product 7 on marble' }, null, 5).totals).toEqual({ sessions: 100, images: 100 * PER_TURN });
    expect(repo.gallery({ query: '洗发' }, null, 5).totals).toEqual({ sessions: SESSIONS, images: SESSIONS * (TURNS - 1) * PER_TURN });
    expect(db.prepare('SELECT COUNT(*) AS n, COUNT(DISTINCT seq) AS d, MIN(seq) AS lo FROM turns').get()).toEqual({ n: SESSIONS * TURNS, d: SESSIONS * TURNS, lo: 1 });
    // Each turn knows how many images it has and their time (what a search matching most prompts counts by).
    expect(db.prepare('SELECT COUNT(*) AS n FROM turns WHERE image_count <> ? OR images_at <> started_at + 20000').get(PER_TURN)).toEqual({ n: 0 });
    // Per-session counts match the images; new turns continue the sequence.
    expect(db.prepare('SELECT SUM(images) AS n, SUM(c1 + c13) AS never, COUNT(*) AS sessions FROM session_stats').get()).toEqual({
      n: SESSIONS * TURNS * PER_TURN,
      never: 0,
      sessions: SESSIONS,
    });
    expect(repo.gallery({ starred: true }, null, 1).totals.images).toBe((db.prepare('SELECT COUNT(*) AS n FROM images WHERE starred = 1').get() as { n: number }).n);
    expect(repo.gallery({}, null, 1).groups[0]?.session.id).toBe(`ls_${String(SESSIONS - 1).padStart(5, '0')}`);
    // The files a later start finds are migrated once: opening again changes nothing.
    db.close();
    const again = openLibraryDatabase(file);
    expect(again.prepare('SELECT COUNT(*) AS n FROM schema_migrations WHERE version = 300').get()).toEqual({ n: 1 });
    again.close();
  });
});
