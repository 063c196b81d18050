// The request ledger (issue 27, docs/local-service.md "Look a request up"): what each request under /api was, what
// it answered, what it cost and what it caused, kept in service.db within fixed bounds. Writing it never fails or
// slows a request: an entry is queued once the answer is out and written in batches; a failing storage follows
// write-retry.ts (kept and tried again with its back-off, logged once per outage) and, while the queue is full,
// entries are dropped and counted, never waited for.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { AdminRequest } from '../../src-shared/admin.ts';
import { transaction, type Database } from '../db.ts';
import { SECRET_FIELD_NAMES, type Logger } from '../logger.ts';
import { createRequestsRepo, type NewRequestRow, type RequestFilter, type RequestRow } from '../repos/requests.ts';
import { createWebhooksRepo } from '../repos/webhooks.ts';
import { createOutageLog, isStorageFailure, writeRetryDelay } from '../write-retry.ts';

/** At most this many entries are kept; the oldest go first. */
export const REQUEST_LEDGER_MAX_ROWS = 50_000;
/** At most this many bytes of entries (bodies and fields) are kept; the oldest go first. */
export const REQUEST_LEDGER_MAX_BYTES = 64 * 1024 * 1024;
/** Each body is kept up to this many bytes; a longer one is cut and marked `cut`. */
export const REQUEST_BODY_CAP_BYTES = 16 * 1024;
/** Entries waiting to be written; past this (a storage outage), new entries are dropped and counted. */
const MAX_QUEUED = 5_000;
/** Entries written per transaction. */
const BATCH_ROWS = 500;
/** A prune removes at least this many rows, so pruning runs once per many inserts, not on each one. */
const PRUNE_BATCH_ROWS = 1_000;
/** What a row weighs besides its bodies (ids, path, numbers, index entries), for the byte bound. */
const ROW_OVERHEAD_BYTES = 256;

export interface RequestLedgerBounds {
  rows: number;
  bytes: number;
}

/** What a request learned while it ran: the turn it started (noted by the generate service). */
interface RequestNotes {
  turnId: string | null;
}

const current = new AsyncLocalStorage<RequestNotes>();

/** Runs a request's handling with a place where services note its turn. */
export function runNotingRequest<T>(fn: () => T): { notes: RequestNotes; result: T } {
  const notes: RequestNotes = { turnId: null };
  return { notes, result: current.run(notes, fn) };
}

/** The generation the current request started (services/generate.ts). */
export function noteRequestTurn(turnId: string): void {
  const notes = current.getStore();
  if (notes) notes.turnId = turnId;
}

// ---- Screening and capping ----

const SECRET_FIELDS = new Set(SECRET_FIELD_NAMES.map((name) => name.toLowerCase()));
/** API keys, webhook secrets and admin tokens wherever they appear in text (src-shared/ids.ts shapes). */
const SECRET_TEXT = /\b(?:sk_[A-Za-z0-9]{32}|whsec_[A-Za-z0-9]{32}|adm_[A-Za-z0-9]{8,})\b/g;
const REDACTED = '[redacted]';

function screenValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(screenValue);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, SECRET_FIELDS.has(k.toLowerCase()) ? REDACTED : screenValue(v)]));
}

/** A body with secret fields (the logger's list) and secret-shaped text replaced. */
export function screenBody(text: string): string {
  let screened = text;
  try {
    screened = JSON.stringify(screenValue(JSON.parse(text)));
  } catch {
    // not JSON: only the text patterns apply
  }
  return screened.replace(SECRET_TEXT, REDACTED);
}

/** The first `cap` bytes of `text` (never splitting a character) and whether it was cut. */
export function capText(text: string, cap = REQUEST_BODY_CAP_BYTES): { text: string; cut: boolean } {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= cap) return { text, cut: false };
  return { text: bytes.subarray(0, cap).toString('utf8').replace(/\uFFFD$/, ''), cut: true };
}

// ---- The entry as the admin API shows it ----

/** One entry as the admin API answers it (its shape is the shared AdminRequestSchema). */
export type RequestEntry = AdminRequest;

/** What a request was, as the app middleware hands it over once the answer is out. */
export interface RequestRecord {
  requestId: string;
  atMs: number;
  durationMs: number;
  /** Who called: null ids when the key was missing or refused. */
  caller: { accountId: string | null; keyId: string | null };
  asked: { method: string; path: string; route: string; body: string };
  answered: { status: number; errorCode: string | null; body: string };
  turnId: string | null;
  deliveryIds: readonly string[];
}

function toRow(record: RequestRecord): NewRequestRow {
  const { caller, asked, answered } = record;
  const request = capText(screenBody(asked.body));
  const response = capText(screenBody(answered.body));
  return {
    request_id: record.requestId,
    at: record.atMs,
    account_id: caller.accountId,
    key_id: caller.keyId,
    method: asked.method,
    path: asked.path.slice(0, 2048),
    route: asked.route,
    status: answered.status,
    error_code: answered.errorCode,
    duration_ms: record.durationMs,
    request_body: request.text,
    request_body_cut: request.cut ? 1 : 0,
    response_body: response.text,
    response_body_cut: response.cut ? 1 : 0,
    turn_id: record.turnId,
    delivery_ids: JSON.stringify(record.deliveryIds),
    bytes: Buffer.byteLength(request.text) + Buffer.byteLength(response.text) + ROW_OVERHEAD_BYTES,
  };
}

export interface RequestLedgerOptions {
  db: Database;
  logger: Logger;
  bounds?: Partial<RequestLedgerBounds> | undefined;
  retryDelaysMs?: readonly number[] | undefined;
}

export function createRequestLedger(options: RequestLedgerOptions) {
  const { db, logger } = options;
  const bounds: RequestLedgerBounds = { rows: REQUEST_LEDGER_MAX_ROWS, bytes: REQUEST_LEDGER_MAX_BYTES, ...options.bounds };
  const repo = createRequestsRepo(db);
  const webhooks = createWebhooksRepo(db);
  const outage = createOutageLog(logger, 'the request ledger');
  const totals = repo.totals();
  let queue: NewRequestRow[] = [];
  let dropped = 0;
  /** Whether the entry before was dropped: the drop is logged once per run of drops, not per entry. */
  let dropping = false;
  let failures = 0;
  let timer: NodeJS.Timeout | null = null;
  let closed = false;

  /** Deletes the oldest rows until both bounds hold, a batch at a time. */
  function prune(): void {
    while (totals.rows > bounds.rows || totals.bytes > bounds.bytes) {
      const gone = repo.deleteOldest(Math.max(totals.rows - bounds.rows, Math.min(PRUNE_BATCH_ROWS, Math.ceil(bounds.rows / 10))));
      if (gone.rows === 0) break;
      totals.rows -= gone.rows;
      totals.bytes -= gone.bytes;
    }
  }

  /** One batch and the pruning it calls for, in one transaction; the totals stay as they were if it rolls back. */
  function writeBatch(batch: readonly NewRequestRow[]): void {
    const before = { ...totals };
    try {
      transaction(db, () => {
        for (const row of batch) repo.insert(row);
        totals.rows += batch.length;
        totals.bytes += batch.reduce((sum, r) => sum + r.bytes, 0);
        prune();
      });
    } catch (error) {
      Object.assign(totals, before);
      throw error;
    }
  }

  /** Writes what is queued, a batch per transaction; a storage failure keeps the rest for the next try. */
  function flush(): void {
    if (timer) clearTimeout(timer);
    timer = null;
    while (queue.length > 0) {
      const batch = queue.slice(0, BATCH_ROWS);
      try {
        writeBatch(batch);
      } catch (error) {
        if (isStorageFailure(error)) {
          outage.failed(error);
          failures++;
          if (!closed) timer = setTimeout(flush, writeRetryDelay(failures, options.retryDelaysMs));
          return;
        }
        // A bug in this batch: say so and let the next entries through.
        logger.error({ err: error, rows: batch.length }, 'request ledger entries could not be written; dropped');
        dropped += batch.length;
      }
      queue = queue.slice(batch.length);
      failures = 0;
      outage.recovered();
    }
  }

  function entryOf(row: RequestRow): RequestEntry {
    const deliveryIds = JSON.parse(row.delivery_ids) as string[];
    return {
      request_id: row.request_id,
      at: Math.floor(row.at / 1000),
      account_id: row.account_id,
      key_id: row.key_id,
      method: row.method,
      path: row.path,
      route: row.route,
      status: row.status,
      error_code: row.error_code,
      duration_ms: row.duration_ms,
      request_body: { text: row.request_body, cut: row.request_body_cut === 1 },
      response_body: { text: row.response_body, cut: row.response_body_cut === 1 },
      turn_id: row.turn_id,
      credits: (row.turn_id ? repo.creditsOf(row.turn_id) : null) ?? { reserved: 0, charged: 0, refunded: 0 },
      deliveries: deliveryIds.map((id) => {
        const d = webhooks.getDelivery(id);
        return { delivery_id: id, event: d?.event ?? null, outcome: d?.outcome ?? null, attempts: d?.attempts ?? 0, status: d?.lastStatus ?? null };
      }),
    };
  }

  return {
    /** Queues one entry; written within about 50 ms, or dropped (counted) while the storage is down and the queue full. */
    record(record: RequestRecord): void {
      if (closed) return;
      if (queue.length >= MAX_QUEUED) {
        if (!dropping) logger.warn({ queued: queue.length, dropped_before: dropped }, 'the request ledger is full of unwritten entries; new ones are dropped until it drains');
        dropping = true;
        dropped++;
        return;
      }
      dropping = false;
      queue.push(toRow(record));
      if (!timer && !outage.down) timer = setTimeout(flush, 50);
    },
    /** One entry, or null; entries still queued are written first so a lookup right after an answer finds it. */
    get(requestId: string): RequestEntry | null {
      if (!outage.down) flush();
      const row = repo.find(requestId);
      return row ? entryOf(row) : null;
    },
    /** A page, newest first; `next_cursor` names the page after it (null at the end). */
    list(filter: Omit<RequestFilter, 'before'>, cursor: number | undefined, limit: number): { requests: RequestEntry[]; next_cursor: string | null } {
      if (!outage.down) flush();
      const rows = repo.list({ ...filter, before: cursor }, limit + 1);
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      return { requests: page.map(entryOf), next_cursor: rows.length > limit && last ? String(last.seq) : null };
    },
    /** Entries dropped since start (a storage outage with a full queue). */
    get dropped(): number {
      return dropped;
    },
    /** Writes what is queued now (before a snapshot copies service.db, or a restore replaces it). */
    flushNow(): void {
      flush();
    },
    /** Counts the rows again (after a snapshot restore or a reset replaced them), for the bounds. */
    recount(): void {
      Object.assign(totals, repo.totals());
    },
    /** On stop: one last write of what is queued. */
    close(): void {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = null;
      try {
        flush();
      } catch (error) {
        logger.warn({ err: error }, 'request ledger entries not written at stop');
      }
    },
  };
}
export type RequestLedger = ReturnType<typeof createRequestLedger>;
