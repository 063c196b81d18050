// SQL for sessions (spec §2.4).
import type { DatabaseSync } from 'node:sqlite';
import { preparedOnce } from '../sqlite/index.ts';

export interface SessionRow {
  id: string;
  account_id: string;
  title: string;
  created_at: number;
}

export function createSessionsRepo(db: DatabaseSync) {
  const sql = preparedOnce(db);
  return {
    insert(row: SessionRow): void {
      sql('INSERT INTO sessions (id, account_id, title, created_at) VALUES (?, ?, ?, ?)').run(row.id, row.account_id, row.title, row.created_at);
    },
    findById(id: string): SessionRow | null {
      return (sql('SELECT * FROM sessions WHERE id = ?').get(id) as SessionRow | undefined) ?? null;
    },
  };
}
