// Recovery of local data (docs/main-process.md): library.db is backed up with SQLite's online backup into
// <dataDir>/backups/ (when: backups.ts); a damaged library.db is moved aside (never deleted) and the newest good
// backup restored, and the caller tells the user what happened.
import { closeSync, copyFileSync, existsSync, mkdirSync, openSync, readdirSync, readSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import * as sqlite from 'node:sqlite';
import { DatabaseSync } from 'node:sqlite';
import { Worker } from 'node:worker_threads';
import { openLibraryDatabase } from './database.ts';
import { PRIVATE_FILE, PRIVATE_FOLDER } from './private-files.ts';
import { salvageInto } from './salvage.ts';

export const LIBRARY_FILE = 'library.db';
export const BACKUP_DIR = 'backups';
/** How many backups are kept (newest first; each passed quick_check when it was taken). */
export const BACKUPS_KEPT = 5;

const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');
const BACKUP_NAME = /^library-(\d{4}-\d{2}-\d{2})T(\d{2})(\d{2})(\d{2})Z\.db$/;

/** What salvage brought back from the damaged file (`sessions 3, turns 6, images 6`) and which tables it could not read. */
type Salvaged = {
  salvaged: string;
  notSalvaged: string;
};

export type LibraryRecovery =
  | { code: 'library_restored'; params: { damagedPath: string; backupDate: string; reason: string } & Salvaged }
  | { code: 'library_salvaged'; params: { damagedPath: string; reason: string } & Salvaged }
  | { code: 'library_reset'; params: { damagedPath: string; reason: string } & Salvaged };

export interface OpenedLibrary {
  db: DatabaseSync;
  /** Set when the file was damaged: what was done, for the user's notice. */
  recovery: LibraryRecovery | null;
}

/** `2026-11-22T101500Z`: sortable, and valid in file names on every OS (no colons). */
export function fileStamp(date: Date): string {
  return `${date.toISOString().slice(0, 19).replace(/:/g, '')}Z`;
}

/** The backups in `<dataDir>/backups/`, newest first, with the moment each was taken (ISO 8601). */
export function listBackups(dataDir: string): Array<{ path: string; takenAt: string }> {
  const dir = join(dataDir, BACKUP_DIR);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return [];
  return readdirSync(dir)
    .map((name) => ({ name, m: BACKUP_NAME.exec(name) }))
    .filter((e): e is { name: string; m: RegExpExecArray } => e.m !== null)
    .sort((a, b) => (a.name < b.name ? 1 : a.name > b.name ? -1 : 0))
    .map(({ name, m }) => ({ path: join(dir, name), takenAt: `${m[1]}T${m[2]}:${m[3]}:${m[4]}Z` }));
}

/**
 * Why the library file cannot be used, or null when it looks sound. A zero-byte file or one without our schema
 * counts as damaged only when backups exist (otherwise it is an interrupted first start with nothing to lose).
 */
function diagnose(file: string, haveBackups: boolean): string | null {
  const size = statSync(file).size;
  if (size === 0) return haveBackups ? 'empty' : null;
  const head = Buffer.alloc(SQLITE_HEADER.length);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, head, 0, head.length, 0);
  } finally {
    closeSync(fd);
  }
  if (!head.equals(SQLITE_HEADER)) return 'not_sqlite';
  return check(file, haveBackups);
}

/** quick_check and our schema, on a file known to start with the SQLite header. */
function check(file: string, requireSchema: boolean): string | null {
  let db: DatabaseSync | null = null;
  try {
    // Read-only, so a damaged file and its WAL are kept exactly as found (no checkpoint on close).
    db = new DatabaseSync(file, { readOnly: true });
    const rows = db.prepare('PRAGMA quick_check').all() as Array<{ quick_check: string }>;
    if (rows.length !== 1 || rows[0]?.quick_check !== 'ok') return 'quick_check_failed';
    const schema = db.prepare("SELECT 1 AS found FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").get();
    if (!schema && requireSchema) return 'schema_missing';
    return null;
  } catch (error) {
    if (isDamage(error)) return 'unreadable';
    // Busy, locked, no permission, an I/O or disk-full error: the file may be fine. Never move a library
    // aside for that; start-up fails with the reason instead (the Electron shell shows it with the log path).
    throw error;
  } finally {
    db?.close();
  }
}

/** SQLite's own verdict that a file is damaged: SQLITE_CORRUPT (11) or SQLITE_NOTADB (26), extended codes included. */
export function isDamage(error: unknown): boolean {
  const code = (error as { errcode?: unknown } | null)?.errcode;
  return typeof code === 'number' && [11, 26].includes(code & 0xff);
}

/** A name beside `file` that no earlier damaged copy uses, so a second damage never overwrites the first. */
export function damagedName(file: string, now: Date): string {
  const base = `${file}.damaged-${fileStamp(now)}`;
  const taken = (candidate: string) => ['', '-wal', '-shm'].some((s) => existsSync(`${candidate}${s}`));
  if (!taken(base)) return base;
  for (let i = 2; ; i++) if (!taken(`${base}-${i}`)) return `${base}-${i}`;
}

/** Moves the file and its -wal/-shm aside under SQLite's naming, so the kept copy opens with its WAL. */
function moveAside(file: string, now: Date): string {
  const target = damagedName(file, now);
  for (const suffix of ['', '-wal', '-shm']) {
    if (existsSync(`${file}${suffix}`)) renameSync(`${file}${suffix}`, `${target}${suffix}`);
  }
  return target;
}

/** Copies the newest backup that passes quick_check into place; returns when it was taken, or null. */
function restoreNewestGoodBackup(dataDir: string, file: string): string | null {
  const staging = `${file}.restoring`;
  for (const candidate of listBackups(dataDir)) {
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${staging}${suffix}`, { force: true });
    try {
      copyFileSync(candidate.path, staging);
    } catch {
      continue;
    }
    // Checked on the copy, so the backup itself is never opened for writing.
    if (diagnose(staging, true) === null) {
      for (const suffix of ['-wal', '-shm']) rmSync(`${staging}${suffix}`, { force: true });
      renameSync(staging, file);
      return candidate.takenAt;
    }
  }
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${staging}${suffix}`, { force: true });
  return null;
}

/**
 * Opens `<dataDir>/library.db`. A file that is not SQLite, fails quick_check or to open, or (with backups) is
 * empty or lost its schema is moved aside and replaced by the newest good backup, or by a new library.
 */
export function openLibraryWithRecovery(dataDir: string, now: () => Date = () => new Date()): OpenedLibrary {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, LIBRARY_FILE);
  if (!existsSync(file)) return { db: openLibraryDatabase(file), recovery: null };
  let reason = diagnose(file, listBackups(dataDir).length > 0);
  if (reason === null) {
    try {
      return { db: openLibraryDatabase(file), recovery: null };
    } catch (error) {
      if (!isDamage(error)) throw error;
      reason = 'open_failed';
    }
  }
  const damagedPath = moveAside(file, now());
  const backupDate = restoreNewestGoodBackup(dataDir, file);
  const db = openLibraryDatabase(file);
  // What the damaged file still holds comes first: the backup (or an empty library) only fills what it lost.
  const report = salvageInto(db, damagedPath);
  const salvaged = {
    salvaged: Object.entries(report.recovered).map(([table, rows]) => `${table} ${rows}`).join(', '),
    notSalvaged: [...report.unreadable, ...Object.entries(report.dropped).map(([table, rows]) => `${table} ${rows}`)].join(', '),
  };
  const params = { damagedPath, reason, ...salvaged };
  if (backupDate) return { db, recovery: { code: 'library_restored', params: { ...params, backupDate } } };
  return { db, recovery: { code: salvaged.salvaged === '' ? 'library_reset' : 'library_salvaged', params } };
}

/**
 * Backs the open library up into `<dataDir>/backups/library-<stamp>.db`, then keeps the newest BACKUPS_KEPT.
 * SQLite's online backup copies `rate` pages a step on a worker thread, so main keeps working meanwhile; the copy
 * passes quick_check (also off main) before it counts as a backup. Resolves with the new file. When to back up is
 * backups.ts's rule.
 */
export async function backupLibrary(db: DatabaseSync, dataDir: string, now: Date = new Date(), options: { rate?: number } = {}): Promise<string | null> {
  // A namespace lookup, not a named import: on Node before 22.16 the app still starts, only without backups.
  const backup = (sqlite as Partial<typeof sqlite>).backup;
  if (typeof backup !== 'function') throw new Error('library backup needs node:sqlite backup() (Node 22.16 or later)');
  const dir = join(dataDir, BACKUP_DIR);
  mkdirSync(dir, { recursive: true, mode: PRIVATE_FOLDER });
  // A backup cut off by a crash or a kill left a partial file; it is never a backup.
  for (const name of readdirSync(dir)) if (name.endsWith('.partial')) rmSync(join(dir, name), { force: true });
  // A second backup within the same second replaces the first (rename is atomic): the newer copy holds everything the
  // older one does. Skipping it lost what changed in that second (a quit right after a start restored the start's copy).
  const target = join(dir, `library-${fileStamp(now)}.db`);
  const partial = `${target}.partial`;
  try {
    // Created owner-only before SQLite writes into it (it keeps the file's mode), like library.db itself.
    closeSync(openSync(partial, 'w', PRIVATE_FILE));
    await backup(db, partial, { rate: options.rate ?? BACKUP_PAGES_PER_STEP });
    const verdict = await quickCheckOffMain(partial);
    // The check's read-only open of a WAL-mode copy leaves -wal/-shm files that belong to no backup.
    for (const suffix of ['-wal', '-shm']) rmSync(`${partial}${suffix}`, { force: true });
    if (verdict !== 'ok') throw new Error(`the new library backup failed quick_check: ${verdict}`);
    renameSync(partial, target);
  } finally {
    rmSync(partial, { force: true });
  }
  for (const old of listBackups(dataDir).slice(BACKUPS_KEPT)) rmSync(old.path, { force: true });
  return target;
}

/** Pages copied per step of the online backup: small steps keep each of main's turns short. */
export const BACKUP_PAGES_PER_STEP = 64;

const QUICK_CHECK_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { DatabaseSync } = require('node:sqlite');
let verdict;
try {
  const db = new DatabaseSync(workerData, { readOnly: true });
  const rows = db.prepare('PRAGMA quick_check').all();
  db.close();
  verdict = rows.length === 1 && rows[0].quick_check === 'ok' ? 'ok' : String(rows[0] && rows[0].quick_check);
} catch (error) {
  verdict = String(error && error.message);
}
parentPort.postMessage(verdict);
`;

/** PRAGMA quick_check of a file on a worker thread (a 100,000-image library takes longer than main may block). */
function quickCheckOffMain(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(QUICK_CHECK_WORKER, { eval: true, workerData: file });
    worker.once('message', (verdict: string) => resolve(verdict));
    worker.once('error', reject);
    worker.once('exit', (code) => (code === 0 ? undefined : reject(new Error(`quick_check worker exited with ${code}`))));
  });
}
