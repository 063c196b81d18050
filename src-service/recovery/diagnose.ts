// Whether service.db can be used as it is, or why not (docs/local-service.md "A damaged service.db"). Read-only: the
// file and its WAL stay exactly as found until the caller decides to move them aside.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { isFilename } from '../../src-shared/ids.ts';
import { isStorageFailure } from '../write-retry.ts';
import { listServiceBackups } from './backups.ts';

export type DamageReason =
  /** No service.db, in a folder that held a service (backups or generated images). */
  | 'missing'
  /** A zero-byte service.db in such a folder. */
  | 'empty'
  | 'not_sqlite'
  | 'quick_check_failed'
  | 'unreadable'
  /** It opened, but SQLite or a migration failed on it. */
  | 'open_failed'
  /** It reads, but accounts the newest backup holds are gone (a WAL from another database, say). */
  | 'accounts_missing';

/** A folder that held a service before: a backup of service.db, or a generated image, is there. */
export function heldAService(dataDir: string): boolean {
  if (listServiceBackups(dataDir).length > 0) return true;
  const files = join(dataDir, 'files');
  return existsSync(files) && readdirSync(files).some(isFilename);
}

/** SQLite's own verdict that a file is damaged: SQLITE_CORRUPT (11), SQLITE_NOTADB (26), or an SQL error on our schema. */
export function isDamage(error: unknown): boolean {
  const code = (error as { errcode?: unknown } | null)?.errcode;
  return typeof code === 'number' && !isStorageFailure(error) && [1, 11, 26].includes(code & 0xff);
}

/** Why `<dataDir>/service.db` cannot be used as it is, or null. A storage failure (busy, disk) is thrown, not damage. */
export function diagnoseServiceDb(dataDir: string): DamageReason | null {
  const file = join(dataDir, 'service.db');
  if (!existsSync(file)) return heldAService(dataDir) ? 'missing' : null;
  if (statSync(file).size === 0) return heldAService(dataDir) ? 'empty' : null;
  let db: DatabaseSync | null = null;
  try {
    db = new DatabaseSync(file, { readOnly: true });
    const rows = db.prepare('PRAGMA quick_check').all() as Array<{ quick_check: string }>;
    if (rows.length !== 1 || rows[0]?.quick_check !== 'ok') return 'quick_check_failed';
    return lostAccounts(db, dataDir) ? 'accounts_missing' : null;
  } catch (error) {
    // SQLITE_NOTADB: the header is not SQLite's.
    if (isDamage(error)) return ((error as { errcode: number }).errcode & 0xff) === 26 ? 'not_sqlite' : 'unreadable';
    throw error;
  } finally {
    db?.close();
  }
}

/** Accounts are never deleted: one the newest backup holds and the database does not means the database is not ours. */
function lostAccounts(db: DatabaseSync, dataDir: string): boolean {
  const newest = listServiceBackups(dataDir)[0];
  if (!newest) return false;
  const expected = accountIdsOf(newest.path);
  if (expected.length === 0) return false;
  const hasAccounts = db.prepare("SELECT 1 AS found FROM sqlite_master WHERE type = 'table' AND name = 'accounts'").get();
  if (!hasAccounts) return true;
  const find = db.prepare('SELECT 1 AS found FROM accounts WHERE id = ?');
  return expected.some((id) => !find.get(id));
}

/** The account ids of a backup; none when it cannot be read (it is then no evidence either way). */
export function accountIdsOf(file: string): string[] {
  let db: DatabaseSync | null = null;
  try {
    db = new DatabaseSync(file, { readOnly: true });
    return (db.prepare('SELECT id FROM accounts').all() as Array<{ id: string }>).map((r) => r.id);
  } catch {
    return [];
  } finally {
    db?.close();
  }
}
