// SQL for turns (one generation each, spec §2.1).
import type { DatabaseSync } from 'node:sqlite';

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
}

export function createTurnsRepo(db: DatabaseSync) {
  const insert = db.prepare(
    "INSERT INTO turns (id, account_id, session_id, request, model, ratio, resolution, n, status, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'running', ?)",
  );
  const finish = db.prepare('UPDATE turns SET status = ?, credits_charged = ?, warnings = ?, finished_at = ? WHERE id = ?');
  const byId = db.prepare('SELECT * FROM turns WHERE id = ?');
  return {
    insert(row: Pick<TurnRow, 'id' | 'account_id' | 'session_id' | 'request' | 'model' | 'ratio' | 'resolution' | 'n' | 'created_at'>): void {
      insert.run(row.id, row.account_id, row.session_id, row.request, row.model, row.ratio, row.resolution, row.n, row.created_at);
    },
    finish(id: string, status: 'succeeded' | 'failed', charged: number, warnings: string | null, at: number): void {
      finish.run(status, charged, warnings, at, id);
    },
    findById(id: string): TurnRow | null {
      return (byId.get(id) as TurnRow | undefined) ?? null;
    },
  };
}
