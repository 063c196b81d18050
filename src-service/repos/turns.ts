// SQL for turns (one generation each, spec §2.1).
import type { DatabaseSync } from 'node:sqlite';
import { preparedOnce } from '../sqlite/index.ts';

export interface TurnRow {
  id: string;
  account_id: string;
  session_id: string;
  request: string;
  model: string;
  ratio: string;
  resolution: string;
  n: number;
  status: 'running' | 'succeeded' | 'failed';
  credits_charged: number | null;
  warnings: string | null;
  created_at: number;
  finished_at: number | null;
  /** X-Client-Turn-Id of the request, when it sent a valid one. */
  client_turn_id: string | null;
}

/** A turn with what is still reserved for it (0 once settled or refunded). */
export interface TurnWithReservation extends TurnRow {
  reserved: number;
}

export function createTurnsRepo(db: DatabaseSync) {
  const sql = preparedOnce(db);
  return {
    insert(
      row: Pick<TurnRow, 'id' | 'account_id' | 'session_id' | 'request' | 'model' | 'ratio' | 'resolution' | 'n' | 'created_at'> & {
        client_turn_id?: string | null;
      },
    ): void {
      sql("INSERT INTO turns (id, account_id, session_id, request, model, ratio, resolution, n, status, created_at, client_turn_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'running', ?, ?)").run(row.id, row.account_id, row.session_id, row.request, row.model, row.ratio, row.resolution, row.n, row.created_at, row.client_turn_id ?? null);
    },
    /** The account's turns created at or after `sinceMs`, oldest first. */
    listSince(accountId: string, sinceMs: number, limit: number): TurnWithReservation[] {
      return sql(`SELECT t.*, COALESCE(CASE r.status WHEN 'pending' THEN r.amount END, 0) AS reserved
       FROM turns t LEFT JOIN reservations r ON r.turn_id = t.id
      WHERE t.account_id = ? AND t.created_at >= ?
      ORDER BY t.created_at, t.rowid
      LIMIT ?`).all(accountId, sinceMs, limit) as unknown as TurnWithReservation[];
    },
    finish(id: string, status: 'succeeded' | 'failed', charged: number, warnings: string | null, at: number): void {
      sql('UPDATE turns SET status = ?, credits_charged = ?, warnings = ?, finished_at = ? WHERE id = ?').run(status, charged, warnings, at, id);
    },
    findById(id: string): TurnRow | null {
      return (sql('SELECT * FROM turns WHERE id = ?').get(id) as TurnRow | undefined) ?? null;
    },
  };
}
export type TurnsRepo = ReturnType<typeof createTurnsRepo>;
