// Each webhook delivery keeps every attempt, not only the last one's status: `attempt_log` is a JSON array of
// {attempt, at (ms, real time), status (null: no answer), error, duration_ms}, appended when an attempt ends.
// Deliveries made before this migration start with an empty log.
import type { SqliteMigration } from '../sqlite/index.ts';

export const migration: SqliteMigration = {
  version: 5,
  name: '0005-delivery-attempts',
  sql: `ALTER TABLE webhook_deliveries ADD COLUMN attempt_log TEXT NOT NULL DEFAULT '[]';`,
};
