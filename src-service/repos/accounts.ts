// SQL for accounts and the credit ledger. Repos return rows or null; rules live in services.
import type { DatabaseSync } from 'node:sqlite';

export interface AccountRow {
  id: string;
  credits: number;
  banned: number;
  created_at: number;
}

export type LedgerKind = 'grant' | 'admin_adjust' | 'reserve' | 'refund';

export function createAccountsRepo(db: DatabaseSync) {
  const insert = db.prepare('INSERT INTO accounts (id, credits, banned, created_at) VALUES (?, ?, ?, ?)');
  const byId = db.prepare('SELECT id, credits, banned, created_at FROM accounts WHERE id = ?');
  const setCredits = db.prepare('UPDATE accounts SET credits = ? WHERE id = ?');
  const setBanned = db.prepare('UPDATE accounts SET banned = ? WHERE id = ?');
  const setCreatedAt = db.prepare('UPDATE accounts SET created_at = ? WHERE id = ?');
  const ledger = db.prepare(
    'INSERT INTO ledger (account_id, kind, amount, turn_id, balance_after, created_at) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const reserved = db.prepare("SELECT COALESCE(SUM(amount), 0) AS total FROM reservations WHERE account_id = ? AND status = 'pending'");
  return {
    insert(row: AccountRow): void {
      insert.run(row.id, row.credits, row.banned, row.created_at);
    },
    findById(id: string): AccountRow | null {
      return (byId.get(id) as AccountRow | undefined) ?? null;
    },
    /** Sets the balance and writes the ledger row that explains the change; call inside a transaction. */
    moveCredits(id: string, newBalance: number, kind: LedgerKind, amount: number, turnId: string | null, at: number): void {
      setCredits.run(newBalance, id);
      ledger.run(id, kind, amount, turnId, newBalance, at);
    },
    setBanned(id: string, banned: boolean): void {
      setBanned.run(banned ? 1 : 0, id);
    },
    setCreatedAt(id: string, createdAt: number): void {
      setCreatedAt.run(createdAt, id);
    },
    reservedTotal(id: string): number {
      return (reserved.get(id) as { total: number }).total;
    },
  };
}
export type AccountsRepo = ReturnType<typeof createAccountsRepo>;
