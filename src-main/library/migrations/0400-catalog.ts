// Catalog production (docs/catalog.md): products, the user's shot lists (and edited presets), batches and their
// jobs. A job row is the batch's queue entry; once sent it points at its library turn (`turn_id`), written in
// the same transaction that creates the turn, so a crash can never leave a sent job that looks unsent.
import type { Migration } from './types.ts';

export const migration: Migration = {
  version: 400,
  name: '0400-catalog',
  sql: `
    CREATE TABLE products (
      id TEXT PRIMARY KEY,
      sku TEXT NOT NULL UNIQUE,
      name TEXT NOT NULL,
      prompt TEXT NOT NULL DEFAULT '',
      notes TEXT NOT NULL DEFAULT '',
      ref_image_ids TEXT NOT NULL DEFAULT '[]',
      position INTEGER NOT NULL,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    );
    CREATE INDEX products_position ON products (position);

    -- The user's lists, and built-in presets once edited (same id as the preset; deleting the row resets it).
    CREATE TABLE shot_lists (
      id TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      preset TEXT,
      shots TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    );

    CREATE TABLE batches (
      id TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      environment TEXT NOT NULL,
      shot_list_id TEXT NOT NULL,
      shot_list_name TEXT NOT NULL,
      state TEXT NOT NULL CHECK (state IN ('running', 'paused', 'cancelled', 'done')),
      pause TEXT,
      budget INTEGER,
      concurrency INTEGER NOT NULL,
      planned INTEGER NOT NULL,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    );
    CREATE INDEX batches_created ON batches (created_at DESC);

    -- status: queued | sent (what happened is the turn's) | failed (never sent: a request refused before sending)
    --         | over_budget | cancelled. decided: the batch has acted on the end of the sent turn.
    CREATE TABLE batch_jobs (
      id TEXT PRIMARY KEY,
      batch_id TEXT NOT NULL REFERENCES batches (id) ON DELETE CASCADE,
      position INTEGER NOT NULL,
      product_id TEXT NOT NULL,
      sku TEXT NOT NULL,
      product_name TEXT NOT NULL,
      shot_index INTEGER NOT NULL,
      shot_name TEXT NOT NULL,
      purpose TEXT NOT NULL,
      session_id TEXT NOT NULL,
      request TEXT NOT NULL,
      estimate INTEGER NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('queued', 'sent', 'failed', 'over_budget', 'cancelled')),
      turn_id TEXT,
      earlier_turn_ids TEXT NOT NULL DEFAULT '[]',
      retry_of TEXT,
      decided INTEGER NOT NULL DEFAULT 0,
      error TEXT,
      UNIQUE (batch_id, position)
    );
    CREATE INDEX batch_jobs_status ON batch_jobs (batch_id, status, position);
    CREATE INDEX batch_jobs_turn ON batch_jobs (turn_id);
  `,
};
