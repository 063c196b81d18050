// The captures of the webhook inspector (docs/decisions.md, webhook inspector). What the list needs sits in
// inspector_requests; the bytes (headers, body, verdict) in inspector_payloads, so listing never reads a body.
// `seq` is the arrival order in this file; pruning deletes the lowest first.
import type { SqliteMigration } from '../../../src-service/sqlite/index.ts';

export const migration: SqliteMigration = {
  version: 1,
  name: '0001-captures',
  sql: `
    CREATE TABLE inspector_requests (
      seq INTEGER PRIMARY KEY,
      id TEXT NOT NULL UNIQUE,
      group_key TEXT NOT NULL,               -- the delivery id, or the request id when there is none
      received_at INTEGER NOT NULL,          -- ms since epoch
      method TEXT NOT NULL,
      path TEXT NOT NULL,
      body_bytes INTEGER NOT NULL,           -- bytes seen or declared
      too_large INTEGER NOT NULL DEFAULT 0,
      delivery_id TEXT,
      event TEXT,
      publication_id INTEGER,
      pack_id TEXT,
      version INTEGER,
      response_status INTEGER NOT NULL,
      valid INTEGER NOT NULL,
      diagnosis TEXT NOT NULL,
      stored_bytes INTEGER NOT NULL          -- what this capture counts against the byte cap
    );
    CREATE INDEX inspector_requests_group ON inspector_requests (group_key, received_at);
    CREATE INDEX inspector_requests_pack ON inspector_requests (pack_id, version, received_at) WHERE pack_id IS NOT NULL;

    CREATE TABLE inspector_payloads (
      seq INTEGER PRIMARY KEY,               -- the seq of its inspector_requests row
      headers_json TEXT NOT NULL,            -- [[name, value], ...] exactly as received
      diagnosis_params_json TEXT NOT NULL DEFAULT '{}',
      report_json TEXT,                      -- VerificationReport at arrival; null for non-webhook paths
      body BLOB NOT NULL                     -- raw bytes (empty when refused as too large)
    );
  `,
};
