// The webhook inspector's captures moved to their own file, inspector.db (docs/decisions.md, webhook inspector):
// anyone on loopback could fill inspector_requests, and library.db (backed up daily, never shrinking) grew with
// it. Captures are disposable diagnostics, so the old table is dropped, not copied. inspector_settings stays
// here (the receiver's port and behaviour are kept). When the dropped table held rows, the inspector is asked
// to VACUUM library.db once at its next start (VACUUM cannot run inside a migration's transaction).
import type { Migration } from './types.ts';

export const migration: Migration = {
  version: 101,
  name: '0101-inspector-captures-out',
  up(db) {
    const had = db.prepare("SELECT 1 AS found FROM sqlite_master WHERE type = 'table' AND name = 'inspector_requests'").get();
    const held = had ? db.prepare('SELECT 1 AS found FROM inspector_requests LIMIT 1').get() : undefined;
    db.exec('DROP TABLE IF EXISTS inspector_requests');
    if (held) {
      db.prepare("INSERT INTO inspector_settings (key, value_json) VALUES ('vacuumLibrary', 'true') ON CONFLICT (key) DO UPDATE SET value_json = 'true'").run();
    }
  },
};
