// SQL for sessions (spec §2.4).
import type { DatabaseSync } from 'node:sqlite';

export interface SessionRow {
  id: string;
  account_id: string;
  title: string;
  created_at: number;
}

export function createSessionsRepo(db: DatabaseSync) {
  const insert = db.prepare('INSERT INTO sessions (id, account_id, title, created_at) VALUES (?, ?, ?, ?)');
  const byId = db.prepare('SELECT * FROM sessions WHERE id = ?');
  return {
    insert(row: SessionRow): void {
      insert.run(row.id, row.account_id, row.title, row.created_at);
    },
    findById(id: string): SessionRow | null {
      return (byId.get(id) as SessionRow | undefined) ?? null;
    },
  };
}
