import type { DatabaseSync } from 'node:sqlite';

/** A numbered migration (`0001-library`); applied once, in order, inside a transaction. */
export interface Migration {
  version: number;
  name: string;
  up(db: DatabaseSync): void;
}
