// Snapshots and reset (issue 27 Deliver 3, docs/local-service.md "Snapshots and reset"): the whole state of a running
// service (service.db: accounts, keys, balances, turns, images, webhooks and deliveries, the request ledger, settings
// and the clock offset; and the generated files) saved under a name, brought back, or emptied, while it runs. The same
// folder layout is what `--export-on-exit` writes and `--import` reads.
//
// Saving: one consistent copy of service.db (recovery/backups.ts writeDatabaseCopy: online backup, fsync, rename) and
// the files that copy names, linked (or copied) beside it, in a hidden folder renamed into place once whole.
// Restoring: the snapshot's rows replace every table's rows in one transaction on the service's own connection, so
// every route keeps working across it; what the service holds in memory is then read again (LiveState).
import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, linkSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { AdminSnapshot } from '../../src-shared/admin.ts';
import { isFilename } from '../../src-shared/ids.ts';
import type { Clock } from '../clock.ts';
import { openDatabase, transaction } from '../db.ts';
import { fail } from '../http/errors.ts';
import { fsyncPath, removeServiceBackups, writeDatabaseCopy } from '../recovery/backups.ts';
import { copyableTables } from '../recovery/salvage.ts';

export const SNAPSHOTS_DIR = 'snapshots';
const SNAPSHOT_DB = 'service.db';
const SNAPSHOT_FILES = 'files';
const SNAPSHOT_INFO = 'snapshot.json';
/** How often a restore or reset waiting for running generations looks again. */
const BUSY_POLL_MS = 50;

/** What the service keeps in memory beside service.db: written out before a copy, read again after a replace. */
export interface LiveState {
  /** Writes what memory holds (queued ledger entries, usage counts) so a copy has it. */
  flush(): void;
  /** Reads clock, settings, usage windows and ledger counts again; resumes the pending webhook deliveries. */
  reload(): void;
}

export interface SnapshotStoreOptions {
  db: DatabaseSync;
  dataDir: string;
  /** The data folder's generated files (files.ts). */
  filesDir: string;
  clock: Clock;
  live: LiveState;
}

export interface SnapshotStore {
  list(): AdminSnapshot[];
  save(name: string): Promise<AdminSnapshot>;
  restore(name: string): Promise<AdminSnapshot>;
  remove(name: string): void;
  /** No accounts, no files, an empty ledger, default settings, the clock at real time. */
  reset(): Promise<void>;
  /** Writes the state to `path` (a folder, replaced whole): `--export-on-exit`. */
  exportTo(path: string): Promise<void>;
  /** Replaces the state with the export or snapshot at `path` (its folder, or its service.db): `--import`. */
  importFrom(path: string): Promise<void>;
}

/** The kv row kept across a restore: direct links already handed out stay valid (files.ts keeps its secret in memory). */
const KEPT_KV_KEYS = ['direct_link_secret'];

export function createSnapshotStore(options: SnapshotStoreOptions): SnapshotStore {
  const { db, dataDir, filesDir, clock, live } = options;
  const root = join(dataDir, SNAPSHOTS_DIR);
  // What a kill cut short (a snapshot being written, a restore's working copy) is never a snapshot.
  if (existsSync(root)) for (const name of readdirSync(root)) if (name.startsWith('.')) rmSync(join(root, name), { recursive: true, force: true });
  // One snapshot operation at a time: a save copying while a restore replaces would copy half of each.
  let queue: Promise<unknown> = Promise.resolve();
  const serially = <T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.then(work, work);
    queue = next.catch(() => undefined);
    return next;
  };

  const folderOf = (name: string): string => join(root, name);
  const known = (name: string): boolean => existsSync(join(folderOf(name), SNAPSHOT_DB));
  const notFound = (name: string): never => fail('not_found', { what: `snapshot ${name}`, what_zh: `快照 ${name}`, admin: true });

  async function writeFolder(target: string): Promise<void> {
    mkdirSync(dirname(target), { recursive: true, mode: 0o700 });
    const partial = join(dirname(target), `.partial-${basename(target)}-${randomBytes(4).toString('hex')}`);
    mkdirSync(join(partial, SNAPSHOT_FILES), { recursive: true, mode: 0o700 });
    try {
      live.flush();
      await writeDatabaseCopy(db, join(partial, SNAPSHOT_DB));
      for (const filename of filenamesIn(join(partial, SNAPSHOT_DB))) linkOrCopy(join(filesDir, filename), join(partial, SNAPSHOT_FILES, filename));
      writeFileSync(join(partial, SNAPSHOT_INFO), `${JSON.stringify({ name: basename(target), created_at: clock.nowSeconds() })}\n`, { mode: 0o600 });
      fsyncPath(join(partial, SNAPSHOT_FILES));
      fsyncPath(partial);
      replaceFolder(partial, target);
    } finally {
      rmSync(partial, { recursive: true, force: true });
    }
  }

  /** Waits until no generation holds a reservation, then replaces the state in the same tick (none can start between). */
  async function whenIdle(replace: () => void): Promise<void> {
    while (pendingReservations(db) > 0) await new Promise((r) => setTimeout(r, BUSY_POLL_MS));
    replace();
  }

  /** Replaces every row with those of the snapshot folder `source`, and the files with its files. */
  async function replaceFrom(source: string): Promise<void> {
    const work = join(root, `.restore-${randomBytes(4).toString('hex')}.db`);
    mkdirSync(root, { recursive: true, mode: 0o700 });
    try {
      copyFileSync(join(source, SNAPSHOT_DB), work);
      // An export of an older version is brought to this version's schema first (its own migrations).
      openDatabase(work).close();
      const wanted = filenamesIn(work);
      for (const filename of wanted) {
        const from = join(source, SNAPSHOT_FILES, filename);
        if (existsSync(from) && !existsSync(join(filesDir, filename))) linkOrCopy(from, join(filesDir, filename));
      }
      await whenIdle(() => {
        live.flush();
        removeServiceBackups(dataDir);
        replaceRows(db, work);
        removeFilesNotIn(filesDir, wanted);
        live.reload();
      });
    } finally {
      for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${work}${suffix}`, { force: true });
    }
  }

  return {
    list() {
      if (!existsSync(root)) return [];
      return readdirSync(root)
        .filter((name) => !name.startsWith('.') && known(name))
        .map((name) => describe(folderOf(name)))
        .sort((a, b) => b.created_at - a.created_at || (a.name < b.name ? -1 : 1));
    },
    save(name) {
      return serially(async () => {
        if (known(name)) {
          fail('invalid_request', {
            detail: `name: a snapshot named ${JSON.stringify(name)} exists; delete it first or choose another name`,
            detail_zh: `name：已有名为 ${JSON.stringify(name)} 的快照；请先删除它或换一个名称`,
          });
        }
        await writeFolder(folderOf(name));
        return describe(folderOf(name));
      });
    },
    restore(name) {
      return serially(async () => {
        if (!known(name)) notFound(name);
        await replaceFrom(folderOf(name));
        return describe(folderOf(name));
      });
    },
    remove(name) {
      if (!known(name)) notFound(name);
      rmSync(folderOf(name), { recursive: true, force: true });
    },
    reset() {
      return serially(() =>
        whenIdle(() => {
          live.flush();
          removeServiceBackups(dataDir);
          emptyRows(db);
          removeFilesNotIn(filesDir, new Set());
          clock.reset();
          live.reload();
        }),
      );
    },
    exportTo(path) {
      return serially(() => writeFolder(resolve(path)));
    },
    importFrom(path) {
      return serially(() => replaceFrom(snapshotFolderOf(path)));
    },
  };
}

/** `--import PATH`: a snapshot or export folder, or its service.db (the files beside it in `files/`). */
export function snapshotFolderOf(path: string): string {
  const full = resolve(path);
  const folder = existsSync(full) && statSync(full).isDirectory() ? full : dirname(full);
  if (!existsSync(join(folder, SNAPSHOT_DB))) throw new Error(`--import ${path}: no ${SNAPSHOT_DB} there (give an export folder or its ${SNAPSHOT_DB})`);
  return folder;
}

function pendingReservations(db: DatabaseSync): number {
  return Number((db.prepare("SELECT COUNT(*) AS n FROM reservations WHERE status = 'pending'").get() as { n: number }).n);
}

/** The generated files a copy of service.db names. */
function filenamesIn(file: string): Set<string> {
  const copy = new DatabaseSync(file, { readOnly: true });
  try {
    return new Set((copy.prepare('SELECT filename FROM images').all() as Array<{ filename: string }>).map((r) => r.filename));
  } finally {
    copy.close();
  }
}

/** Generated files never change once written, so a hard link is a copy that costs nothing; a copy where links fail. */
function linkOrCopy(from: string, to: string): void {
  if (!existsSync(from)) return;
  try {
    linkSync(from, to);
  } catch {
    copyFileSync(from, to);
  }
}

/** Removes the generated files not in `keep` (those of the state replaced). */
function removeFilesNotIn(dir: string, keep: ReadonlySet<string>): void {
  for (const name of readdirSync(dir)) if (isFilename(name) && !keep.has(name)) rmSync(join(dir, name), { force: true });
}

/** Moves a whole folder into place: an older one at `target` is moved aside first and removed after. */
function replaceFolder(partial: string, target: string): void {
  const aside = existsSync(target) ? `${target}.old-${randomBytes(4).toString('hex')}` : null;
  if (aside) renameSync(target, aside);
  renameSync(partial, target);
  fsyncPath(dirname(target));
  if (aside) rmSync(aside, { recursive: true, force: true });
}

function describe(folder: string): AdminSnapshot {
  let createdAt = Math.floor(statSync(join(folder, SNAPSHOT_DB)).mtimeMs / 1000);
  try {
    createdAt = (JSON.parse(readFileSync(join(folder, SNAPSHOT_INFO), 'utf8')) as { created_at: number }).created_at;
  } catch {
    // An export copied by hand without its snapshot.json: the file's time stands in.
  }
  return { name: basename(folder), created_at: createdAt, size: folderSize(folder) };
}

function folderSize(folder: string): number {
  let size = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    size += entry.isDirectory() ? folderSize(path) : statSync(path).size;
  }
  return size;
}

function columnsOf(db: DatabaseSync, schema: string, table: string): string[] {
  return (db.prepare(`PRAGMA ${schema}.table_info("${table}")`).all() as Array<{ name: string }>).map((c) => c.name);
}

/** Deletes every row of the service's tables but the kept kv rows; foreign keys are checked at the commit. */
function deleteAll(db: DatabaseSync): void {
  db.exec('PRAGMA defer_foreign_keys = ON');
  for (const table of copyableTables(db)) {
    if (table === 'kv') db.prepare(`DELETE FROM kv WHERE key NOT IN (${KEPT_KV_KEYS.map(() => '?').join(', ')})`).run(...KEPT_KV_KEYS);
    else db.exec(`DELETE FROM "${table}"`);
  }
}

function emptyRows(db: DatabaseSync): void {
  transaction(db, () => deleteAll(db));
}

/** Every table's rows become those of the database file `source` (same schema), in one transaction. */
function replaceRows(db: DatabaseSync, source: string): void {
  db.prepare("ATTACH DATABASE ? AS snapshot").run(source);
  try {
    transaction(db, () => {
      deleteAll(db);
      for (const table of copyableTables(db)) {
        const theirs = new Set(columnsOf(db, 'snapshot', table));
        const list = columnsOf(db, 'main', table).filter((c) => theirs.has(c)).map((c) => `"${c}"`).join(', ');
        const skipKept = table === 'kv' ? ` WHERE key NOT IN (${KEPT_KV_KEYS.map((k) => `'${k}'`).join(', ')})` : '';
        db.exec(`INSERT INTO main."${table}" (${list}) SELECT ${list} FROM snapshot."${table}"${skipKept}`);
      }
    });
  } finally {
    db.exec('DETACH DATABASE snapshot');
  }
}
