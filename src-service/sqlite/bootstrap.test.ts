// The shared SQLite bootstrap (main's library.db and the service's service.db both open through it), on real
// database files.
import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { openSqliteDatabase, preparedOnce, statement, transaction, type SqliteMigration } from './index.ts';

const NOTES: SqliteMigration = { version: 1, name: '0001-notes', sql: 'CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)' };

function fresh(migrations: readonly SqliteMigration[] = [NOTES]): { db: DatabaseSync; file: string } {
  const file = join(mkdtempSync(join(tmpdir(), 'sqlite-boot-')), 'test.db');
  return { db: openSqliteDatabase(file, migrations), file };
}

function texts(db: DatabaseSync): string[] {
  return (db.prepare('SELECT text FROM notes ORDER BY id').all() as Array<{ text: string }>).map((r) => r.text);
}

describe('shared SQLite bootstrap', () => {
  it('opens with WAL, foreign keys, a busy timeout and synchronous NORMAL', () => {
    const { db } = fresh();
    expect(db.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' });
    expect(db.prepare('PRAGMA foreign_keys').get()).toEqual({ foreign_keys: 1 });
    expect(db.prepare('PRAGMA busy_timeout').get()).toEqual({ timeout: 5000 });
    expect(db.prepare('PRAGMA synchronous').get()).toEqual({ synchronous: 1 });
    db.close();
  });

  it('a nested transaction joins the outer one: both writes commit together', () => {
    const { db } = fresh();
    transaction(db, () => {
      db.prepare('INSERT INTO notes (text) VALUES (?)').run('outer');
      transaction(db, () => void db.prepare('INSERT INTO notes (text) VALUES (?)').run('inner'));
      expect(db.isTransaction).toBe(true);
    });
    expect(db.isTransaction).toBe(false);
    expect(texts(db)).toEqual(['outer', 'inner']);
    db.close();
  });

  it('an inner throw rolls back the whole transaction, even when the outer fn catches it', () => {
    const { db } = fresh();
    expect(() =>
      transaction(db, () => {
        db.prepare('INSERT INTO notes (text) VALUES (?)').run('outer');
        transaction(db, () => {
          db.prepare('INSERT INTO notes (text) VALUES (?)').run('inner');
          throw new Error('inner failed');
        });
      }),
    ).toThrow('inner failed');
    expect(texts(db)).toEqual([]);
    expect(() =>
      transaction(db, () => {
        db.prepare('INSERT INTO notes (text) VALUES (?)').run('outer');
        try {
          transaction(db, () => {
            throw new Error('swallowed');
          });
        } catch {
          // the outer fn carries on, but the transaction is already doomed
        }
      }),
    ).toThrow('swallowed');
    expect(texts(db)).toEqual([]);
    expect(db.isTransaction).toBe(false);
    db.close();
  });

  it('tracks nesting per database: a transaction on one file does not join another file’s', () => {
    const a = fresh();
    const b = fresh();
    transaction(a.db, () => {
      insertNote(a.db, 'a');
      try {
        transaction(b.db, () => {
          insertNote(b.db, 'b');
          throw new Error('b fails');
        });
      } catch {
        // b's failure is b's alone
      }
    });
    expect(texts(a.db)).toEqual(['a']);
    expect(texts(b.db)).toEqual([]);
    a.db.close();
    b.db.close();
  });

  it('refuses an async fn before running it, and a fn that returns a promise, writing nothing', () => {
    const { db } = fresh();
    expect(() => transaction(db, (async () => insertNote(db, 'async')) as unknown as () => void)).toThrow(/must be synchronous/);
    expect(() => transaction(db, () => (insertNote(db, 'thenable'), Promise.resolve()))).toThrow(/must be synchronous/);
    expect(() => transaction(db, () => transaction(db, (async () => undefined) as unknown as () => void))).toThrow(/must be synchronous/);
    expect(texts(db)).toEqual([]);
    expect(db.isTransaction).toBe(false);
    db.close();
  });

  it('applies sql and up(db) migrations once each, in version order whatever the list order', () => {
    const calls: string[] = [];
    const migrations: SqliteMigration[] = [
      { version: 3, name: '0003-three', up: (db) => (calls.push('three'), insertNote(db, 'three')) },
      NOTES,
      { version: 2, name: '0002-two', sql: "INSERT INTO notes (text) VALUES ('two')" },
    ];
    const { db, file } = fresh(migrations);
    expect(texts(db)).toEqual(['two', 'three']);
    db.close();
    const again = openSqliteDatabase(file, migrations);
    expect(texts(again)).toEqual(['two', 'three']);
    expect(calls).toEqual(['three']);
    expect((again.prepare('SELECT version, name FROM schema_migrations ORDER BY version').all() as unknown[]).length).toBe(3);
    again.close();
    // A migration added later (another engineer's next number) is applied on the next open, once.
    const later = openSqliteDatabase(file, [...migrations, { version: 4, name: '0004-four', sql: "INSERT INTO notes (text) VALUES ('four')" }]);
    expect(texts(later)).toEqual(['two', 'three', 'four']);
    later.close();
  });

  it('a failing migration leaves nothing of itself behind, and a duplicate version is refused', () => {
    const { db, file } = fresh();
    db.close();
    const broken: SqliteMigration = { version: 2, name: '0002-broken', up: (d) => (insertNote(d, 'half'), d.exec('NOT SQL')) };
    expect(() => openSqliteDatabase(file, [NOTES, broken])).toThrow();
    const reopened = openSqliteDatabase(file, [NOTES]);
    expect(texts(reopened)).toEqual([]);
    reopened.close();
    expect(() => openSqliteDatabase(file, [NOTES, { ...NOTES, name: '0001-again' }])).toThrow(/version 1 is used twice/);
  });
});

describe('migration names', () => {
  it.each([
    ['no number', { version: 1, name: 'notes', sql: 'SELECT 1' }],
    ['a number that is not its version', { version: 2, name: '0001-notes', sql: 'SELECT 1' }],
    ['three digits', { version: 1, name: '001-notes', sql: 'SELECT 1' }],
    ['upper case or spaces', { version: 1, name: '0001-Notes here', sql: 'SELECT 1' }],
  ])('refuses %s before touching the file', (_why, migration) => {
    const file = join(mkdtempSync(join(tmpdir(), 'sqlite-names-')), 'test.db');
    expect(() => openSqliteDatabase(file, [migration])).toThrow(/the name must be 'NNNN-name'/);
  });

  it('recognises a migration recorded under an older name by its version (service.db recorded "initial")', () => {
    const { db, file } = fresh();
    db.prepare("UPDATE schema_migrations SET name = 'notes' WHERE version = 1").run();
    db.close();
    const again = openSqliteDatabase(file, [NOTES, { version: 2, name: '0002-more', sql: "INSERT INTO notes (text) VALUES ('more')" }]);
    expect(texts(again)).toEqual(['more']);
    expect(again.prepare('SELECT version, name FROM schema_migrations ORDER BY version').all()).toEqual([
      { version: 1, name: 'notes' },
      { version: 2, name: '0002-more' },
    ]);
    again.close();
  });
});

describe.skipIf(process.platform === 'win32')('file modes (owner only on macOS and Linux)', () => {
  const modeOf = (path: string): number => statSync(path).mode & 0o777;

  it('creates the folder 0700 and the database, its -wal and -shm 0600 whatever the umask', () => {
    const previous = process.umask(0o022);
    try {
      const folder = join(mkdtempSync(join(tmpdir(), 'sqlite-modes-')), 'data');
      const file = join(folder, 'test.db');
      const db = openSqliteDatabase(file, [NOTES]);
      insertNote(db, 'x');
      expect(modeOf(folder)).toBe(0o700);
      for (const path of [file, `${file}-wal`, `${file}-shm`]) expect([path, modeOf(path)]).toEqual([path, 0o600]);
      db.close();
    } finally {
      process.umask(previous);
    }
  });

  it('narrows an existing world-readable database to 0600 when it is opened', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'sqlite-modes-')), 'old.db');
    writeFileSync(file, '', { mode: 0o644 });
    openSqliteDatabase(file, [NOTES]).close();
    expect(modeOf(file)).toBe(0o600);
  });
});

describe('statement cache', () => {
  it('prepares each SQL text once per connection, shared by every repository of that connection', () => {
    const a = fresh();
    const b = fresh();
    const sql = 'SELECT text FROM notes';
    expect(statement(a.db, sql)).toBe(preparedOnce(a.db)(sql));
    expect(preparedOnce(a.db)(sql)).toBe(preparedOnce(a.db)(sql));
    expect(statement(b.db, sql)).not.toBe(statement(a.db, sql));
    a.db.close();
    b.db.close();
  });
});

function insertNote(db: DatabaseSync, text: string): void {
  db.prepare('INSERT INTO notes (text) VALUES (?)').run(text);
}
