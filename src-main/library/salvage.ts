// Salvage of a damaged library (docs/main-process.md "Recovery of local data"): before the app settles for a backup
// (or an empty library), every table of the damaged file that can still be read is copied, row by row, into the
// library that replaces it; rows the backup already has are kept as the backup has them. What could not be read is
// named, so the user is told what came back and what did not.
import { closeSync, copyFileSync, existsSync, ftruncateSync, mkdtempSync, openSync, readSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { promptIndexRows } from '../domain/library-search.ts';

export interface SalvageReport {
  /** Rows copied from the damaged file, by table (tables with none left out). */
  recovered: Record<string, number>;
  /** Tables that could not be read to the end (their readable rows are still copied); 'all' when the file would not open. */
  unreadable: string[];
  /** Copied rows that were not kept because what they belong to was lost (images of a lost turn), by table. */
  dropped: Record<string, number>;
}

/** Kept by the triggers on images as salvaged images arrive: copying them too would count every image twice. */
const DERIVED_TABLES = new Set(['session_stats', 'turn_stats']);
/** A turn's counts of its images, kept by the same triggers: a salvaged turn starts from none. */
const DERIVED_TURN_COLUMNS: Record<string, null | 0> = { image_count: 0, kept_count: 0, images_at: null, kept_at: null };

/**
 * The tables worth copying, parents first (the order they were created in): ours, not SQLite's, not the
 * migrations' record, not the search indexes (rebuilt), not the counts the triggers keep.
 */
function tablesOf(db: DatabaseSync): string[] {
  const rows = db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY rootpage").all() as Array<{ name: string; sql: string | null }>;
  const virtual = rows.filter((r) => /^CREATE VIRTUAL/i.test(r.sql ?? '')).map((r) => r.name);
  return rows
    .map((r) => r.name)
    .filter((name) => name !== 'schema_migrations' && !DERIVED_TABLES.has(name) && !virtual.some((v) => name === v || name.startsWith(`${v}_`)));
}

function columnsOf(db: DatabaseSync, table: string): string[] {
  return (db.prepare(`PRAGMA table_info("${table}")`).all() as Array<{ name: string }>).map((c) => c.name);
}

/** Copies what `damagedPath` still holds into `into` (a sound library of the same schema or a newer one). */
export function salvageInto(into: DatabaseSync, damagedPath: string): SalvageReport {
  const report: SalvageReport = { recovered: {}, unreadable: [], dropped: {} };
  const work = mkdtempSync(join(tmpdir(), 'studio-salvage-'));
  let from: DatabaseSync;
  try {
    from = new DatabaseSync(readableCopy(damagedPath, work), { readOnly: true });
    from.prepare('SELECT count(*) FROM sqlite_master').get();
  } catch {
    report.unreadable.push('all');
    rmSync(work, { recursive: true, force: true });
    return report;
  }
  // Rows arrive table by table, so a turn may come before its session: references are checked by the schema's
  // readers, not here.
  into.exec('PRAGMA foreign_keys = OFF');
  try {
    const theirs = new Set(safeTables(from));
    for (const table of tablesOf(into)) {
      if (!theirs.has(table)) continue;
      copyTable(from, into, table, report);
    }
    settleOrphans(into, report);
  } finally {
    into.exec('PRAGMA foreign_keys = ON');
    from.close();
    rmSync(work, { recursive: true, force: true });
  }
  return report;
}

/**
 * A copy of the damaged file (and its WAL) that SQLite will open: the kept file is never touched, a file cut short
 * is padded to whole pages, and the header's page count is marked stale so SQLite goes by the file's real size.
 */
function readableCopy(damagedPath: string, work: string): string {
  const copy = join(work, 'library.db');
  copyFileSync(damagedPath, copy);
  if (existsSync(`${damagedPath}-wal`)) copyFileSync(`${damagedPath}-wal`, `${copy}-wal`);
  const fd = openSync(copy, 'r+');
  try {
    const header = Buffer.alloc(100);
    readSync(fd, header, 0, 100, 0);
    const pageSize = header.readUInt16BE(16) === 1 ? 65536 : header.readUInt16BE(16) || 4096;
    const size = statSync(copy).size;
    if (size % pageSize !== 0) ftruncateSync(fd, size + pageSize - (size % pageSize));
    // Bytes 92..95 ("version-valid-for") differing from the change counter (24..27) makes the size at 28 stale.
    const stale = Buffer.alloc(4);
    stale.writeUInt32BE((header.readUInt32BE(24) + 1) >>> 0);
    writeSync(fd, stale, 0, 4, 92);
  } finally {
    closeSync(fd);
  }
  return copy;
}

function safeTables(from: DatabaseSync): string[] {
  try {
    return tablesOf(from);
  } catch {
    return [];
  }
}

/** One table, in one transaction; a read that fails part-way keeps the rows read before it. */
function copyTable(from: DatabaseSync, into: DatabaseSync, table: string, report: SalvageReport): void {
  let copied = 0;
  into.exec('BEGIN');
  try {
    const wanted = new Set(columnsOf(into, table));
    const columns = columnsOf(from, table).filter((c) => wanted.has(c));
    const list = columns.map((c) => `"${c}"`).join(', ');
    const insert = into.prepare(`INSERT OR IGNORE INTO "${table}" (${list}) VALUES (${columns.map(() => '?').join(', ')})`);
    const index = table === 'turns' ? searchIndexer(into) : null;
    const fresh = table === 'turns' ? freshTurn(into) : (row: Record<string, unknown>) => row;
    try {
      for (const read of from.prepare(`SELECT ${list} FROM "${table}"`).iterate() as Iterable<Record<string, unknown>>) {
        const row = fresh(read);
        const values = columns.map((c) => row[c] as string | number | bigint | Uint8Array | null);
        if (insert.run(...values).changes === 1) {
          copied++;
          index?.(row);
        }
      }
    } catch {
      report.unreadable.push(table);
    }
    into.exec('COMMIT');
  } catch {
    // The table's columns could not be read, or the write failed: nothing of it is kept.
    into.exec('ROLLBACK');
    copied = 0;
    if (!report.unreadable.includes(table)) report.unreadable.push(table);
  }
  if (copied > 0) report.recovered[table] = copied;
}

/**
 * A salvaged turn as the library would have it: no images counted yet (the triggers count them as they arrive),
 * and a search number (`seq`) of its own: when the backup's turns already use its number (the backup comes from
 * another line of the library, after an earlier restore), it takes the next free one, as LibraryRepo.createTurn.
 */
function freshTurn(into: DatabaseSync): (row: Record<string, unknown>) => Record<string, unknown> {
  const known = into.prepare('SELECT 1 FROM turns WHERE id = ?');
  const taken = into.prepare('SELECT 1 FROM turns WHERE seq = ?');
  const next = into.prepare('SELECT COALESCE(MAX(seq), 0) + 1 AS seq FROM turns');
  return (read) => {
    const row = { ...read, ...DERIVED_TURN_COLUMNS };
    if (typeof row.seq === 'number' && !known.get(row.id as string) && taken.get(row.seq)) row.seq = (next.get() as { seq: number }).seq;
    return row;
  };
}

/**
 * After the copy, no row may point nowhere (`PRAGMA foreign_key_check`): a session lost with its table is made again
 * from its turns; a row whose parent is gone otherwise is dropped (images of a lost turn: nothing can show them) or,
 * where the schema says SET NULL (a retry's first turn), unlinked. Dropped rows are counted for the notice.
 */
function settleOrphans(into: DatabaseSync, report: SalvageReport): void {
  into
    .prepare(
      `INSERT OR IGNORE INTO sessions (id, environment, created_at, updated_at)
       SELECT session_id, MIN(environment), MIN(started_at), MAX(started_at) FROM turns WHERE session_id NOT IN (SELECT id FROM sessions) GROUP BY session_id`,
    )
    .run();
  // Dropping a turn orphans its images: a few passes reach every level of the schema.
  for (let pass = 0; pass < 5; pass++) {
    const broken = new Set((into.prepare('PRAGMA foreign_key_check').all() as Array<{ table: string }>).map((r) => r.table));
    if (broken.size === 0) return;
    for (const table of broken) unlinkOrphans(into, table, report);
  }
}

function unlinkOrphans(into: DatabaseSync, table: string, report: SalvageReport): void {
  const links = into.prepare(`PRAGMA foreign_key_list("${table}")`).all() as Array<{ table: string; from: string; to: string | null; on_delete: string }>;
  for (const link of links) {
    const orphan = `"${link.from}" IS NOT NULL AND "${link.from}" NOT IN (SELECT "${link.to ?? 'rowid'}" FROM "${link.table}")`;
    if (link.on_delete.toUpperCase() === 'SET NULL') {
      into.prepare(`UPDATE "${table}" SET "${link.from}" = NULL WHERE ${orphan}`).run();
      continue;
    }
    if (table === 'turns') forgetSearch(into, orphan);
    const gone = Number(into.prepare(`DELETE FROM "${table}" WHERE ${orphan}`).run().changes);
    if (gone === 0) continue;
    report.dropped[table] = (report.dropped[table] ?? 0) + gone;
    const left = (report.recovered[table] ?? 0) - gone;
    if (left > 0) report.recovered[table] = left;
    else delete report.recovered[table];
  }
}

/** A dropped turn leaves the prompt search with it. */
function forgetSearch(into: DatabaseSync, orphan: string): void {
  for (const { seq } of into.prepare(`SELECT seq FROM turns WHERE ${orphan} AND seq IS NOT NULL`).all() as Array<{ seq: number }>) {
    into.prepare('DELETE FROM prompt_trigrams WHERE rowid = ?').run(seq);
    into.prepare('DELETE FROM prompt_words WHERE rowid = ?').run(seq);
  }
}

/** A salvaged turn goes into the prompt search indexes under its seq, as LibraryRepo.createTurn puts it. */
function searchIndexer(into: DatabaseSync): (row: Record<string, unknown>) => void {
  const trigram = into.prepare('INSERT INTO prompt_trigrams (rowid, prompt) VALUES (?, ?)');
  const word = into.prepare('INSERT INTO prompt_words (rowid, words) VALUES (?, ?)');
  return (row) => {
    const rows = typeof row.seq === 'number' ? promptIndexRows(String(row.prompt ?? '')) : null;
    if (!rows) return;
    trigram.run(row.seq as number, rows.trigrams);
    word.run(row.seq as number, rows.words);
  };
}
