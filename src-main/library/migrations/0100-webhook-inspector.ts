// The webhook inspector's captures (docs/decisions.md, webhook inspector): every request the receiver saw, with its raw bytes and
// headers, what it answered and the verdict at arrival, so nothing captured is lost on restart.
import type { Migration } from './types.ts';

export const migration: Migration = {
  version: 100,
  name: '0100-webhook-inspector',
  up(db) {
    db.exec(`
      CREATE TABLE inspector_requests (
        id TEXT PRIMARY KEY,
        received_at INTEGER NOT NULL,          -- ms since epoch
        method TEXT NOT NULL,
        path TEXT NOT NULL,
        headers_json TEXT NOT NULL,            -- [[name, value], ...] exactly as received
        body BLOB NOT NULL,                    -- raw bytes (empty when refused as too large)
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
        diagnosis_params_json TEXT NOT NULL DEFAULT '{}',
        report_json TEXT                       -- VerificationReport at arrival; null for non-webhook paths
      );
      CREATE INDEX inspector_requests_received ON inspector_requests (received_at, id);
      CREATE INDEX inspector_requests_delivery ON inspector_requests (delivery_id) WHERE delivery_id IS NOT NULL;
      CREATE INDEX inspector_requests_pack ON inspector_requests (pack_id, version) WHERE pack_id IS NOT NULL;

      CREATE TABLE inspector_settings (
        key TEXT PRIMARY KEY,
        value_json TEXT NOT NULL
      );
    `);
  },
};
