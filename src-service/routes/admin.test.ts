/* eslint-disable @typescript-eslint/no-explicit-any -- tests read response bodies field by field */
// The admin API of DESIGN.md §4 that S1 owns, over real HTTP.
import { describe, expect, it } from 'vitest';
import { useTestService } from '../test-support.ts';

const svc = useTestService();

describe('admin API', () => {
  it('needs the admin token and answers with the spec §7 body otherwise', async () => {
    const none = await fetch(`${svc.baseUrl}/admin/accounts`, { method: 'POST', body: '{}' });
    expect(none.status).toBe(401);
    expect(((await none.json()) as any).error.code).toBe('unauthorized');
    const wrong = await fetch(`${svc.baseUrl}/admin/settings`, { headers: { Authorization: 'Bearer nope' } });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('x-request-id')).toMatch(/^req_/);
  });

  it('answers an unknown route with not_found saying there is no such route, in the language Accept-Language asks for', async () => {
    for (const path of ['/nothing-here', '/admin/no-such-thing', '/api/v1/nope']) {
      const en = await fetch(`${svc.baseUrl}${path}`, { headers: { 'Accept-Language': 'en-US,en;q=0.9' } });
      const body = (await en.json()) as any;
      expect(en.status, path).toBe(404);
      expect(body.error.code).toBe('not_found');
      expect(body.error.message).toBe(`No such route: GET ${path}.`);
      expect(body.error.request_id).toBe(en.headers.get('x-request-id'));
      // No Accept-Language: the service's one language rule gives Chinese (docs/local-service.md "Languages").
      const zh = (await (await fetch(`${svc.baseUrl}${path}`, { method: 'DELETE' })).json()) as any;
      expect(zh.error.message).toBe(`没有这个路由：DELETE ${path}。`);
    }
    const snapshot = await fetch(`${svc.baseUrl}/admin/snapshots/none/restore`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${svc.adminToken}`, 'Accept-Language': 'en' },
    });
    expect(((await snapshot.json()) as any).error.message).toBe('snapshot none does not exist.');
  });

  it('creates, reads and patches accounts with credits, age, ban and reserved', async () => {
    const created = await svc.admin('POST', '/admin/accounts', { credits: 50, age_days: 3 });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ credits: 50, banned: false });
    const now = (await svc.admin('GET', '/admin/clock')).body.now;
    expect(now - created.body.created_at).toBeGreaterThanOrEqual(3 * 86_400 - 1);
    const id = created.body.id;
    expect((await svc.admin('GET', `/admin/accounts/${id}`)).body).toMatchObject({ id, credits: 50, reserved: 0 });
    expect((await svc.admin('PATCH', `/admin/accounts/${id}`, { add_credits: 25 })).body.credits).toBe(75);
    expect((await svc.admin('PATCH', `/admin/accounts/${id}`, { credits: 10, banned: true })).body).toMatchObject({ credits: 10, banned: true });
    const aged = await svc.admin('PATCH', `/admin/accounts/${id}`, { age_days: 10 });
    expect(now - aged.body.created_at).toBeGreaterThanOrEqual(10 * 86_400 - 1);
  });

  it('refuses bad admin bodies with invalid_request and changes nothing', async () => {
    const created = await svc.admin('POST', '/admin/accounts', { credits: 5 });
    const id = created.body.id;
    for (const body of [{ credits: -1 }, { add_credits: -6 }, { banned: 'yes' }, { creditz: 1 }]) {
      const res = await svc.admin('PATCH', `/admin/accounts/${id}`, body);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('invalid_request');
    }
    expect((await svc.admin('GET', `/admin/accounts/${id}`)).body).toMatchObject({ credits: 5, banned: false });
    const badScope = await svc.admin('POST', `/admin/accounts/${id}/api-keys`, { name: 'k', scopes: ['admin:all'] });
    expect(badScope.status).toBe(400);
    expect((await svc.admin('GET', `/admin/accounts/${id}/api-keys`)).body.api_keys).toEqual([]);
    expect((await svc.admin('GET', '/admin/accounts/acc_missing')).status).toBe(404);
    expect((await svc.admin('PUT', '/admin/faults', { generate: { fail: -1 } })).status).toBe(400);
    expect((await svc.admin('POST', '/admin/clock', { advance_s: -5 })).status).toBe(400);
  });

  it('words admin invalid_request details in Chinese by default and in English for Accept-Language en', async () => {
    const id = (await svc.admin('POST', '/admin/accounts', { credits: 5 })).body.id;
    const cases: Array<[string, string, unknown]> = [
      ['POST', `/admin/accounts/${id}/api-keys`, { scopes: ['generate:write'] }],
      ['POST', `/admin/accounts/${id}/api-keys`, { name: 'k', scopes: ['admin:all'] }],
      ['PATCH', `/admin/accounts/${id}`, { add_credits: -6 }],
      ['PATCH', `/admin/accounts/${id}`, { credits: 1.5 }],
      ['POST', `/admin/accounts/${id}/webhook/ping`, undefined],
    ];
    for (const [method, path, body] of cases) {
      const zh = await svc.admin(method, path, body);
      expect(zh.body.error.code, path).toBe('invalid_request');
      // DESIGN.md §3 "Language": only field names, values and numbers stay Latin in the zh message.
      const words = String(zh.body.error.message).replace(/[a-z_]+(?:\.\d+)?:|"[^"]*"|add_credits|undefined|string|number|int\b/g, '');
      expect(words, `${method} ${path}`).not.toMatch(/[A-Za-z]{3,}/);
      const en = await fetch(`${svc.baseUrl}${path}`, {
        method,
        headers: { Authorization: `Bearer ${svc.adminToken}`, 'Content-Type': 'application/json', 'Accept-Language': 'en' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const enError = ((await en.json()) as any).error;
      expect(enError.code, path).toBe('invalid_request');
      expect(enError.message, `${method} ${path}`).not.toMatch(/[\u4e00-\u9fff]/);
    }
  });

  it('creates keys shown once, revokes them and sets their rate limit', async () => {
    const account = await svc.admin('POST', '/admin/accounts', {});
    const key = await svc.admin('POST', `/admin/accounts/${account.body.id}/api-keys`, { name: 'ci', scopes: ['generate:write', 'assets:read'] });
    expect(key.status).toBe(201);
    expect(key.body).toMatchObject({ name: 'ci', scopes: ['generate:write', 'assets:read'], expires_at: null });
    expect(key.body.key).toMatch(/^sk_[A-Za-z0-9]{32}$/);
    expect((await svc.admin('POST', `/admin/api-keys/${key.body.id}/revoke`)).body).toEqual({ id: key.body.id, revoked: true });
    const patched = await svc.admin('PATCH', `/admin/api-keys/${key.body.id}`, { rate_limit_per_24h: 7 });
    expect(patched.body).toMatchObject({ id: key.body.id, rate_limit_per_24h: 7, revoked: true });
    expect(patched.body).not.toHaveProperty('key');
  });

  it('arms and reports faults, moves the clock and keeps settings', async () => {
    const armed = await svc.admin('PUT', '/admin/faults', { generate: { fail: 2, latency_ms: 0 }, auth_unavailable: 0 });
    expect(armed.body.generate.fail).toBe(2);
    expect((await svc.admin('GET', '/admin/faults')).body.generate.fail).toBe(2);
    await svc.admin('PUT', '/admin/faults', { generate: { fail: 0 } });
    const before = (await svc.admin('GET', '/admin/clock')).body.now;
    const after = (await svc.admin('POST', '/admin/clock', { advance_s: 7200 })).body.now;
    expect(after - before).toBeGreaterThanOrEqual(7200);
    expect(after - before).toBeLessThan(7210);
    const settings = await svc.admin('PUT', '/admin/settings', { allow_loopback_webhooks: false });
    expect(settings.body).toEqual({ allow_loopback_webhooks: false, default_rate_limit_per_24h: 1000 });
    expect((await svc.admin('GET', '/admin/settings')).body.allow_loopback_webhooks).toBe(false);
  });

  it('answers 404 for deleting an unknown image', async () => {
    const res = await svc.admin('DELETE', '/admin/images/img_nothere0');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
  });
});
