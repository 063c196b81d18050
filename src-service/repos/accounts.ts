// SQL for accounts and the credit ledger. Repos return rows or null; rules live in services.
import type { DatabaseSync } from 'node:sqlite';
import { preparedOnce } from '../sqlite/index.ts';

export interface AccountRow {
  id: string;
  credits: number;
  banned: number;
  created_at: number;
}

export type LedgerKind = 'grant' | 'admin_adjust' | 'reserve' | 'refund';

export function createAccountsRepo(db: DatabaseSync) {
  const sql = preparedOnce(db);
  return {
    insert(row: AccountRow): void {
      sql('INSERT INTO accounts (id, credits, banned, created_at) VALUES (?, ?, ?, ?)').run(row.id, row.credits, row.banned, row.created_at);
    },
    findById(id: string): AccountRow | null {
      return (sql('SELECT id, credits, banned, created_at FROM accounts WHERE id = ?').get(id) as AccountRow | undefined) ?? null;
    },
    /** Sets the balance and writes the ledger row that explains the change; call inside a transaction. */
    moveCredits(id: string, newBalance: number, kind: LedgerKind, amount: number, turnId: string | null, at: number): void {
      sql('UPDATE accounts SET credits = ? WHERE id = ?').run(newBalance, id);
      sql('INSERT INTO ledger (account_id, kind, amount, turn_id, balance_after, created_at) VALUES (?, ?, ?, ?, ?, ?)').run(id, kind, amount, turnId, newBalance, at);
    },
    setBanned(id: string, banned: boolean): void {
      sql('UPDATE accounts SET banned = ? WHERE id = ?').run(banned ? 1 : 0, id);
    },
    setCreatedAt(id: string, createdAt: number): void {
      sql('UPDATE accounts SET created_at = ? WHERE id = ?').run(createdAt, id);
    },
    reservedTotal(id: string): number {
      return (sql("SELECT COALESCE(SUM(amount), 0) AS total FROM reservations WHERE account_id = ? AND status = 'pending'").get(id) as { total: number }).total;
    },
  };
}
export type AccountsRepo = ReturnType<typeof createAccountsRepo>;
