// Per turn, what per session `session_stats` keeps (migration 0300): how many images have each combination of
// marks (and, read most, how many are not rejected), and when its newest image and its newest image not rejected
// arrived; with the turn's `seq` (its key in the prompt indexes). A prompt search that matches many prompts (a
// common word: 20,000 turns of 25,000) keeps only the matching seqs and counts its totals from these rows under
// any marks (src-main/library/gallery-query.ts): it no longer copies each matching turn's counts, nor reads every
// image of those turns to total a rating. (Where an image stands under a rating, starred or "rejects only" still
// reads the images.) Triggers keep the rows exact; a turn has a row while it has images.
import { cellChanges, cellColumns, cellNames, cellSums, markCell } from './mark-cells.ts';
import type { Migration } from './types.ts';

/** The newest image of the turn (optionally: not rejected), read from the turn's own index. */
const newestOfTurn = (row: 'new' | 'old', kept: boolean) =>
  `(SELECT MAX(created_at) FROM images INDEXED BY images_turn WHERE images.turn_id = ${row}.turn_id${kept ? ' AND images.rejected = 0' : ''})`;
const thisTurn = (row: 'new' | 'old') => `session_id = ${row}.session_id AND turn_id = ${row}.turn_id`;

export const migration: Migration = {
  version: 600,
  name: '0600-turn-stats',
  sql: `
    CREATE TABLE turn_stats (
      session_id TEXT NOT NULL,
      turn_id TEXT NOT NULL,
      seq INTEGER NOT NULL,
      images INTEGER NOT NULL DEFAULT 0,
      kept INTEGER NOT NULL DEFAULT 0,
      images_at INTEGER NOT NULL,
      kept_at INTEGER,
      ${cellColumns()},
      PRIMARY KEY (session_id, turn_id)
    ) WITHOUT ROWID;
    -- A search matching a few thousand turns looks them up by seq instead of reading every turn's row; with no mark
    -- or only "not rejected", from the index alone.
    CREATE INDEX turn_stats_seq ON turn_stats (seq, session_id, images, kept, images_at, kept_at);
    -- The turns without images (failed, cancelled, running): a search counts its matches among them.
    CREATE INDEX turns_without_images ON turns (seq) WHERE image_count = 0;

    INSERT INTO turn_stats (session_id, turn_id, seq, images, kept, images_at, kept_at, ${cellNames()})
    SELECT images.session_id, images.turn_id, turns.seq, COUNT(*), SUM(images.rejected = 0), MAX(images.created_at),
           MAX(CASE WHEN images.rejected = 0 THEN images.created_at END), ${cellSums('images.')}
    FROM images CROSS JOIN turns ON turns.id = images.turn_id
    GROUP BY images.session_id, images.turn_id;

    CREATE TRIGGER images_turn_stats_insert AFTER INSERT ON images BEGIN
      INSERT INTO turn_stats (session_id, turn_id, seq, images_at) VALUES (new.session_id, new.turn_id, (SELECT seq FROM turns WHERE id = new.turn_id), new.created_at)
        ON CONFLICT (session_id, turn_id) DO UPDATE SET images_at = MAX(images_at, excluded.images_at);
      UPDATE turn_stats SET images = images + 1, kept = kept + (new.rejected = 0), ${cellChanges('new', null)},
        kept_at = CASE WHEN new.rejected = 0 THEN MAX(COALESCE(kept_at, new.created_at), new.created_at) ELSE kept_at END
      WHERE ${thisTurn('new')};
    END;
    CREATE TRIGGER images_turn_stats_marks AFTER UPDATE OF starred, rating, rejected ON images WHEN ${markCell('new')} <> ${markCell('old')} BEGIN
      UPDATE turn_stats SET kept = kept + (new.rejected = 0) - (old.rejected = 0), ${cellChanges('new', 'old')},
        kept_at = CASE WHEN new.rejected = old.rejected THEN kept_at ELSE ${newestOfTurn('new', true)} END
      WHERE ${thisTurn('new')};
    END;
    CREATE TRIGGER images_turn_stats_delete AFTER DELETE ON images BEGIN
      UPDATE turn_stats SET images = images - 1, kept = kept - (old.rejected = 0), ${cellChanges(null, 'old')},
        images_at = COALESCE(${newestOfTurn('old', false)}, images_at),
        kept_at = ${newestOfTurn('old', true)}
      WHERE ${thisTurn('old')};
      DELETE FROM turn_stats WHERE ${thisTurn('old')} AND images = 0;
    END;
  `,
};
