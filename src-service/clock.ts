// The service clock (the simulated business clock): real time plus an offset that POST /admin/clock moves
// forward, or back to real time with {reset: true} (DESIGN.md §4). Business time reads it: rate-limit and
// credit windows, key expiry, account age, direct-link expiry and every recorded time. Webhook signatures do
// not: X-Service-Timestamp is real time, as production signs (services/dispatcher.ts), so a receiver's
// 5-minute check holds however far the clock was moved.
import type { DatabaseSync } from 'node:sqlite';
import { createKvRepo } from './repos/kv.ts';

/** The kv row that keeps the offset, so a restart keeps the same simulated time (docs/local-service.md). */
const OFFSET_KEY = 'clock_offset_ms';

export interface Clock {
  /** Unix milliseconds on the service clock. */
  now(): number;
  /** Unix seconds on the service clock. */
  nowSeconds(): number;
  /** Moves the clock forward; the offset is kept in the database so a restart keeps the same time. */
  advance(seconds: number): number;
  /** Back to real time (offset 0), kept in the database too. */
  reset(): number;
  /** How far the clock is ahead of real time, in whole seconds. */
  offsetSeconds(): number;
  /** Reads the offset from the database again (after a snapshot is restored or the service reset). */
  reload(): void;
}

export function createClock(db?: DatabaseSync): Clock {
  const kv = db ? createKvRepo(db) : null;
  const saved = (): number => Number(kv?.get(OFFSET_KEY) ?? 0) || 0;
  let offsetMs = saved();
  const now = (): number => Date.now() + offsetMs;
  const setOffset = (ms: number): number => {
    offsetMs = ms;
    kv?.put(OFFSET_KEY, String(offsetMs));
    return now();
  };
  return {
    now,
    nowSeconds: () => Math.floor(now() / 1000),
    advance: (seconds) => setOffset(offsetMs + Math.round(seconds * 1000)),
    reset: () => setOffset(0),
    offsetSeconds: () => Math.floor(offsetMs / 1000),
    reload: () => void (offsetMs = saved()),
  };
}
