// Facts about this installation that must outlive settings.json, e.g. which local-service account the app
// seeded (docs/main-process.md "Recovery of local data"). library.db is backed up daily, so they are too.
import type { Migration } from './types.ts';

export const migration: Migration = {
  version: 200,
  name: '0200-app-meta',
  sql: 'CREATE TABLE app_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;',
};
