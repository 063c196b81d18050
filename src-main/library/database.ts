// The library database: node:sqlite in the app data folder, opened through the shared bootstrap of the local
// service (src-service/sqlite.ts via start.ts, DESIGN.md §2 rule 1): WAL, foreign keys, numbered migrations.
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { openSqliteDatabase, transaction } from '../../src-service/start.ts';
import { MIGRATIONS, type Migration } from './migrations/index.ts';

export type LibraryDatabase = DatabaseSync;
export { transaction };

/** Opens (creating if needed) and migrates the library database at `file`. */
export function openLibraryDatabase(file: string, migrations: readonly Migration[] = MIGRATIONS): DatabaseSync {
  return openSqliteDatabase(file, migrations);
}

/** A repository's statements, each prepared once per distinct SQL text. */
export function preparedOnce(db: DatabaseSync): (sql: string) => StatementSync {
  const statements = new Map<string, StatementSync>();
  return (sql) => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
}
