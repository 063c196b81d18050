// spec §5 and DESIGN.md §3: Bearer API keys (stored as SHA-256 hashes), scopes, revoked/expired/unknown,
// banned, auth_unavailable as an injectable fault, and the per-key rolling 24-hour rate limit counted on every
// authenticated request. Order follows DESIGN.md §3: auth (401/403/503) before the rate limit (429).
import { createHash, timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { ApiScope } from '../../src-shared/api.ts';
import type { Clock } from '../clock.ts';
import type { AppEnv } from '../deps.ts';
import type { FaultStore } from '../faults.ts';
import type { ApiKeysRepo } from '../repos/api-keys.ts';
import type { SettingsStore } from '../settings.ts';
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
  /** Counts one request of the key; throws 429 rate_limited with Retry-After when over. */
  check(keyId: string, limit: number): { over: boolean; retryAfterS: number };
  record(keyId: string): void;
}

export function createRateLimiter(keys: ApiKeysRepo, clock: Clock): RateLimiter {
  let sincePrune = 0;
  return {
    check(keyId, limit) {
      const now = clock.now();
      const minute = Math.floor(now / 60_000);
      const after = minute - WINDOW_MINUTES;
      const used = keys.usageSince(keyId, after);
      if (used < limit) return { over: false, retryAfterS: 0 };
      // The window rolls: find the bucket whose departure brings the count below the limit.
      let remaining = used;
      let leavesAt = now + 60_000;
      for (const bucket of keys.bucketsSince(keyId, after)) {
        remaining -= bucket.count;
        leavesAt = (bucket.minute + WINDOW_MINUTES) * 60_000;
        if (remaining < limit) break;
      }
      return { over: true, retryAfterS: Math.max(1, Math.ceil((leavesAt - now) / 1000)) };
    },
    record(keyId) {
      const minute = Math.floor(clock.now() / 60_000);
      keys.recordUse(keyId, minute);
      if (++sincePrune >= 5000) {
        sincePrune = 0;
        keys.pruneUsage(minute - WINDOW_MINUTES);
      }
    },
  };
}

export function createApiKeyAuth(options: {
  keys: ApiKeysRepo;
  clock: Clock;
  faults: FaultStore;
  settings: SettingsStore;
}): (scope: ApiScope) => MiddlewareHandler<AppEnv> {
  const { keys, clock, faults, settings } = options;
  const limiter = createRateLimiter(keys, clock);
  return (scope) => async (c, next) => {
    const token = bearerToken(c.req.header('authorization'));
    if (token === undefined) fail('unauthorized');
    // The auth service being down is a fault the admin arms (DESIGN.md §4); spec §5: 503 auth_unavailable.
    if (faults.takeAuthUnavailable()) fail('auth_unavailable', {}, { 'Retry-After': '3' });
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
    if (usage.over) {
      fail('rate_limited', { limit, retry_after_s: usage.retryAfterS }, { 'Retry-After': String(usage.retryAfterS) });
    }
    limiter.record(key.id);
    c.set('auth', { accountId: key.account_id, keyId: key.id, scopes });
    await next();
  };
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
