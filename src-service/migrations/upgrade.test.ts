// A service.db written before migrations were named 'NNNN-name' (it recorded 'initial', 'packs-webhooks') keeps
// working: the bootstrap recognises applied migrations by version, applies only what is new, and keeps the data.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { startService } from '../start.ts';
import { MIGRATIONS } from './index.ts';

/** service.db as the earlier layout left it: migrations 1 and 2 applied and recorded under their old names. */
function oldServiceDb(dataDir: string): void {
  const db = new DatabaseSync(join(dataDir, 'service.db'));
  db.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)');
  for (const [m, oldName] of [[MIGRATIONS[0]!, 'initial'], [MIGRATIONS[1]!, 'packs-webhooks']] as const) {
    if (!('sql' in m)) throw new Error('service migrations are SQL');
    db.exec(m.sql);
    db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(m.version, oldName, 1);
  }
  db.prepare('INSERT INTO accounts (id, credits, banned, created_at) VALUES (?, ?, 0, ?)').run('acc_Old0000001', 321, Date.now());
  db.close();
}

describe('service.db of the earlier migration layout', () => {
  it('opens, applies only 0003 and later, and still answers for the account it held', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-upgrade-'));
    oldServiceDb(dataDir);
    const service = await startService({ dataDir, port: 0, logLevel: 'silent' });
    try {
      const answer = await fetch(`${service.baseUrl}/admin/accounts/acc_Old0000001`, { headers: { authorization: `Bearer ${service.adminToken}` } });
      expect(await answer.json()).toMatchObject({ id: 'acc_Old0000001', credits: 321 });
    } finally {
      await service.close();
    }
    const db = new DatabaseSync(join(dataDir, 'service.db'));
    expect(db.prepare('SELECT version, name FROM schema_migrations ORDER BY version').all()).toEqual([
      { version: 1, name: 'initial' },
      { version: 2, name: 'packs-webhooks' },
      { version: 3, name: '0003-client-turn-id' },
      { version: 4, name: '0004-request-ledger' },
      { version: 5, name: '0005-delivery-attempts' },
    ]);
    expect(db.prepare("SELECT 1 AS found FROM pragma_table_info('turns') WHERE name = 'client_turn_id'").get()).toEqual({ found: 1 });
    db.close();
  });
});
