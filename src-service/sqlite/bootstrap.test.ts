// The shared SQLite bootstrap (main's library.db and the service's service.db both open through it), on real
// database files.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { openSqliteDatabase, transaction, type SqliteMigration } from './sqlite.ts';

const NOTES: SqliteMigration = { version: 1, name: 'notes', sql: 'CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)' };

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
      { version: 3, name: 'three', up: (db) => (calls.push('three'), insertNote(db, 'three')) },
      NOTES,
      { version: 2, name: 'two', sql: "INSERT INTO notes (text) VALUES ('two')" },
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
    const later = openSqliteDatabase(file, [...migrations, { version: 4, name: 'four', sql: "INSERT INTO notes (text) VALUES ('four')" }]);
    expect(texts(later)).toEqual(['two', 'three', 'four']);
    later.close();
  });

  it('a failing migration leaves nothing of itself behind, and a duplicate version is refused', () => {
    const { db, file } = fresh();
    db.close();
    const broken: SqliteMigration = { version: 2, name: 'broken', up: (d) => (insertNote(d, 'half'), d.exec('NOT SQL')) };
    expect(() => openSqliteDatabase(file, [NOTES, broken])).toThrow();
    const reopened = openSqliteDatabase(file, [NOTES]);
    expect(texts(reopened)).toEqual([]);
    reopened.close();
    expect(() => openSqliteDatabase(file, [NOTES, { ...NOTES, name: 'again' }])).toThrow(/version 1 is used twice/);
  });
});

function insertNote(db: DatabaseSync, text: string): void {
  db.prepare('INSERT INTO notes (text) VALUES (?)').run(text);
}
