// The gallery's order under any filters, through indexes (docs/main-process.md "Culling, boards and the library
// at scale"):
//   groups: sessions by their newest image that passes the filters, newest first, ties by session id (desc);
//   inside a group: its passing images by created_at desc, then position, then id desc.
//
// Every question (a page of groups, the next and previous image, the first N ids) is answered by walking
// passing images in the groups' order, (created_at desc, session_id desc), on an index in that order, and
// stopping as soon as the answer is known. A session met on the walk for the first time starts a new group
// unless it has a passing image above the walk's start (an earlier group): one look-up in that session.
// What is walked (the "driver"):
//   - a board: board_images on (board_id, created_at desc, session_id desc), the image's columns copied in;
//   - else a prompt search matching up to SPARSE_TURNS turns: its matching images, found once through FTS5 and kept
//     in a TEMP table with the same order index (reused while no image is added, up to SEARCHES_KEPT searches);
//   - else images itself, on the index of the filters (migration 0300 has one per filter, marks included); a search
//     matching more turns is then a condition on each image's turn (its seq among the search's, kept in a TEMP
//     table too), since most images pass and the walk stops soon.
// Every other filter is checked on the walked rows. Counts (totals, the position of an image) add up session_stats
// when the filters are marks only (or none), else are one grouped pass over the passing images on the same indexes
// (a search matching many turns adds up its turns' stats, turn_stats); totals are reused while the library has not
// changed.
import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import type { GalleryFilters } from '../../src-shared/ipc/library.ts';
import { promptSearch } from '../domain/library-search.ts';
import { statement as cachedStatement } from './database.ts';

type Row = Record<string, SQLInputValue>;

/** A condition on `images` (columns qualified) and its parameters, in order. */
export interface FilterSql {
  where: string;
  params: SQLInputValue[];
}

/**
 * What passing images are read from: `FROM … WHERE …` (more conditions are appended with AND) and its parameters;
 * the expressions of a row's session and time, and how many images a row stands for (a search's turn stands for
 * its images when nothing else filters them).
 */
export interface Source {
  sql: string;
  params: SQLInputValue[];
  session: string;
  time: string;
  n: string;
}

/** Filters compiled for one call. */
export interface CompiledFilters {
  /**
   * When the filters are marks only (or none), optionally within one session: the SQL sum of the session_stats
   * cells that pass, so counts read one row per session instead of every image.
   */
  stats: { cells: string; sessionId: string | null } | null;
  /** Walked in the groups' order. */
  walk: Source;
  /** Counted (one grouped pass). */
  count: Source;
  /**
   * Counted for the totals only, when cheaper than `count`: its time may be later than a group's newest passing
   * image, so it places no image.
   */
  totals?: Source;
  /** Every filter as conditions on `images` (for statements inside one session). */
  all: FilterSql;
}

/** A search whose matches are kept as images in the gallery's order (up to this many turns), or else as turns. */
export const SPARSE_TURNS = 2500;

/** A position in the groups' order: (created_at, session_id), compared descending. */
export interface Key {
  at: number;
  sessionId: string;
}

export interface GroupKey {
  sessionId: string;
  /** The newest passing image's created_at. */
  newest: number;
}

export interface Neighbors {
  index: number;
  total: number;
  prev: string | null;
  next: string | null;
  inFilter: boolean;
}

/** A kept prompt search: its tables (matching seqs; images when few match), whether many match (`dense`) and most (`scan`). */
interface SearchHits {
  dense: boolean;
  scan: boolean;
  seqs: string;
  images: string;
}
/** The TEMP tables a search in slot `k` keeps its matches in: one more slot than searches kept, reused in turn. */
const slotTables = (k: number) => ({ seqs: `temp.search_seqs_${k}`, images: `temp.search_images_${k}` });
/** A search counts by reading every turn's stats when at least 1 / SCAN_SHARE of the turns match. */
const SCAN_SHARE = 3;

/** Before every key. */
const TOP: Key = { at: Number.MAX_SAFE_INTEGER, sessionId: '\uffff' };
/** Prompt searches whose matches are kept (the current one and the few before it). */
const SEARCHES_KEPT = 4;
const SLOTS = SEARCHES_KEPT + 1;
/** Totals remembered per filters while the library is unchanged. */
const TOTALS_KEPT = 16;

function num(v: SQLInputValue | undefined): number {
  return typeof v === 'number' ? v : Number(v ?? 0);
}
function str(v: SQLInputValue | undefined): string {
  return typeof v === 'string' ? v : String(v ?? '');
}

/** The session_stats columns (cell = starred × 12 + rating × 2 + rejected, migration 0300) that pass the mark filters, summed. */
export function statsCells(filters: GalleryFilters): string {
  if (!filters.starred && filters.minRating === undefined && filters.rejected === undefined) return 'images';
  const cells: string[] = [];
  for (let starred = 0; starred <= 1; starred++) {
    for (let rating = 0; rating <= 5; rating++) {
      for (let rejected = 0; rejected <= 1; rejected++) {
        if (filters.starred && starred === 0) continue;
        if (filters.minRating !== undefined && rating < filters.minRating) continue;
        if (filters.rejected === 'hide' && rejected === 1) continue;
        if (filters.rejected === 'only' && rejected === 0) continue;
        cells.push(`c${starred * 12 + rating * 2 + rejected}`);
      }
    }
  }
  return `(${cells.join(' + ')})`;
}

function joinSql(parts: Array<[string, SQLInputValue[]]>): FilterSql {
  return { where: parts.length > 0 ? parts.map(([w]) => w).join(' AND ') : '1', params: parts.flatMap(([, p]) => p) };
}

export class GalleryQuery {
  private readonly db: DatabaseSync;
  private readonly totalsCache = new Map<string, { sessions: number; images: number }>();

  private readonly sparseTurns: number;

  /** `sparseTurns`: tests lower it to take the path of a search that matches most prompts on a small library. */
  constructor(db: DatabaseSync, options: { sparseTurns?: number } = {}) {
    this.db = db;
    this.sparseTurns = options.sparseTurns ?? SPARSE_TURNS;
  }

  /** Prepared once per distinct SQL text, in the connection's one statement cache (it bounds the texts kept). */
  private statement(sql: string): StatementSync {
    return cachedStatement(this.db, sql);
  }

  // ---- filters ----

  /** The filters as SQL; a prompt search is looked up in FTS5 (once while no image is added). */
  compile(filters: GalleryFilters): CompiledFilters {
    type Part = [string, SQLInputValue[]];
    const columns: Part[] = [];
    if (filters.model) columns.push(['images.model = ?', [filters.model]]);
    if (filters.purpose) columns.push(['images.purpose = ?', [filters.purpose]]);
    if (filters.from !== undefined) columns.push(['images.created_at >= ?', [filters.from]]);
    if (filters.to !== undefined) columns.push(['images.created_at <= ?', [filters.to]]);
    // The literal terms (`starred = 1`, `rating > 0`, …) are what lets SQLite use the partial indexes.
    if (filters.starred) columns.push(['images.starred = 1', []]);
    if (filters.minRating !== undefined) columns.push(['images.rating > 0 AND images.rating >= ?', [filters.minRating]]);
    if (filters.rejected === 'hide') columns.push(['images.rejected = 0', []]);
    if (filters.rejected === 'only') columns.push(['images.rejected = 1', []]);
    if (filters.sessionId !== undefined) columns.push(['images.session_id = ?', [filters.sessionId]]);

    const search = filters.query ? promptSearch(filters.query) : null;
    const hits = search ? this.searchHits(search) : null;
    // A search as a condition on one image: its image among the kept images, or its turn's seq among the kept seqs.
    const found: Part | null = !hits
      ? null
      : hits.dense
        ? [`EXISTS (SELECT 1 FROM turn_stats ts CROSS JOIN ${hits.seqs} sq ON sq.seq = ts.seq WHERE ts.session_id = images.session_id AND ts.turn_id = images.turn_id)`, []]
        : [`EXISTS (SELECT 1 FROM ${hits.images} sh WHERE sh.image_id = images.id)`, []];
    const board: Part | null =
      filters.boardId !== undefined ? ['EXISTS (SELECT 1 FROM board_images b WHERE b.board_id = ? AND b.image_id = images.id)', [filters.boardId]] : null;
    const all = joinSql([...(found ? [found] : []), ...(board ? [board] : []), ...columns]);
    const plain = (rest: FilterSql): Source => ({ sql: `FROM images WHERE ${rest.where}`, params: rest.params, session: 'images.session_id', time: 'images.created_at', n: '1' });
    /**
     * A narrower table in the groups' order (a board's images, a search's kept images: `FROM <table> <alias>`), joined
     * to images only when other filters need its columns.
     */
    const driven = (from: string, alias: string, rest: FilterSql): Source => ({
      sql: `FROM ${from} ${alias}${rest.where === '1' ? '' : ` CROSS JOIN images ON images.id = ${alias}.image_id`} WHERE ${rest.where}`,
      params: rest.params,
      session: `${alias}.session_id`,
      time: `${alias}.created_at`,
      n: '1',
    });
    if (filters.boardId !== undefined) {
      const walk = driven('board_images', 'd', joinSql([['d.board_id = ?', [filters.boardId]], ...(found ? [found] : []), ...columns]));
      return { stats: null, walk, count: walk, all };
    }
    if (hits && !hits.dense) {
      const walk = driven(hits.images, 'sh', joinSql(columns));
      return { stats: null, walk, count: walk, all };
    }
    const markOnly = !filters.model && !filters.purpose && filters.from === undefined && filters.to === undefined;
    if (hits && found) {
      // Most prompts match: walking the images' own order and asking each image's turn stops soonest. Counting
      // reads turns in session order and keeps those whose seq matches: with marks only, their stats (migration
      // 0600: the cells of their images' marks, their newest image and newest not rejected); with a model or
      // purpose (a turn's images share them), that model's or purpose's turns (migration 0500); with anything
      // else, the matching turns' images (images_turn carries what a count needs).
      const turnMatches = (seq: string): Part => [`EXISTS (SELECT 1 FROM ${hits.seqs} sq WHERE sq.seq = ${seq})`, []];
      const inSession: Part[] = filters.sessionId !== undefined ? [['ts.session_id = ?', [filters.sessionId]]] : [];
      // The matching turns' stats: every turn's read in session order, each asked whether it matched, when most
      // turns match (or one session is asked); else from the matches, each looked up by its seq.
      const scan = hits.scan || filters.sessionId !== undefined;
      const matchingTurns = scan ? 'turn_stats ts' : `${hits.seqs} sq CROSS JOIN turn_stats ts INDEXED BY turn_stats_seq ON ts.seq = sq.seq`;
      const matched: Part[] = scan ? [turnMatches('ts.seq')] : [];
      // The newest passing image of a turn is known when no finer mark than "not rejected" filters.
      const exactTime = !filters.starred && filters.minRating === undefined && filters.rejected !== 'only';
      const hide = filters.rejected === 'hide';
      const byStats = (): Source => {
        // "Not rejected" alone is a column of its own; other marks add up their cells.
        const onlyHide = hide && !filters.starred && filters.minRating === undefined;
        const cells = onlyHide ? 'ts.kept' : statsCells(filters);
        // A session with none of its turns' images passing is left out by the count (its sum is 0), not row by row:
        // the cells are added up once per turn.
        const where = joinSql([...matched, ...inSession]);
        return { sql: `FROM ${matchingTurns} WHERE ${where.where}`, params: where.params, session: 'ts.session_id', time: hide ? 'ts.kept_at' : 'ts.images_at', n: cells };
      };
      const byImages = (): Source => {
        const where = joinSql([...matched, ...inSession, ...columns]);
        return { sql: `FROM ${matchingTurns} CROSS JOIN images INDEXED BY images_turn ON images.turn_id = ts.turn_id WHERE ${where.where}`, params: where.params, session: 'ts.session_id', time: 'images.created_at', n: '1' };
      };
      const walk = plain(joinSql([found, ...columns]));
      if (markOnly && exactTime) return { stats: null, walk, count: byStats(), all };
      // Finer marks: the stats count the totals; where an image stands (its group's newest passing image) needs the images.
      if (markOnly) return { stats: null, walk, count: byImages(), totals: byStats(), all };
      if (filters.from === undefined && filters.to === undefined && exactTime) {
        const where = joinSql([
          ...(filters.model ? [['t.model = ?', [filters.model]] as Part] : []),
          ...(filters.purpose ? [['t.purpose = ?', [filters.purpose]] as Part] : []),
          ...(filters.sessionId !== undefined ? [['t.session_id = ?', [filters.sessionId]] as Part] : []),
          [hide ? 't.kept_count > 0' : 't.image_count > 0', []],
          turnMatches('t.seq'),
        ]);
        const index = filters.model ? 'turns_model' : 'turns_purpose';
        const count: Source = { sql: `FROM turns t INDEXED BY ${index} WHERE ${where.where}`, params: where.params, session: 't.session_id', time: hide ? 't.kept_at' : 't.images_at', n: hide ? 't.kept_count' : 't.image_count' };
        return { stats: null, walk, count, all };
      }
      return { stats: null, walk, count: byImages(), all };
    }
    const walk = plain(joinSql(columns));
    return { stats: markOnly ? { cells: statsCells(filters), sessionId: filters.sessionId ?? null } : null, walk, count: walk, all };
  }

  /**
   * A prompt search's matches, looked up through FTS5 once and kept in TEMP tables of this connection (so every
   * GalleryQuery on it shares them) while no image is added (the key has the newest image's rowid) and no other
   * connection writes (the key has `PRAGMA data_version`); the SEARCHES_KEPT used last are kept. Each kept search
   * has a slot of tables: its matching turns' seqs (keyed by seq: a probe is one integer-key look-up) and, when
   * they are few, their images with the gallery's order index (then a search is walked like a board). A slot is
   * emptied whole when a new search takes it; no table is created or dropped per search (SQLite would prepare
   * every statement again), and a transaction rolled back takes a search back with everything it changed. Counts
   * are read from the turns' own stats, which triggers keep exact, so they are never stale.
   */
  private searchHits(search: { trigrams: string | null; words: string | null }): SearchHits {
    this.db.exec(`
      CREATE TEMP TABLE IF NOT EXISTS searches (
        id INTEGER PRIMARY KEY AUTOINCREMENT, key TEXT NOT NULL UNIQUE, used INTEGER NOT NULL, slot INTEGER NOT NULL UNIQUE,
        turns INTEGER NOT NULL DEFAULT 0, dense INTEGER NOT NULL DEFAULT 0, scan INTEGER NOT NULL DEFAULT 0
      );
      ${Array.from({ length: SLOTS }, (_, k) => `
        CREATE TEMP TABLE IF NOT EXISTS search_seqs_${k} (seq INTEGER PRIMARY KEY);
        CREATE TEMP TABLE IF NOT EXISTS search_images_${k} (image_id TEXT PRIMARY KEY, created_at INTEGER NOT NULL, session_id TEXT NOT NULL) WITHOUT ROWID;
        CREATE INDEX IF NOT EXISTS temp.search_images_${k}_order ON search_images_${k} (created_at DESC, session_id DESC);`).join('')}
      CREATE TEMP TRIGGER IF NOT EXISTS search_images_delete AFTER DELETE ON main.images BEGIN
        ${Array.from({ length: SLOTS }, (_, k) => `DELETE FROM temp.search_images_${k} WHERE image_id = old.id;`).join(' ')}
      END;
    `);
    const newest = num((this.statement('SELECT MAX(rowid) AS m FROM images').get() as Row).m);
    // data_version changes when another connection has written the library since this one last read it.
    const version = num((this.statement('PRAGMA data_version').get() as Row).data_version);
    const key = `${search.trigrams ?? ''}\u0000${search.words ?? ''}\u0000${newest}\u0000${version}\u0000${this.sparseTurns}`;
    const known = this.statement('SELECT id, slot, dense, scan FROM temp.searches WHERE key = ?').get(key) as Row | undefined;
    if (known) {
      // Most recent first; no write when it already is (a write would count as a change of the library's rows).
      this.statement('UPDATE temp.searches SET used = (SELECT MAX(used) + 1 FROM temp.searches) WHERE id = ? AND used < (SELECT MAX(used) FROM temp.searches)').run(num(known.id));
      return { dense: num(known.dense) === 1, scan: num(known.scan) === 1, ...slotTables(num(known.slot)) };
    }
    // Stored whole or not at all: a fill that fails (interrupted, out of memory) leaves no search half kept.
    this.db.exec('SAVEPOINT gallery_search');
    try {
      const hits = this.storeSearch(search, key);
      this.db.exec('RELEASE gallery_search');
      return hits;
    } catch (error) {
      this.db.exec('ROLLBACK TO gallery_search; RELEASE gallery_search');
      throw error;
    }
  }

  private storeSearch(search: { trigrams: string | null; words: string | null }, key: string): SearchHits {
    // Searches beyond the kept ones are forgotten, which frees a slot for this one.
    this.statement('DELETE FROM temp.searches WHERE id IN (SELECT id FROM temp.searches ORDER BY used DESC LIMIT -1 OFFSET ?)').run(SEARCHES_KEPT - 1);
    const taken = new Set((this.statement('SELECT slot FROM temp.searches').all() as Row[]).map((r) => num(r.slot)));
    const slot = Array.from({ length: SLOTS }, (_, k) => k).find((k) => !taken.has(k)) as number;
    const { seqs, images } = slotTables(slot);
    // Emptied whole (SQLite's truncate: the pages are freed, no row is read), then the matching turns' seqs
    // straight from the prompt indexes.
    this.statement(`DELETE FROM ${seqs}`).run();
    this.statement(`DELETE FROM ${images}`).run();
    const sources: Array<[string, string]> = [];
    if (search.trigrams !== null) sources.push(['prompt_trigrams', search.trigrams]);
    if (search.words !== null) sources.push(['prompt_words', search.words]);
    const [[table, match], ...more] = sources as [[string, string], ...Array<[string, string]>];
    const matches = Number(
      this.statement(`INSERT INTO ${seqs} (seq) SELECT rowid FROM ${table} WHERE ${table} MATCH ?${more.map(([t]) => ` AND rowid IN (SELECT rowid FROM ${t} WHERE ${t} MATCH ?)`).join('')}`).run(
        match,
        ...more.map(([, m]) => m),
      ).changes,
    );
    // What counts is the matching turns that have images: those without (failed, cancelled, running; a batch that
    // failed whole leaves thousands sharing a prompt) are few in a library, and read from their own index.
    const empty = (where: string) => num((this.statement(`SELECT COUNT(*) AS n FROM turns INDEXED BY turns_without_images WHERE image_count = 0${where}`).get() as Row).n);
    const turns = matches > this.sparseTurns ? matches - empty(` AND EXISTS (SELECT 1 FROM ${seqs} sq WHERE sq.seq = turns.seq)`) : matches;
    const dense = turns > this.sparseTurns;
    // Reading every turn's stats costs about what looking up a third of them by seq does (measured: 25,000 turns).
    const scan = dense && turns * SCAN_SHARE >= num((this.statement('SELECT MAX(seq) AS m FROM turns').get() as Row).m) - empty('');
    this.statement('INSERT INTO temp.searches (key, used, slot, turns, dense, scan) VALUES (?, (SELECT COALESCE(MAX(used), 0) + 1 FROM temp.searches), ?, ?, ?, ?)').run(
      key,
      slot,
      turns,
      dense ? 1 : 0,
      scan ? 1 : 0,
    );
    if (!dense) {
      this.statement(
        `INSERT INTO ${images} (image_id, created_at, session_id)
         SELECT images.id, images.created_at, images.session_id
         FROM ${seqs} sq CROSS JOIN turns INDEXED BY turns_search ON turns.seq = sq.seq CROSS JOIN images INDEXED BY images_turn ON images.turn_id = turns.id`,
      ).run();
    }
    return { dense, scan, seqs, images };
  }

  // ---- the statements (public for the query-plan tests) ----

  /** Passing images after a key, in the groups' order. Parameters: source's, then at, at, session id. */
  static walkSql(c: CompiledFilters): string {
    const { sql, session, time } = c.walk;
    return `SELECT ${session} AS session_id, ${time} AS created_at ${sql}
              AND ${time} <= ? AND (${time} < ? OR ${session} < ?)
            ORDER BY ${time} DESC, ${session} DESC`;
  }

  /** Passing images before a key, nearest first. */
  static walkUpSql(c: CompiledFilters): string {
    const { sql, session, time } = c.walk;
    return `SELECT ${session} AS session_id, ${time} AS created_at ${sql}
              AND ${time} >= ? AND (${time} > ? OR ${session} > ?)
            ORDER BY ${time} ASC, ${session} ASC`;
  }

  /**
   * Counts under mark-only filters from session_stats: sessions, images, and the images of the groups before a
   * key. A session entirely above the key's time is before it; one that spans it is asked (one indexed look-up
   * for a passing image above the key). Parameters: at, session id, at, at, all's, then the session filter's.
   */
  static statsCountSql(c: CompiledFilters): string {
    const stats = c.stats as NonNullable<CompiledFilters['stats']>;
    return `SELECT COUNT(*) AS sessions, COALESCE(SUM(${stats.cells}), 0) AS images,
                   COALESCE(SUM(CASE WHEN ss.newest_at < ? OR ss.session_id = ? THEN 0 WHEN ss.oldest_at > ? THEN ${stats.cells}
                     WHEN EXISTS (SELECT 1 FROM images INDEXED BY images_session_created WHERE images.session_id = ss.session_id
                       AND images.created_at >= ? + (ss.session_id < ?) AND ${c.all.where}) THEN ${stats.cells} ELSE 0 END), 0) AS before
            FROM session_stats ss WHERE ${stats.cells} > 0${stats.sessionId !== null ? ' AND ss.session_id = ?' : ''}`;
  }

  /**
   * One grouped pass over the passing images: sessions, images, and the images of the groups before a key.
   * Parameters: at, at, session id, then the source's.
   */
  static countSql(source: Source): string {
    const { sql, session, time, n } = source;
    return `SELECT COUNT(*) AS sessions, COALESCE(SUM(n), 0) AS images,
                   COALESCE(SUM(CASE WHEN newest > ? OR (newest = ? AND session_id > ?) THEN n ELSE 0 END), 0) AS before
            FROM (SELECT ${session} AS session_id, SUM(${n}) AS n, MAX(${time}) AS newest ${sql} GROUP BY ${session} HAVING SUM(${n}) > 0)`;
  }

  /** A session's newest passing image at or after a time. Parameters: all's, session id, at. */
  static newestInSessionSql(c: CompiledFilters): string {
    return `SELECT images.created_at AS created_at FROM images INDEXED BY images_session_created
            WHERE ${c.all.where} AND images.session_id = ? AND images.created_at >= ? ORDER BY images.created_at DESC LIMIT 1`;
  }

  /** A session's passing images in group order. Parameters: all's, session id. */
  static groupSql(c: CompiledFilters, columns = 'images.*'): string {
    return `SELECT ${columns} FROM images INDEXED BY images_session_created WHERE ${c.all.where} AND images.session_id = ?
            ORDER BY images.created_at DESC, images.position, images.id DESC`;
  }

  // ---- groups ----

  private newestIn(c: CompiledFilters, sessionId: string, atLeast: number): number | null {
    const row = this.statement(GalleryQuery.newestInSessionSql(c)).get(...c.all.params, sessionId, atLeast) as Row | undefined;
    return row ? num(row.created_at) : null;
  }

  /** Whether a session's group comes before `key` (it has a passing image at or above it). */
  private groupedBefore(c: CompiledFilters, sessionId: string, key: Key): boolean {
    if (key === TOP) return false;
    return this.newestIn(c, sessionId, sessionId >= key.sessionId ? key.at : key.at + 1) !== null;
  }

  /** Groups after `key`, in order, while `take` returns true. */
  private eachGroupAfter(c: CompiledFilters, key: Key, take: (g: GroupKey) => boolean): void {
    const seen = new Set<string>();
    const { params } = c.walk;
    for (const row of this.statement(GalleryQuery.walkSql(c)).iterate(...params, key.at, key.at, key.sessionId) as Iterable<Row>) {
      const sessionId = str(row.session_id);
      if (seen.has(sessionId)) continue;
      seen.add(sessionId);
      if (this.groupedBefore(c, sessionId, key)) continue;
      if (!take({ sessionId, newest: num(row.created_at) })) return;
    }
  }

  private groupsAfter(c: CompiledFilters, key: Key, limit: number): GroupKey[] {
    const groups: GroupKey[] = [];
    this.eachGroupAfter(c, key, (g) => groups.push(g) < limit);
    return groups;
  }

  /** The group just before `key`, or null. */
  private groupBefore(c: CompiledFilters, key: Key): GroupKey | null {
    // Walking up, a session's first image is not always its newest: keep the smallest group key found, and stop
    // once the walk passes it (every session not met yet has all its passing images above).
    let best: GroupKey | null = null;
    const seen = new Set<string>();
    const { params } = c.walk;
    for (const row of this.statement(GalleryQuery.walkUpSql(c)).iterate(...params, key.at, key.at, key.sessionId) as Iterable<Row>) {
      const at = num(row.created_at);
      const sessionId = str(row.session_id);
      if (best && (at > best.newest || (at === best.newest && sessionId > best.sessionId))) break;
      if (seen.has(sessionId)) continue;
      seen.add(sessionId);
      const newest: number = this.newestIn(c, sessionId, at) ?? at;
      if (!best || newest < best.newest || (newest === best.newest && sessionId < best.sessionId)) best = { sessionId, newest };
    }
    return best;
  }

  /** One page: `limit` groups after the cursor, and whether more follow. */
  page(filters: GalleryFilters, cursor: Key | null, limit: number): { groups: GroupKey[]; more: boolean; compiled: CompiledFilters } {
    const compiled = this.compile(filters);
    const groups = this.groupsAfter(compiled, cursor ?? TOP, limit + 1);
    return { groups: groups.slice(0, limit), more: groups.length > limit, compiled };
  }

  groupRows(compiled: CompiledFilters, sessionId: string): Row[] {
    return this.statement(GalleryQuery.groupSql(compiled)).all(...compiled.all.params, sessionId) as Row[];
  }

  /** How many sessions and images pass; remembered per filters while the library does not change. */
  totals(filters: GalleryFilters, compiled = this.compile(filters)): { sessions: number; images: number } {
    // Inside a transaction the answer may yet be rolled back (total_changes() would not go back with it).
    if (this.db.isTransaction) {
      const { sessions, images } = this.counts(compiled, TOP);
      return { sessions, images };
    }
    // total_changes() counts every row this connection changed: any write (a mark, a new image) is a new key;
    // data_version, any write another connection made.
    const changes = num((this.statement('SELECT total_changes() AS n').get() as Row).n);
    const version = num((this.statement('PRAGMA data_version').get() as Row).data_version);
    const key = `${changes}\u0000${version}\u0000${JSON.stringify(filters)}`;
    const known = this.totalsCache.get(key);
    if (known) return known;
    const { sessions, images } = this.counts(compiled, TOP);
    const totals = { sessions, images };
    if (this.totalsCache.size >= TOTALS_KEPT) this.totalsCache.clear();
    this.totalsCache.set(key, totals);
    return totals;
  }

  /** The first `limit` passing image ids in gallery order. */
  imageIds(filters: GalleryFilters, limit: number): { ids: string[]; total: number } {
    const compiled = this.compile(filters);
    const ids: string[] = [];
    const group = this.statement(GalleryQuery.groupSql(compiled, 'images.id AS id'));
    this.eachGroupAfter(compiled, TOP, (g) => {
      for (const row of group.iterate(...compiled.all.params, g.sessionId) as Iterable<Row>) {
        ids.push(str(row.id));
        if (ids.length >= limit) return false;
      }
      return true;
    });
    return { ids, total: this.totals(filters, compiled).images };
  }

  // ---- neighbours ----

  /**
   * Where `imageId` stands under `filters`. An image that does not pass them (just rejected with rejects
   * hidden, say) is placed where it stood, so "next" still continues from it. Null for an unknown image.
   */
  neighbors(filters: GalleryFilters, imageId: string): Neighbors | null {
    const pivot = this.statement('SELECT session_id, created_at, position FROM images WHERE id = ?').get(imageId) as Row | undefined;
    if (!pivot) return null;
    const c = this.compile(filters);
    const sessionId = str(pivot.session_id);
    const at = num(pivot.created_at);
    const position = num(pivot.position);
    const inFilter = this.statement(`SELECT 1 AS found FROM images WHERE ${c.all.where} AND images.id = ?`).get(...c.all.params, imageId) !== undefined;
    // The pivot's group key, counting the pivot as passing.
    const key: Key = { at: Math.max(this.newestIn(c, sessionId, at) ?? at, at), sessionId };

    // Inside the group (created_at desc, position, id desc): the passing images just after and just before.
    const inSession = `FROM images INDEXED BY images_session_created WHERE ${c.all.where} AND images.session_id = ?`;
    const after = this.statement(
      `SELECT images.id AS id ${inSession} AND images.created_at <= ?
         AND (images.created_at < ? OR images.position > ? OR (images.position = ? AND images.id < ?))
       ORDER BY images.created_at DESC, images.position, images.id DESC LIMIT 1`,
    ).get(...c.all.params, sessionId, at, at, position, position, imageId) as Row | undefined;
    const aboveSql = `${inSession} AND images.created_at >= ? AND (images.created_at > ? OR images.position < ? OR (images.position = ? AND images.id > ?))`;
    const before = this.statement(`SELECT images.id AS id ${aboveSql} ORDER BY images.created_at ASC, images.position DESC, images.id ASC LIMIT 1`).get(
      ...c.all.params, sessionId, at, at, position, position, imageId,
    ) as Row | undefined;
    const aboveInGroup = this.statement(`SELECT COUNT(*) AS n ${aboveSql}`).get(...c.all.params, sessionId, at, at, position, position, imageId) as Row;

    let next = after ? str(after.id) : null;
    if (next === null) {
      const [following] = this.groupsAfter(c, key, 1);
      if (following) next = this.endOfGroup(c, following.sessionId, 'first');
    }
    let prev = before ? str(before.id) : null;
    if (prev === null) {
      const preceding = this.groupBefore(c, key);
      if (preceding) prev = this.endOfGroup(c, preceding.sessionId, 'last');
    }
    const counts = this.counts(c, key);
    return { index: counts.before + num(aboveInGroup.n), total: counts.images, prev, next, inFilter };
  }

  /** Sessions and images that pass, and the passing images of the groups before `key` (not its own group). */
  private counts(c: CompiledFilters, key: Key): { sessions: number; images: number; before: number } {
    let row: Row;
    if (c.stats) {
      const params = [key.at, key.sessionId, key.at, key.at, key.sessionId, ...c.all.params, ...(c.stats.sessionId !== null ? [c.stats.sessionId] : [])];
      row = this.statement(GalleryQuery.statsCountSql(c)).get(...params) as Row;
    } else {
      const source = key === TOP && c.totals ? c.totals : c.count;
      row = this.statement(GalleryQuery.countSql(source)).get(key.at, key.at, key.sessionId, ...source.params) as Row;
    }
    return { sessions: num(row.sessions), images: num(row.images), before: num(row.before) };
  }

  private endOfGroup(c: CompiledFilters, sessionId: string, which: 'first' | 'last'): string | null {
    const order = which === 'first' ? 'images.created_at DESC, images.position, images.id DESC' : 'images.created_at ASC, images.position DESC, images.id ASC';
    const row = this.statement(
      `SELECT images.id AS id FROM images INDEXED BY images_session_created WHERE ${c.all.where} AND images.session_id = ? ORDER BY ${order} LIMIT 1`,
    ).get(...c.all.params, sessionId) as Row | undefined;
    return row ? str(row.id) : null;
  }
}
