// The one SQLite bootstrap of the project (STYLE.md "one database bootstrap file"), used by the local service
// (service.db) and by main (library.db, inspector.db) through sqlite/index.ts: owner-only files, WAL, foreign
// keys, busy timeout, synchronous NORMAL, numbered migrations, and one transaction helper.
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

/**
 * A migration of any of the three databases: a module `migrations/NNNN-name.ts` exporting `migration` with
 * `version` NNNN and `name` 'NNNN-name', applied once, in version order, in its own transaction. Either plain
 * SQL or a function (for steps SQL alone cannot express). Applied migrations are recorded by version only, so a
 * file recorded under an older name (service.db's 'initial') is still recognised.
 */
export type SqliteMigration =
  | { readonly version: number; readonly name: string; readonly sql: string }
  | { readonly version: number; readonly name: string; up(db: DatabaseSync): void };

/** A migration's name: its version in four digits, then lower-case words joined by dashes. */
const MIGRATION_NAME = /^(\d{4})-[a-z0-9]+(-[a-z0-9]+)*$/;

/** Owner-only on macOS and Linux (the databases hold the user's prompts, keys' hashes and balances). */
const PRIVATE_FILE = 0o600;
const PRIVATE_FOLDER = 0o700;
const SQLITE_COMPANIONS = ['', '-wal', '-shm', '-journal'];

/**
 * Creates the folder (owner-only) and the file (0600) before SQLite does, so the file, and the -wal and -shm
 * files SQLite creates with the database's mode, are never readable by other users; an existing file is
 * narrowed to 0600. Folders that already exist are left as they are (a `--data` folder may be the user's own).
 */
function prepareFile(file: string): void {
  mkdirSync(dirname(file), { recursive: true, mode: PRIVATE_FOLDER });
  if (!existsSync(file)) closeSync(openSync(file, 'a', PRIVATE_FILE));
  if (process.platform === 'win32') return;
  for (const suffix of SQLITE_COMPANIONS) {
    if (existsSync(`${file}${suffix}`)) chmodSync(`${file}${suffix}`, PRIVATE_FILE);
  }
}

/** Opens (creating the folder if needed) and migrates the database at `file` (':memory:' for a test). */
export function openSqliteDatabase(file: string, migrations: readonly SqliteMigration[]): DatabaseSync {
  checkMigrations(migrations);
  if (file !== ':memory:') prepareFile(file);
  const db = new DatabaseSync(file);
  try {
    db.exec('PRAGMA journal_mode = WAL');
    db.exec('PRAGMA synchronous = NORMAL');
    db.exec('PRAGMA foreign_keys = ON');
    db.exec('PRAGMA busy_timeout = 5000');
    migrate(db, migrations);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

/** Refuses a list the naming rule or the numbering does not hold for (a programming error, caught by any test). */
function checkMigrations(migrations: readonly SqliteMigration[]): void {
  const versions = new Set<number>();
  for (const m of migrations) {
    if (!Number.isInteger(m.version) || m.version <= 0) throw new Error(`migration ${m.name}: version must be a positive integer, got ${m.version}`);
    const named = MIGRATION_NAME.exec(m.name);
    if (!named || Number(named[1]) !== m.version) throw new Error(`migration ${m.name}: the name must be 'NNNN-name' with NNNN its version ${m.version}`);
    if (versions.has(m.version)) throw new Error(`migration ${m.name}: version ${m.version} is used twice`);
    versions.add(m.version);
  }
}

/** Applies every migration not yet recorded in `schema_migrations`, lowest version first. */
export function migrate(db: DatabaseSync, migrations: readonly SqliteMigration[]): void {
  checkMigrations(migrations);
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)');
  const applied = new Set((db.prepare('SELECT version FROM schema_migrations').all() as Array<{ version: number }>).map((r) => r.version));
  const ordered = [...migrations].sort((a, b) => a.version - b.version);
  for (const m of ordered) {
    if (applied.has(m.version)) continue;
    transaction(db, () => {
      if ('sql' in m) db.exec(m.sql);
      else m.up(db);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(m.version, m.name, Date.now());
    });
  }
}

interface OpenTransaction {
  /** An inner call threw: the whole transaction is rolled back even if the outer fn caught the error. */
  failed: { error: unknown } | null;
}

/** Transactions in progress, per connection (two databases in one process nest independently). */
const open = new WeakMap<DatabaseSync, OpenTransaction>();

function refuseAsync(fn: () => unknown): void {
  if (fn.constructor.name === 'AsyncFunction') throw new Error('transaction(): fn must be synchronous (an async fn would commit before its awaits run)');
}

function isThenable(value: unknown): boolean {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/**
 * Runs fn inside BEGIN IMMEDIATE … COMMIT (ROLLBACK on throw). fn must be synchronous: node:sqlite is
 * synchronous, so nothing else in this process runs between the read and the write, and IMMEDIATE takes the
 * write lock up front so another process cannot interleave either. A nested call on the same database joins
 * the outer transaction; if it throws, the whole transaction is rolled back, even when the outer fn catches.
 */
export function transaction<T>(db: DatabaseSync, fn: () => T): T {
  refuseAsync(fn);
  const outer = open.get(db);
  if (outer) {
    try {
      const result = fn();
      if (isThenable(result)) throw new Error('transaction(): fn must be synchronous');
      return result;
    } catch (error) {
      outer.failed ??= { error };
      throw error;
    }
  }
  db.exec('BEGIN IMMEDIATE');
  const state: OpenTransaction = { failed: null };
  open.set(db, state);
  try {
    const result = fn();
    if (isThenable(result)) throw new Error('transaction(): fn must be synchronous');
    if (state.failed) throw state.failed.error;
    db.exec('COMMIT');
    return result;
  } catch (error) {
    if (db.isTransaction) db.exec('ROLLBACK');
    throw error;
  } finally {
    open.delete(db);
  }
}
