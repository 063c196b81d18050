// The client's own reference for a generation (header X-Client-Turn-Id, docs/local-service.md), so an app that
// lost the answer (a crash, a timeout: spec §7 retry guidance 5) can find out what became of its request
// through GET /admin/accounts/:id/turns instead of resending it.
import type { SqliteMigration } from '../sqlite/index.ts';

export const migration: SqliteMigration = {
  version: 3,
  name: '0003-client-turn-id',
  sql: `
ALTER TABLE turns ADD COLUMN client_turn_id TEXT;
CREATE INDEX turns_account_created ON turns(account_id, created_at);
`,
};
