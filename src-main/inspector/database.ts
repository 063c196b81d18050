// The inspector's own database, `<dataDir>/inspector.db` (docs/decisions.md, webhook inspector): captures are
// disposable diagnostics that anyone on loopback can send, so they live apart from library.db (no library backups,
// no quick_check at start, nothing of the user's at risk) in a file that gives space back: auto_vacuum is
// INCREMENTAL and the store runs incremental_vacuum after pruning and after Clear. Opened through the project's
// one SQLite bootstrap (src-service/sqlite/) with its migrations in ./migrations/.
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { openSqliteDatabase } from '../../src-service/sqlite/index.ts';
import { INSPECTOR_MIGRATIONS } from './migrations/index.ts';

export const INSPECTOR_FILE = 'inspector.db';
/** The WAL is cut back to this size after a checkpoint (SQLite keeps a grown WAL file otherwise). */
const WAL_SIZE_LIMIT = 4 * 1024 * 1024;

/** SQLite's own verdict that a file is damaged: SQLITE_CORRUPT (11) or SQLITE_NOTADB (26). */
function isDamage(error: unknown): boolean {
  const code = (error as { errcode?: unknown } | null)?.errcode;
  return typeof code === 'number' && [11, 26].includes(code & 0xff);
}

function open(file: string): DatabaseSync {
  const db = openSqliteDatabase(file, INSPECTOR_MIGRATIONS);
  try {
    // auto_vacuum only takes effect on a file without tables, or through a VACUUM. The bootstrap has created
    // schema_migrations (and our tables) by now, so a file that is not yet INCREMENTAL is rebuilt once; on a
    // new file that is a few pages.
    if ((db.prepare('PRAGMA auto_vacuum').get() as { auto_vacuum: number }).auto_vacuum !== 2) {
      db.exec('PRAGMA auto_vacuum = INCREMENTAL');
      db.exec('VACUUM');
    }
    db.exec(`PRAGMA journal_size_limit = ${WAL_SIZE_LIMIT}`);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

/**
 * Opens (creating) `<dataDir>/inspector.db`. A damaged file is deleted and started afresh: it only ever held
 * captures, which are disposable. Any other failure (no permission, disk full) keeps this run's captures in
 * memory so the receiver still works; `persistent` says which happened.
 */
export function openInspectorDatabase(dataDir: string): { db: DatabaseSync; file: string; persistent: boolean } {
  const file = join(dataDir, INSPECTOR_FILE);
  try {
    return { db: open(file), file, persistent: true };
  } catch (error) {
    if (isDamage(error)) {
      for (const suffix of ['', '-wal', '-shm']) if (existsSync(`${file}${suffix}`)) rmSync(`${file}${suffix}`, { force: true });
      try {
        return { db: open(file), file, persistent: true };
      } catch {
        // fall through to memory
      }
    }
    return { db: open(':memory:'), file, persistent: false };
  }
}
