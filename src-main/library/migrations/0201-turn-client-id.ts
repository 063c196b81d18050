// Whether a turn was sent with the app's own id (header X-Client-Turn-Id): only such a turn can be looked up on
// the bundled service after a crash. Turns of earlier versions stay 0, so a missing record never reads as
// "never arrived" for them (docs/main-process.md, After a crash). Every read of a turn asks whether a later turn
// retried it (spec §7: one retry after a 500), so retry_of gets an index.
import type { Migration } from './types.ts';

export const migration: Migration = {
  version: 201,
  name: '0201-turn-client-id',
  sql: 'ALTER TABLE turns ADD COLUMN client_id_sent INTEGER NOT NULL DEFAULT 0; CREATE INDEX turns_retry_of ON turns (retry_of);',
};
