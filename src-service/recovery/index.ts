// Opening service.db so that damage never leaves the service unable to start and never silently becomes a new
// account (docs/local-service.md "A damaged service.db"): a damaged, emptied or lost file is moved aside (never
// deleted), a fresh database is made, and what the damaged file still holds, then the newest good backup, is copied
// into it; accounts keep their ids and API keys, so the app's stored key and its references still work. What happened
// is appended to `<data>/recoveries.jsonl`, which the app reads after the service is ready.
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { isFilename, newId } from '../../src-shared/ids.ts';
import { createImagesRepo } from '../repos/images.ts';
import { openDatabase } from '../db.ts';
import { fileStamp, listServiceBackups } from './backups.ts';
import { diagnoseServiceDb, isDamage, type DamageReason } from './diagnose.ts';
import { copyReadableRows, openableCopy, passesQuickCheck, type SourceYield } from './salvage.ts';
import { settleOrphans } from './settle.ts';

/**
 * One recovery, as recorded in recoveries.jsonl (one JSON object a line): when (ISO 8601) and why; where the damaged
 * file was kept with its -wal/-shm (null: there was no file); when the backup that filled in was taken (null: none);
 * rows by table copied from the damaged file, added by the backup, and dropped because what they belonged to was
 * lost; the tables of the damaged file not read to the end ('all': nothing could be read); the accounts kept; the
 * generated images no row names any more, moved out of files/ into `files_folder` (null: none).
 */
export interface ServiceRecovery {
  at: string;
  reason: DamageReason;
  damaged_path: string | null;
  backup_taken_at: string | null;
  salvaged: Record<string, number>;
  from_backup: Record<string, number>;
  unreadable: string[];
  dropped: Record<string, number>;
  accounts: string[];
  files_set_aside: number;
  files_folder: string | null;
}

export interface OpenedServiceDb {
  db: DatabaseSync;
  recovery: ServiceRecovery | null;
}

const SERVICE_DB = 'service.db';
const RECOVERIES_FILE = 'recoveries.jsonl';

/** Opens `<dataDir>/service.db`, recovering it first when it is damaged, emptied or lost. */
export function openServiceDatabase(dataDir: string, now: () => Date = () => new Date()): OpenedServiceDb {
  const file = join(dataDir, SERVICE_DB);
  // Private copies a salvage cut off by a kill left behind.
  for (const name of readdirSync(dataDir)) if (name.startsWith('.salvage-')) rmSync(join(dataDir, name), { recursive: true, force: true });
  finishCutOffRecovery(file);
  const diagnosed = diagnoseServiceDb(dataDir);
  const opened = diagnosed ?? openUnlessDamaged(file);
  if (typeof opened !== 'string') return { db: opened, recovery: null };
  const recovery = recoverServiceDb(dataDir, opened, now());
  appendFileSync(join(dataDir, RECOVERIES_FILE), `${JSON.stringify(recovery.record)}\n`, { mode: 0o600 });
  return { db: recovery.db, recovery: recovery.record };
}

/**
 * A recovery killed after it moved the damaged file aside and before it put the rebuilt one in its place left a full
 * `service.db.rebuilding` and no service.db: it takes its place now (otherwise only the backup would be read).
 */
function finishCutOffRecovery(file: string): void {
  const staging = `${file}.rebuilding`;
  if (existsSync(file) || !existsSync(staging) || !passesQuickCheck(staging)) return;
  for (const suffix of COMPANIONS.slice(1)) rmSync(`${staging}${suffix}`, { force: true });
  renameSync(staging, file);
}

/** The database opened and migrated, or 'open_failed' when SQLite or a migration fails on it; a storage failure throws. */
function openUnlessDamaged(file: string): DatabaseSync | 'open_failed' {
  try {
    return openDatabase(file);
  } catch (error) {
    if (isDamage(error)) return 'open_failed';
    throw error;
  }
}

/** The recoveries recorded at or after `sinceMs` (a host reads those of the start it made). */
export function readServiceRecoveries(dataDir: string, sinceMs: number): ServiceRecovery[] {
  let text: string;
  try {
    text = readFileSync(join(dataDir, RECOVERIES_FILE), 'utf8');
  } catch {
    return [];
  }
  const found: ServiceRecovery[] = [];
  for (const line of text.split('\n')) {
    try {
      const record = JSON.parse(line) as ServiceRecovery;
      if (Date.parse(record.at) >= sinceMs) found.push(record);
    } catch {
      // a line cut short by a crash: not a record
    }
  }
  return found;
}

/** A name beside `file` that no earlier damaged copy uses, so a second damage never overwrites the first. */
function damagedName(file: string, at: Date): string {
  const base = `${file}.damaged-${fileStamp(at)}`;
  const taken = (name: string): boolean => ['', '-wal', '-shm'].some((s) => existsSync(`${name}${s}`));
  if (!taken(base)) return base;
  for (let i = 2; ; i++) if (!taken(`${base}-${i}`)) return `${base}-${i}`;
}

/** Moves the file and its -wal/-shm aside under SQLite's naming, so the kept copy opens with its WAL; null if none. */
function moveAside(file: string, at: Date): string | null {
  if (!['', '-wal'].some((s) => existsSync(`${file}${s}`))) return null;
  const target = damagedName(file, at);
  for (const suffix of COMPANIONS) {
    if (existsSync(`${file}${suffix}`)) renameSync(`${file}${suffix}`, `${target}${suffix}`);
  }
  return target;
}

const COMPANIONS = ['', '-wal', '-shm', '-journal'];

/**
 * The fresh database is built beside the damaged file and takes its place only once full, so a recovery cut short
 * (a kill, a full disk) leaves service.db as it was and the next start does it again from the same sources.
 */
function recoverServiceDb(dataDir: string, reason: DamageReason, at: Date): { db: DatabaseSync; record: ServiceRecovery } {
  const file = join(dataDir, SERVICE_DB);
  const staging = `${file}.rebuilding`;
  for (const suffix of COMPANIONS) rmSync(`${staging}${suffix}`, { force: true });
  const fresh = openDatabase(staging);
  let filled: ReturnType<typeof fillFresh>;
  // Rows arrive table by table and source by source: links are made whole at the end (settle.ts).
  fresh.exec('PRAGMA foreign_keys = OFF');
  try {
    filled = fillFresh(fresh, dataDir, existsSync(file) || existsSync(`${file}-wal`) ? file : null, reason);
    fresh.exec('PRAGMA foreign_keys = ON');
    // Everything into the main file, so renaming it alone moves the whole database.
    fresh.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  } finally {
    fresh.close();
  }
  const damagedPath = moveAside(file, at);
  // A checkpointed, closed database has no -wal or -shm left that matter.
  for (const suffix of COMPANIONS.slice(1)) rmSync(`${staging}${suffix}`, { force: true });
  renameSync(staging, file);
  const db = openDatabase(file);
  const aside = setAsideUnnamedFiles(db, dataDir, at);
  return { db, record: { at: at.toISOString(), reason, damaged_path: damagedPath, ...filled, ...aside } };
}

/**
 * Images whose rows were lost leave files/ for `files.unnamed-<stamp>/`: kept for the user, and out of the way of the
 * crash clean-up, which deletes the files no row names (they would be taken for cut-off runs).
 */
function setAsideUnnamedFiles(db: DatabaseSync, dataDir: string, at: Date): { files_set_aside: number; files_folder: string | null } {
  const dir = join(dataDir, 'files');
  if (!existsSync(dir)) return { files_set_aside: 0, files_folder: null };
  const named = createImagesRepo(db).allFilenames();
  const unnamed = readdirSync(dir).filter((name) => isFilename(name) && !named.has(name));
  if (unnamed.length === 0) return { files_set_aside: 0, files_folder: null };
  const folder = join(dataDir, `files.unnamed-${fileStamp(at)}`);
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  for (const name of unnamed) renameSync(join(dir, name), join(folder, name));
  return { files_set_aside: unnamed.length, files_folder: folder };
}

/** Fills the fresh database from the newest source first; INSERT OR IGNORE keeps the first copy of a row. */
function fillFresh(db: DatabaseSync, dataDir: string, damagedPath: string | null, reason: DamageReason): Omit<ServiceRecovery, 'at' | 'reason' | 'damaged_path' | 'files_set_aside' | 'files_folder'> {
  const salvaged: SourceYield = { kept: {}, unreadable: [] };
  const fromBackup: SourceYield = { kept: {}, unreadable: [] };
  if (damagedPath) salvageDamaged(db, dataDir, damagedPath, reason, salvaged);
  const fromDamaged = accountIds(db);
  const backupTakenAt = fillFromBackup(db, dataDir, fromBackup);
  balancesFromLedger(db, fromDamaged);
  const dropped = settleOrphans(db, () => newId('session'));
  return {
    backup_taken_at: backupTakenAt,
    salvaged: salvaged.kept,
    from_backup: fromBackup.kept,
    unreadable: [...new Set(salvaged.unreadable)],
    dropped,
    accounts: accountIds(db),
  };
}

/**
 * Reads the damaged file twice over, on private copies: with its WAL (the newest rows) and without it (a WAL that
 * does not belong to the file ruins what it covers). Copies that pass quick_check are read first. When the file read
 * fine but lost its accounts, its WAL is what replaced them and is not read at all.
 */
function salvageDamaged(db: DatabaseSync, dataDir: string, damagedPath: string, reason: DamageReason, into: SourceYield): void {
  if (!existsSync(damagedPath) || statSync(damagedPath).size === 0) {
    if (existsSync(damagedPath)) into.unreadable.push('all');
    return;
  }
  const work = mkdtempSync(join(dataDir, '.salvage-'));
  try {
    const views: string[] = [];
    if (existsSync(`${damagedPath}-wal`) && reason !== 'accounts_missing') views.push(openableCopy(damagedPath, work, true));
    views.push(openableCopy(damagedPath, work, false));
    const sound = new Set(views.filter(passesQuickCheck));
    const ordered = [...views.filter((v) => sound.has(v)), ...views.filter((v) => !sound.has(v))];
    const yields = ordered.map((view) => readView(db, view));
    for (const y of yields) for (const [table, rows] of Object.entries(y.kept)) into.kept[table] = (into.kept[table] ?? 0) + rows;
    // A table counts as unreadable only when no view could read it to the end.
    const readSomewhere = (table: string): boolean => yields.some((y) => !y.unreadable.includes(table) && !y.unreadable.includes('all'));
    into.unreadable.push(...new Set(yields.flatMap((y) => y.unreadable).filter((t) => !readSomewhere(t))));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function readView(db: DatabaseSync, view: string): SourceYield {
  const yielded: SourceYield = { kept: {}, unreadable: [] };
  let from: DatabaseSync;
  try {
    from = new DatabaseSync(view);
  } catch {
    yielded.unreadable.push('all');
    return yielded;
  }
  try {
    copyReadableRows(from, db, yielded);
  } finally {
    from.close();
  }
  return yielded;
}

/** The newest backup that passes quick_check fills what the damaged file lost; returns when it was taken. */
function fillFromBackup(db: DatabaseSync, dataDir: string, into: SourceYield): string | null {
  for (const backup of listServiceBackups(dataDir)) {
    if (!passesQuickCheck(backup.path)) continue;
    const from = new DatabaseSync(backup.path, { readOnly: true });
    try {
      copyReadableRows(from, db, into);
    } finally {
      from.close();
    }
    return backup.takenAt;
  }
  return null;
}

function accountIds(db: DatabaseSync): string[] {
  return (db.prepare('SELECT id FROM accounts ORDER BY id').all() as Array<{ id: string }>).map((r) => r.id);
}

/**
 * An account the damaged file lost came from the backup with the backup's balance; the credit ledger the damaged
 * file still held is newer: each movement records the balance after it, so the newest one is the balance.
 */
function balancesFromLedger(db: DatabaseSync, fromDamaged: readonly string[]): void {
  const newest = db.prepare('SELECT balance_after FROM ledger WHERE account_id = ? ORDER BY id DESC LIMIT 1');
  const update = db.prepare('UPDATE accounts SET credits = ? WHERE id = ?');
  for (const id of accountIds(db)) {
    if (fromDamaged.includes(id)) continue;
    const row = newest.get(id) as { balance_after: number } | undefined;
    if (row && row.balance_after >= 0) update.run(row.balance_after, id);
  }
}
