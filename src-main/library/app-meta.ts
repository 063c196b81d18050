// Facts kept in library.db (table app_meta) so they survive a lost or damaged settings.json: which account
// and key the app uses on the bundled local service (docs/main-process.md "Recovery of local data").
import type { DatabaseSync } from 'node:sqlite';
import { z } from 'zod';

const LocalAccountSchema = z.object({ accountId: z.string().min(1), keyId: z.string().nullable() });
export type LocalAccountMeta = z.infer<typeof LocalAccountSchema>;

export class AppMeta {
  private readonly db: DatabaseSync;

  constructor(db: DatabaseSync) {
    this.db = db;
  }

  /** The local account last recorded, or null (none yet, or an unreadable row). */
  localAccount(): LocalAccountMeta | null {
    const row = this.db.prepare("SELECT value FROM app_meta WHERE key = 'local_account'").get() as { value: string } | undefined;
    if (!row) return null;
    try {
      const parsed = LocalAccountSchema.safeParse(JSON.parse(row.value));
      return parsed.success ? parsed.data : null;
    } catch {
      return null;
    }
  }

  /** Records the local account the settings name; a settings file without one never erases what is known. */
  rememberLocalAccount(local: { accountId: string | null; keyId: string | null }): void {
    if (!local.accountId) return;
    const value = JSON.stringify({ accountId: local.accountId, keyId: local.keyId });
    this.db
      .prepare("INSERT INTO app_meta (key, value) VALUES ('local_account', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value WHERE value <> excluded.value")
      .run(value);
  }

  /** The start time of the newest turn this library recorded as sent (the send journal's mark); 0 when none. */
  sendsRecordedThrough(): number {
    const row = this.db.prepare("SELECT value FROM app_meta WHERE key = 'sends_recorded_through'").get() as { value: string } | undefined;
    const at = Number(row?.value ?? 0);
    return Number.isFinite(at) ? at : 0;
  }

  /** Called in the transaction that records a turn: journal entries after this mark are ones the library lost. */
  recordSendsThrough(at: number): void {
    this.db
      .prepare("INSERT INTO app_meta (key, value) VALUES ('sends_recorded_through', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value WHERE CAST(value AS INTEGER) < CAST(excluded.value AS INTEGER)")
      .run(String(at));
  }
}
