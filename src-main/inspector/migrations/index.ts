// Every migration of inspector.db, in order (the naming and shape of all three databases:
// src-service/sqlite/bootstrap.ts). To add one: write `NNNN-name.ts` exporting `migration` and add one line below.
import type { SqliteMigration } from '../../../src-service/sqlite/index.ts';
import { migration as m0001 } from './0001-captures.ts';
import { migration as m0002 } from './0002-forwards.ts';

export const INSPECTOR_MIGRATIONS: readonly SqliteMigration[] = [
  m0001,
  m0002,
];
