// Picks of a batch (issue 26, docs/catalog.md "The board"): per product × shot of a batch at most one image, the one
// that goes to the marketplace. The cell is the batch, the product and the shot's name (unique in its list, as
// re-shoots name it); the image must be one of that cell's results, which batch/board.ts checks before writing.
// A picked image that leaves the library takes its pick with it.
import type { Migration } from './types.ts';

export const migration: Migration = {
  version: 720,
  name: '0720-batch-picks',
  sql: `
    CREATE TABLE batch_picks (
      batch_id TEXT NOT NULL REFERENCES batches (id) ON DELETE CASCADE,
      product_id TEXT NOT NULL,
      shot_name TEXT NOT NULL,
      image_id TEXT NOT NULL REFERENCES images (id) ON DELETE CASCADE,
      picked_at INTEGER NOT NULL,
      PRIMARY KEY (batch_id, product_id, shot_name)
    );
    CREATE INDEX batch_picks_image ON batch_picks (image_id);
  `,
};
