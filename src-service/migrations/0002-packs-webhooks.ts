// Image packs, their publications, publish idempotency keys, the webhook configuration and its deliveries
// (spec §6, DESIGN.md §3/§4). Times are Unix milliseconds of the service clock, except
// webhook_deliveries.next_attempt_at, which is real wall-clock time: retry waits are delivery mechanics,
// not business windows, so moving the admin clock does not make a receiver get hammered.
import type { SqliteMigration } from '../sqlite/index.ts';

export const migration: SqliteMigration = {
  version: 2,
  name: '0002-packs-webhooks',
  sql: `
CREATE TABLE image_packs (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  style_code TEXT NOT NULL,
  -- JSON array of image ids, in the owner's order
  image_ids TEXT NOT NULL,
  -- 0 = the draft has unsaved changes; publish is rejected until it is saved
  saved INTEGER NOT NULL DEFAULT 1 CHECK (saved IN (0, 1)),
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;
CREATE INDEX image_packs_account ON image_packs(account_id, created_at);

-- One row per accepted publish; id is the record id of spec §2.7 and §4.3.
CREATE TABLE publications (
  id INTEGER PRIMARY KEY,
  pack_id TEXT NOT NULL REFERENCES image_packs(id),
  account_id TEXT NOT NULL REFERENCES accounts(id),
  version INTEGER NOT NULL,
  style_code TEXT NOT NULL,
  -- the pack's images at the moment of publishing
  image_ids TEXT NOT NULL,
  published_at INTEGER NOT NULL,
  UNIQUE (pack_id, version)
) STRICT;

-- Idempotency-Key memory of accepted publishes (24 hours of the service clock, per pack).
CREATE TABLE publish_keys (
  pack_id TEXT NOT NULL REFERENCES image_packs(id),
  idempotency_key TEXT NOT NULL,
  publication_id INTEGER NOT NULL REFERENCES publications(id),
  created_at INTEGER NOT NULL,
  PRIMARY KEY (pack_id, idempotency_key)
) STRICT, WITHOUT ROWID;

CREATE TABLE webhooks (
  account_id TEXT PRIMARY KEY REFERENCES accounts(id),
  url TEXT NOT NULL,
  enabled INTEGER NOT NULL CHECK (enabled IN (0, 1)),
  -- needed in clear to sign deliveries; never logged or shown after the response that created it
  secret TEXT NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;

CREATE TABLE webhook_deliveries (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  event TEXT NOT NULL,
  url TEXT NOT NULL,
  -- the exact bytes every attempt sends (UTF-8 JSON)
  body TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  outcome TEXT NOT NULL CHECK (outcome IN ('pending', 'succeeded', 'failed')),
  last_status INTEGER,
  last_error TEXT,
  next_attempt_at INTEGER,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;
CREATE INDEX webhook_deliveries_pending ON webhook_deliveries(outcome) WHERE outcome = 'pending';
CREATE INDEX webhook_deliveries_account ON webhook_deliveries(account_id, seq);
`,
};
