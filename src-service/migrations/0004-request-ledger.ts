// The request ledger (docs/local-service.md "Look a request up"): one row per request under /api (and per admin
// request that queued a webhook delivery), written after the answer is sent. Bounded in rows and bytes and pruned
// oldest first by services/request-ledger.ts; `seq` orders it and is the paging cursor. Credits are not copied
// here: they are read from the reservation of `turn_id` when an entry is shown.
import type { SqliteMigration } from '../sqlite/index.ts';

export const migration: SqliteMigration = {
  version: 4,
  name: '0004-request-ledger',
  sql: `
CREATE TABLE requests (
  seq INTEGER PRIMARY KEY,
  request_id TEXT NOT NULL UNIQUE,
  -- Unix ms of the service clock when the request arrived
  at INTEGER NOT NULL,
  account_id TEXT,
  key_id TEXT,
  method TEXT NOT NULL,
  path TEXT NOT NULL,
  route TEXT NOT NULL,
  status INTEGER NOT NULL,
  error_code TEXT,
  duration_ms INTEGER NOT NULL,
  -- capped and screened text; *_cut = 1 when the body was longer than the cap
  request_body TEXT NOT NULL,
  request_body_cut INTEGER NOT NULL CHECK (request_body_cut IN (0, 1)),
  response_body TEXT NOT NULL,
  response_body_cut INTEGER NOT NULL CHECK (response_body_cut IN (0, 1)),
  turn_id TEXT,
  -- JSON array of webhook delivery ids the request queued
  delivery_ids TEXT NOT NULL,
  -- what the row weighs against the ledger's byte bound
  bytes INTEGER NOT NULL
) STRICT;
CREATE INDEX requests_account ON requests(account_id, seq);
CREATE INDEX requests_key ON requests(key_id, seq);
CREATE INDEX requests_at ON requests(at);
`,
};
