// SQL for the request ledger (migration 0004): insert a batch, prune the oldest, look up and list with filters.
import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import { preparedOnce } from '../sqlite/index.ts';

export interface RequestRow {
  seq: number;
  request_id: string;
  at: number;
  account_id: string | null;
  key_id: string | null;
  method: string;
  path: string;
  route: string;
  status: number;
  error_code: string | null;
  duration_ms: number;
  request_body: string;
  request_body_cut: number;
  response_body: string;
  response_body_cut: number;
  turn_id: string | null;
  delivery_ids: string;
  bytes: number;
}

export type NewRequestRow = Omit<RequestRow, 'seq'>;

/** Filters of GET /admin/requests; `before` is the cursor (rows with a smaller seq), `since` Unix ms. */
export interface RequestFilter {
  request_id?: string | undefined;
  account_id?: string | undefined;
  key_id?: string | undefined;
  status?: number | undefined;
  code?: string | undefined;
  route?: string | undefined;
  since?: number | undefined;
  before?: number | undefined;
}

/** A reservation as an entry shows it: what was taken, charged, and given back. */
export interface RequestCredits {
  reserved: number;
  charged: number;
  refunded: number;
}

const FILTER_COLUMNS: Array<[keyof RequestFilter, string]> = [
  ['request_id', 'request_id = ?'],
  ['account_id', 'account_id = ?'],
  ['key_id', 'key_id = ?'],
  ['status', 'status = ?'],
  ['code', 'error_code = ?'],
  ['route', 'route = ?'],
  ['since', 'at >= ?'],
  ['before', 'seq < ?'],
];

export function createRequestsRepo(db: DatabaseSync) {
  const sql = preparedOnce(db);
  return {
    insert(row: NewRequestRow): void {
      sql(`INSERT OR IGNORE INTO requests (request_id, at, account_id, key_id, method, path, route, status, error_code, duration_ms,
             request_body, request_body_cut, response_body, response_body_cut, turn_id, delivery_ids, bytes)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`).run(
        row.request_id, row.at, row.account_id, row.key_id, row.method, row.path, row.route, row.status, row.error_code, row.duration_ms,
        row.request_body, row.request_body_cut, row.response_body, row.response_body_cut, row.turn_id, row.delivery_ids, row.bytes,
      );
    },
    /** How many rows and bytes the ledger holds (read once at start; the ledger keeps the count after that). */
    totals(): { rows: number; bytes: number } {
      return sql('SELECT COUNT(*) AS rows, COALESCE(SUM(bytes), 0) AS bytes FROM requests').get() as { rows: number; bytes: number };
    },
    /** Deletes the `count` oldest rows; answers how many rows and bytes went. */
    deleteOldest(count: number): { rows: number; bytes: number } {
      const gone = sql('DELETE FROM requests WHERE seq IN (SELECT seq FROM requests ORDER BY seq LIMIT ?) RETURNING bytes').all(count) as Array<{ bytes: number }>;
      return { rows: gone.length, bytes: gone.reduce((sum, r) => sum + r.bytes, 0) };
    },
    find(requestId: string): RequestRow | null {
      return (sql('SELECT * FROM requests WHERE request_id = ?').get(requestId) as RequestRow | undefined) ?? null;
    },
    /** Newest first, at most `limit` rows matching every filter given. */
    list(filter: RequestFilter, limit: number): RequestRow[] {
      const where: string[] = [];
      const values: SQLInputValue[] = [];
      for (const [name, clause] of FILTER_COLUMNS) {
        const value = filter[name];
        if (value === undefined) continue;
        where.push(clause);
        values.push(value);
      }
      const text = `SELECT * FROM requests ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY seq DESC LIMIT ?`;
      return sql(text).all(...values, limit) as unknown as RequestRow[];
    },
    /** The reservation of a turn as credits, or null when the turn reserved nothing. */
    creditsOf(turnId: string): RequestCredits | null {
      const r = sql('SELECT amount, charged, status FROM reservations WHERE turn_id = ?').get(turnId) as
        | { amount: number; charged: number | null; status: string }
        | undefined;
      if (!r) return null;
      const charged = r.status === 'settled' ? (r.charged ?? 0) : 0;
      return { reserved: r.amount, charged, refunded: r.status === 'pending' ? 0 : r.amount - charged };
    },
  };
}
export type RequestsRepo = ReturnType<typeof createRequestsRepo>;
