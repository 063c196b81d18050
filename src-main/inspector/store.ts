// SQL for the inspector: captures in inspector.db (database.ts), settings in library.db (migration 0100).
// Queries only; rules live in inspector.ts. Captures are bounded in rows and bytes: the store keeps running
// totals (read once when it opens) so a delivery never costs a COUNT or a scan, prunes the oldest first, and
// gives freed pages back to the file system with incremental_vacuum, in small steps between other work.
// Captures that arrive in the same turn of the event loop are written in one transaction (a flood costs one
// commit per turn, not one per request); every read writes what is queued first, so reads see every capture.
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { preparedOnce, transaction } from '../../src-service/sqlite/index.ts';
import type { CapturedRequest, DeliveryGroup, DiagnosisCode, ForwardAttempt } from '../../src-shared/ipc/inspector.ts';
import type { VerificationReport } from '../../src-shared/webhook-signature.ts';
import type { ReceivedRequest } from './receiver.ts';

/** A received request (receiver.ts) with what the inspector concluded about it. */
export interface StoredRequest extends ReceivedRequest {
  id: string;
  deliveryId: string | null;
  event: string | null;
  publication: { id: number; packId: string; version: number } | null;
  responseStatus: number;
  valid: boolean;
  diagnosis: DiagnosisCode;
  diagnosisParams: Record<string, string | number | null>;
  report: VerificationReport | null;
}

export interface StoreLimits {
  /** Most captures kept (oldest dropped first). */
  maxKept: number;
  /** Most bytes of captures kept: body, headers and verdict of each, summed (oldest dropped first). */
  maxBytes: number;
}

interface SummaryRow {
  seq: number;
  id: string;
  group_key: string;
  received_at: number;
  method: string;
  path: string;
  body_bytes: number;
  too_large: number;
  delivery_id: string | null;
  event: string | null;
  publication_id: number | null;
  pack_id: string | null;
  version: number | null;
  response_status: number;
  valid: number;
  diagnosis: string;
}

interface Queued {
  request: StoredRequest;
  headersJson: string;
  paramsJson: string;
  reportJson: string | null;
  storedBytes: number;
  done: { resolve(): void; reject(error: unknown): void };
}

interface FullRow extends SummaryRow {
  headers_json: string;
  body: Uint8Array;
  diagnosis_params_json: string;
  report_json: string | null;
}

const SUMMARY_COLUMNS =
  'r.seq, r.id, r.group_key, r.received_at, r.method, r.path, r.body_bytes, r.too_large, r.delivery_id, r.event, r.publication_id, r.pack_id, r.version, r.response_status, r.valid, r.diagnosis';

/** Pages given back per incremental_vacuum step (~4 MB at 4 KB pages; a few ms each). */
const VACUUM_STEP_PAGES = 256;

function toSummary(row: SummaryRow): CapturedRequest {
  return {
    requestId: row.id,
    receivedAt: row.received_at,
    method: row.method,
    path: row.path,
    deliveryId: row.delivery_id,
    event: row.event,
    responseStatus: row.response_status,
    valid: row.valid === 1,
    diagnosis: row.diagnosis as DiagnosisCode,
    bodyBytes: row.body_bytes,
    tooLarge: row.too_large === 1,
    publication:
      row.publication_id !== null && row.pack_id !== null && row.version !== null
        ? { id: row.publication_id, packId: row.pack_id, version: row.version }
        : null,
  };
}

export class InspectorStore {
  private readonly db: DatabaseSync;
  private readonly limits: StoreLimits;
  /** Free space the file may keep before it is given back (pruning at the cap frees pages the next capture reuses). */
  private readonly slackBytes: number;
  private readonly pageSize: number;
  private rows: number;
  private bytes: number;
  private vacuuming: Promise<void> | null = null;
  private closed = false;
  private queue: Queued[] = [];
  private flushScheduled = false;
  /** Called after each write with the captures it stored, in arrival order. */
  private readonly onStored: (stored: StoredRequest[]) => void;
  private readonly sql: Record<
    'insertRequest' | 'insertPayload' | 'get' | 'validAttempts' | 'groupPage' | 'attemptsOf' | 'firstOfPack' | 'oldest' | 'deleteRequests' | 'deletePayloads' | 'freelist' | 'deleteForwards' | 'addForward' | 'forwardsOf',
    StatementSync
  >;

  constructor(db: DatabaseSync, limits: StoreLimits, onStored: (stored: StoredRequest[]) => void = () => {}) {
    this.db = db;
    this.limits = limits;
    this.onStored = onStored;
    this.slackBytes = Math.max(256 * 1024, Math.floor(limits.maxBytes / 16));
    this.pageSize = (db.prepare('PRAGMA page_size').get() as { page_size: number }).page_size;
    const prepare = preparedOnce(db);
    this.sql = {
      insertRequest: prepare(
        `INSERT INTO inspector_requests (id, group_key, received_at, method, path, body_bytes, too_large, delivery_id, event,
           publication_id, pack_id, version, response_status, valid, diagnosis, stored_bytes)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      insertPayload: prepare('INSERT INTO inspector_payloads (seq, headers_json, diagnosis_params_json, report_json, body) VALUES (?, ?, ?, ?, ?)'),
      get: prepare(
        `SELECT ${SUMMARY_COLUMNS}, p.headers_json, p.body, p.diagnosis_params_json, p.report_json
         FROM inspector_requests r JOIN inspector_payloads p ON p.seq = r.seq WHERE r.id = ?`,
      ),
      validAttempts: prepare(
        `SELECT p.body, p.headers_json FROM inspector_requests r JOIN inspector_payloads p ON p.seq = r.seq
         WHERE r.group_key = ?1 AND r.delivery_id = ?1 AND r.valid = 1 ORDER BY r.received_at, r.seq LIMIT 5`,
      ),
      // Groups newest first, from the (group_key, received_at) index alone; total = how many groups there are.
      groupPage: prepare(
        `SELECT group_key, MAX(received_at) AS last_at, MAX(seq) AS last_seq, COUNT(*) OVER () AS total
         FROM inspector_requests GROUP BY group_key ORDER BY last_at DESC, last_seq DESC LIMIT ?`,
      ),
      attemptsOf: prepare(
        `SELECT ${SUMMARY_COLUMNS} FROM inspector_requests r WHERE r.group_key IN (SELECT value FROM json_each(?)) ORDER BY r.received_at, r.seq`,
      ),
      firstOfPack: prepare('SELECT group_key FROM inspector_requests WHERE pack_id = ? AND version = ? ORDER BY received_at, seq LIMIT 1'),
      oldest: prepare('SELECT seq, stored_bytes FROM inspector_requests WHERE seq > ? ORDER BY seq LIMIT 64'),
      deleteRequests: prepare('DELETE FROM inspector_requests WHERE seq <= ?'),
      deletePayloads: prepare('DELETE FROM inspector_payloads WHERE seq <= ?'),
      deleteForwards: prepare('DELETE FROM inspector_forwards WHERE request_seq <= ?'),
      addForward: prepare(
        `INSERT INTO inspector_forwards (request_seq, at, url, status, duration_ms, error, response_headers_json, response_snippet)
         SELECT seq, ?, ?, ?, ?, ?, ?, ? FROM inspector_requests WHERE id = ?`,
      ),
      forwardsOf: prepare(
        `SELECT f.at, f.url, f.status, f.duration_ms, f.error, f.response_headers_json, f.response_snippet
         FROM inspector_forwards f JOIN inspector_requests r ON r.seq = f.request_seq WHERE r.id = ? ORDER BY f.id`,
      ),
      freelist: prepare('PRAGMA freelist_count'),
    };
    this.rows = 0;
    this.bytes = 0;
    this.recount();
    // Limits may have been lowered since the file was written.
    if (this.prune() > 0) void this.giveBackSpace();
  }

  /** Running totals of what is kept (what the caps are checked against). */
  totals(): { rows: number; bytes: number } {
    this.flush();
    return { rows: this.rows, bytes: this.bytes };
  }

  /**
   * Queues one capture; it is written with the others of this turn of the event loop, then the oldest captures
   * beyond the caps are pruned, in one transaction. Resolves once it is stored (rejects when the write failed).
   */
  insert(r: StoredRequest): Promise<void> {
    const headersJson = JSON.stringify(r.headers);
    const paramsJson = JSON.stringify(r.diagnosisParams);
    const reportJson = r.report === null ? null : JSON.stringify(r.report);
    const storedBytes = r.body.byteLength + Buffer.byteLength(headersJson) + Buffer.byteLength(paramsJson) + (reportJson === null ? 0 : Buffer.byteLength(reportJson));
    return new Promise<void>((resolve, reject) => {
      if (this.closed) {
        reject(new Error('the inspector store is closed'));
        return;
      }
      this.queue.push({ request: r, headersJson, paramsJson, reportJson, storedBytes, done: { resolve, reject } });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  /** Writes every queued capture in one transaction and prunes beyond the caps. */
  private flush(): void {
    this.flushScheduled = false;
    if (this.queue.length === 0) return;
    const batch = this.queue;
    this.queue = [];
    let pruned = 0;
    try {
      transaction(this.db, () => {
        for (const item of batch) this.write(item);
        pruned = this.prune();
      });
    } catch (error) {
      // Rolled back (a full disk, say): the totals go back to what the file holds, the receiver keeps serving.
      try {
        this.recount();
      } catch {
        // The file is unusable; the next write tries again.
      }
      for (const item of batch) item.done.reject(error);
      return;
    }
    for (const item of batch) item.done.resolve();
    try {
      this.onStored(batch.map((item) => item.request));
    } catch {
      // A listener's failure is not the store's.
    }
    if (pruned > 0 && this.freeBytes() > this.slackBytes) void this.giveBackSpace();
  }

  /** The totals from the file: once at open, and after a failed write. */
  private recount(): void {
    const totals = this.db.prepare('SELECT COUNT(*) AS n, COALESCE(SUM(stored_bytes), 0) AS b FROM inspector_requests').get() as { n: number; b: number };
    this.rows = totals.n;
    this.bytes = totals.b;
  }

  private write(item: Queued): void {
    const r = item.request;
    const { lastInsertRowid } = this.sql.insertRequest.run(
      r.id,
      r.deliveryId ?? r.id,
      r.receivedAt,
      r.method,
      r.path,
      r.bodyBytes,
      r.tooLarge ? 1 : 0,
      r.deliveryId,
      r.event,
      r.publication?.id ?? null,
      r.publication?.packId ?? null,
      r.publication?.version ?? null,
      r.responseStatus,
      r.valid ? 1 : 0,
      r.diagnosis,
      item.storedBytes,
    );
    this.sql.insertPayload.run(lastInsertRowid, item.headersJson, item.paramsJson, item.reportJson, r.body);
    this.rows += 1;
    this.bytes += item.storedBytes;
  }

  /**
   * Deletes the oldest captures until both caps hold (the newest one is always kept). Walks the rowid from the
   * oldest end only as far as it deletes, so its cost follows what it removes, not what is kept.
   */
  private prune(): number {
    let rowsOver = this.rows - this.limits.maxKept;
    let bytesOver = this.bytes - this.limits.maxBytes;
    if (rowsOver <= 0 && bytesOver <= 0) return 0;
    let upTo = -1;
    let rows = 0;
    let bytes = 0;
    scan: for (;;) {
      const batch = this.sql.oldest.all(upTo) as Array<{ seq: number; stored_bytes: number }>;
      if (batch.length === 0) break;
      for (const row of batch) {
        if ((rowsOver <= 0 && bytesOver <= 0) || this.rows - rows <= 1) break scan;
        upTo = row.seq;
        rows += 1;
        bytes += row.stored_bytes;
        rowsOver -= 1;
        bytesOver -= row.stored_bytes;
      }
    }
    if (rows === 0) return 0;
    transaction(this.db, () => {
      this.sql.deleteForwards.run(upTo);
      this.sql.deletePayloads.run(upTo);
      this.sql.deleteRequests.run(upTo);
    });
    this.rows -= rows;
    this.bytes -= bytes;
    return rows;
  }

  private freeBytes(): number {
    return (this.sql.freelist.get() as { freelist_count: number }).freelist_count * this.pageSize;
  }

  /**
   * Returns free pages to the file system (auto_vacuum = INCREMENTAL) a few MB at a time, yielding to the event
   * loop between steps. Callers while a pass runs share it; the pass goes on until no free page is left.
   */
  giveBackSpace(): Promise<void> {
    this.vacuuming ??= (async () => {
      try {
        while (!this.closed && this.freeBytes() > 0) {
          this.db.exec(`PRAGMA incremental_vacuum(${VACUUM_STEP_PAGES})`);
          await new Promise((resolve) => setImmediate(resolve));
        }
      } catch {
        // A full disk or a closed file: the space is given back on a later pass.
      } finally {
        this.vacuuming = null;
      }
    })();
    return this.vacuuming;
  }

  get(id: string): StoredRequest | null {
    this.flush();
    const row = this.sql.get.get(id) as FullRow | undefined;
    if (!row) return null;
    const s = toSummary(row);
    return {
      id: row.id,
      receivedAt: row.received_at,
      method: row.method,
      path: row.path,
      headers: JSON.parse(row.headers_json) as Array<[string, string]>,
      body: new Uint8Array(row.body),
      bodyBytes: row.body_bytes,
      tooLarge: s.tooLarge,
      deliveryId: row.delivery_id,
      event: row.event,
      publication: s.publication,
      responseStatus: row.response_status,
      valid: s.valid,
      diagnosis: s.diagnosis,
      diagnosisParams: JSON.parse(row.diagnosis_params_json) as Record<string, string | number | null>,
      report: row.report_json === null ? null : (JSON.parse(row.report_json) as VerificationReport),
    };
  }

  /** Records one relay of a capture to the forward-to endpoint (nothing when the capture was pruned meanwhile). */
  addForward(requestId: string, attempt: ForwardAttempt): void {
    this.flush();
    this.sql.addForward.run(
      attempt.at,
      attempt.url,
      attempt.status,
      attempt.durationMs,
      attempt.error,
      JSON.stringify(attempt.responseHeaders.map((h) => [h.name, h.value])),
      attempt.responseSnippet,
      requestId,
    );
  }

  forwardsOf(requestId: string): ForwardAttempt[] {
    this.flush();
    const rows = this.sql.forwardsOf.all(requestId) as Array<{
      at: number;
      url: string;
      status: number | null;
      duration_ms: number;
      error: string | null;
      response_headers_json: string;
      response_snippet: string;
    }>;
    return rows.map((r) => ({
      at: r.at,
      url: r.url,
      status: r.status,
      durationMs: r.duration_ms,
      error: r.error,
      responseHeaders: (JSON.parse(r.response_headers_json) as Array<[string, string]>).map(([name, value]) => ({ name, value })),
      responseSnippet: r.response_snippet,
    }));
  }

  /** Earlier attempts with this delivery id that verified: their raw body and timestamp header. */
  validAttemptsOf(deliveryId: string): Array<{ body: Uint8Array; timestamp: string | null }> {
    this.flush();
    const rows = this.sql.validAttempts.all(deliveryId) as Array<{ body: Uint8Array; headers_json: string }>;
    return rows.map((r) => {
      const headers = JSON.parse(r.headers_json) as Array<[string, string]>;
      return { body: new Uint8Array(r.body), timestamp: headers.find(([n]) => n.toLowerCase() === 'x-service-timestamp')?.[1] ?? null };
    });
  }

  /**
   * Groups attempts by delivery id, newest group first (by its latest attempt), `limit` groups; SQL picks the
   * page from an index and only that page's attempts are read. A group is flagged as a duplicate when the
   * earliest capture of its (pack_id, version) belongs to another group (spec §6 rule 4).
   */
  listGroups(limit: number): { groups: DeliveryGroup[]; total: number } {
    this.flush();
    const page = this.sql.groupPage.all(limit) as Array<{ group_key: string; total: number }>;
    if (page.length === 0) return { groups: [], total: 0 };
    const byKey = new Map<string, DeliveryGroup>();
    for (const { group_key } of page) byKey.set(group_key, { key: group_key, deliveryId: null, event: null, firstAt: 0, lastAt: 0, attempts: [], anyValid: false, duplicateOf: null });
    const rows = this.sql.attemptsOf.all(JSON.stringify(page.map((p) => p.group_key))) as unknown as SummaryRow[];
    for (const row of rows) {
      const group = byKey.get(row.group_key);
      if (!group) continue;
      const attempt = toSummary(row);
      if (group.attempts.length === 0) {
        group.deliveryId = attempt.deliveryId;
        group.event = attempt.event;
        group.firstAt = attempt.receivedAt;
      }
      group.attempts.push(attempt);
      group.lastAt = attempt.receivedAt;
      group.anyValid ||= attempt.valid;
      group.event ??= attempt.event;
    }
    const firstOfPack = new Map<string, string | null>();
    for (const group of byKey.values()) {
      const pub = group.attempts.find((a) => a.publication !== null)?.publication;
      if (!pub) continue;
      const packKey = `${pub.packId}\u0000${pub.version}`;
      let first = firstOfPack.get(packKey);
      if (first === undefined) {
        first = (this.sql.firstOfPack.get(pub.packId, pub.version) as { group_key: string } | undefined)?.group_key ?? null;
        firstOfPack.set(packKey, first);
      }
      if (first !== null && first !== group.key) group.duplicateOf = first;
    }
    return { groups: [...byKey.values()], total: page[0]?.total ?? 0 };
  }

  /** Deletes every capture and gives the space back: the file shrinks, its WAL is checkpointed and truncated. */
  async clear(): Promise<number> {
    this.flush();
    const cleared = this.rows;
    transaction(this.db, () => {
      this.db.exec('DELETE FROM inspector_forwards');
      this.db.exec('DELETE FROM inspector_payloads');
      this.db.exec('DELETE FROM inspector_requests');
    });
    this.rows = 0;
    this.bytes = 0;
    await this.giveBackSpace();
    if (!this.closed) this.db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    return cleared;
  }

  /** Stops giving back space and closes the file (a pass in progress ends at its next step). */
  async close(): Promise<void> {
    this.flush();
    this.closed = true;
    await this.vacuuming;
    this.db.close();
  }
}

/** The inspector's settings (receiver behaviour, last port), kept in library.db's inspector_settings. */
export class InspectorSettings {
  private readonly db: DatabaseSync;

  constructor(db: DatabaseSync) {
    this.db = db;
  }

  get<T>(key: string): T | null {
    const row = this.db.prepare('SELECT value_json FROM inspector_settings WHERE key = ?').get(key) as { value_json: string } | undefined;
    return row ? (JSON.parse(row.value_json) as T) : null;
  }

  set(key: string, value: unknown): void {
    this.db
      .prepare('INSERT INTO inspector_settings (key, value_json) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value_json = excluded.value_json')
      .run(key, JSON.stringify(value));
  }

  delete(key: string): void {
    this.db.prepare('DELETE FROM inspector_settings WHERE key = ?').run(key);
  }
}
