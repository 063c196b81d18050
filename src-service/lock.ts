// One local service per data folder (docs/local-service.md "The data folder lock"). Two services on one
// folder would each treat the other's live reservations as crash leftovers at start-up (DESIGN.md §3 crash
// safety) and refund them and delete their files. The lock is an SQLite file held in exclusive locking mode:
// SQLite's POSIX / Windows file locks belong to the process, so the OS drops them however it dies (kill -9).
import { mkdirSync, readFileSync, readlinkSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

export const LOCK_FILE = 'service.lock';
export const PID_FILE = 'service.pid';

/** What `<data>/service.pid` says about the service holding the lock. */
export interface LockHolder {
  pid: number;
  /** Unix seconds. */
  started_at: number;
  /** null until the holder listens. */
  base_url: string | null;
}

/** The refusal of a second service on a held folder; the CLI exits with DATA_FOLDER_IN_USE_EXIT_CODE. */
export class DataFolderInUseError extends Error {
  readonly code = 'data_folder_in_use';
  readonly dataDir: string;
  readonly holder: LockHolder | null;
  constructor(dataDir: string, holder: LockHolder | null) {
    super(
      `the data folder ${dataDir} is in use by another local service (${holder ? `pid ${holder.pid}` : 'pid unknown'}); ` +
        'stop it first or use another --data folder',
    );
    this.name = 'DataFolderInUseError';
    this.dataDir = dataDir;
    this.holder = holder;
  }
}

/** Exit code of the CLI when the data folder is locked (docs/local-service.md "Exit codes"). */
export const DATA_FOLDER_IN_USE_EXIT_CODE = 3;

export interface DataFolderLock {
  /** Records the holder (pid, start time, base URL once listening) in service.pid. */
  describe(baseUrl: string | null): void;
  /** Releases the lock and removes service.pid (a kill releases the lock too; the stale pid file is harmless). */
  release(): void;
}

function isBusy(error: unknown): boolean {
  const e = error as { errcode?: number; code?: string; message?: string };
  // SQLITE_BUSY (5) and SQLITE_LOCKED (6), with or without extended codes.
  return (typeof e.errcode === 'number' && [5, 6].includes(e.errcode & 0xff)) || /database is locked|SQLITE_BUSY/i.test(e.message ?? '');
}

export function readLockHolder(dataDir: string): LockHolder | null {
  try {
    const parsed = JSON.parse(readFileSync(join(dataDir, PID_FILE), 'utf8')) as Partial<LockHolder>;
    if (typeof parsed.pid !== 'number' || !Number.isInteger(parsed.pid) || parsed.pid <= 0) return null;
    return { pid: parsed.pid, started_at: Number(parsed.started_at) || 0, base_url: typeof parsed.base_url === 'string' ? parsed.base_url : null };
  } catch {
    return null;
  }
}

/**
 * Takes the exclusive lock on the data folder or throws DataFolderInUseError. Touches nothing but
 * service.lock and service.pid, so a refused instance leaves service.db and the files alone.
 */
export function lockDataFolder(dataDirInput: string): DataFolderLock {
  const dataDir = resolve(dataDirInput);
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, LOCK_FILE);
  let db: DatabaseSync | null = null;
  try {
    db = new DatabaseSync(file);
    db.exec('PRAGMA busy_timeout = 0');
    // Exclusive locking mode keeps the lock after the first write until the connection closes; the rollback
    // journal (not WAL) makes that lock a plain OS file lock that other processes see.
    db.exec('PRAGMA locking_mode = EXCLUSIVE');
    db.exec('PRAGMA journal_mode = DELETE');
    db.exec('BEGIN EXCLUSIVE');
    db.exec('CREATE TABLE IF NOT EXISTS holder (pid INTEGER NOT NULL, started_at INTEGER NOT NULL)');
    db.exec('DELETE FROM holder');
    db.prepare('INSERT INTO holder (pid, started_at) VALUES (?, ?)').run(process.pid, Math.floor(Date.now() / 1000));
    db.exec('COMMIT');
  } catch (error) {
    try {
      db?.close();
    } catch {
      // closing a connection that never locked anything cannot matter
    }
    if (isBusy(error)) throw new DataFolderInUseError(dataDir, readLockHolder(dataDir));
    throw error;
  }
  const lockDb = db;
  const startedAt = Math.floor(Date.now() / 1000);
  let released = false;
  const describe = (baseUrl: string | null): void => {
    const holder: LockHolder = { pid: process.pid, started_at: startedAt, base_url: baseUrl };
    writeFileSync(join(dataDir, PID_FILE), `${JSON.stringify(holder)}\n`);
  };
  // Written at once so a refused second instance can name the holder even before it listens.
  describe(null);
  return {
    describe,
    release() {
      if (released) return;
      released = true;
      if (readLockHolder(dataDir)?.pid === process.pid) rmSync(join(dataDir, PID_FILE), { force: true });
      lockDb.close();
    },
  };
}

/** Whether a service holds the folder's lock now (the probe takes and drops the lock when it is free). */
export function probeDataFolder(dataDirInput: string): { locked: boolean; holder: LockHolder | null } {
  const dataDir = resolve(dataDirInput);
  try {
    const lock = lockDataFolder(dataDir);
    lock.release();
    return { locked: false, holder: null };
  } catch (error) {
    if (error instanceof DataFolderInUseError) return { locked: true, holder: error.holder };
    throw error;
  }
}

/**
 * Where /proc exists (Linux): whether process `pid` has the folder's lock file open. Elsewhere null
 * (unknown). Guards against a reused pid in a stale service.pid before anything signals it.
 */
export function processHoldsLockFile(pid: number, dataDirInput: string): boolean | null {
  let target: string;
  try {
    readdirSync('/proc/self/fd');
    target = realpathSync(join(resolve(dataDirInput), LOCK_FILE));
  } catch {
    return null;
  }
  try {
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      try {
        if (readlinkSync(`/proc/${pid}/fd/${fd}`) === target) return true;
      } catch {
        // an fd closed while we looked
      }
    }
    return false;
  } catch {
    return false;
  }
}

/** Signal 0 checks that a process exists; EPERM means it exists but belongs to someone else. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function lockFreedWithin(dataDir: string, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  for (;;) {
    if (!probeDataFolder(dataDir).locked) return true;
    if (Date.now() >= until) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
}

export type FreeDataFolderResult = { ok: true; stoppedPid: number | null } | { ok: false; message: string };

/**
 * For a host about to start the service: when a service left behind (by an app killed before it could stop it)
 * holds the folder, stop it: SIGTERM, up to `termWaitMs` for it to refund and close, then SIGKILL. Only the
 * pid named in service.pid while the lock is held is signalled, and on Linux only if it has the lock file open.
 */
export async function freeDataFolder(
  dataDirInput: string,
  options: { termWaitMs?: number; killWaitMs?: number } = {},
): Promise<FreeDataFolderResult> {
  const dataDir = resolve(dataDirInput);
  const probe = probeDataFolder(dataDir);
  if (!probe.locked) return { ok: true, stoppedPid: null };
  const refusal = (): FreeDataFolderResult => ({ ok: false, message: new DataFolderInUseError(dataDir, readLockHolder(dataDir)).message });
  const holder = probe.holder;
  if (!holder || holder.pid === process.pid || !processAlive(holder.pid) || processHoldsLockFile(holder.pid, dataDir) === false) {
    // Someone holds the lock but not the pid on file: nothing we may signal. It may still be letting go.
    return (await lockFreedWithin(dataDir, 1_000)) ? { ok: true, stoppedPid: null } : refusal();
  }
  try {
    process.kill(holder.pid, 'SIGTERM');
  } catch {
    // gone meanwhile
  }
  if (await lockFreedWithin(dataDir, options.termWaitMs ?? 5_000)) return { ok: true, stoppedPid: holder.pid };
  if (processHoldsLockFile(holder.pid, dataDir) !== false) {
    try {
      process.kill(holder.pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
  return (await lockFreedWithin(dataDir, options.killWaitMs ?? 2_000)) ? { ok: true, stoppedPid: holder.pid } : refusal();
}
