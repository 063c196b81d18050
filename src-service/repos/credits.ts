// SQL for reservations (the pending part of the credit ledger).
import type { DatabaseSync } from 'node:sqlite';

export interface ReservationRow {
  turn_id: string;
  account_id: string;
  amount: number;
  charged: number | null;
  status: 'pending' | 'settled' | 'refunded';
  created_at: number;
  closed_at: number | null;
}

export function createCreditsRepo(db: DatabaseSync) {
  const insert = db.prepare(
    "INSERT INTO reservations (turn_id, account_id, amount, charged, status, created_at, closed_at) VALUES (?, ?, ?, NULL, 'pending', ?, NULL)",
  );
  const byTurn = db.prepare('SELECT * FROM reservations WHERE turn_id = ?');
  const close = db.prepare("UPDATE reservations SET status = ?, charged = ?, closed_at = ? WHERE turn_id = ? AND status = 'pending'");
  const pending = db.prepare("SELECT * FROM reservations WHERE status = 'pending' ORDER BY created_at");
  // Spend in a window: what was charged, plus what is still reserved (it may yet be charged).
  const spend = db.prepare(
    "SELECT COALESCE(SUM(CASE status WHEN 'pending' THEN amount WHEN 'settled' THEN charged ELSE 0 END), 0) AS total FROM reservations WHERE account_id = ? AND created_at > ?",
  );
  // A new account's spend in the rolling window, one row per reservation, oldest first (for its Retry-After).
  const spendRows = db.prepare(
    "SELECT created_at, CASE status WHEN 'pending' THEN amount WHEN 'settled' THEN charged ELSE 0 END AS spend FROM reservations WHERE account_id = ? AND created_at > ? ORDER BY created_at",
  );
  return {
    insert(turnId: string, accountId: string, amount: number, at: number): void {
      insert.run(turnId, accountId, amount, at);
    },
    findByTurn(turnId: string): ReservationRow | null {
      return (byTurn.get(turnId) as ReservationRow | undefined) ?? null;
    },
    /** Closes a pending reservation; false when it was not pending (already closed). */
    close(turnId: string, status: 'settled' | 'refunded', charged: number, at: number): boolean {
      return Number(close.run(status, charged, at, turnId).changes) === 1;
    },
    listPending(): ReservationRow[] {
      return pending.all() as unknown as ReservationRow[];
    },
    spendSince(accountId: string, since: number): number {
      return (spend.get(accountId, since) as { total: number }).total;
    },
    /** What each reservation since `since` spends (pending: its amount; settled: its charge), oldest first. */
    spendBySince(accountId: string, since: number): Array<{ created_at: number; spend: number }> {
      return spendRows.all(accountId, since) as Array<{ created_at: number; spend: number }>;
    },
  };
}
export type CreditsRepo = ReturnType<typeof createCreditsRepo>;
