// Every migration of service.db, in order (the naming and shape of all three databases: sqlite/bootstrap.ts).
// To add one: write `NNNN-name.ts` exporting `migration` and add one line below; never edit an applied one.
import type { SqliteMigration } from '../sqlite/index.ts';
import { migration as m0001 } from './0001-initial.ts';
import { migration as m0002 } from './0002-packs-webhooks.ts';
import { migration as m0003 } from './0003-client-turn-id.ts';
import { migration as m0004 } from './0004-request-ledger.ts';
import { migration as m0005 } from './0005-delivery-attempts.ts';

export const MIGRATIONS: readonly SqliteMigration[] = [
  m0001,
  m0002,
  m0003,
  m0004,
  m0005,
];
