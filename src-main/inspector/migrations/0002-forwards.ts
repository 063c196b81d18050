// Forward-to (docs/local-service.md, webhooks for integrators): each capture the inspector relayed to the
// integrator's own endpoint gets one row per attempt, beside the inspector's own verdict. Pruned with the
// capture it belongs to (request_seq is that capture's seq).
import type { SqliteMigration } from '../../../src-service/sqlite/index.ts';

export const migration: SqliteMigration = {
  version: 2,
  name: '0002-forwards',
  sql: `
    CREATE TABLE inspector_forwards (
      id INTEGER PRIMARY KEY,
      request_seq INTEGER NOT NULL,          -- the capture relayed
      at INTEGER NOT NULL,                   -- ms since epoch, when the relay started
      url TEXT NOT NULL,
      status INTEGER,                        -- null: no answer (refused, timeout)
      duration_ms INTEGER NOT NULL,
      error TEXT,
      response_headers_json TEXT NOT NULL,
      response_snippet TEXT NOT NULL
    );
    CREATE INDEX inspector_forwards_request ON inspector_forwards (request_seq);
  `,
};
