// The gallery's order under every filter, checked against a plain model of it: all rows read into memory,
// filtered, grouped and sorted in JS the way docs/main-process.md says. Pages, select-all ids, totals and the
// neighbours of every image (in the filter or not) must agree with the model exactly, on a library built to
// have the hard cases: sessions continued weeks later (interleaved in time), two sessions whose newest images
// share a millisecond, several images per turn (same time, told apart by position), Chinese and English
// prompts, marks and boards. And every statement the gallery runs uses an index: no `SCAN` of images.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { beforeAll, describe, expect, it } from 'vitest';
import type { GalleryFilters } from '../../src-shared/ipc/library.ts';
import { estimateCredits } from '../../src-shared/pricing.ts';
import { searchTerms } from '../domain/library-search.ts';
import { openLibraryDatabase, transaction } from './database.ts';
import { LibraryRepo } from './library-repo.ts';

interface ModelImage {
  id: string;
  session_id: string;
  created_at: number;
  position: number;
  model: string;
  purpose: string;
  prompt: string;
  starred: number;
  rating: number;
  rejected: number;
  boards: Set<string>;
}

const PROMPTS = [
  'Red sneaker on white marble, 50% off banner',
  'Shampoo bottle on marble, soft light',
  '洗发水瓶放在大理石上，柔和自然光',
  '香水瓶 玫瑰花瓣 高级感',
  'AI generated perfume ad, pastel background',
  'Leather bag with hair clips, studio light',
  'Café crème mug on oak',
  'Ceramic mug 杯子 on linen',
];
const MODELS = ['nano-banana-2', 'gpt-image-2', 'seedream-5-0-pro'] as const;
const PURPOSES = ['free', 'detail', 'main_white'] as const;

function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** ~60 sessions; some continued later, two with the same newest millisecond, 1–4 images per turn. */
function seed(repo: LibraryRepo, db: DatabaseSync): void {
  const rand = prng(7);
  const pick = <T,>(list: readonly T[]): T => list[Math.floor(rand() * list.length)] as T;
  let turnNo = 0;
  let imageNo = 0;
  const ids: string[] = [];
  const turnImages = new Map<string, string[]>();
  let late: { turn: Parameters<LibraryRepo['insertImages']>[0]; at: number } | null = null;
  transaction(db, () => {
    for (let s = 0; s < 60; s++) {
      const sessionId = `ls_${String(s).padStart(3, '0')}`;
      const start = 1_000_000 + s * 10_000;
      repo.createSession(sessionId, 'local', start);
      const turns = 1 + Math.floor(rand() * 4);
      for (let t = 0; t < turns; t++) {
        const turnId = `lt_${turnNo++}`;
        const prompt = pick(PROMPTS);
        const model = pick(MODELS);
        const purpose = pick(PURPOSES);
        // Session 7 goes on long after the others; 20 and 21 end at the same millisecond.
        let at = start + t * 1000;
        if (s === 7 && t === turns - 1) at = 1_000_000 + 45 * 10_000 + 500;
        if ((s === 20 || s === 21) && t === turns - 1) at = 1_000_000 + 21 * 10_000 + 5000;
        if (s === 33 && t === turns - 1) at = 1_000_000 + 50 * 10_000 + 2500;
        repo.createTurn({ id: turnId, sessionId, environment: 'local', request: { prompt, model, purpose_id: purpose, n: 4 }, estimate: estimateCredits({ model, referenceCount: 0, n: 4 }), startedAt: at, retryOf: null, referenceImageIds: [] });
        const n = 1 + Math.floor(rand() * 4);
        const images = Array.from({ length: n }, () => {
          const id = `img_${String(imageNo++).padStart(4, '0')}${String.fromCharCode(97 + Math.floor(rand() * 26))}`;
          ids.push(id);
          return { id, filename: `${id}.png`, width: 1, height: 1 };
        });
        repo.insertImages({ id: turnId, sessionId, environment: 'local', model, purpose, prompt }, images, at);
        turnImages.set(turnId, images.map((i) => i.id));
        if (s === 12 && t === 0) late = { turn: { id: turnId, sessionId, environment: 'local', model, purpose, prompt }, at };
      }
    }
    // One turn's images arrived at two times (a download recovered later), the late one after the session's last
    // turn: rejected below, so with rejects hidden the session's newest image is older than its turn's newest.
    if (late) repo.insertImages(late.turn, [{ id: 'img_late', filename: 'img_late.png', width: 1, height: 1 }], late.at + 5_000);
  });
  for (const id of ids) {
    const r = rand();
    if (r < 0.5) repo.mark([id], { rating: Math.floor(rand() * 6), rejected: rand() < 0.2, starred: rand() < 0.2 });
  }
  // The late image rejected, and every image of one turn rejected (a turn that counts for nothing with rejects hidden).
  repo.mark(['img_late', ...(turnImages.get('lt_9') ?? [])], { rejected: true });
  const a = repo.boards.create('Picks', 1);
  const b = repo.boards.create('Spring', 2);
  repo.boards.add(a.id, ids.filter((_, i) => i % 3 === 0), 3, (x) => repo.requireImages(x));
  repo.boards.add(b.id, ids.filter((_, i) => i % 5 === 1), 4, (x) => repo.requireImages(x));
}

function modelRows(db: DatabaseSync): ModelImage[] {
  const rows = db.prepare('SELECT id, session_id, created_at, position, model, purpose, prompt, starred, rating, rejected FROM images').all() as unknown as ModelImage[];
  const members = db.prepare('SELECT board_id, image_id FROM board_images').all() as Array<{ board_id: string; image_id: string }>;
  return rows.map((r) => ({ ...r, boards: new Set(members.filter((m) => m.image_id === r.id).map((m) => m.board_id)) }));
}

const CJK = /[\p{Script=Han}]/u;
/** The documented search: every term; 3+ characters as a substring (any case), shorter CJK as a substring, shorter Latin as a word start. */
function promptMatches(prompt: string, query: string): boolean {
  const text = prompt.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  return searchTerms(query).every((term) => {
    const t = term.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
    if ([...t].length >= 3 || CJK.test(t)) return text.includes(t);
    if (!/[\p{L}\p{N}]/u.test(t)) return true;
    return text.split(/[^\p{L}\p{N}]+/u).some((w) => w.startsWith(t.replace(/[^\p{L}\p{N}]/gu, '')));
  });
}

function passes(img: ModelImage, f: GalleryFilters): boolean {
  if (f.query && f.query.trim() !== '' && !promptMatches(img.prompt, f.query)) return false;
  if (f.model && img.model !== f.model) return false;
  if (f.purpose && img.purpose !== f.purpose) return false;
  if (f.from !== undefined && img.created_at < f.from) return false;
  if (f.to !== undefined && img.created_at > f.to) return false;
  if (f.starred && img.starred !== 1) return false;
  if (f.minRating !== undefined && img.rating < f.minRating) return false;
  if (f.rejected === 'hide' && img.rejected === 1) return false;
  if (f.rejected === 'only' && img.rejected === 0) return false;
  if (f.boardId !== undefined && !img.boards.has(f.boardId)) return false;
  if (f.sessionId !== undefined && img.session_id !== f.sessionId) return false;
  return true;
}

/** The gallery's order over the images that pass. */
function modelOrder(rows: ModelImage[], pass: (img: ModelImage) => boolean): { ids: string[]; sessions: string[] } {
  const groups = new Map<string, ModelImage[]>();
  for (const img of rows.filter(pass)) groups.set(img.session_id, [...(groups.get(img.session_id) ?? []), img]);
  const keyed = [...groups].map(([sid, imgs]) => ({ sid, newest: Math.max(...imgs.map((i) => i.created_at)), imgs }));
  keyed.sort((a, b) => b.newest - a.newest || (a.sid < b.sid ? 1 : a.sid > b.sid ? -1 : 0));
  const within = (a: ModelImage, b: ModelImage) => b.created_at - a.created_at || a.position - b.position || (a.id < b.id ? 1 : -1);
  return { ids: keyed.flatMap((g) => [...g.imgs].sort(within).map((i) => i.id)), sessions: keyed.map((g) => g.sid) };
}

function filterCases(boardIds: string[]): Array<[string, GalleryFilters]> {
  const [picks, spring] = boardIds as [string, string];
  return [
    ['none', {}],
    ['query marble', { query: 'marble' }],
    ['query MARBLE (any case)', { query: 'MARBLE' }],
    ['query phrase', { query: '"50% off"' }],
    ['query two terms', { query: 'mug oak' }],
    ['query short CJK', { query: '香水' }],
    ['query one CJK', { query: '杯' }],
    ['query 3+ CJK', { query: '大理石' }],
    ['query short latin (word start)', { query: 'ai' }],
    ['query accent-insensitive', { query: 'creme' }],
    ['query no match', { query: 'zzzz' }],
    ['query wildcards literal', { query: '5_%' }],
    ['model', { model: 'gpt-image-2' }],
    ['purpose', { purpose: 'detail' }],
    ['from/to', { from: 1_000_000 + 10 * 10_000, to: 1_000_000 + 30 * 10_000 }],
    ['starred', { starred: true }],
    ['minRating 3', { minRating: 3 }],
    ['minRating 5', { minRating: 5 }],
    ['rejected hide', { rejected: 'hide' }],
    ['rejected only', { rejected: 'only' }],
    ['board', { boardId: picks }],
    ['unknown board', { boardId: 'bd_none' }],
    ['session', { sessionId: 'ls_007' }],
    ['query + starred', { query: 'marble', starred: true }],
    ['query + hide', { query: 'on', rejected: 'hide' }],
    ['query + model', { query: 'on', model: 'gpt-image-2' }],
    ['query + purpose + hide', { query: 'light', purpose: 'detail', rejected: 'hide' }],
    ['query + session + hide', { query: 'on', sessionId: 'ls_012', rejected: 'hide' }],
    ['query + rejected only', { query: 'on', rejected: 'only' }],
    ['query + rating', { query: 'on', minRating: 3 }],
    ['query + rating + session', { query: 'on', minRating: 2, sessionId: 'ls_012' }],
    ['query + starred + hide', { query: 'light', starred: true, rejected: 'hide' }],
    ['query + model + rating', { query: 'on', model: 'gpt-image-2', minRating: 1 }],
    ['query + date', { query: 'on', from: 1_000_000 + 10 * 10_000, to: 1_000_000 + 30 * 10_000 }],
    ['model + rating + hide', { model: 'nano-banana-2', minRating: 2, rejected: 'hide' }],
    ['board + hide', { boardId: spring, rejected: 'hide' }],
    ['board + query', { boardId: picks, query: 'mug' }],
    ['date + purpose', { from: 1_000_000, to: 1_000_000 + 40 * 10_000, purpose: 'free' }],
    ['session + hide + starred', { sessionId: 'ls_033', rejected: 'hide', starred: false }],
    ['rating + starred + only', { minRating: 1, starred: true, rejected: 'only' }],
    ['everything', { query: 'on', model: 'seedream-5-0-pro', purpose: 'free', from: 0, to: 9e12, minRating: 1, rejected: 'hide', boardId: picks }],
  ];
}

/** The same database, recording the SQL of every statement prepared through it. */
function tracePrepare(target: DatabaseSync): { db: DatabaseSync; sql: Set<string> } {
  const sql = new Set<string>();
  const traced = new Proxy(target, {
    get(t, prop) {
      if (prop === 'prepare') {
        return (text: string) => {
          sql.add(text);
          return t.prepare(text);
        };
      }
      const value = Reflect.get(t, prop, t) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(t) : value;
    },
  });
  return { db: traced, sql };
}

/** Plan lines that read a whole table or index: anything but the per-session stats, FTS5 look-ups and sub-results. */
function fullScans(plan: string[]): string[] {
  // Allowed: the prompt indexes' own matches, a subquery's rows, a search's own matching seqs and images, the
  // turns' stats (one row per turn, read in session order) that a search matching most prompts counts by, and the
  // turns without images (a partial index: failed and running turns).
  return plan.filter(
    (line) =>
      /^SCAN /.test(line) &&
      !/^SCAN (ss|ts|sq|sh)\b/.test(line) &&
      !/^SCAN prompt_(trigrams|words) VIRTUAL TABLE INDEX \d+:M/.test(line) &&
      !/^SCAN \(subquery-\d+\)/.test(line) &&
      !/^SCAN turns USING COVERING INDEX turns_without_images$/.test(line),
  );
}

/**
 * The whole check, on a library of its own. `sparseSearchTurns` 0 makes every prompt search take the path of one
 * that matches most prompts (its turns kept, images asked one by one), which a small library never reaches.
 */
function suite(label: string, sparseSearchTurns: number | undefined): void {
  let db: DatabaseSync;
  let repo: LibraryRepo;
  let rows: ModelImage[];
  let boardIds: string[];
  const options = sparseSearchTurns === undefined ? {} : { sparseSearchTurns };
  const filterCasesHere = () => filterCases(boardIds);

  beforeAll(() => {
    db = openLibraryDatabase(join(mkdtempSync(join(tmpdir(), 'studio-gq-')), 'library.db'));
    repo = new LibraryRepo(db, options);
    seed(repo, db);
    rows = modelRows(db);
    boardIds = repo.boards.list().map((b) => b.id);
  });

describe(`the gallery order under filters, against a model (${label})`, () => {
  it('pages, ids and totals: every passing image exactly once, in order', () => {
    for (const [name, f] of filterCasesHere()) {
      const want = modelOrder(rows, (i) => passes(i, f));
      const gotIds: string[] = [];
      const gotSessions: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const page = repo.gallery(f, cursor, 4);
        expect(page.totals, name).toEqual({ sessions: want.sessions.length, images: want.ids.length });
        for (const g of page.groups) {
          gotSessions.push(g.session.id);
          gotIds.push(...g.images.map((i) => i.id));
        }
        cursor = page.nextCursor;
        pages++;
      } while (cursor && pages < 100);
      expect(gotSessions, name).toEqual(want.sessions);
      expect(gotIds, name).toEqual(want.ids);
      expect(repo.imageIds(f, 5000), name).toEqual({ ids: want.ids, total: want.ids.length });
      expect(repo.imageIds(f, 7).ids, name).toEqual(want.ids.slice(0, 7));
    }
  });

  it('neighbours of every image: index, total, previous and next, also for an image outside the filter', () => {
    for (const [name, f] of filterCasesHere()) {
      const want = modelOrder(rows, (i) => passes(i, f));
      // Every image in the filter, and every fifth one outside it (each of those needs a model order of its own).
      for (const [n, img] of rows.entries()) {
        const inFilter = passes(img, f);
        if (!inFilter && n % 5 !== 0) continue;
        // Outside the filter the image is placed where it would stand if it passed.
        const order = inFilter ? want.ids : modelOrder(rows, (i) => i.id === img.id || passes(i, f)).ids;
        const at = order.indexOf(img.id);
        const got = repo.neighbors(f, img.id);
        expect(got, `${name} ${img.id}`).toEqual({
          index: at,
          total: want.ids.length,
          prev: at > 0 ? order[at - 1] : null,
          next: at < order.length - 1 ? order[at + 1] : null,
          inFilter,
        });
      }
    }
    expect(repo.neighbors({}, 'img_nothere')).toBeNull();
  });

  it("keeps each turn's count and newest time of images not rejected exact through marks and deletes", () => {
    const recount = () =>
      db.prepare(
        `SELECT t.id, t.kept_count AS kept, t.kept_at AS keptAt,
                (SELECT COUNT(*) FROM images i WHERE i.turn_id = t.id AND i.rejected = 0) AS wantKept,
                (SELECT MAX(created_at) FROM images i WHERE i.turn_id = t.id AND i.rejected = 0) AS wantAt
         FROM turns t`,
      ).all() as Array<{ id: string; kept: number; keptAt: number | null; wantKept: number; wantAt: number | null }>;
    const check = () => {
      // What the counts rely on: a turn's images have its model and purpose.
      expect(db.prepare('SELECT COUNT(*) AS n FROM images i JOIN turns t ON t.id = i.turn_id WHERE i.model <> t.model OR i.purpose <> t.purpose').get()).toEqual({ n: 0 });
      const turns = recount();
      expect(turns.length).toBeGreaterThan(50);
      for (const t of turns) expect({ id: t.id, kept: t.kept, at: t.keptAt }).toEqual({ id: t.id, kept: t.wantKept, at: t.wantAt });
      // Each turn's stats (migration 0600): a row while it has images, its seq, count, newest times and mark cells.
      const cells = Array.from({ length: 24 }, (_, k) => k);
      const columns = `session_id, turn_id, seq, images, kept, images_at, kept_at, ${cells.map((k) => `c${k}`).join(', ')}`;
      const stats = db.prepare(`SELECT ${columns} FROM turn_stats ORDER BY session_id, turn_id`).all();
      const want = db
        .prepare(
          `SELECT ${columns} FROM (SELECT i.session_id, i.turn_id, t.seq, COUNT(*) AS images, SUM(i.rejected = 0) AS kept, MAX(i.created_at) AS images_at,
                  MAX(CASE WHEN i.rejected = 0 THEN i.created_at END) AS kept_at,
                  ${cells.map((k) => `SUM(i.starred * 12 + i.rating * 2 + i.rejected = ${k}) AS c${k}`).join(', ')}
                  FROM images i JOIN turns t ON t.id = i.turn_id GROUP BY i.session_id, i.turn_id) ORDER BY session_id, turn_id`,
        )
        .all();
      expect(stats.length).toBeGreaterThan(50);
      expect(stats).toEqual(want);
    };
    // The seed rejected the late image of a turn whose others arrived earlier, and every image of lt_9.
    const late = recount().find((t) => t.id === (db.prepare("SELECT turn_id FROM images WHERE id = 'img_late'").get() as { turn_id: string }).turn_id);
    expect(late && late.keptAt !== null && late.keptAt < (db.prepare("SELECT created_at FROM images WHERE id = 'img_late'").get() as { created_at: number }).created_at).toBe(true);
    expect(recount().find((t) => t.id === 'lt_9')).toMatchObject({ kept: 0, keptAt: null });
    check();
    const [a, b] = repo.imageIds({ rejected: 'hide' }, 2).ids as [string, string];
    repo.mark([a, b], { rejected: true });
    check();
    repo.mark([a], { rejected: false });
    check();
    repo.mark([a, b], { rating: 4, starred: true });
    check();
    repo.mark([b], { rating: 0, starred: false });
    check();
    // A search's counts follow marks and deletes too (its totals are asked again after each), with any mark filter.
    const dense: GalleryFilters = { query: 'on', rejected: 'hide' };
    const checkSearch = () => {
      for (const f of [dense, { query: 'on', minRating: 2 }, { query: 'on', starred: true, rejected: 'hide' }] satisfies GalleryFilters[]) {
        const want = modelOrder(modelRows(db), (i) => passes(i, f));
        expect(repo.gallery(f, null, 100).totals, JSON.stringify(f)).toEqual({ sessions: want.sessions.length, images: want.ids.length });
        const pivot = want.ids[Math.floor(want.ids.length / 2)] as string;
        expect(repo.neighbors(f, pivot), JSON.stringify(f)).toMatchObject({ index: want.ids.indexOf(pivot), total: want.ids.length });
      }
    };
    checkSearch();
    // The newest image the search shows (its session's newest), then a whole turn of it.
    const [x] = repo.imageIds(dense, 1).ids as [string];
    const turnOf = (id: string) => (db.prepare('SELECT turn_id FROM images WHERE id = ?').get(id) as { turn_id: string }).turn_id;
    const wholeTurn = (db.prepare('SELECT id FROM images WHERE turn_id = ?').all(turnOf(x)) as Array<{ id: string }>).map((r) => r.id);
    repo.mark([x], { rejected: true });
    checkSearch();
    repo.mark(wholeTurn, { rejected: true });
    checkSearch();
    repo.mark(wholeTurn, { rejected: false });
    checkSearch();
    repo.mark(wholeTurn, { rating: 3 });
    check();
    checkSearch();
    // Deleting images other than the newest keeps the search (its key has the newest rowid): its turns follow.
    db.exec(`SAVEPOINT gone; DELETE FROM images WHERE id IN ('${a}', '${x}'); `);
    check();
    checkSearch();
    db.exec("DELETE FROM images WHERE id = 'img_late'");
    check();
    checkSearch();
    db.exec('ROLLBACK TO gone; RELEASE gone');
    checkSearch();
    repo.mark([b], { rejected: false });
    check();
  });

  it('keeps the last few searches in a fixed set of tables; a new one empties the oldest, a rolled-back one changes nothing', () => {
    const tables = () => (db.prepare("SELECT COUNT(*) AS n FROM temp.sqlite_master WHERE type = 'table' AND name LIKE 'search\\_%' ESCAPE '\\'").get() as { n: number }).n;
    const slotRows = () => (db.prepare('SELECT slot FROM temp.searches ORDER BY slot').all() as Array<{ slot: number }>).map((r) => r.slot);
    const want = (query: string) => {
      const m = modelOrder(modelRows(db), (i) => passes(i, { query }));
      return { sessions: m.sessions.length, images: m.ids.length };
    };
    for (const query of ['mug', 'oak', 'marble', 'light', 'on', 'ai', 'creme']) expect(repo.gallery({ query }, null, 5).totals, query).toEqual(want(query));
    // 5 slots of (seqs, images): no table is made per search.
    expect(tables()).toBe(10);
    expect(slotRows()).toHaveLength(4);
    // A new search inside a transaction that is rolled back: the search it pushed out ("light") is kept again, whole.
    db.exec('BEGIN');
    expect(repo.gallery({ query: 'zzzz' }, null, 5).totals).toEqual({ sessions: 0, images: 0 });
    db.exec('ROLLBACK');
    const light = repo.gallery({ query: 'light' }, null, 100);
    expect(light.totals).toEqual(want('light'));
    const shown = light.groups.flatMap((g) => g.images.map((i) => i.id));
    expect(shown).toEqual(modelOrder(modelRows(db), (i) => passes(i, { query: 'light' })).ids.slice(0, shown.length));
    expect(repo.gallery({ query: 'zzzz' }, null, 5).totals).toEqual({ sessions: 0, images: 0 });
    for (const query of ['mug', 'oak', 'on']) expect(repo.gallery({ query }, null, 5).totals, query).toEqual(want(query));
    expect(tables()).toBe(10);
    expect(slotRows()).toHaveLength(4);
  });

  it('keeps up with marks and new images (totals are not served stale)', () => {
    const f: GalleryFilters = { rejected: 'hide', minRating: 1 };
    const before = repo.gallery(f, null, 100).totals;
    const victim = repo.imageIds(f, 1).ids[0] as string;
    repo.mark([victim], { rejected: true });
    expect(repo.gallery(f, null, 100).totals.images).toBe(before.images - 1);
    expect(repo.neighbors(f, victim)).toMatchObject({ inFilter: false, total: before.images - 1 });
    repo.mark([victim], { rejected: false });
    expect(repo.gallery(f, null, 100).totals).toEqual(before);
    const search: GalleryFilters = { query: 'brand new words' };
    expect(repo.gallery(search, null, 10).totals.images).toBe(0);
    transaction(db, () => {
      repo.createSession('ls_new', 'local', 5_000_000);
      repo.createTurn({ id: 'lt_new', sessionId: 'ls_new', environment: 'local', request: { prompt: 'Brand new words' }, estimate: estimateCredits({ model: 'nano-banana-2', referenceCount: 0, n: 1 }), startedAt: 5_000_000, retryOf: null, referenceImageIds: [] });
      repo.insertImages({ id: 'lt_new', sessionId: 'ls_new', environment: 'local', model: 'nano-banana-2', purpose: 'free', prompt: 'Brand new words' }, [{ id: 'img_new', filename: 'n.png', width: 1, height: 1 }], 5_000_000);
    });
    // The search kept for "brand new words" was made before the image existed; it is made again.
    expect(repo.gallery(search, null, 10).groups.map((g) => g.images.map((i) => i.id))).toEqual([['img_new']]);
    expect(repo.gallery({}, null, 1).groups[0]?.session.id).toBe('ls_new');
    rows = modelRows(db);
  });
});

describe(`every gallery statement uses an index (${label})`, () => {
  it('no statement scans images (or a board, or a search) for any filter alone or combined', () => {
    for (const [name, f] of filterCasesHere()) {
      const traced = tracePrepare(db);
      const r = new LibraryRepo(traced.db, options);
      const first = r.gallery(f, null, 2);
      if (first.nextCursor) r.gallery(f, first.nextCursor, 2);
      const some = r.imageIds(f, 50).ids;
      for (const id of [some[0], some.at(-1), rows[0]?.id]) if (id) r.neighbors(f, id);
      const statements = [...traced.sql].filter((s) => /\b(images|board_images|search_images_\d+|search_seqs_\d+|turns|turn_stats|session_stats)\b/.test(s));
      expect(statements.length, name).toBeGreaterThan(3);
      for (const sql of statements) {
        const holes = (sql.match(/\?/g) ?? []).length;
        const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...Array.from({ length: holes }, () => 'x')) as Array<{ detail: string }>).map((p) => p.detail);
        expect(fullScans(plan), `${name}: ${sql}\n${plan.join('\n')}`).toEqual([]);
      }
    }
  });
});
}

suite('searches kept as images', undefined);
suite('searches that match most prompts', 0);

describe('a search matching many turns without images; a search that cannot be kept', () => {
  it('counts only the matching turns that have images when it chooses how to keep them, and keeps a search whole or not at all', () => {
    const db = openLibraryDatabase(join(mkdtempSync(join(tmpdir(), 'studio-gq-empty-')), 'library.db'));
    const repo = new LibraryRepo(db, { sparseSearchTurns: 5 });
    const estimate = estimateCredits({ model: 'nano-banana-2', referenceCount: 0, n: 1 });
    transaction(db, () => {
      repo.createSession('ls_z', 'local', 1_000);
      // A batch that failed whole: 30 turns sharing the prompt, none with images; then 3 that succeeded.
      for (let t = 0; t < 33; t++) {
        const id = `lt_z${t}`;
        const request = { prompt: `Zebra print tote ${t}` };
        repo.createTurn({ id, sessionId: 'ls_z', environment: 'local', request, estimate, startedAt: 1_000 + t, retryOf: null, referenceImageIds: [] });
        if (t >= 30) repo.insertImages({ id, sessionId: 'ls_z', environment: 'local', model: 'nano-banana-2', purpose: 'free', prompt: request.prompt }, [{ id: `img_z${t}`, filename: 'z.png', width: 1, height: 1 }], 1_000 + t);
      }
    });
    const page = repo.gallery({ query: 'zebra' }, null, 10);
    expect(page.groups.flatMap((g) => g.images.map((i) => i.id))).toEqual(['img_z32', 'img_z31', 'img_z30']);
    expect(page.totals).toEqual({ sessions: 1, images: 3 });
    // 33 turns match, 3 of them with images: few, so its images are kept (walked like a board).
    expect(db.prepare('SELECT turns, dense FROM temp.searches').all()).toEqual([{ turns: 3, dense: 0 }]);

    // A search whose images cannot be kept (the TEMP store full, say) is not kept half: the next ask looks it up again.
    for (let k = 0; k < 5; k++) db.exec(`CREATE TEMP TRIGGER fail_${k} BEFORE INSERT ON search_images_${k} BEGIN SELECT RAISE(ABORT, 'temp store full'); END`);
    expect(() => repo.gallery({ query: 'tote 31' }, null, 10)).toThrow(/temp store full/);
    expect(db.prepare('SELECT turns FROM temp.searches').all()).toEqual([{ turns: 3 }]);
    for (let k = 0; k < 5; k++) db.exec(`DROP TRIGGER temp.fail_${k}`);
    expect(repo.gallery({ query: 'tote 31' }, null, 10).groups.flatMap((g) => g.images.map((i) => i.id))).toEqual(['img_z31']);
    expect(repo.gallery({ query: 'zebra' }, null, 10).totals).toEqual({ sessions: 1, images: 3 });
    db.close();
  });
});
