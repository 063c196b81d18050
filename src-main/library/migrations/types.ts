import type { SqliteMigration } from '../../../src-service/sqlite/index.ts';

/** A numbered migration (`0001-library`); applied once, in order, inside a transaction (the shared bootstrap). */
export type Migration = SqliteMigration;
