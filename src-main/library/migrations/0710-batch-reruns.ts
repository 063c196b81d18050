// Re-runs inside a batch (issue 26, docs/catalog.md): a job added after the plan (a person's retry of a failed job,
// a re-shoot of a cell) is a row of its own in the same batch, with its own price and turn. `origin` says which
// (`plan` for the plan's jobs), `replaces` names the job a retry stands in for (the old job keeps its record).
import type { Migration } from './types.ts';

export const migration: Migration = {
  version: 710,
  name: '0710-batch-reruns',
  sql: `
    ALTER TABLE batch_jobs ADD COLUMN origin TEXT NOT NULL DEFAULT 'plan' CHECK (origin IN ('plan', 'retry', 'rerun'));
    ALTER TABLE batch_jobs ADD COLUMN replaces TEXT;
    CREATE INDEX batch_jobs_replaces ON batch_jobs (replaces) WHERE replaces IS NOT NULL;
  `,
};
