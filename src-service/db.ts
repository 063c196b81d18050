// The service database (service.db): the shared bootstrap (sqlite/) with the service's migrations.
// Migrations are TS modules so the bundled utilityProcess build needs no .sql files beside it.
import type { DatabaseSync } from 'node:sqlite';
import { MIGRATIONS } from './migrations/index.ts';
import { openSqliteDatabase, type SqliteMigration } from './sqlite/index.ts';

export type Database = DatabaseSync;
export { migrate, preparedOnce, transaction } from './sqlite/index.ts';

export function openDatabase(file: string, migrations: readonly SqliteMigration[] = MIGRATIONS): DatabaseSync {
  return openSqliteDatabase(file, migrations);
}
