// Library backups and recovery from a damaged library.db, on real files: random bytes, a corrupted page, a
// zero-length file, no backup at all (docs/main-process.md "Recovery of local data").
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, openSync, closeSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { openLibraryDatabase } from './database.ts';
import { LibraryBackups } from './backups.ts';
import { backupLibrary, isDamage, listBackups, openLibraryWithRecovery } from './recovery.ts';

const DAY1 = new Date('2026-11-20T09:00:00Z');
const DAY2 = new Date('2026-11-21T09:00:00Z');
const LATER = new Date('2026-11-22T10:15:00Z');

function addSessions(db: DatabaseSync, from: number, count: number): void {
  const insert = db.prepare("INSERT INTO sessions (id, environment, local_title, created_at, updated_at) VALUES (?, 'local', ?, 0, 0)");
  // Long titles so the table spans many pages and the middle of the file is table data.
  for (let i = from; i < from + count; i++) insert.run(`s_${String(i).padStart(10, '0')}`, `session ${i} ${'x'.repeat(400)}`);
}

function sessionCount(db: DatabaseSync): number {
  return (db.prepare('SELECT count(*) AS n FROM sessions').get() as { n: number }).n;
}

/** A data folder whose library has 200 sessions in a backup of DAY1 and 300 in one of DAY2, and 400 now. */
async function libraryWithBackups(): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'studio-recovery-'));
  const db = openLibraryDatabase(join(dataDir, 'library.db'));
  addSessions(db, 0, 200);
  await backupLibrary(db, dataDir, DAY1);
  addSessions(db, 200, 100);
  await backupLibrary(db, dataDir, DAY2);
  addSessions(db, 300, 100);
  db.close();
  return dataDir;
}

/**
 * The page nearest the middle of the file that belongs to an index, not a table: damage there fails quick_check
 * but loses no row. (Which page is in the middle moves with the schema.)
 */
function middleIndexPage(file: string): number {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    const middle = Math.floor(statSync(file).size / 2 / 4096) + 1;
    const nearest = db.prepare("SELECT pageno FROM dbstat WHERE name IN (SELECT name FROM sqlite_master WHERE type = 'index') ORDER BY abs(pageno - ?) LIMIT 1").get(middle);
    return (nearest as { pageno: number }).pageno;
  } finally {
    db.close();
  }
}

function files(dataDir: string): string[] {
  return readdirSync(dataDir).sort();
}

describe('library backups', () => {
  it('takes one per moment with SQLite online backup, checked with quick_check, and keeps the newest 5', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'studio-recovery-'));
    const db = openLibraryDatabase(join(dataDir, 'library.db'));
    addSessions(db, 0, 10);
    expect(await backupLibrary(db, dataDir, new Date('2026-11-20T09:00:00Z'))).toBe(join(dataDir, 'backups', 'library-2026-11-20T090000Z.db'));
    // A later backup in the same second replaces that second's copy with the newer state (it was skipped, and a
    // restore then lost what changed in that second).
    addSessions(db, 10, 2);
    expect(await backupLibrary(db, dataDir, new Date('2026-11-20T09:00:00Z'))).toBe(join(dataDir, 'backups', 'library-2026-11-20T090000Z.db'));
    const sameSecond = openLibraryDatabase(join(dataDir, 'backups', 'library-2026-11-20T090000Z.db'));
    expect(sessionCount(sameSecond)).toBe(12);
    sameSecond.close();
    for (const hour of ['10', '11', '12', '13', '14']) await backupLibrary(db, dataDir, new Date(`2026-11-20T${hour}:00:00Z`));
    db.close();
    expect(readdirSync(join(dataDir, 'backups')).sort()).toEqual(['10', '11', '12', '13', '14'].map((h) => `library-2026-11-20T${h}0000Z.db`));
    const copy = openLibraryDatabase(listBackups(dataDir)[0]!.path);
    expect(sessionCount(copy)).toBe(12);
    copy.close();
  });

  it('backs up at start, again only after a change once the interval passed, and at quit when changed since', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'studio-recovery-'));
    const db = openLibraryDatabase(join(dataDir, 'library.db'));
    let now = Date.parse('2026-11-20T09:00:00Z');
    const backups = new LibraryBackups(db, dataDir, { intervalMs: 600_000, checkEveryMs: 3_600_000, now: () => now });
    await backups.start();
    expect(listBackups(dataDir)).toHaveLength(1);
    now += 3_600_000;
    await backups.maybeBackUp();
    expect(listBackups(dataDir)).toHaveLength(1); // nothing changed
    addSessions(db, 0, 3);
    now += 60_000;
    await backups.maybeBackUp();
    expect(listBackups(dataDir)).toHaveLength(2); // changed, and 10 minutes since the last
    addSessions(db, 3, 2);
    now += 60_000;
    await backups.maybeBackUp();
    expect(listBackups(dataDir)).toHaveLength(2); // changed, but only a minute since
    now += 1_000;
    await backups.close();
    const newest = listBackups(dataDir);
    expect(newest).toHaveLength(3); // at quit
    const copy = openLibraryDatabase(newest[0]!.path);
    expect(sessionCount(copy)).toBe(5);
    copy.close();
    db.close();
  });

  it('tells each failure with its reason and folder, and a good backup after it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'studio-recovery-'));
    const db = openLibraryDatabase(join(dataDir, 'library.db'));
    // A file where the backups folder goes: no backup can be written (and none is listed: the app still starts).
    writeFileSync(join(dataDir, 'backups'), 'not a folder');
    const outcomes: unknown[] = [];
    let now = Date.parse('2026-11-20T09:00:00Z');
    const backups = new LibraryBackups(db, dataDir, { intervalMs: 600_000, checkEveryMs: 3_600_000, now: () => now, onOutcome: (failure) => outcomes.push(failure) });
    await backups.start();
    expect(outcomes).toEqual([{ error: expect.stringMatching(/EEXIST|ENOTDIR/), folder: join(dataDir, 'backups') }]);
    rmSync(join(dataDir, 'backups'));
    addSessions(db, 0, 1);
    now += 600_000;
    await backups.maybeBackUp();
    expect(outcomes.at(-1)).toBeNull();
    expect(listBackups(dataDir)).toHaveLength(1);
    await backups.close();
    db.close();
  });
});

describe('a damaged library.db', () => {
  it('of random bytes is moved aside untouched and the newest good backup restored', async () => {
    const dataDir = await libraryWithBackups();
    const garbage = randomBytes(64 * 1024);
    writeFileSync(join(dataDir, 'library.db'), garbage);
    const { db, recovery } = openLibraryWithRecovery(dataDir, () => LATER);
    const damagedPath = join(dataDir, 'library.db.damaged-2026-11-22T101500Z');
    expect(recovery).toEqual({ code: 'library_restored', params: { damagedPath, backupDate: '2026-11-21T09:00:00Z', reason: 'not_sqlite', salvaged: '', notSalvaged: 'all' } });
    expect(readFileSync(damagedPath)).toEqual(garbage);
    expect(sessionCount(db)).toBe(300);
    expect(db.prepare('PRAGMA quick_check').get()).toEqual({ quick_check: 'ok' });
    db.close();
    // Both backups are still there, untouched.
    expect(listBackups(dataDir).map((b) => b.takenAt)).toEqual(['2026-11-21T09:00:00Z', '2026-11-20T09:00:00Z']);
  });

  it('with a corrupted page in the middle fails quick_check, is kept with its WAL files, and the backup restored', async () => {
    const dataDir = await libraryWithBackups();
    const file = join(dataDir, 'library.db');
    const fd = openSync(file, 'r+');
    writeSync(fd, randomBytes(4096), 0, 4096, (middleIndexPage(file) - 1) * 4096);
    closeSync(fd);
    writeFileSync(`${file}-wal`, '');
    const before = readFileSync(file);
    const { db, recovery } = openLibraryWithRecovery(dataDir, () => LATER);
    expect(recovery?.code).toBe('library_restored');
    expect(recovery?.params.reason).toMatch(/quick_check_failed|unreadable/);
    const damagedPath = join(dataDir, 'library.db.damaged-2026-11-22T101500Z');
    expect(readFileSync(damagedPath)).toEqual(before);
    expect(existsSync(`${damagedPath}-wal`)).toBe(true);
    // The page hit holds no session row (an index's): the backup's 300 and the 100 written after it are all salvaged.
    expect(sessionCount(db)).toBe(400);
    expect(recovery?.params.salvaged).toContain('sessions 100');
    db.close();
  });

  it('of zero bytes is restored from the backup when one exists, the empty file kept', async () => {
    const dataDir = await libraryWithBackups();
    writeFileSync(join(dataDir, 'library.db'), '');
    const { db, recovery } = openLibraryWithRecovery(dataDir, () => LATER);
    expect(recovery).toMatchObject({ code: 'library_restored', params: { reason: 'empty', backupDate: '2026-11-21T09:00:00Z' } });
    expect(statSync(join(dataDir, 'library.db.damaged-2026-11-22T101500Z')).size).toBe(0);
    expect(sessionCount(db)).toBe(300);
    db.close();
  });

  it('skips a backup that is itself damaged and restores the next one', async () => {
    const dataDir = await libraryWithBackups();
    writeFileSync(listBackups(dataDir)[0]!.path, randomBytes(8192));
    writeFileSync(join(dataDir, 'library.db'), randomBytes(8192));
    const { db, recovery } = openLibraryWithRecovery(dataDir, () => LATER);
    expect(recovery).toMatchObject({ code: 'library_restored', params: { backupDate: '2026-11-20T09:00:00Z' } });
    expect(sessionCount(db)).toBe(200);
    db.close();
  });

  it('with no backup at all starts an empty library, keeps the damaged file and says the library was reset', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'studio-recovery-'));
    const garbage = randomBytes(10_000);
    writeFileSync(join(dataDir, 'library.db'), garbage);
    const { db, recovery } = openLibraryWithRecovery(dataDir, () => LATER);
    const damagedPath = join(dataDir, 'library.db.damaged-2026-11-22T101500Z');
    expect(recovery).toEqual({ code: 'library_reset', params: { damagedPath, reason: 'not_sqlite', salvaged: '', notSalvaged: 'all' } });
    expect(readFileSync(damagedPath)).toEqual(garbage);
    expect(sessionCount(db)).toBe(0);
    db.close();
    expect(files(dataDir)).toEqual(['library.db', 'library.db.damaged-2026-11-22T101500Z']);
    // A second damage the same second gets its own name.
    writeFileSync(join(dataDir, 'library.db'), 'not a database either');
    const again = openLibraryWithRecovery(dataDir, () => LATER);
    expect(again.recovery?.params.damagedPath).toBe(`${damagedPath}-2`);
    again.db.close();
    expect(readFileSync(damagedPath)).toEqual(garbage);
  });

  it('leaves a sound library alone', async () => {
    const dataDir = await libraryWithBackups();
    const { db, recovery } = openLibraryWithRecovery(dataDir, () => LATER);
    expect(recovery).toBeNull();
    expect(sessionCount(db)).toBe(400);
    db.close();
    expect(files(dataDir).filter((f) => f.includes('damaged'))).toEqual([]);
  });
});

describe('what is not damage', () => {
  it('is told apart by SQLite’s own codes: corrupt and not-a-database only (a busy, full or unreadable file is never moved aside)', () => {
    expect(isDamage(Object.assign(new Error('database disk image is malformed'), { errcode: 11 }))).toBe(true);
    expect(isDamage(Object.assign(new Error('file is not a database'), { errcode: 26 }))).toBe(true);
    expect(isDamage(Object.assign(new Error('database is locked'), { errcode: 5 }))).toBe(false);
    expect(isDamage(Object.assign(new Error('database or disk is full'), { errcode: 13 }))).toBe(false);
    expect(isDamage(Object.assign(new Error('unable to open database file'), { errcode: 14 }))).toBe(false);
    expect(isDamage(new Error('EACCES'))).toBe(false);
  });
});
