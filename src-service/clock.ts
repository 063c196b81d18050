// The service clock: real time plus an offset that POST /admin/clock moves forward (DESIGN.md §4).
// Everything time-based (rate-limit windows, key expiry, account age, direct-link expiry, webhook
// timestamps) reads this clock, so tests can cross a 24-hour window without waiting.
import type { DatabaseSync } from 'node:sqlite';

export interface Clock {
  /** Unix milliseconds on the service clock. */
  now(): number;
  /** Unix seconds on the service clock. */
  nowSeconds(): number;
  /** Moves the clock forward; the offset is kept in the database so a restart keeps the same time. */
  advance(seconds: number): number;
}

export function createClock(db?: DatabaseSync): Clock {
  let offsetMs = 0;
  if (db) {
    const row = db.prepare("SELECT value FROM kv WHERE key = 'clock_offset_ms'").get() as { value: string } | undefined;
    if (row) offsetMs = Number(row.value) || 0;
  }
  const now = (): number => Date.now() + offsetMs;
  return {
    now,
    nowSeconds: () => Math.floor(now() / 1000),
    advance(seconds: number): number {
      offsetMs += Math.round(seconds * 1000);
      db?.prepare("INSERT INTO kv (key, value) VALUES ('clock_offset_ms', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value").run(
        String(offsetMs),
      );
      return now();
    },
  };
}
