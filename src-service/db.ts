// One database bootstrap (STYLE.md): WAL, foreign keys, busy timeout, numbered migrations.
// Migrations are TS modules so the bundled utilityProcess build needs no .sql files beside it.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { MIGRATIONS, type Migration } from './migrations/index.ts';

export type Database = DatabaseSync;

export function openDatabase(file: string, migrations: readonly Migration[] = MIGRATIONS): DatabaseSync {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const db = new DatabaseSync(file);
  db.exec('PRAGMA journal_mode = WAL');
  db.exec('PRAGMA synchronous = NORMAL');
  db.exec('PRAGMA foreign_keys = ON');
  db.exec('PRAGMA busy_timeout = 5000');
  migrate(db, migrations);
  return db;
}

export function migrate(db: DatabaseSync, migrations: readonly Migration[]): void {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)');
  const applied = new Set(
    (db.prepare('SELECT version FROM schema_migrations').all() as Array<{ version: number }>).map((r) => r.version),
  );
  const ordered = [...migrations].sort((a, b) => a.version - b.version);
  for (const m of ordered) {
    if (applied.has(m.version)) continue;
    transaction(db, () => {
      db.exec(m.sql);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(m.version, m.name, Date.now());
    });
  }
}

let depth = 0;

/**
 * Runs fn inside BEGIN IMMEDIATE … COMMIT (ROLLBACK on throw). fn must be synchronous: node:sqlite is
 * synchronous, so nothing else in this process runs between the read and the write, and IMMEDIATE takes the
 * write lock up front so another process cannot interleave either. Nested calls join the outer transaction.
 */
export function transaction<T>(db: DatabaseSync, fn: () => T): T {
  if (depth > 0) return fn();
  db.exec('BEGIN IMMEDIATE');
  depth++;
  try {
    const result = fn();
    if (result instanceof Promise) throw new Error('transaction(): fn must be synchronous');
    db.exec('COMMIT');
    return result;
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  } finally {
    depth--;
  }
}
