// spec §5 auth rules and the per-key rate limit (DESIGN.md §3), over real HTTP.
import { describe, expect, it } from 'vitest';
import { useTestService } from '../test-support.ts';

const svc = useTestService();

const body = { prompt: 'x', n: 3 }; // a cheap request that fails validation after auth (400)

describe('authentication', () => {
  it('answers 401 unauthorized without an Authorization header', async () => {
    const res = await svc.api('/api/v1/generate', { body });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('unauthorized');
  });

  it('says whether an invalid key is unknown, revoked or expired', async () => {
    const unknown = await svc.api('/api/v1/generate', { key: 'sk_notarealkeynotarealkeynotareal', body, headers: { 'Accept-Language': 'en' } });
    expect(unknown.status).toBe(401);
    expect(unknown.body.error.code).toBe('invalid_api_key');
    expect(unknown.body.error.message).toMatch(/unknown/);

    const a = await svc.account();
    await svc.admin('POST', `/admin/api-keys/${a.keyId}/revoke`);
    const revoked = await svc.api('/api/v1/generate', { key: a.key, body, headers: { 'Accept-Language': 'en' } });
    expect(revoked.body.error.code).toBe('invalid_api_key');
    expect(revoked.body.error.message).toMatch(/revoked/);

    const now = (await svc.admin('GET', '/admin/clock')).body.now as number;
    const key = await svc.admin('POST', `/admin/accounts/${a.id}/api-keys`, { name: 'short', scopes: ['generate:write'], expires_at: now + 60 });
    expect((await svc.api('/api/v1/generate', { key: key.body.key, body })).status).toBe(400);
    await svc.admin('POST', '/admin/clock', { advance_s: 61 });
    const expired = await svc.api('/api/v1/generate', { key: key.body.key, body, headers: { 'Accept-Language': 'en' } });
    expect(expired.status).toBe(401);
    expect(expired.body.error.message).toMatch(/expired/);
  });

  it('answers 403 insufficient_scope for a key without generate:write', async () => {
    const a = await svc.account({ scopes: ['assets:read'] });
    const res = await svc.api('/api/v1/generate', { key: a.key, body });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('insufficient_scope');
  });

  it('answers 403 banned for a banned account, and serves it again once unbanned', async () => {
    const a = await svc.account();
    await svc.admin('PATCH', `/admin/accounts/${a.id}`, { banned: true });
    const res = await svc.api('/api/v1/generate', { key: a.key, body });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('banned');
    await svc.admin('PATCH', `/admin/accounts/${a.id}`, { banned: false });
    expect((await svc.api('/api/v1/generate', { key: a.key, body })).status).toBe(400);
  });

  it('answers 503 auth_unavailable for exactly the armed number of calls', async () => {
    const a = await svc.account();
    await svc.admin('PUT', '/admin/faults', { auth_unavailable: 2 });
    for (let i = 0; i < 2; i++) {
      const res = await svc.api('/api/v1/generate', { key: a.key, body });
      expect(res.status).toBe(503);
      expect(res.body.error.code).toBe('auth_unavailable');
    }
    expect((await svc.api('/api/v1/generate', { key: a.key, body })).status).toBe(400);
  });

  it('never stores the key itself: the admin key listing has no secret', async () => {
    const a = await svc.account();
    const list = await svc.admin('GET', `/admin/accounts/${a.id}/api-keys`);
    expect(list.body.api_keys).toHaveLength(1);
    expect(JSON.stringify(list.body)).not.toContain(a.key);
    expect(list.body.api_keys[0]).not.toHaveProperty('key');
  });
});

describe('per-key rate limit', () => {
  it('answers 429 rate_limited with Retry-After past the limit, counts every authenticated request, and frees up as the window rolls', async () => {
    const a = await svc.account({ scopes: ['assets:read'] });
    const patched = await svc.admin('PATCH', `/admin/api-keys/${a.keyId}`, { rate_limit_per_24h: 3 });
    expect(patched.body.rate_limit_per_24h).toBe(3);
    // a 403 (scope) still counts against the key
    expect((await svc.api('/api/v1/generate', { key: a.key, body })).status).toBe(403);
    expect((await svc.api('/api/file/abcdefgh.png', { key: a.key })).status).toBe(404);
    expect((await svc.api('/api/file/abcdefgh.png', { key: a.key })).status).toBe(404);
    const limited = await svc.api('/api/file/abcdefgh.png', { key: a.key });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('content-type')).toMatch(/^text\/plain/);
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(86_000);
    expect(retryAfter).toBeLessThanOrEqual(86_460);
    // another key of the same account has its own window
    const other = await svc.admin('POST', `/admin/accounts/${a.id}/api-keys`, { name: 'b', scopes: ['generate:write'] });
    expect((await svc.api('/api/v1/generate', { key: other.body.key, body })).status).toBe(400);
    await svc.admin('POST', '/admin/clock', { advance_s: retryAfter });
    expect((await svc.api('/api/file/abcdefgh.png', { key: a.key })).status).toBe(404);
  });

  it('answers the JSON body with Retry-After under /api/v1, and a refused request does not extend the wait', async () => {
    const a = await svc.account();
    await svc.admin('PATCH', `/admin/api-keys/${a.keyId}`, { rate_limit_per_24h: 1 });
    expect((await svc.api('/api/v1/generate', { key: a.key, body })).status).toBe(400);
    const first = await svc.api('/api/v1/generate', { key: a.key, body });
    expect(first.status).toBe(429);
    expect(first.body.error.code).toBe('rate_limited');
    expect(first.body.error.request_id).toBe(first.headers.get('x-request-id'));
    await svc.admin('POST', '/admin/clock', { advance_s: 3600 });
    const second = await svc.api('/api/v1/generate', { key: a.key, body });
    expect(second.status).toBe(429);
    expect(Number(second.headers.get('retry-after'))).toBeLessThanOrEqual(Number(first.headers.get('retry-after')) - 3599);
  });

  it('uses the default limit from the settings for keys without their own', async () => {
    const a = await svc.account();
    const before = (await svc.admin('GET', '/admin/settings')).body;
    await svc.admin('PUT', '/admin/settings', { default_rate_limit_per_24h: 2 });
    try {
      expect((await svc.api('/api/v1/generate', { key: a.key, body })).status).toBe(400);
      expect((await svc.api('/api/v1/generate', { key: a.key, body })).status).toBe(400);
      expect((await svc.api('/api/v1/generate', { key: a.key, body })).status).toBe(429);
    } finally {
      await svc.admin('PUT', '/admin/settings', { default_rate_limit_per_24h: before.default_rate_limit_per_24h });
    }
  });
});
