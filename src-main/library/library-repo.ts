// SQL for the library: sessions, turns, images, references, stars, the gallery. Rules live elsewhere
// (generation/runner.ts, domain/); this file only reads and writes rows and maps them to the IPC contract's records.
import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import type { GenerateRequest } from '../../src-shared/api.ts';
import { DEFAULT_PURPOSE } from '../../src-shared/catalog.ts';
import { StudioError, type StoredError } from '../domain/errors.ts';
import { promptIndexRows } from '../domain/library-search.ts';
import { pickTitle, titleFromPrompt } from '../domain/session-title.ts';
import type { StoredNote } from '../domain/messages.ts';
import type { StoredTurn } from '../domain/turns.ts';
import type { ImageRecord, TurnStatus } from '../../src-shared/ipc/generation.ts';
import type { GalleryFilters, GalleryPage, ImageDetail, ImageNeighbors, SessionSummary } from '../../src-shared/ipc/library.ts';
import type { EnvironmentName } from '../../src-shared/ipc/settings.ts';
import type { CreditEstimate } from '../../src-shared/pricing.ts';
import type { GenerationWarning } from '../../src-shared/warnings.ts';
import { BoardsRepo } from './boards-repo.ts';
import { statement as cachedStatement, transaction } from './database.ts';
import { GalleryQuery } from './gallery-query.ts';

type Row = Record<string, SQLInputValue>;

export interface NewTurn {
  id: string;
  sessionId: string;
  environment: EnvironmentName;
  request: GenerateRequest;
  estimate: CreditEstimate;
  startedAt: number;
  retryOf: string | null;
  referenceImageIds: string[];
}

export interface TurnPatch {
  status?: TurnStatus;
  serviceTurnId?: string | null;
  creditsCharged?: number | null;
  warnings?: GenerationWarning[];
  requestId?: string | null;
  error?: StoredError | null;
  outcome?: StoredNote | null;
  finishedAt?: number | null;
  durationMs?: number | null;
  retryAt?: number | null;
}

export interface NewImage {
  id: string;
  filename: string;
  width: number;
  height: number;
}

export interface PendingDownload {
  id: string;
  turnId: string;
  environment: EnvironmentName;
  filename: string;
  width: number;
  height: number;
}

function str(v: SQLInputValue | undefined): string {
  return typeof v === 'string' ? v : String(v ?? '');
}
function num(v: SQLInputValue | undefined): number {
  return typeof v === 'number' ? v : Number(v ?? 0);
}
function numOrNull(v: SQLInputValue | undefined): number | null {
  return v === null || v === undefined ? null : Number(v);
}
function strOrNull(v: SQLInputValue | undefined): string | null {
  return v === null || v === undefined ? null : String(v);
}
function json<T>(v: SQLInputValue | undefined, fallback: T): T {
  return typeof v === 'string' ? (JSON.parse(v) as T) : fallback;
}

/** Culling marks for many images at once (library:mark); a mark not given is left as it is. */
export interface Marks {
  starred?: boolean | undefined;
  rating?: number | undefined;
  rejected?: boolean | undefined;
}

/** Errors are stored as codes and facts; rows an earlier version wrote carry a baked `message` instead. */
export function storedError(v: SQLInputValue | undefined): StoredError | null {
  if (typeof v !== 'string') return null;
  const parsed = JSON.parse(v) as StoredError & { message?: string };
  const { message, ...error } = parsed;
  return message !== undefined && error.serviceMessage === undefined ? { ...error, serviceMessage: message } : error;
}

/** Notes are stored as a catalog code; an earlier version stored the sentence itself. */
export function storedNote(v: SQLInputValue | undefined): StoredNote | null {
  if (typeof v !== 'string' || v === '') return null;
  if (v.startsWith('{')) return JSON.parse(v) as StoredNote;
  return { code: 'legacy_note', params: { text: v } };
}

/** A turn row with what spec §7's retry verdict needs from its neighbours, in the same statement. */
const TURN_SELECT = `SELECT t.*,
  EXISTS (SELECT 1 FROM turns r WHERE r.retry_of = t.id) AS retried,
  (SELECT p.error_json FROM turns p WHERE p.id = t.retry_of) AS retry_of_error
  FROM turns t`;

function toImage(row: Row): ImageRecord {
  return {
    id: str(row.id),
    turnId: str(row.turn_id),
    sessionId: str(row.session_id),
    environment: str(row.environment) as EnvironmentName,
    filename: str(row.filename),
    width: num(row.width),
    height: num(row.height),
    starred: num(row.starred) === 1,
    rating: num(row.rating),
    rejected: num(row.rejected) === 1,
    download: str(row.download) as ImageRecord['download'],
    ...(row.download_error ? { downloadError: str(row.download_error) } : {}),
    missing: num(row.missing) === 1,
    createdAt: num(row.created_at),
    model: str(row.model),
    prompt: str(row.prompt),
  };
}

export class LibraryRepo {
  private readonly db: DatabaseSync;
  private readonly galleryQuery: GalleryQuery;
  /** Boards and smart boards. */
  readonly boards: BoardsRepo;

  /** `options.sparseSearchTurns`: a test knob (see GalleryQuery). */
  constructor(db: DatabaseSync, options: { sparseSearchTurns?: number } = {}) {
    this.db = db;
    this.galleryQuery = new GalleryQuery(db, options.sparseSearchTurns !== undefined ? { sparseTurns: options.sparseSearchTurns } : {});
    this.boards = new BoardsRepo(db);
  }

  /** Each statement is prepared once, in the connection's one statement cache. */
  private sql(text: string): StatementSync {
    return cachedStatement(this.db, text);
  }

  // ---- sessions ----

  createSession(id: string, environment: EnvironmentName, now: number): void {
    this.sql('INSERT INTO sessions (id, environment, created_at, updated_at) VALUES (?, ?, ?, ?)').run(id, environment, now, now);
  }

  sessionRow(id: string): { id: string; environment: EnvironmentName; serviceSessionId: string | null } | null {
    const row = this.sql('SELECT id, environment, service_session_id FROM sessions WHERE id = ?').get(id) as Row | undefined;
    if (!row) return null;
    return { id: str(row.id), environment: str(row.environment) as EnvironmentName, serviceSessionId: strOrNull(row.service_session_id) };
  }

  findSessionByService(environment: EnvironmentName, serviceSessionId: string): string | null {
    const row = this.db
      .prepare('SELECT id FROM sessions WHERE environment = ? AND service_session_id = ?')
      .get(environment, serviceSessionId) as Row | undefined;
    return row ? str(row.id) : null;
  }

  setSessionService(id: string, serviceSessionId: string, serviceTitle: string): void {
    this.db
      .prepare('UPDATE sessions SET service_session_id = ?, service_title = COALESCE(service_title, ?) WHERE id = ? AND service_session_id IS NULL')
      .run(serviceSessionId, serviceTitle, id);
  }

  touchSession(id: string, now: number): void {
    this.sql('UPDATE sessions SET updated_at = MAX(updated_at, ?) WHERE id = ?').run(now, id);
  }

  renameSession(id: string, title: string): boolean {
    return this.sql('UPDATE sessions SET local_title = ? WHERE id = ?').run(title, id).changes > 0;
  }

  sessionSummary(id: string): SessionSummary | null {
    const row = this.db
      .prepare(
        `SELECT s.*, (SELECT COUNT(*) FROM turns t WHERE t.session_id = s.id) AS turn_count,
                (SELECT COUNT(*) FROM images i WHERE i.session_id = s.id) AS image_count
         FROM sessions s WHERE s.id = ?`,
      )
      .get(id) as Row | undefined;
    return row ? this.toSession(row) : null;
  }

  /** Sessions newest first (by last activity), paged by a cursor `updatedAt:id`. */
  listSessions(cursor: string | null, limit: number): { sessions: SessionSummary[]; nextCursor: string | null } {
    const [cAt, cId] = parseCursor(cursor);
    const rows = this.db
      .prepare(
        `SELECT s.*, (SELECT COUNT(*) FROM turns t WHERE t.session_id = s.id) AS turn_count,
                (SELECT COUNT(*) FROM images i WHERE i.session_id = s.id) AS image_count
         FROM sessions s WHERE (s.updated_at < ? OR (s.updated_at = ? AND s.id < ?))
         ORDER BY s.updated_at DESC, s.id DESC LIMIT ?`,
      )
      .all(cAt, cAt, cId, limit + 1) as Row[];
    const page = rows.slice(0, limit).map((r) => this.toSession(r));
    const last = page.at(-1);
    return { sessions: page, nextCursor: rows.length > limit && last ? `${last.updatedAt}:${last.id}` : null };
  }

  private toSession(row: Row): SessionSummary {
    const localTitle = strOrNull(row.local_title);
    return {
      id: str(row.id),
      serviceSessionId: strOrNull(row.service_session_id),
      environment: str(row.environment) as EnvironmentName,
      title: localTitle ?? strOrNull(row.auto_title) ?? strOrNull(row.service_title) ?? 'API generation',
      localTitle,
      createdAt: num(row.created_at),
      updatedAt: num(row.updated_at),
      turnCount: num(row.turn_count),
      imageCount: num(row.image_count),
    };
  }

  // ---- turns ----

  /**
   * Records a turn, puts its prompt into the search indexes (prompt_trigrams, prompt_words, keyed by the turn's
   * `seq`) and gives its session the automatic title when it has none yet. Call inside a transaction.
   */
  createTurn(turn: NewTurn): void {
    const model = turn.estimate.model;
    const prompt = turn.request.prompt ?? '';
    const seq = num((this.sql('SELECT COALESCE(MAX(seq), 0) + 1 AS seq FROM turns').get() as Row).seq);
    this.db
      .prepare(
        `INSERT INTO turns (id, session_id, environment, request_json, estimate_json, model, purpose, prompt, status, started_at, retry_of, client_id_sent, seq)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'running', ?, ?, 1, ?)`,
      )
      .run(
        turn.id,
        turn.sessionId,
        turn.environment,
        JSON.stringify(turn.request),
        JSON.stringify(turn.estimate),
        model,
        turn.request.purpose_id ?? DEFAULT_PURPOSE,
        prompt,
        turn.startedAt,
        turn.retryOf,
        seq,
      );
    const insertRef = this.sql('INSERT INTO turn_references (turn_id, position, image_id) VALUES (?, ?, ?)');
    turn.referenceImageIds.forEach((imageId, i) => insertRef.run(turn.id, i, imageId));
    const rows = promptIndexRows(prompt);
    if (rows) {
      this.sql('INSERT INTO prompt_trigrams (rowid, prompt) VALUES (?, ?)').run(seq, rows.trigrams);
      this.sql('INSERT INTO prompt_words (rowid, words) VALUES (?, ?)').run(seq, rows.words);
    }
    this.giveAutoTitle(turn.sessionId, prompt);
  }

  /**
   * The session's automatic title from `prompt`, unless it has one: the prompt cut to 48 characters at a word,
   * with the session's start time (then date) added when another session already shows that title.
   */
  private giveAutoTitle(sessionId: string, prompt: string): void {
    const session = this.sql('SELECT auto_title, created_at FROM sessions WHERE id = ?').get(sessionId) as Row | undefined;
    if (!session || session.auto_title !== null) return;
    const base = titleFromPrompt(prompt);
    if (base === null) return;
    const shown = this.sql('SELECT 1 AS found FROM sessions WHERE COALESCE(local_title, auto_title) = ? AND id <> ? LIMIT 1');
    const title = pickTitle(base, num(session.created_at), (t) => shown.get(t, sessionId) !== undefined);
    this.sql('UPDATE sessions SET auto_title = ? WHERE id = ?').run(title, sessionId);
  }

  updateTurn(id: string, patch: TurnPatch): void {
    const columns: Record<keyof TurnPatch, [string, (v: never) => SQLInputValue]> = {
      status: ['status', (v: string) => v],
      serviceTurnId: ['service_turn_id', (v: string | null) => v],
      creditsCharged: ['credits_charged', (v: number | null) => v],
      warnings: ['warnings_json', (v: GenerationWarning[]) => JSON.stringify(v)],
      requestId: ['request_id', (v: string | null) => v],
      error: ['error_json', (v: StoredError | null) => (v ? JSON.stringify(v) : null)],
      outcome: ['outcome_note', (v: StoredNote | null) => (v ? JSON.stringify(v) : null)],
      finishedAt: ['finished_at', (v: number | null) => v],
      durationMs: ['duration_ms', (v: number | null) => v],
      retryAt: ['retry_at', (v: number | null) => v],
    };
    const sets: string[] = [];
    const values: SQLInputValue[] = [];
    for (const [key, value] of Object.entries(patch) as Array<[keyof TurnPatch, unknown]>) {
      if (value === undefined) continue;
      const [column, encode] = columns[key];
      sets.push(`${column} = ?`);
      values.push(encode(value as never));
    }
    if (sets.length === 0) return;
    this.sql(`UPDATE turns SET ${sets.join(', ')} WHERE id = ?`).run(...values, id);
  }

  getTurn(id: string): StoredTurn | null {
    const row = this.sql(`${TURN_SELECT} WHERE t.id = ?`).get(id) as Row | undefined;
    return row ? this.toTurn(row) : null;
  }

  listTurns(sessionId: string): StoredTurn[] {
    const rows = this.sql(`${TURN_SELECT} WHERE t.session_id = ? ORDER BY t.started_at, t.id`).all(sessionId) as Row[];
    return rows.map((r) => this.toTurn(r));
  }

  turnsWithStatus(status: TurnStatus): StoredTurn[] {
    const rows = this.sql(`${TURN_SELECT} WHERE t.status = ? ORDER BY t.started_at`).all(status) as Row[];
    return rows.map((r) => this.toTurn(r));
  }

  private toTurn(row: Row): StoredTurn {
    const id = str(row.id);
    const session = this.sessionRow(str(row.session_id));
    const images = (this.sql('SELECT * FROM images WHERE turn_id = ? ORDER BY position').all(id) as Row[]).map(toImage);
    const refs = (this.sql('SELECT image_id FROM turn_references WHERE turn_id = ? ORDER BY position').all(id) as Row[]).map((r) =>
      str(r.image_id),
    );
    return {
      id,
      serviceTurnId: strOrNull(row.service_turn_id),
      sessionId: str(row.session_id),
      serviceSessionId: session?.serviceSessionId ?? null,
      environment: str(row.environment) as EnvironmentName,
      request: json<GenerateRequest>(row.request_json, {}),
      estimate: json<CreditEstimate>(row.estimate_json, {} as CreditEstimate),
      status: str(row.status) as TurnStatus,
      creditsCharged: numOrNull(row.credits_charged),
      warnings: json<GenerationWarning[]>(row.warnings_json, []),
      requestId: strOrNull(row.request_id),
      error: storedError(row.error_json),
      outcome: storedNote(row.outcome_note),
      startedAt: num(row.started_at),
      finishedAt: numOrNull(row.finished_at),
      durationMs: numOrNull(row.duration_ms),
      images,
      referenceImageIds: refs,
      retryOf: strOrNull(row.retry_of),
      retryAt: numOrNull(row.retry_at),
      retried: num(row.retried) === 1,
      clientIdSent: num(row.client_id_sent) === 1,
      retryOfCode: storedError(row.retry_of_error)?.code ?? null,
    };
  }

  // ---- images ----

  insertImages(turn: { id: string; sessionId: string; environment: EnvironmentName; model: string; purpose: string; prompt: string }, images: NewImage[], now: number): void {
    const insert = this.sql(
      `INSERT INTO images (id, turn_id, session_id, environment, filename, position, width, height, created_at, model, purpose, prompt)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    images.forEach((img, i) =>
      insert.run(img.id, turn.id, turn.sessionId, turn.environment, img.filename, i, img.width, img.height, now, turn.model, turn.purpose, turn.prompt),
    );
  }

  getImage(id: string): ImageRecord | null {
    const row = this.sql('SELECT * FROM images WHERE id = ?').get(id) as Row | undefined;
    return row ? toImage(row) : null;
  }

  /** The images with these ids that exist, in the order given (one statement for the whole list). */
  imagesByIds(ids: string[]): ImageRecord[] {
    if (ids.length === 0) return [];
    const rows = this.sql('SELECT * FROM images WHERE id IN (SELECT value FROM json_each(?))').all(JSON.stringify(ids)) as Row[];
    const byId = new Map(rows.map((r) => [str(r.id), r]));
    return ids.flatMap((id) => {
      const row = byId.get(id);
      return row ? [toImage(row)] : [];
    });
  }

  setStarred(id: string, starred: boolean): boolean {
    return this.sql('UPDATE images SET starred = ? WHERE id = ?').run(starred ? 1 : 0, id).changes > 0;
  }

  /**
   * Culling marks on many images in one transaction. Every id must be in the library, or nothing changes
   * (`images_not_found` naming the unknown ones). Answers the images in the order given, each once.
   */
  mark(imageIds: readonly string[], marks: Marks): ImageRecord[] {
    const ids = [...new Set(imageIds)];
    const sets: string[] = [];
    const values: SQLInputValue[] = [];
    if (marks.starred !== undefined) {
      sets.push('starred = ?');
      values.push(marks.starred ? 1 : 0);
    }
    if (marks.rating !== undefined) {
      sets.push('rating = ?');
      values.push(marks.rating);
    }
    if (marks.rejected !== undefined) {
      sets.push('rejected = ?');
      values.push(marks.rejected ? 1 : 0);
    }
    if (sets.length === 0) throw new StudioError('invalid_input', { field: '(input)', why: 'give at least one mark: starred, rating or rejected' });
    return transaction(this.db, () => {
      this.requireImages(ids);
      const update = this.sql(`UPDATE images SET ${sets.join(', ')} WHERE id = ?`);
      for (const id of ids) update.run(...values, id);
      return this.imagesByIds(ids);
    });
  }

  /** Throws `images_not_found` naming every id that is not in the library. */
  requireImages(ids: readonly string[]): void {
    const found = new Set(
      (this.sql('SELECT id FROM images WHERE id IN (SELECT value FROM json_each(?))').all(JSON.stringify(ids)) as Row[]).map((r) => str(r.id)),
    );
    const missing = ids.filter((id) => !found.has(id));
    if (missing.length > 0) throw new StudioError('images_not_found', { imageIds: missing });
  }

  setMissing(id: string): void {
    this.sql('UPDATE images SET missing = 1 WHERE id = ?').run(id);
  }

  setDownload(id: string, state: 'pending' | 'done' | 'failed', error: string | null = null): void {
    this.sql('UPDATE images SET download = ?, download_error = ? WHERE id = ?').run(state, error, id);
  }

  pendingDownloads(): PendingDownload[] {
    const rows = this.db
      .prepare("SELECT id, turn_id, environment, filename, width, height FROM images WHERE download = 'pending' ORDER BY created_at, position")
      .all() as Row[];
    return rows.map((r) => ({
      id: str(r.id),
      turnId: str(r.turn_id),
      environment: str(r.environment) as EnvironmentName,
      filename: str(r.filename),
      width: num(r.width),
      height: num(r.height),
    }));
  }

  imageDetail(id: string): (Omit<ImageDetail, 'turn'> & { turn: StoredTurn }) | null {
    const found = this.getImage(id);
    if (!found) return null;
    // A Catalog image's details name its place (SKU · shot, and the product), as its gallery tile does.
    const [image = found] = this.withCatalogLabels([found]);
    const turn = this.getTurn(image.turnId);
    if (!turn) return null;
    const references = this.imagesByIds(turn.referenceImageIds);
    const usedRows = this.db
      .prepare(
        `SELECT DISTINCT t.id, t.session_id, t.started_at FROM turn_references r JOIN turns t ON t.id = r.turn_id
         WHERE r.image_id = ? ORDER BY t.started_at DESC LIMIT 100`,
      )
      .all(id) as Row[];
    const usedIn = usedRows.map((r) => ({
      turnId: str(r.id),
      sessionId: str(r.session_id),
      startedAt: num(r.started_at),
      images: (this.sql('SELECT * FROM images WHERE turn_id = ? ORDER BY position').all(str(r.id)) as Row[]).map(toImage),
    }));
    return { image, turn, references, usedIn, boards: this.boards.boardsOf(id) };
  }

  // ---- gallery ----

  /** Images a Catalog batch made carry their job's SKU, shot and product name (found by turn, through batch_jobs_turn). */
  private withCatalogLabels(images: ImageRecord[]): ImageRecord[] {
    const turnIds = [...new Set(images.map((i) => i.turnId))];
    if (turnIds.length === 0) return images;
    const rows = this.sql('SELECT turn_id, sku, shot_name, product_name FROM batch_jobs WHERE turn_id IN (SELECT value FROM json_each(?))').all(JSON.stringify(turnIds)) as Row[];
    if (rows.length === 0) return images;
    const byTurn = new Map(rows.map((r) => [str(r.turn_id), { sku: str(r.sku), shot: str(r.shot_name), productName: str(r.product_name) }]));
    return images.map((i) => {
      const catalog = byTurn.get(i.turnId);
      return catalog ? { ...i, catalog } : i;
    });
  }

  /**
   * Sessions newest first (by their newest image that passes the filters), each with its passing images
   * newest first. `limit` counts sessions; the cursor is `<newest image ms>:<session id>` of the last group.
   * Walks the index that matches the filters (gallery-query.ts); no filter reads the whole table.
   */
  gallery(filters: GalleryFilters, cursor: string | null, limit: number): GalleryPage {
    const [cAt, cId] = parseCursor(cursor);
    const { groups, more, compiled } = this.galleryQuery.page(filters, cursor ? { at: cAt, sessionId: cId } : null, limit);
    const out = groups.map((g) => ({
      session: this.sessionSummary(g.sessionId) as SessionSummary,
      images: this.withCatalogLabels(this.galleryQuery.groupRows(compiled, g.sessionId).map(toImage)),
    }));
    const last = groups.at(-1);
    return {
      groups: out.filter((g) => g.session !== null),
      nextCursor: more && last ? `${last.newest}:${last.sessionId}` : null,
      totals: this.galleryQuery.totals(filters, compiled),
    };
  }

  /** Where an image stands in the gallery under `filters`: previous, next, index and total. Null: no such image. */
  neighbors(filters: GalleryFilters, imageId: string): ImageNeighbors | null {
    return this.galleryQuery.neighbors(filters, imageId);
  }

  /** A board's image ids in the board's order (the gallery's under `{boardId}`), or null for no such board. */
  boardImageIds(boardId: string): string[] | null {
    if (!this.boards.get(boardId)) return null;
    return this.galleryQuery.imageIds({ boardId }, Number.MAX_SAFE_INTEGER).ids;
  }

  /** The first `limit` image ids in the gallery's order under `filters`, and how many pass them. */
  imageIds(filters: GalleryFilters, limit: number): { ids: string[]; total: number } {
    return this.galleryQuery.imageIds(filters, limit);
  }
}

/** A cursor `<ms>:<id>`; none = start from the top. */
function parseCursor(cursor: string | null): [number, string] {
  if (!cursor) return [Number.MAX_SAFE_INTEGER, '\uffff'];
  const at = cursor.indexOf(':');
  const ms = Number(cursor.slice(0, at));
  if (at < 1 || !Number.isFinite(ms)) throw new RangeError('cursor');
  return [ms, cursor.slice(at + 1)];
}

export function isValidCursor(cursor: string | null): boolean {
  try {
    parseCursor(cursor);
    return true;
  } catch {
    return false;
  }
}
