// The one rule for failed writes (write-retry.ts) on real errors: SQLite and file writes on a full tmpfs are the
// storage's fault and are retried with the back-off until they land; a constraint or SQL error is a bug, not retried.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from './db.ts';
import { canMountSmallDisk, fillDisk, smallDisk } from './test-support.ts';
import { createRetryingWrites, isStorageFailure, writeRetryDelay, WRITE_RETRY_DELAYS_MS, type WriteRetryLog } from './write-retry.ts';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const fn of cleanups.splice(0).reverse()) fn();
});

/** A database on a small tmpfs with one table, its write-ahead log emptied so the next write needs new space. */
function databaseOnSmallDisk(): { db: DatabaseSync; dir: string } {
  const disk = smallDisk(4);
  cleanups.push(disk.remove);
  const db = openDatabase(join(disk.dir, 'service.db'), []);
  cleanups.push(() => db.close());
  db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)');
  db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  return { db, dir: disk.dir };
}

function thrown(fn: () => void): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

const lines: string[] = [];
const log: WriteRetryLog = {
  info: (_obj, msg) => void lines.push(msg),
  warn: (_obj, msg) => void lines.push(msg),
  error: (_obj, msg) => void lines.push(msg),
};

describe('which failures are the storage', () => {
  it.skipIf(!canMountSmallDisk)('a full disk is, for SQLite and for files', () => {
    const { db, dir } = databaseOnSmallDisk();
    const filler = fillDisk(dir);
    const full = thrown(() => db.prepare('INSERT INTO notes (text) VALUES (?)').run('x'.repeat(10_000)));
    expect(full).toMatchObject({ code: 'ERR_SQLITE_ERROR', errcode: 13 });
    expect(isStorageFailure(full)).toBe(true);
    expect(isStorageFailure(thrown(() => writeFileSync(join(dir, 'more'), Buffer.alloc(64 * 1024))))).toBe(true);
    rmSync(filler);
  });

  it('a constraint, an SQL error or a TypeError is a bug', () => {
    const db = openDatabase(':memory:', []);
    cleanups.push(() => db.close());
    db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)');
    expect(isStorageFailure(thrown(() => db.prepare('INSERT INTO notes (text) VALUES (NULL)').run()))).toBe(false);
    expect(isStorageFailure(thrown(() => db.exec('SELECT * FROM missing')))).toBe(false);
    expect(isStorageFailure(new TypeError('x is undefined'))).toBe(false);
    expect(isStorageFailure(undefined)).toBe(false);
  });

  it('backs off from 250 ms doubling to 30 s and stays there', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9, 1000].map((n) => writeRetryDelay(n))).toEqual([
      250, 500, 1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000,
    ]);
    expect(WRITE_RETRY_DELAYS_MS.at(-1)).toBe(30_000);
  });
});

describe('writes that must land', () => {
  it.skipIf(!canMountSmallDisk)('are kept while the disk is full and written once space returns', async () => {
    lines.length = 0;
    const { db, dir } = databaseOnSmallDisk();
    const filler = fillDisk(dir);
    const writes = createRetryingWrites({ log, what: 'note' });
    const insert = (): void => void db.prepare('INSERT OR IGNORE INTO notes (id, text) VALUES (1, ?)').run('y'.repeat(10_000));
    expect(writes.write('note-1', insert)).toBe(false);
    await new Promise((r) => setTimeout(r, 400));
    rmSync(filler);
    const deadline = Date.now() + 5_000;
    const count = (): number => (db.prepare('SELECT COUNT(*) AS n FROM notes').get() as { n: number }).n;
    while (count() === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(count()).toBe(1);
    expect(lines).toEqual(['note cannot be written; retrying with back-off', 'note written after retrying']);
    writes.finishAtStop();
  });

  it('are not retried when the write itself is a bug', async () => {
    lines.length = 0;
    const db = openDatabase(':memory:', []);
    cleanups.push(() => db.close());
    db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)');
    let tries = 0;
    const writes = createRetryingWrites({ log, what: 'note', delays: [10] });
    const written = writes.write('note-1', () => {
      tries++;
      db.prepare('INSERT INTO notes (text) VALUES (NULL)').run();
    });
    await new Promise((r) => setTimeout(r, 100));
    expect([written, tries]).toEqual([false, 1]);
    expect(lines).toEqual(['note failed and is not retried; the next start settles it']);
  });
});
