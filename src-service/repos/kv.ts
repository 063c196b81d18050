// SQL for the kv table: the service's own small values (settings, the clock offset, the direct-link secret).
import type { DatabaseSync } from 'node:sqlite';
import { preparedOnce } from '../sqlite/index.ts';

export type KvKey = 'settings' | 'clock_offset_ms' | 'direct_link_secret';

export function createKvRepo(db: DatabaseSync) {
  const sql = preparedOnce(db);
  return {
    get(key: KvKey): string | null {
      return (sql('SELECT value FROM kv WHERE key = ?').get(key) as { value: string } | undefined)?.value ?? null;
    },
    put(key: KvKey, value: string): void {
      sql('INSERT INTO kv (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(key, value);
    },
  };
}
export type KvRepo = ReturnType<typeof createKvRepo>;
