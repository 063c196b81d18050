// When the library is backed up (docs/main-process.md "Recovery of local data"): at start when the newest backup is
// older than the interval, then whenever the library changed and the interval has passed since the last backup,
// and at quit when it changed since; so a restore loses at most minutes. How a backup is taken: recovery.ts.
import type { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import { BACKUP_DIR, backupLibrary, listBackups } from './recovery.ts';

/** The least time between two backups of a changed library. */
export const BACKUP_INTERVAL_MS = 10 * 60_000;
/** How often the library is looked at for changes (one cheap query). */
const CHECK_EVERY_MS = 60_000;

export interface LibraryBackupOptions {
  intervalMs?: number;
  checkEveryMs?: number;
  now?: () => number;
  onTrouble?: (message: string, error: unknown) => void;
  /** After each backup: null when it was taken, else why not and the folder backups go to (for the user's notice). */
  onOutcome?: (failure: BackupFailure | null) => void;
}

export interface BackupFailure {
  error: string;
  folder: string;
}

export class LibraryBackups {
  private readonly db: DatabaseSync;
  private readonly dataDir: string;
  private readonly intervalMs: number;
  private readonly now: () => number;
  private readonly onTrouble: (message: string, error: unknown) => void;
  private readonly onOutcome: (failure: BackupFailure | null) => void;
  private readonly timer: NodeJS.Timeout;
  private running: Promise<unknown> = Promise.resolve();
  private busy = false;
  /** The connection's change count when the last backup started (null: no backup this run yet). */
  private changesAtBackup: number | null = null;
  private lastAt: number;

  constructor(db: DatabaseSync, dataDir: string, options: LibraryBackupOptions = {}) {
    this.db = db;
    this.dataDir = dataDir;
    this.intervalMs = options.intervalMs ?? BACKUP_INTERVAL_MS;
    this.now = options.now ?? Date.now;
    this.onTrouble = options.onTrouble ?? (() => undefined);
    this.onOutcome = options.onOutcome ?? (() => undefined);
    const newest = listBackups(dataDir)[0];
    this.lastAt = newest ? Date.parse(newest.takenAt) : 0;
    this.timer = setInterval(() => this.maybeBackUp(), options.checkEveryMs ?? CHECK_EVERY_MS);
    this.timer.unref();
  }

  /** At start: a backup when the newest one is older than the interval (or there is none). */
  start(): Promise<unknown> {
    if (this.now() - this.lastAt >= this.intervalMs) this.backUp();
    return this.running;
  }

  /** A backup when the library changed since the last one and the interval has passed. */
  maybeBackUp(): Promise<unknown> {
    if (!this.busy && this.changed() && this.now() - this.lastAt >= this.intervalMs) this.backUp();
    return this.running;
  }

  /** At quit: waits for a backup in progress, then takes one if the library changed since. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
    if (this.changed()) {
      this.backUp();
      await this.running;
    }
  }

  /** Whether this connection wrote since the last backup (main is the library's only writer). */
  private changed(): boolean {
    const changes = this.changeCount();
    return this.changesAtBackup === null ? changes > 0 : changes !== this.changesAtBackup;
  }

  private changeCount(): number {
    return Number((this.db.prepare('SELECT total_changes() AS n').get() as { n: number | bigint }).n);
  }

  private backUp(): void {
    this.busy = true;
    this.changesAtBackup = this.changeCount();
    this.lastAt = this.now();
    this.running = backupLibrary(this.db, this.dataDir, new Date(this.lastAt))
      .then(
        () => this.onOutcome(null),
        (error: unknown) => {
          this.onTrouble('could not back up the library', error);
          this.onOutcome({ error: error instanceof Error ? error.message : String(error), folder: join(this.dataDir, BACKUP_DIR) });
        },
      )
      .finally(() => {
        this.busy = false;
      });
  }
}
