// Backups of service.db in `<data>/backups/` (docs/local-service.md "A damaged service.db"): taken once the service
// listens, every 10 minutes while it changes, and at a clean stop; the newest 3 are kept. They are what a lost or
// emptied service.db is rebuilt from, and what tells a damaged folder from a first start.
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as sqlite from 'node:sqlite';
import { DatabaseSync } from 'node:sqlite';

export const SERVICE_BACKUP_DIR = 'backups';
export const SERVICE_BACKUPS_KEPT = 3;
/** The least time between two backups of a database that changed. */
export const SERVICE_BACKUP_INTERVAL_MS = 10 * 60_000;

const BACKUP_NAME = /^service-(\d{4}-\d{2}-\d{2})T(\d{2})(\d{2})(\d{2})(\d{3})Z\.db$/;

/** `2026-11-22T101500123Z`: sortable, valid in file names everywhere, distinct for backups in the same second. */
export function fileStamp(date: Date): string {
  return date.toISOString().replace(/[:.]/g, '');
}

export interface ServiceBackup {
  path: string;
  /** ISO 8601 time it was taken. */
  takenAt: string;
}

/** The backups, newest first. */
export function listServiceBackups(dataDir: string): ServiceBackup[] {
  const dir = join(dataDir, SERVICE_BACKUP_DIR);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .map((name) => ({ name, m: BACKUP_NAME.exec(name) }))
    .filter((e): e is { name: string; m: RegExpExecArray } => e.m !== null)
    .sort((a, b) => (a.name < b.name ? 1 : -1))
    .map(({ name, m }) => ({ path: join(dir, name), takenAt: `${m[1]}T${m[2]}:${m[3]}:${m[4]}.${m[5]}Z` }));
}

/**
 * Writes a consistent copy of the open database to `target` with SQLite's online backup (the service keeps answering
 * meanwhile): under a `.partial` name, owner-only, turned into a rollback-journal file (read later, it leaves no
 * -wal/-shm beside it), flushed to the disk, then renamed into place, so `target` is never half written. The one
 * copier of service.db: backups and snapshots (services/snapshots.ts) both use it.
 */
export async function writeDatabaseCopy(db: DatabaseSync, target: string): Promise<void> {
  const backup = (sqlite as Partial<typeof sqlite>).backup;
  if (typeof backup !== 'function') throw new Error('copies of service.db need node:sqlite backup() (Node 22.16 or later)');
  const partial = `${target}.partial`;
  try {
    // Owner-only before SQLite writes into it (it keeps the file's mode), like service.db itself.
    closeSync(openSync(partial, 'w', 0o600));
    await backup(db, partial, { rate: 256 });
    const copy = new DatabaseSync(partial);
    copy.exec('PRAGMA journal_mode = DELETE');
    copy.close();
    fsyncPath(partial);
    renameSync(partial, target);
    fsyncPath(dirname(target));
  } finally {
    for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${partial}${suffix}`, { force: true });
  }
}

/** Flushes a file or a folder (a rename in it) to the disk. Windows cannot open a folder for this; it is skipped there. */
export function fsyncPath(path: string): void {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    if (process.platform === 'win32') return;
    throw error;
  }
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Copies the open database into a new backup (writeDatabaseCopy), then keeps the newest SERVICE_BACKUPS_KEPT. */
export async function backupServiceDb(db: DatabaseSync, dataDir: string, now: Date = new Date()): Promise<string> {
  const dir = join(dataDir, SERVICE_BACKUP_DIR);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // A backup cut off by a kill left a partial file; it is never a backup.
  for (const name of readdirSync(dir)) if (name.includes('.partial')) rmSync(join(dir, name), { force: true });
  const target = join(dir, `service-${fileStamp(now)}.db`);
  await writeDatabaseCopy(db, target);
  for (const old of listServiceBackups(dataDir).slice(SERVICE_BACKUPS_KEPT)) rmSync(old.path, { force: true });
  return target;
}

/**
 * Removes every backup: before a restore or a reset replaces the state, the backups of the old state would make the
 * next start take the new state's missing accounts for damage (recovery/diagnose.ts).
 */
export function removeServiceBackups(dataDir: string): void {
  for (const backup of listServiceBackups(dataDir)) rmSync(backup.path, { force: true });
}

export interface BackupSchedule {
  /** Takes a backup now (after a restore or a reset), after any in progress. */
  takeNow(): Promise<void>;
  /** Waits for a backup in progress, then takes one if the database changed since the last. */
  close(): Promise<void>;
}

/**
 * Backs the database up now, then every `intervalMs` when it changed. A backup that fails (a full disk) is logged
 * and tried at the next turn; it never throws out of the process.
 */
export function scheduleServiceBackups(
  db: DatabaseSync,
  dataDir: string,
  log: (error: unknown) => void,
  intervalMs: number = SERVICE_BACKUP_INTERVAL_MS,
): BackupSchedule {
  let running: Promise<void> = Promise.resolve();
  let changesAtBackup: number | null = null;
  const changes = (): number => Number((db.prepare('SELECT total_changes() AS n').get() as { n: number }).n);
  const take = (): Promise<void> => {
    running = running.then(async () => {
      try {
        const before = changes();
        await backupServiceDb(db, dataDir);
        changesAtBackup = before;
      } catch (error) {
        log(error);
      }
    });
    return running;
  };
  const changed = (): boolean => changesAtBackup === null || changes() !== changesAtBackup;
  void take();
  const timer = setInterval(() => {
    try {
      if (changed()) void take();
    } catch (error) {
      log(error);
    }
  }, intervalMs);
  timer.unref();
  return {
    takeNow: take,
    async close() {
      clearInterval(timer);
      await running;
      try {
        if (changed()) await take();
      } catch (error) {
        log(error);
      }
    },
  };
}
