// spec §5 and DESIGN.md §3: Bearer API keys (stored as SHA-256 hashes), scopes, revoked/expired/unknown,
// banned, auth_unavailable as an injectable fault, and the per-key rolling 24-hour rate limit counted on every
// authenticated request. Order follows DESIGN.md §3: auth (401/403/503) before the rate limit (429).
import { createHash, timingSafeEqual } from 'node:crypto';
import type { DatabaseSync } from 'node:sqlite';
import type { MiddlewareHandler } from 'hono';
import type { ApiScope } from '../../src-shared/api.ts';
import type { Clock } from '../clock.ts';
import type { AppEnv } from '../deps.ts';
import { failAsForced, type FaultStore } from '../faults.ts';
import type { ApiKeysRepo } from '../repos/api-keys.ts';
import type { SettingsStore } from '../settings.ts';
import { transaction } from '../db.ts';
import { createOutageLog, writeRetryDelay, type WriteRetryLog } from '../write-retry.ts';
import { readBodyText } from './body.ts';
import { fail } from './errors.ts';

const WINDOW_MINUTES = 24 * 60;

export function hashApiKey(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

function bearerToken(header: string | undefined): string | null | undefined {
  if (header === undefined) return undefined;
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  return match ? (match[1] ?? null) : null;
}

export interface RateLimiter {
  /** Whether the key is at its limit in the rolling 24 hours, and when a request will next be allowed. */
  check(keyId: string, limit: number): { over: boolean; retryAfterS: number };
  record(keyId: string): void;
  /**
   * Writes the counts not yet in SQLite. Never throws: counts that cannot be written (a full disk) are kept and
   * written with the next flush, so a full disk neither loses them nor ends the process. Returns whether the
   * write failed, with its error.
   */
  flush(): { ok: true } | { ok: false; error: unknown };
  /** Drops what it holds in memory, to read the counts from SQLite again (after a snapshot restore or a reset). */
  forget(): void;
}

interface KeyWindow {
  /** One-minute buckets, oldest first. */
  buckets: Array<{ minute: number; count: number }>;
  total: number;
}

/**
 * The rolling window per key, held in memory (loaded from SQLite on first use) and written behind to SQLite
 * about once a second: counting is on the hot path of every authenticated request.
 */
export function createRateLimiter(keys: ApiKeysRepo, clock: Clock, db?: DatabaseSync): RateLimiter {
  const windows = new Map<string, KeyWindow>();
  let unsaved = new Map<string, Map<number, number>>();

  const windowOf = (keyId: string, after: number): KeyWindow => {
    let w = windows.get(keyId);
    if (!w) {
      const buckets = keys.bucketsSince(keyId, after);
      w = { buckets, total: buckets.reduce((sum, b) => sum + b.count, 0) };
      windows.set(keyId, w);
    }
    // Buckets that left the window stop counting.
    while (w.buckets.length > 0 && (w.buckets[0]?.minute ?? Infinity) <= after) w.total -= w.buckets.shift()?.count ?? 0;
    return w;
  };

  /** Puts counts a failed write rolled back in front of those recorded since, to be written next time. */
  const keepForNextFlush = (batch: Map<string, Map<number, number>>): void => {
    for (const [keyId, perMinute] of batch) {
      let perKey = unsaved.get(keyId);
      if (!perKey) unsaved.set(keyId, (perKey = new Map()));
      for (const [minute, count] of perMinute) perKey.set(minute, (perKey.get(minute) ?? 0) + count);
    }
  };

  const limiter: RateLimiter = {
    check(keyId, limit) {
      const now = clock.now();
      const after = Math.floor(now / 60_000) - WINDOW_MINUTES;
      const w = windowOf(keyId, after);
      if (w.total < limit) return { over: false, retryAfterS: 0 };
      // The window rolls: find the bucket whose departure brings the count below the limit.
      let remaining = w.total;
      let leavesAt = now + 60_000;
      for (const bucket of w.buckets) {
        remaining -= bucket.count;
        leavesAt = (bucket.minute + WINDOW_MINUTES) * 60_000;
        if (remaining < limit) break;
      }
      return { over: true, retryAfterS: Math.max(1, Math.ceil((leavesAt - now) / 1000)) };
    },
    record(keyId) {
      const minute = Math.floor(clock.now() / 60_000);
      const w = windowOf(keyId, minute - WINDOW_MINUTES);
      const last = w.buckets.at(-1);
      if (last && last.minute === minute) last.count++;
      else w.buckets.push({ minute, count: 1 });
      w.total++;
      let perKey = unsaved.get(keyId);
      if (!perKey) unsaved.set(keyId, (perKey = new Map()));
      perKey.set(minute, (perKey.get(minute) ?? 0) + 1);
    },
    forget() {
      windows.clear();
      unsaved = new Map();
    },
    flush() {
      if (unsaved.size === 0) return { ok: true };
      const batch = unsaved;
      unsaved = new Map();
      const write = (): void => {
        for (const [keyId, perMinute] of batch) for (const [minute, count] of perMinute) keys.addUse(keyId, minute, count);
        keys.pruneUsage(Math.floor(clock.now() / 60_000) - WINDOW_MINUTES);
      };
      try {
        if (db) transaction(db, write);
        else write();
        return { ok: true };
      } catch (error) {
        keepForNextFlush(batch);
        return { ok: false, error };
      }
    },
  };
  return limiter;
}

/** How often the per-key usage counts are written behind while writes succeed. */
export const USAGE_FLUSH_EVERY_MS = 1_000;

/**
 * Writes the limiter's counts every second. While a write fails (a full disk) the counts stay in memory and the
 * next try waits the service's write back-off (write-retry.ts, at least a second), so they are written soon after
 * space returns; the outage is logged once when it starts and once when it ends. stop() writes what is left.
 */
export function startUsageFlush(limiter: RateLimiter, log: WriteRetryLog, everyMs = USAGE_FLUSH_EVERY_MS): { stop(): void } {
  const outage = createOutageLog(log, 'per-key usage counts');
  let failures = 0;
  let timer: NodeJS.Timeout | undefined;
  const flush = (): void => {
    const result = limiter.flush();
    if (result.ok) {
      failures = 0;
      outage.recovered();
    } else {
      failures++;
      outage.failed(result.error);
    }
  };
  const next = (): void => {
    timer = setTimeout(() => {
      flush();
      next();
    }, failures === 0 ? everyMs : Math.max(everyMs, writeRetryDelay(failures)));
    timer.unref();
  };
  next();
  return {
    stop() {
      clearTimeout(timer);
      flush();
    },
  };
}

export function createApiKeyAuth(options: {
  keys: ApiKeysRepo;
  clock: Clock;
  faults: FaultStore;
  settings: SettingsStore;
  /** The service's one limiter, whose counts start.ts writes behind (startUsageFlush). */
  limiter: RateLimiter;
}): (scope: ApiScope) => MiddlewareHandler<AppEnv> {
  const { keys, clock, faults, settings, limiter } = options;
  return (scope) => async (c, next) => {
    const token = bearerToken(c.req.header('authorization'));
    if (token === undefined) fail('unauthorized');
    // The auth service being down is a fault the admin arms (DESIGN.md §4); spec §5: 503 auth_unavailable.
    if (faults.takeAuthUnavailable()) failAsForced({ status: 503, retryAfterS: null }, 0);
    if (token === null) fail('invalid_api_key', { reason: 'unknown' });
    const key = keys.findByHash(hashApiKey(token));
    if (!key) fail('invalid_api_key', { reason: 'unknown' });
    if (key.revoked_at !== null) fail('invalid_api_key', { reason: 'revoked' });
    if (key.expires_at !== null && key.expires_at <= clock.now()) fail('invalid_api_key', { reason: 'expired' });

    const limit = key.rate_limit_per_24h ?? settings.get().default_rate_limit_per_24h;
    const usage = limiter.check(key.id, limit);
    const scopes = JSON.parse(key.scopes) as string[];
    if (key.banned || !scopes.includes(scope)) {
      // An authenticated request counts against the key even when it is refused for scope or ban.
      limiter.record(key.id);
      if (key.banned) fail('banned');
      fail('insufficient_scope', { scope });
    }
    if (usage.over) failRateLimited(limit, usage.retryAfterS);
    // A request counts once its body has fully arrived: clients that never finish sending use no quota. The
    // window is checked again, since other requests may have been counted meanwhile.
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') {
      await readBodyText(c);
      const now = limiter.check(key.id, limit);
      if (now.over) failRateLimited(limit, now.retryAfterS);
    }
    limiter.record(key.id);
    c.set('auth', { accountId: key.account_id, keyId: key.id, scopes });
    await next();
  };
}

function failRateLimited(limit: number, retryAfterS: number): never {
  fail('rate_limited', { limit, retry_after_s: retryAfterS }, { 'Retry-After': String(retryAfterS) });
}

export function createAdminAuth(adminToken: string): MiddlewareHandler<AppEnv> {
  const expected = Buffer.from(adminToken);
  return async (c, next) => {
    const token = bearerToken(c.req.header('authorization'));
    if (token === undefined) fail('unauthorized');
    const given = Buffer.from(token ?? '');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) fail('invalid_api_key', { reason: 'unknown' });
    await next();
  };
}
