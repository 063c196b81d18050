// The library at scale (docs/main-process.md "Culling, boards and the library at scale"): culling marks on
// images, boards and smart boards, prompt search through FTS5, automatic session titles, and an index for
// every gallery filter on the gallery's own order (newest first, then session id), so no filter reads the
// whole images table.
//
// Runs on an existing library in one transaction: the new columns have constant defaults (no table rewrite);
// turns get a stable integer `seq` (the FTS5 rowid; implicit rowids may change on VACUUM), both prompt
// indexes and every session's automatic title are filled from the rows there are. About a second for 100,000
// images (src-main/library/library-repo.test.ts times it on a seeded library).
import { promptIndexRows } from '../../domain/library-search.ts';
import { pickTitle, titleFromPrompt } from '../../domain/session-title.ts';
import { cellChanges, cellColumns, cellNames, cellSums, markCell } from './mark-cells.ts';
import type { Migration } from './types.ts';

export const migration: Migration = {
  version: 300,
  name: '0300-library-at-scale',
  up(db) {
    db.exec(`
      -- Culling marks (0 = no rating).
      ALTER TABLE images ADD COLUMN rating INTEGER NOT NULL DEFAULT 0 CHECK (rating BETWEEN 0 AND 5);
      ALTER TABLE images ADD COLUMN rejected INTEGER NOT NULL DEFAULT 0 CHECK (rejected IN (0, 1));

      -- The gallery walks images newest first, ties by session id (the order of its groups); each filter has
      -- an index in that order. The main one carries the marks, so the mark filters read no table rows.
      DROP INDEX images_created;
      DROP INDEX images_model;
      DROP INDEX images_purpose;
      DROP INDEX images_starred;
      DROP INDEX images_session_created;
      DROP INDEX images_turn;
      -- A turn's images (its record), and what counting a prompt search that matches most turns reads per image.
      CREATE INDEX images_turn ON images (turn_id, position, session_id, created_at, rejected, rating, starred);
      -- One session's images in group order, with the marks: a group, a session's newest passing image, and
      -- the per-session counts of the totals read this index alone.
      CREATE INDEX images_session_created ON images (session_id, created_at DESC, position, id DESC, rejected, rating, starred);
      CREATE INDEX images_order ON images (created_at DESC, session_id DESC, rejected, rating, starred);
      CREATE INDEX images_model ON images (model, created_at DESC, session_id DESC);
      CREATE INDEX images_purpose ON images (purpose, created_at DESC, session_id DESC);
      CREATE INDEX images_starred ON images (created_at DESC, session_id DESC) WHERE starred = 1;
      CREATE INDEX images_rejected ON images (created_at DESC, session_id DESC) WHERE rejected = 1;
      CREATE INDEX images_rated ON images (created_at DESC, session_id DESC, rating) WHERE rating > 0;

      -- Prompt search: contentless FTS5 keyed by turns.seq (the text stays in turns and images). A search that
      -- matches most turns counts them by these two (kept by the triggers below) instead of reading every image.
      ALTER TABLE turns ADD COLUMN seq INTEGER;
      ALTER TABLE turns ADD COLUMN image_count INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE turns ADD COLUMN images_at INTEGER;
      CREATE VIRTUAL TABLE prompt_trigrams USING fts5 (prompt, content = '', contentless_delete = 1, tokenize = 'trigram remove_diacritics 1');
      CREATE VIRTUAL TABLE prompt_words USING fts5 (words, content = '', contentless_delete = 1, tokenize = 'unicode61 remove_diacritics 2');

      -- Automatic titles; the index finds a session showing a given title (local_title wins over auto_title).
      ALTER TABLE sessions ADD COLUMN auto_title TEXT;
      CREATE INDEX sessions_shown_title ON sessions (COALESCE(local_title, auto_title));

      -- Per session: its images' time span and how many images have each combination of marks (cell =
      -- starred × 12 + rating × 2 + rejected). Totals and positions under mark filters (or none) add these up
      -- instead of reading every image; triggers keep them exact.
      CREATE TABLE session_stats (
        session_id TEXT PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
        newest_at INTEGER NOT NULL,
        oldest_at INTEGER NOT NULL,
        images INTEGER NOT NULL DEFAULT 0,
        ${cellColumns()}
      ) WITHOUT ROWID;
      CREATE INDEX session_stats_newest ON session_stats (newest_at);
      CREATE TRIGGER images_stats_insert AFTER INSERT ON images BEGIN
        INSERT INTO session_stats (session_id, newest_at, oldest_at) VALUES (new.session_id, new.created_at, new.created_at)
          ON CONFLICT (session_id) DO UPDATE SET newest_at = MAX(newest_at, excluded.newest_at), oldest_at = MIN(oldest_at, excluded.oldest_at);
        UPDATE session_stats SET images = images + 1, ${cellChanges('new', null)} WHERE session_id = new.session_id;
      END;
      CREATE TRIGGER images_turn_insert AFTER INSERT ON images BEGIN
        UPDATE turns SET image_count = image_count + 1, images_at = MAX(COALESCE(images_at, new.created_at), new.created_at) WHERE id = new.turn_id;
      END;
      CREATE TRIGGER images_turn_delete AFTER DELETE ON images BEGIN
        UPDATE turns SET image_count = image_count - 1, images_at = (SELECT MAX(created_at) FROM images WHERE turn_id = old.turn_id) WHERE id = old.turn_id;
      END;
      CREATE TRIGGER images_stats_marks AFTER UPDATE OF starred, rating, rejected ON images WHEN ${markCell('new')} <> ${markCell('old')} BEGIN
        UPDATE session_stats SET ${cellChanges('new', 'old')} WHERE session_id = new.session_id;
      END;
      CREATE TRIGGER images_stats_delete AFTER DELETE ON images BEGIN
        UPDATE session_stats SET images = images - 1, ${cellChanges(null, 'old')},
          newest_at = COALESCE((SELECT MAX(created_at) FROM images WHERE session_id = old.session_id), 0),
          oldest_at = COALESCE((SELECT MIN(created_at) FROM images WHERE session_id = old.session_id), 0)
        WHERE session_id = old.session_id;
      END;

      CREATE TABLE boards (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        -- NFKC + lower case: names are unique without regard to case or full-width forms.
        name_key TEXT NOT NULL UNIQUE,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE TABLE board_images (
        board_id TEXT NOT NULL REFERENCES boards (id) ON DELETE CASCADE,
        image_id TEXT NOT NULL REFERENCES images (id) ON DELETE CASCADE,
        added_at INTEGER NOT NULL,
        -- Copied from the image (never changes), so a board is walked in the gallery's order on its own index.
        created_at INTEGER NOT NULL,
        session_id TEXT NOT NULL,
        PRIMARY KEY (board_id, image_id)
      ) WITHOUT ROWID;
      CREATE INDEX board_images_image ON board_images (image_id);
      CREATE INDEX board_images_added ON board_images (board_id, added_at DESC, image_id DESC);
      CREATE INDEX board_images_order ON board_images (board_id, created_at DESC, session_id DESC);

      CREATE TABLE smart_boards (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        name_key TEXT NOT NULL UNIQUE,
        filters_json TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
    `);

    db.exec(`
      INSERT INTO session_stats (session_id, newest_at, oldest_at, images, ${cellNames()})
      SELECT session_id, MAX(created_at), MIN(created_at), COUNT(*), ${cellSums()}
      FROM images GROUP BY session_id;
    `);

    db.exec(`
      UPDATE turns SET (image_count, images_at) = (SELECT COUNT(*), MAX(created_at) FROM images WHERE images.turn_id = turns.id)
      WHERE id IN (SELECT DISTINCT turn_id FROM images);
    `);

    // Every existing turn: a seq in start order, and its prompt in both indexes.
    const setSeq = db.prepare('UPDATE turns SET seq = ? WHERE id = ?');
    const trigram = db.prepare('INSERT INTO prompt_trigrams (rowid, prompt) VALUES (?, ?)');
    const word = db.prepare('INSERT INTO prompt_words (rowid, words) VALUES (?, ?)');
    let seq = 0;
    for (const row of db.prepare('SELECT id, prompt FROM turns ORDER BY started_at, id').iterate() as Iterable<{ id: string; prompt: string }>) {
      seq++;
      setSeq.run(seq, row.id);
      const rows = promptIndexRows(row.prompt);
      if (rows) {
        trigram.run(seq, rows.trigrams);
        word.run(seq, rows.words);
      }
    }
    // turns_search: what a search reads of each matching turn, from the index alone (a common word matches 20,000).
    db.exec('CREATE UNIQUE INDEX turns_seq ON turns (seq); CREATE INDEX turns_search ON turns (seq, session_id, id, image_count, images_at);')

    // Every session without a title of its own: the automatic one from its first prompt, oldest sessions first
    // (so the older of two equal titles keeps it plain).
    const shown = db.prepare('SELECT 1 AS found FROM sessions WHERE COALESCE(local_title, auto_title) = ? LIMIT 1');
    const setTitle = db.prepare('UPDATE sessions SET auto_title = ? WHERE id = ?');
    const sessions = db
      .prepare(
        `SELECT s.id, s.created_at, (SELECT t.prompt FROM turns t WHERE t.session_id = s.id AND trim(t.prompt) <> '' ORDER BY t.started_at, t.id LIMIT 1) AS prompt
         FROM sessions s ORDER BY s.created_at, s.id`,
      )
      .all() as Array<{ id: string; created_at: number; prompt: string | null }>;
    for (const s of sessions) {
      const base = s.prompt === null ? null : titleFromPrompt(s.prompt);
      if (base === null) continue;
      setTitle.run(pickTitle(base, s.created_at, (title) => shown.get(title) !== undefined), s.id);
    }
  },
};
