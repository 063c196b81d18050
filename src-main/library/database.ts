// The library database: node:sqlite in the app data folder, opened through the shared bootstrap of the local
// service (src-service/sqlite.ts via start.ts, DESIGN.md §2 rule 1): WAL, foreign keys, numbered migrations.
import type { DatabaseSync } from 'node:sqlite';
import { openSqliteDatabase, transaction } from '../../src-service/start.ts';
import { MIGRATIONS, type Migration } from './migrations/index.ts';

export type LibraryDatabase = DatabaseSync;
export { transaction };

/** Opens (creating if needed) and migrates the library database at `file`. */
export function openLibraryDatabase(file: string, migrations: readonly Migration[] = MIGRATIONS): DatabaseSync {
  return openSqliteDatabase(file, migrations);
}
