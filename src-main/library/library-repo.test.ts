import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import type { CreditEstimate } from '../../src-shared/pricing.ts';
import { estimateCredits } from '../../src-shared/pricing.ts';
import { openLibraryDatabase, transaction } from './database.ts';
import { LibraryRepo } from './library-repo.ts';

function freshRepo(): { repo: LibraryRepo; file: string } {
  const file = join(mkdtempSync(join(tmpdir(), 'studio-lib-')), 'library.db');
  return { repo: new LibraryRepo(openLibraryDatabase(file)), file };
}

/** The same database, recording the SQL of every statement prepared through it (the repo's real queries). */
function tracePrepare(db: DatabaseSync): { db: DatabaseSync; sql: string[] } {
  const sql: string[] = [];
  const traced = new Proxy(db, {
    get(target, prop) {
      if (prop === 'prepare') {
        return (text: string) => {
          sql.push(text);
          return target.prepare(text);
        };
      }
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { db: traced, sql };
}

function placeholders(sql: string): number {
  return (sql.match(/\?/g) ?? []).length;
}

const estimate: CreditEstimate = estimateCredits({ model: 'nano-banana-2', referenceCount: 0, n: 4 });

function seed(repo: LibraryRepo, db: ReturnType<typeof openLibraryDatabase>, sessions: number, perSession: number): void {
  transaction(db, () => {
    for (let s = 0; s < sessions; s++) {
      const sid = `ls_${String(s).padStart(6, '0')}`;
      repo.createSession(sid, 'local', 1_000_000 + s * 1000);
      for (let t = 0; t < perSession / 4; t++) {
        const tid = `lt_${s}_${t}`;
        const model = s % 2 === 0 ? 'nano-banana-2' : 'gpt-image-2';
        const prompt = s % 10 === 0 ? `red sneaker 50% off #${s}` : `blue bag #${s}`;
        repo.createTurn({ id: tid, sessionId: sid, environment: 'local', request: { prompt, model, n: 4 }, estimate: { ...estimate, model }, startedAt: 1_000_000 + s * 1000 + t, retryOf: null, referenceImageIds: [] });
        repo.insertImages(
          { id: tid, sessionId: sid, environment: 'local', model, purpose: s % 3 === 0 ? 'detail' : 'free', prompt },
          [0, 1, 2, 3].map((i) => ({ id: `img_${s}x${t}x${i}`, filename: `f${s}x${t}x${i}.png`, width: 1024, height: 1024 })),
          1_000_000 + s * 1000 + t,
        );
      }
    }
  });
}

describe('library database', () => {
  it('migrates once, with WAL and foreign keys on', () => {
    const { file } = freshRepo();
    const db = openLibraryDatabase(file);
    expect((db.prepare('PRAGMA journal_mode').get() as { journal_mode: string }).journal_mode).toBe('wal');
    expect((db.prepare('PRAGMA foreign_keys').get() as { foreign_keys: number }).foreign_keys).toBe(1);
    expect(db.prepare('SELECT version, name FROM schema_migrations ORDER BY version').all()).toContainEqual({ version: 1, name: '0001-library' });
    // Opening again applies nothing twice.
    const count = (db.prepare('SELECT COUNT(*) AS n FROM schema_migrations').get() as { n: number }).n;
    const again = openLibraryDatabase(file);
    expect((again.prepare('SELECT COUNT(*) AS n FROM schema_migrations').get() as { n: number }).n).toBe(count);
    expect(() => db.prepare("INSERT INTO turns (id, session_id, environment, request_json, estimate_json, model, purpose, status, started_at) VALUES ('x','nope','local','{}','{}','m','free','running',1)").run()).toThrow(/FOREIGN KEY/);
  });

  it('pages a gallery of 10,000 images in 500 sessions by session, newest first, every image exactly once', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'studio-lib-')), 'library.db');
    const db = openLibraryDatabase(file);
    const repo = new LibraryRepo(db);
    seed(repo, db, 500, 20);
    const seen = new Set<string>();
    const order: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = repo.gallery({}, cursor, 60);
      expect(page.totals).toEqual({ sessions: 500, images: 10_000 });
      for (const g of page.groups) {
        order.push(g.session.id);
        for (const img of g.images) seen.add(img.id);
        const times = g.images.map((i) => i.createdAt);
        expect([...times].sort((a, b) => b - a)).toEqual(times);
      }
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(9);
    expect(seen.size).toBe(10_000);
    expect(order.length).toBe(500);
    expect(order[0]).toBe('ls_000499');
    expect([...order].sort().reverse()).toEqual(order);
    // The gallery's own statements (recorded as the repo prepares them) read a session's images through the
    // index, not by a table scan of images per session.
    const traced = tracePrepare(db);
    new LibraryRepo(traced.db).gallery({}, null, 60);
    const perSession = traced.sql.filter((sql) => /FROM images\b/.test(sql) && /session_id = \?/.test(sql));
    expect(perSession.length).toBeGreaterThan(0);
    for (const sql of perSession) {
      const plan = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...Array.from({ length: placeholders(sql) }, () => 'x')) as Array<{ detail: string }>;
      expect(plan.map((p) => p.detail).join(' '), sql).toMatch(/USING (COVERING )?INDEX images_session_created/);
    }
  });

  it('filters by prompt text (wildcards literal), model, purpose, date range and star', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'studio-lib-')), 'library.db');
    const db = openLibraryDatabase(file);
    const repo = new LibraryRepo(db);
    seed(repo, db, 30, 4);
    expect(repo.gallery({ query: '50% off' }, null, 100).totals).toEqual({ sessions: 3, images: 12 });
    expect(repo.gallery({ query: '5_%' }, null, 100).totals.images).toBe(0);
    expect(repo.gallery({ model: 'gpt-image-2' }, null, 100).totals.sessions).toBe(15);
    expect(repo.gallery({ purpose: 'detail' }, null, 100).totals.sessions).toBe(10);
    expect(repo.gallery({ from: 1_000_000 + 10 * 1000, to: 1_000_000 + 12 * 1000 }, null, 100).totals.sessions).toBe(3);
    expect(repo.gallery({ starred: true }, null, 100).totals.images).toBe(0);
    expect(repo.setStarred('img_7x0x2', true)).toBe(true);
    const starred = repo.gallery({ starred: true }, null, 100);
    expect(starred.groups.map((g) => g.images.map((i) => i.id))).toEqual([['img_7x0x2']]);
    expect(repo.setStarred('img_nope', true)).toBe(false);
  });

  it('records references both ways and a local title', () => {
    const { repo } = freshRepo();
    repo.createSession('ls_a', 'local', 1);
    repo.createTurn({ id: 'lt_1', sessionId: 'ls_a', environment: 'local', request: { prompt: 'x' }, estimate, startedAt: 1, retryOf: null, referenceImageIds: [] });
    repo.insertImages({ id: 'lt_1', sessionId: 'ls_a', environment: 'local', model: 'nano-banana-2', purpose: 'free', prompt: 'x' }, [{ id: 'img_A', filename: 'a.png', width: 1, height: 1 }], 1);
    repo.createTurn({ id: 'lt_2', sessionId: 'ls_a', environment: 'local', request: { ref_image_ids: ['img_A'] }, estimate, startedAt: 2, retryOf: null, referenceImageIds: ['img_A'] });
    repo.insertImages({ id: 'lt_2', sessionId: 'ls_a', environment: 'local', model: 'nano-banana-2', purpose: 'free', prompt: '' }, [{ id: 'img_B', filename: 'b.png', width: 1, height: 1 }], 2);
    expect(repo.imageDetail('img_B')?.references.map((r) => r.id)).toEqual(['img_A']);
    expect(repo.imageDetail('img_A')?.usedIn.map((u) => u.turnId)).toEqual(['lt_2']);
    expect(repo.renameSession('ls_a', 'Spring shoes')).toBe(true);
    expect(repo.sessionSummary('ls_a')).toMatchObject({ title: 'Spring shoes', turnCount: 2, imageCount: 2 });
  });
});
