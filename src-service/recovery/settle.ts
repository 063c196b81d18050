// After a salvage, no row may point nowhere (`PRAGMA foreign_key_check`). What a reference needs is made again rather
// than dropped: a turn lost with its table gets its session back, and an image whose turn was lost gets a stand-in
// turn, so an image the app reuses as a reference still resolves. Other rows whose parent is gone (an account lost
// everywhere) are unlinked where the column may be empty, else dropped and counted.
import type { DatabaseSync } from 'node:sqlite';

/** Makes every link whole; returns the rows dropped, by table. */
export function settleOrphans(db: DatabaseSync, newSessionId: () => string): Record<string, number> {
  db.prepare(
    `INSERT OR IGNORE INTO sessions (id, account_id, title, created_at)
     SELECT session_id, MIN(account_id), '', MIN(created_at) FROM turns WHERE session_id NOT IN (SELECT id FROM sessions) GROUP BY session_id`,
  ).run();
  standInTurns(db, newSessionId);
  const dropped: Record<string, number> = {};
  // Dropping a row can orphan its children: a few passes reach every level of the schema.
  for (let pass = 0; pass < 5; pass++) {
    const broken = new Set((db.prepare('PRAGMA foreign_key_check').all() as Array<{ table: string }>).map((r) => r.table));
    if (broken.size === 0) break;
    for (const table of broken) unlinkOrDrop(db, table, dropped);
  }
  return dropped;
}

/** One stand-in turn (and session, per account) for the images of each lost turn: succeeded, its request unknown. */
function standInTurns(db: DatabaseSync, newSessionId: () => string): void {
  const lost = db
    .prepare(
      `SELECT turn_id, MIN(account_id) AS account_id, COUNT(*) AS n, MIN(created_at) AS created_at FROM images
       WHERE turn_id NOT IN (SELECT id FROM turns) AND account_id IN (SELECT id FROM accounts) GROUP BY turn_id`,
    )
    .all() as Array<{ turn_id: string; account_id: string; n: number; created_at: number }>;
  const sessions = new Map<string, string>();
  const addSession = db.prepare("INSERT INTO sessions (id, account_id, title, created_at) VALUES (?, ?, 'Recovered images', ?)");
  const addTurn = db.prepare(
    `INSERT INTO turns (id, account_id, session_id, request, model, ratio, resolution, n, status, credits_charged, warnings, created_at, finished_at)
     VALUES (?, ?, ?, '{}', 'unknown', 'unknown', 'unknown', ?, 'succeeded', NULL, NULL, ?, ?)`,
  );
  for (const turn of lost) {
    let session = sessions.get(turn.account_id);
    if (!session) {
      session = newSessionId();
      addSession.run(session, turn.account_id, turn.created_at);
      sessions.set(turn.account_id, session);
    }
    addTurn.run(turn.turn_id, turn.account_id, session, turn.n, turn.created_at, turn.created_at);
  }
}

function unlinkOrDrop(db: DatabaseSync, table: string, dropped: Record<string, number>): void {
  const links = db.prepare(`PRAGMA foreign_key_list("${table}")`).all() as Array<{ table: string; from: string; to: string | null }>;
  const nullable = new Set((db.prepare(`PRAGMA table_info("${table}")`).all() as Array<{ name: string; notnull: number }>).filter((c) => c.notnull === 0).map((c) => c.name));
  for (const link of links) {
    const orphan = `"${link.from}" IS NOT NULL AND "${link.from}" NOT IN (SELECT "${link.to ?? 'rowid'}" FROM "${link.table}")`;
    if (nullable.has(link.from)) {
      db.prepare(`UPDATE "${table}" SET "${link.from}" = NULL WHERE ${orphan}`).run();
      continue;
    }
    const gone = Number(db.prepare(`DELETE FROM "${table}" WHERE ${orphan}`).run().changes);
    if (gone > 0) dropped[table] = (dropped[table] ?? 0) + gone;
  }
}
