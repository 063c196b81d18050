// Accounts, keys, sessions, turns, images and the credit ledger. Times are Unix milliseconds of the
// service clock (clock.ts); the HTTP layer converts to seconds where the API speaks seconds.
import type { SqliteMigration } from '../sqlite/index.ts';

export const migration: SqliteMigration = {
  version: 1,
  name: '0001-initial',
  sql: `
CREATE TABLE kv (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
) STRICT;

CREATE TABLE accounts (
  id TEXT PRIMARY KEY,
  -- available balance; reservations have already been taken out of it
  credits INTEGER NOT NULL CHECK (credits >= 0),
  banned INTEGER NOT NULL DEFAULT 0 CHECK (banned IN (0, 1)),
  created_at INTEGER NOT NULL
) STRICT;

CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  name TEXT NOT NULL,
  -- SHA-256 hex of the secret; the secret itself is never stored (DESIGN.md §3)
  key_hash TEXT NOT NULL UNIQUE,
  scopes TEXT NOT NULL,
  expires_at INTEGER,
  revoked_at INTEGER,
  -- NULL = the service default setting
  rate_limit_per_24h INTEGER,
  created_at INTEGER NOT NULL
) STRICT;
CREATE INDEX api_keys_account ON api_keys(account_id);

-- per-key request counts in one-minute buckets: the rolling 24-hour window sums at most 1440 rows
CREATE TABLE key_usage (
  key_id TEXT NOT NULL REFERENCES api_keys(id),
  minute INTEGER NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY (key_id, minute)
) STRICT, WITHOUT ROWID;

CREATE TABLE sessions (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  title TEXT NOT NULL,
  created_at INTEGER NOT NULL
) STRICT;
CREATE INDEX sessions_account ON sessions(account_id);

CREATE TABLE turns (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  session_id TEXT NOT NULL REFERENCES sessions(id),
  request TEXT NOT NULL,
  model TEXT NOT NULL,
  ratio TEXT NOT NULL,
  resolution TEXT NOT NULL,
  n INTEGER NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('running', 'succeeded', 'failed')),
  credits_charged INTEGER,
  warnings TEXT,
  created_at INTEGER NOT NULL,
  finished_at INTEGER
) STRICT;
CREATE INDEX turns_session ON turns(session_id);

CREATE TABLE images (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  turn_id TEXT NOT NULL REFERENCES turns(id),
  idx INTEGER NOT NULL,
  filename TEXT NOT NULL UNIQUE,
  width INTEGER NOT NULL,
  height INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  -- set when the image is deleted or cleaned up; it can no longer be a reference (spec §4.1 rule 4)
  deleted_at INTEGER
) STRICT;
CREATE INDEX images_account ON images(account_id);

-- A reservation is written in the same transaction as the balance change (DESIGN.md §3 crash safety);
-- start-up refunds every one still pending.
CREATE TABLE reservations (
  turn_id TEXT PRIMARY KEY REFERENCES turns(id),
  account_id TEXT NOT NULL REFERENCES accounts(id),
  amount INTEGER NOT NULL CHECK (amount >= 0),
  charged INTEGER,
  status TEXT NOT NULL CHECK (status IN ('pending', 'settled', 'refunded')),
  created_at INTEGER NOT NULL,
  closed_at INTEGER
) STRICT;
CREATE INDEX reservations_pending ON reservations(status) WHERE status = 'pending';
CREATE INDEX reservations_account_time ON reservations(account_id, created_at);

-- every credit movement, with the row that explains it
CREATE TABLE ledger (
  id INTEGER PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  kind TEXT NOT NULL CHECK (kind IN ('grant', 'admin_adjust', 'reserve', 'refund')),
  amount INTEGER NOT NULL,
  turn_id TEXT REFERENCES turns(id),
  balance_after INTEGER NOT NULL,
  created_at INTEGER NOT NULL
) STRICT;
CREATE INDEX ledger_account ON ledger(account_id, created_at);
`,
};
