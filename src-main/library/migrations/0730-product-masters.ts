// A product's master reference (issue 26, docs/catalog.md "The board"): one generated image the designer chose, from
// that product's candidates in a batch, that later shots of the product send as their reference instead of the
// product's first (CSV) reference. One per product; it goes with the product or the image. batch/product-master.ts
// owns what it may be.
import type { Migration } from './types.ts';

export const migration: Migration = {
  version: 730,
  name: '0730-product-masters',
  sql: `
    CREATE TABLE product_masters (
      product_id TEXT PRIMARY KEY REFERENCES products (id) ON DELETE CASCADE,
      image_id TEXT NOT NULL REFERENCES images (id) ON DELETE CASCADE,
      batch_id TEXT NOT NULL,
      set_at INTEGER NOT NULL
    );
    CREATE INDEX product_masters_image ON product_masters (image_id);
  `,
};
