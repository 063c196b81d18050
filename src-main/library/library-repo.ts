// SQL for the library: sessions, turns, images, references, stars, the gallery. Rules live elsewhere
// (core/generation.ts); this file only reads and writes rows and maps them to the IPC contract's records.
import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import type { GenerateRequest } from '../../src-shared/api.ts';
import { DEFAULT_PURPOSE } from '../../src-shared/catalog.ts';
import type { StoredError } from '../domain/errors.ts';
import type { StoredNote } from '../domain/messages.ts';
import type { StoredTurn } from '../domain/turns.ts';
import type { ImageRecord, TurnStatus } from '../../src-shared/ipc/generation.ts';
import type { GalleryFilters, GalleryPage, ImageDetail, SessionSummary } from '../../src-shared/ipc/library.ts';
import type { EnvironmentName } from '../../src-shared/ipc/settings.ts';
import type { CreditEstimate } from '../../src-shared/pricing.ts';
import type { GenerationWarning } from '../../src-shared/warnings.ts';

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

/** Escapes LIKE wildcards so a search for "50%" finds that text. */
/** Errors are stored as codes and facts; rows an earlier version wrote carry a baked `message` instead. */
function storedError(v: SQLInputValue | undefined): StoredError | null {
  if (typeof v !== 'string') return null;
  const parsed = JSON.parse(v) as StoredError & { message?: string };
  const { message, ...error } = parsed;
  return message !== undefined && error.serviceMessage === undefined ? { ...error, serviceMessage: message } : error;
}

/** Notes are stored as a catalog code; an earlier version stored the sentence itself. */
function storedNote(v: SQLInputValue | undefined): StoredNote | null {
  if (typeof v !== 'string' || v === '') return null;
  if (v.startsWith('{')) return JSON.parse(v) as StoredNote;
  return { code: 'legacy_note', params: { text: v } };
}

/** A turn row with what spec §7's retry verdict needs from its neighbours, in the same statement. */
const TURN_SELECT = `SELECT t.*,
  EXISTS (SELECT 1 FROM turns r WHERE r.retry_of = t.id) AS retried,
  (SELECT p.error_json FROM turns p WHERE p.id = t.retry_of) AS retry_of_error
  FROM turns t`;

function likeContains(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

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
    download: str(row.download) as ImageRecord['download'],
    missing: num(row.missing) === 1,
    createdAt: num(row.created_at),
    model: str(row.model),
    prompt: str(row.prompt),
  };
}

export class LibraryRepo {
  private readonly db: DatabaseSync;

  constructor(db: DatabaseSync) {
    this.db = db;
  }

  // ---- sessions ----

  createSession(id: string, environment: EnvironmentName, now: number): void {
    this.db.prepare('INSERT INTO sessions (id, environment, created_at, updated_at) VALUES (?, ?, ?, ?)').run(id, environment, now, now);
  }

  sessionRow(id: string): { id: string; environment: EnvironmentName; serviceSessionId: string | null } | null {
    const row = this.db.prepare('SELECT id, environment, service_session_id FROM sessions WHERE id = ?').get(id) as Row | undefined;
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
    this.db.prepare('UPDATE sessions SET updated_at = MAX(updated_at, ?) WHERE id = ?').run(now, id);
  }

  renameSession(id: string, title: string): boolean {
    return this.db.prepare('UPDATE sessions SET local_title = ? WHERE id = ?').run(title, id).changes > 0;
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
      title: localTitle ?? strOrNull(row.service_title) ?? 'API generation',
      localTitle,
      createdAt: num(row.created_at),
      updatedAt: num(row.updated_at),
      turnCount: num(row.turn_count),
      imageCount: num(row.image_count),
    };
  }

  // ---- turns ----

  createTurn(turn: NewTurn): void {
    const model = turn.estimate.model;
    this.db
      .prepare(
        `INSERT INTO turns (id, session_id, environment, request_json, estimate_json, model, purpose, prompt, status, started_at, retry_of, client_id_sent)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'running', ?, ?, 1)`,
      )
      .run(
        turn.id,
        turn.sessionId,
        turn.environment,
        JSON.stringify(turn.request),
        JSON.stringify(turn.estimate),
        model,
        turn.request.purpose_id ?? DEFAULT_PURPOSE,
        turn.request.prompt ?? '',
        turn.startedAt,
        turn.retryOf,
      );
    const insertRef = this.db.prepare('INSERT INTO turn_references (turn_id, position, image_id) VALUES (?, ?, ?)');
    turn.referenceImageIds.forEach((imageId, i) => insertRef.run(turn.id, i, imageId));
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
    this.db.prepare(`UPDATE turns SET ${sets.join(', ')} WHERE id = ?`).run(...values, id);
  }

  getTurn(id: string): StoredTurn | null {
    const row = this.db.prepare(`${TURN_SELECT} WHERE t.id = ?`).get(id) as Row | undefined;
    return row ? this.toTurn(row) : null;
  }

  listTurns(sessionId: string): StoredTurn[] {
    const rows = this.db.prepare(`${TURN_SELECT} WHERE t.session_id = ? ORDER BY t.started_at, t.id`).all(sessionId) as Row[];
    return rows.map((r) => this.toTurn(r));
  }

  turnsWithStatus(status: TurnStatus): StoredTurn[] {
    const rows = this.db.prepare(`${TURN_SELECT} WHERE t.status = ? ORDER BY t.started_at`).all(status) as Row[];
    return rows.map((r) => this.toTurn(r));
  }

  private toTurn(row: Row): StoredTurn {
    const id = str(row.id);
    const session = this.sessionRow(str(row.session_id));
    const images = (this.db.prepare('SELECT * FROM images WHERE turn_id = ? ORDER BY position').all(id) as Row[]).map(toImage);
    const refs = (this.db.prepare('SELECT image_id FROM turn_references WHERE turn_id = ? ORDER BY position').all(id) as Row[]).map((r) =>
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
    const insert = this.db.prepare(
      `INSERT INTO images (id, turn_id, session_id, environment, filename, position, width, height, created_at, model, purpose, prompt)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    images.forEach((img, i) =>
      insert.run(img.id, turn.id, turn.sessionId, turn.environment, img.filename, i, img.width, img.height, now, turn.model, turn.purpose, turn.prompt),
    );
  }

  getImage(id: string): ImageRecord | null {
    const row = this.db.prepare('SELECT * FROM images WHERE id = ?').get(id) as Row | undefined;
    return row ? toImage(row) : null;
  }

  imagesByIds(ids: string[]): ImageRecord[] {
    const out: ImageRecord[] = [];
    for (const id of ids) {
      const image = this.getImage(id);
      if (image) out.push(image);
    }
    return out;
  }

  setStarred(id: string, starred: boolean): boolean {
    return this.db.prepare('UPDATE images SET starred = ? WHERE id = ?').run(starred ? 1 : 0, id).changes > 0;
  }

  setMissing(id: string): void {
    this.db.prepare('UPDATE images SET missing = 1 WHERE id = ?').run(id);
  }

  setDownload(id: string, state: 'pending' | 'done' | 'failed', error: string | null = null): void {
    this.db.prepare('UPDATE images SET download = ?, download_error = ? WHERE id = ?').run(state, error, id);
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
    const image = this.getImage(id);
    if (!image) return null;
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
      images: (this.db.prepare('SELECT * FROM images WHERE turn_id = ? ORDER BY position').all(str(r.id)) as Row[]).map(toImage),
    }));
    return { image, turn, references, usedIn };
  }

  // ---- gallery ----

  /**
   * Sessions newest first (by their newest image that passes the filters), each with its passing images
   * newest first. `limit` counts sessions; the cursor is `<newest image ms>:<session id>` of the last group.
   */
  gallery(filters: GalleryFilters, cursor: string | null, limit: number): GalleryPage {
    const where: string[] = [];
    const params: SQLInputValue[] = [];
    if (filters.query && filters.query.trim() !== '') {
      where.push("prompt LIKE ? ESCAPE '\\'");
      params.push(likeContains(filters.query.trim()));
    }
    if (filters.model) {
      where.push('model = ?');
      params.push(filters.model);
    }
    if (filters.purpose) {
      where.push('purpose = ?');
      params.push(filters.purpose);
    }
    if (filters.from !== undefined) {
      where.push('created_at >= ?');
      params.push(filters.from);
    }
    if (filters.to !== undefined) {
      where.push('created_at <= ?');
      params.push(filters.to);
    }
    if (filters.starred) where.push('starred = 1');
    const whereSql = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
    const [cAt, cId] = parseCursor(cursor);
    const groups = this.db
      .prepare(
        `SELECT session_id, MAX(created_at) AS newest FROM images ${whereSql} GROUP BY session_id
         HAVING newest < ? OR (newest = ? AND session_id < ?)
         ORDER BY newest DESC, session_id DESC LIMIT ?`,
      )
      .all(...params, cAt, cAt, cId, limit + 1) as Row[];
    const page = groups.slice(0, limit);
    const imagesOf = this.db.prepare(
      `SELECT * FROM images ${whereSql ? `${whereSql} AND` : 'WHERE'} session_id = ? ORDER BY created_at DESC, position, id DESC`,
    );
    const out = page.map((g) => {
      const session = this.sessionSummary(str(g.session_id));
      const images = (imagesOf.all(...params, str(g.session_id)) as Row[]).map(toImage);
      return { session: session as SessionSummary, images };
    });
    const totals = this.db
      .prepare(`SELECT COUNT(DISTINCT session_id) AS sessions, COUNT(*) AS images FROM images ${whereSql}`)
      .get(...params) as Row;
    const last = page.at(-1);
    return {
      groups: out.filter((g) => g.session !== null),
      nextCursor: groups.length > limit && last ? `${num(last.newest)}:${str(last.session_id)}` : null,
      totals: { sessions: num(totals.sessions), images: num(totals.images) },
    };
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
