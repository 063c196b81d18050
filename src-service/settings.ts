// Admin settings of the local service (DESIGN.md §4 PUT /admin/settings), kept in the kv table.
import type { DatabaseSync } from 'node:sqlite';

export interface Settings {
  allow_loopback_webhooks: boolean;
  default_rate_limit_per_24h: number;
}

export const DEFAULT_SETTINGS: Settings = { allow_loopback_webhooks: true, default_rate_limit_per_24h: 1000 };

export interface SettingsStore {
  get(): Settings;
  update(patch: Partial<Settings>): Settings;
}

export function createSettingsStore(db: DatabaseSync): SettingsStore {
  const read = db.prepare("SELECT value FROM kv WHERE key = 'settings'");
  const write = db.prepare("INSERT INTO kv (key, value) VALUES ('settings', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value");
  const row = read.get() as { value: string } | undefined;
  let current: Settings = { ...DEFAULT_SETTINGS, ...(row ? (JSON.parse(row.value) as Partial<Settings>) : {}) };
  return {
    get: () => ({ ...current }),
    update(patch) {
      current = { ...current, ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) };
      write.run(JSON.stringify(current));
      return { ...current };
    },
  };
}
