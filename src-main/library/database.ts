// The library database: node:sqlite in the app data folder, opened through the project's one SQLite bootstrap
// (src-service/sqlite/, which main may import): owner-only file, WAL, foreign keys, numbered migrations.
import type { DatabaseSync } from 'node:sqlite';
import { openSqliteDatabase, preparedOnce, statement, transaction } from '../../src-service/sqlite/index.ts';
import { MIGRATIONS, type Migration } from './migrations/index.ts';

export type LibraryDatabase = DatabaseSync;
export { preparedOnce, statement, transaction };

/** Opens (creating if needed) and migrates the library database at `file`. */
export function openLibraryDatabase(file: string, migrations: readonly Migration[] = MIGRATIONS): DatabaseSync {
  return openSqliteDatabase(file, migrations);
}
