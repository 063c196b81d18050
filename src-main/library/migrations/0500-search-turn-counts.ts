// What a prompt search that matches most prompts needs to count without reading images
// (src-main/library/gallery-query.ts): per turn, how many of its images are not rejected (`kept_count`) and when
// the newest of them arrived (`kept_at`), kept exact by triggers like `image_count` and `images_at`. The index a
// search reads turns from (`turns_search`) now also carries those two, so "a common word + rejects hidden" is
// counted from the matching turns alone instead of their images one by one (80,000 at 100,000 images); and turns
// have an index per model and per purpose (a turn's images share them) carrying the same counts, so "+ a model"
// counts the model's turns that match.
import type { Migration } from './types.ts';

export const migration: Migration = {
  version: 500,
  name: '0500-search-turn-counts',
  sql: `
    ALTER TABLE turns ADD COLUMN kept_count INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE turns ADD COLUMN kept_at INTEGER;
    UPDATE turns SET
      kept_count = (SELECT COUNT(*) FROM images INDEXED BY images_turn WHERE images.turn_id = turns.id AND images.rejected = 0),
      kept_at = (SELECT MAX(created_at) FROM images INDEXED BY images_turn WHERE images.turn_id = turns.id AND images.rejected = 0)
    WHERE image_count > 0;
    DROP INDEX turns_search;
    CREATE INDEX turns_search ON turns (seq, session_id, id, image_count, images_at, kept_count, kept_at);
    CREATE INDEX turns_model ON turns (model, purpose, session_id, id, image_count, images_at, kept_count, kept_at);
    CREATE INDEX turns_purpose ON turns (purpose, session_id, id, image_count, images_at, kept_count, kept_at);
    CREATE TRIGGER images_kept_insert AFTER INSERT ON images WHEN new.rejected = 0 BEGIN
      UPDATE turns SET kept_count = kept_count + 1, kept_at = MAX(COALESCE(kept_at, new.created_at), new.created_at) WHERE id = new.turn_id;
    END;
    CREATE TRIGGER images_kept_delete AFTER DELETE ON images WHEN old.rejected = 0 BEGIN
      UPDATE turns SET kept_count = kept_count - 1,
        kept_at = (SELECT MAX(created_at) FROM images INDEXED BY images_turn WHERE images.turn_id = old.turn_id AND images.rejected = 0)
      WHERE id = old.turn_id;
    END;
    CREATE TRIGGER images_kept_rejected AFTER UPDATE OF rejected ON images WHEN new.rejected <> old.rejected BEGIN
      UPDATE turns SET kept_count = kept_count + (new.rejected = 0) - (old.rejected = 0),
        kept_at = (SELECT MAX(created_at) FROM images INDEXED BY images_turn WHERE images.turn_id = new.turn_id AND images.rejected = 0)
      WHERE id = new.turn_id;
    END;
  `,
};
