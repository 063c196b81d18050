// Numbered migrations, applied in order by db.ts. Add a module and one line here; never edit an applied one.
import { migration as m0001 } from './0001-initial.ts';
import { migration as m0002 } from './0002-packs-webhooks.ts';
import { migration as m0003 } from './0003-client-turn-id.ts';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  m0001,
  m0002,
  m0003,
];
