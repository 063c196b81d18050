// Admin settings of the local service (DESIGN.md §4 PUT /admin/settings), kept in the kv table.
import type { DatabaseSync } from 'node:sqlite';
import type { AdminSettings } from '../src-shared/admin.ts';
import { createKvRepo } from './repos/kv.ts';

export type Settings = AdminSettings;

export const DEFAULT_SETTINGS: Settings = { allow_loopback_webhooks: true, default_rate_limit_per_24h: 1000 };

export interface SettingsStore {
  get(): Settings;
  update(patch: Partial<Settings>): Settings;
  /** Reads the settings from the database again (after a snapshot is restored or the service reset). */
  reload(): void;
}

export function createSettingsStore(db: DatabaseSync): SettingsStore {
  const kv = createKvRepo(db);
  const read = (): Settings => {
    const saved = kv.get('settings');
    return { ...DEFAULT_SETTINGS, ...(saved !== null ? (JSON.parse(saved) as Partial<Settings>) : {}) };
  };
  let current = read();
  return {
    get: () => ({ ...current }),
    update(patch) {
      current = { ...current, ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) };
      kv.put('settings', JSON.stringify(current));
      return { ...current };
    },
    reload() {
      current = read();
    },
  };
}
