// SQL for reservations (the pending part of the credit ledger).
import type { DatabaseSync } from 'node:sqlite';
import { preparedOnce } from '../sqlite/index.ts';

export interface ReservationRow {
  turn_id: string;
  account_id: string;
  amount: number;
  charged: number | null;
  status: 'pending' | 'settled' | 'refunded';
  created_at: number;
  closed_at: number | null;
}

/** What a reservation spends: what was charged, or what is still reserved (it may yet be charged). */
const SPEND = "CASE status WHEN 'pending' THEN amount WHEN 'settled' THEN charged ELSE 0 END";

export function createCreditsRepo(db: DatabaseSync) {
  const sql = preparedOnce(db);
  return {
    insert(turnId: string, accountId: string, amount: number, at: number): void {
      sql("INSERT INTO reservations (turn_id, account_id, amount, charged, status, created_at, closed_at) VALUES (?, ?, ?, NULL, 'pending', ?, NULL)").run(turnId, accountId, amount, at);
    },
    findByTurn(turnId: string): ReservationRow | null {
      return (sql('SELECT * FROM reservations WHERE turn_id = ?').get(turnId) as ReservationRow | undefined) ?? null;
    },
    /** Closes a pending reservation; false when it was not pending (already closed). */
    close(turnId: string, status: 'settled' | 'refunded', charged: number, at: number): boolean {
      return Number(sql("UPDATE reservations SET status = ?, charged = ?, closed_at = ? WHERE turn_id = ? AND status = 'pending'").run(status, charged, at, turnId).changes) === 1;
    },
    listPending(): ReservationRow[] {
      return sql("SELECT * FROM reservations WHERE status = 'pending' ORDER BY created_at").all() as unknown as ReservationRow[];
    },
    /** Spend in a window: settled charges plus what is still reserved. */
    spendSince(accountId: string, since: number): number {
      const total = sql(`SELECT COALESCE(SUM(${SPEND}), 0) AS total FROM reservations WHERE account_id = ? AND created_at > ?`).get(accountId, since);
      return (total as { total: number }).total;
    },
    /** What each reservation since `since` spends (pending: its amount; settled: its charge), oldest first. */
    spendBySince(accountId: string, since: number): Array<{ created_at: number; spend: number }> {
      const rows = sql(`SELECT created_at, ${SPEND} AS spend FROM reservations WHERE account_id = ? AND created_at > ? ORDER BY created_at`).all(accountId, since);
      return rows as Array<{ created_at: number; spend: number }>;
    },
  };
}
export type CreditsRepo = ReturnType<typeof createCreditsRepo>;
