// SQL for API keys and their per-minute usage buckets (the per-key rolling 24-hour rate limit).
import type { DatabaseSync } from 'node:sqlite';
import { preparedOnce } from '../sqlite/index.ts';

export interface ApiKeyRow {
  id: string;
  account_id: string;
  name: string;
  key_hash: string;
  scopes: string;
  expires_at: number | null;
  revoked_at: number | null;
  rate_limit_per_24h: number | null;
  created_at: number;
}

export interface KeyWithAccount extends ApiKeyRow {
  banned: number;
}

export function createApiKeysRepo(db: DatabaseSync) {
  const sql = preparedOnce(db);
  return {
    insert(row: ApiKeyRow): void {
      sql('INSERT INTO api_keys (id, account_id, name, key_hash, scopes, expires_at, revoked_at, rate_limit_per_24h, created_at) VALUES (?, ?, ?, ?, ?, ?, NULL, ?, ?)').run(row.id, row.account_id, row.name, row.key_hash, row.scopes, row.expires_at, row.rate_limit_per_24h, row.created_at);
    },
    findByHash(hash: string): KeyWithAccount | null {
      return (sql('SELECT k.*, a.banned AS banned FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE k.key_hash = ?').get(hash) as KeyWithAccount | undefined) ?? null;
    },
    findById(id: string): ApiKeyRow | null {
      return (sql('SELECT * FROM api_keys WHERE id = ?').get(id) as ApiKeyRow | undefined) ?? null;
    },
    listByAccount(accountId: string): ApiKeyRow[] {
      return sql('SELECT * FROM api_keys WHERE account_id = ? ORDER BY created_at, id').all(accountId) as unknown as ApiKeyRow[];
    },
    revoke(id: string, at: number): void {
      sql('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(at, id);
    },
    setRateLimit(id: string, limit: number | null): void {
      sql('UPDATE api_keys SET rate_limit_per_24h = ? WHERE id = ?').run(limit, id);
    },
    addUse(keyId: string, minute: number, count: number): void {
      sql('INSERT INTO key_usage (key_id, minute, count) VALUES (?, ?, ?) ON CONFLICT(key_id, minute) DO UPDATE SET count = count + excluded.count').run(keyId, minute, count);
    },
    bucketsSince(keyId: string, afterMinute: number): Array<{ minute: number; count: number }> {
      return sql('SELECT minute, count FROM key_usage WHERE key_id = ? AND minute > ? ORDER BY minute').all(keyId, afterMinute) as Array<{ minute: number; count: number }>;
    },
    pruneUsage(upToMinute: number): void {
      sql('DELETE FROM key_usage WHERE minute <= ?').run(upToMinute);
    },
  };
}
export type ApiKeysRepo = ReturnType<typeof createApiKeysRepo>;
