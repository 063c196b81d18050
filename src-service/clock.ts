// The service clock: real time plus an offset that POST /admin/clock moves forward (DESIGN.md §4).
// Everything time-based (rate-limit windows, key expiry, account age, direct-link expiry, webhook
// timestamps) reads this clock, so tests can cross a 24-hour window without waiting.
import type { DatabaseSync } from 'node:sqlite';
import { createKvRepo } from './repos/kv.ts';

export interface Clock {
  /** Unix milliseconds on the service clock. */
  now(): number;
  /** Unix seconds on the service clock. */
  nowSeconds(): number;
  /** Moves the clock forward; the offset is kept in the database so a restart keeps the same time. */
  advance(seconds: number): number;
}

export function createClock(db?: DatabaseSync): Clock {
  const kv = db ? createKvRepo(db) : null;
  let offsetMs = Number(kv?.get('clock_offset_ms') ?? 0) || 0;
  const now = (): number => Date.now() + offsetMs;
  return {
    now,
    nowSeconds: () => Math.floor(now() / 1000),
    advance(seconds: number): number {
      offsetMs += Math.round(seconds * 1000);
      kv?.put('clock_offset_ms', String(offsetMs));
      return now();
    },
  };
}
