// Salvage of a damaged service.db (docs/local-service.md "A damaged service.db"): the rows SQLite can still read are
// copied, table by table, into the fresh database that replaces it. Reading happens on a private copy, so the file
// kept aside stays exactly as it was found; the copy is made openable first (a ruined header rewritten, a file cut
// short padded to whole pages).
import { closeSync, copyFileSync, existsSync, ftruncateSync, openSync, readSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

const MAGIC = Buffer.from('SQLite format 3\0', 'latin1');
/** service.db never changes SQLite's default page size. */
const SERVICE_PAGE_SIZE = 4096;

/** What one source gave: rows kept by table, tables it could not read to the end. */
export interface SourceYield {
  kept: Record<string, number>;
  unreadable: string[];
}

/** A header for a file whose own first 100 bytes are lost: the values every service.db has. */
function rebuiltHeader(withWal: boolean): Buffer {
  const header = Buffer.alloc(100);
  MAGIC.copy(header, 0);
  header.writeUInt16BE(SERVICE_PAGE_SIZE, 16);
  // File format 2 lets the copy read its WAL; 1 makes SQLite ignore any WAL beside it.
  header[18] = header[19] = withWal ? 2 : 1;
  header[21] = 64;
  header[22] = 32;
  header[23] = 32;
  header.writeUInt32BE(1, 24); // change counter; 92 differs from it, so the page count at 28 is ignored
  header.writeUInt32BE(1, 40); // schema cookie
  header.writeUInt32BE(4, 44); // schema format
  header.writeUInt32BE(1, 56); // UTF-8
  header.writeUInt32BE(3_045_000, 96);
  return header;
}

/**
 * Copies `damaged` (and its WAL when `withWal`) into `work` so SQLite opens it: a header without SQLite's magic is
 * rebuilt, the size is padded to whole pages and the header's page count marked stale (SQLite then goes by the size).
 */
export function openableCopy(damaged: string, work: string, withWal: boolean): string {
  const copy = join(work, withWal ? 'with-wal.db' : 'main-only.db');
  copyFileSync(damaged, copy);
  if (withWal && existsSync(`${damaged}-wal`)) copyFileSync(`${damaged}-wal`, `${copy}-wal`);
  const fd = openSync(copy, 'r+');
  try {
    const header = Buffer.alloc(100);
    readSync(fd, header, 0, 100, 0);
    if (!header.subarray(0, 16).equals(MAGIC)) rebuiltHeader(withWal).copy(header);
    else if (!withWal) header[18] = header[19] = 1;
    const pageSize = header.readUInt16BE(16) === 1 ? 65_536 : header.readUInt16BE(16);
    header.writeUInt32BE((header.readUInt32BE(24) + 1) >>> 0, 92);
    writeSync(fd, header, 0, 100, 0);
    const size = statSync(copy).size;
    if (size % pageSize !== 0) ftruncateSync(fd, size + pageSize - (size % pageSize));
  } finally {
    closeSync(fd);
  }
  return copy;
}

/** Whether SQLite calls the file sound (`PRAGMA quick_check`); any error reading it says no. */
export function passesQuickCheck(file: string): boolean {
  let db: DatabaseSync | null = null;
  try {
    db = new DatabaseSync(file, { readOnly: true });
    const rows = db.prepare('PRAGMA quick_check').all() as Array<{ quick_check: string }>;
    return rows.length === 1 && rows[0]?.quick_check === 'ok';
  } catch {
    return false;
  } finally {
    db?.close();
  }
}

/** The tables of `db` worth copying (ours; not SQLite's, not the migrations' record), in creation order. */
export function copyableTables(db: DatabaseSync): string[] {
  const rows = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'schema_migrations' ORDER BY rootpage").all() as Array<{ name: string }>;
  return rows.map((r) => r.name);
}

function columnNames(db: DatabaseSync, table: string): string[] {
  return (db.prepare(`PRAGMA table_info("${table}")`).all() as Array<{ name: string }>).map((c) => c.name);
}

/**
 * Copies every row `from` can still give into `into` with INSERT OR IGNORE: a row `into` already holds (from a
 * source tried earlier) stays as it is. A row that breaks a rule of the schema (garbage read as a row) is skipped;
 * a read that fails part-way keeps the rows read before it and names the table.
 */
export function copyReadableRows(from: DatabaseSync, into: DatabaseSync, yielded: SourceYield): void {
  let theirs: Set<string>;
  try {
    theirs = new Set(copyableTables(from));
  } catch {
    yielded.unreadable.push('all');
    return;
  }
  for (const table of copyableTables(into)) {
    if (!theirs.has(table)) continue;
    const copied = copyOneTable(from, into, table, yielded);
    if (copied > 0) yielded.kept[table] = (yielded.kept[table] ?? 0) + copied;
  }
}

function copyOneTable(from: DatabaseSync, into: DatabaseSync, table: string, yielded: SourceYield): number {
  let copied = 0;
  try {
    const wanted = new Set(columnNames(into, table));
    const columns = columnNames(from, table).filter((c) => wanted.has(c));
    const list = columns.map((c) => `"${c}"`).join(', ');
    const insert = into.prepare(`INSERT OR IGNORE INTO "${table}" (${list}) VALUES (${columns.map(() => '?').join(', ')})`);
    into.exec('BEGIN');
    try {
      for (const row of from.prepare(`SELECT ${list} FROM "${table}"`).iterate() as Iterable<Record<string, unknown>>) {
        copied += insertRow(insert, columns, row);
      }
    } finally {
      into.exec('COMMIT');
    }
  } catch {
    yielded.unreadable.push(table);
  }
  return copied;
}

/** 1 when the row went in; 0 when `into` had it already or the schema refuses it. */
function insertRow(insert: ReturnType<DatabaseSync['prepare']>, columns: string[], row: Record<string, unknown>): number {
  try {
    return Number(insert.run(...columns.map((c) => row[c] as string | number | bigint | Uint8Array | null)).changes);
  } catch {
    return 0;
  }
}
