// Webhook settings, ping, signing and Regenerate over real HTTP on loopback (spec §6, DESIGN.md §4).
import { createHmac, timingSafeEqual } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ID_SHAPES, UUID_V4_PATTERN } from '../../src-shared/ids.ts';
import { useFileService, waitUntil, sleep, type Receiver, type ReceivedRequest, type Responder } from './packs-webhooks.test-support.ts';

/** Independent check of spec §6 "Signature verification" with node:crypto over the raw bytes received. */
function verifiesWith(secret: string, req: ReceivedRequest): boolean {
  const ts = String(req.headers['x-service-timestamp']);
  const header = String(req.headers['x-service-signature']);
  const expected = createHmac('sha256', secret).update(Buffer.concat([Buffer.from(`${ts}.`), req.body])).digest();
  return header.split(',').some((part) => {
    const [scheme, value] = part.trim().split('=');
    if (scheme !== 'v1' || !value || !/^[0-9a-f]{64}$/.test(value)) return false;
    return timingSafeEqual(expected, Buffer.from(value, 'hex'));
  });
}

const { svc, receiver } = useFileService((service) => service.admin('PUT', '/admin/settings', { allow_loopback_webhooks: true }));

async function newAccount(): Promise<string> {
  const res = await svc.admin('POST', '/admin/accounts', { credits: 0 });
  expect(res.status).toBe(201);
  return (res.json as { id: string }).id;
}

/** A new account whose webhook points at a new receiver (switched on unless `enabled` is false). */
async function accountWithWebhook(respond?: Responder, enabled = true): Promise<{ account: string; r: Receiver; secret: string }> {
  const account = await newAccount();
  const r = await receiver(respond);
  const put = await svc.admin('PUT', `/admin/accounts/${account}/webhook`, { url: r.url, enabled });
  return { account, r, secret: (put.json as { secret: string }).secret };
}

describe('webhook configuration', () => {
  it('answers an unconfigured webhook as empty and switched off, with no last delivery', async () => {
    const account = await newAccount();
    const res = await svc.admin('GET', `/admin/accounts/${account}/webhook`);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ url: '', enabled: false, last_delivery: null });
  });

  it('creates a whsec_ secret on the first PUT and keeps it on later PUTs', async () => {
    const account = await newAccount();
    const first = await svc.admin('PUT', `/admin/accounts/${account}/webhook`, { url: 'https://hooks.example.com/a', enabled: true });
    expect(first.status).toBe(200);
    const body = first.json as { url: string; enabled: boolean; secret: string };
    expect(body.url).toBe('https://hooks.example.com/a');
    expect(body.enabled).toBe(true);
    expect(body.secret).toMatch(ID_SHAPES.webhookSecret.pattern);
    const second = await svc.admin('PUT', `/admin/accounts/${account}/webhook`, { url: '', enabled: false });
    expect(second.json).toEqual({ url: '', enabled: false, secret: body.secret });
    const read = await svc.admin('GET', `/admin/accounts/${account}/webhook`);
    expect(read.json).toEqual({ url: '', enabled: false, last_delivery: null });
    expect(read.text).not.toContain('whsec_');
  });

  it('refuses a URL breaking a rule with 400 invalid_webhook_url naming the rule, and keeps the previous configuration', async () => {
    const account = await newAccount();
    const saved = await svc.admin('PUT', `/admin/accounts/${account}/webhook`, { url: 'https://hooks.example.com/keep', enabled: true });
    const secret = (saved.json as { secret: string }).secret;
    const table: Array<[string, string]> = [
      ['http://hooks.example.com/x', 'https_only'],
      ['https://user:pw@hooks.example.com/x', 'no_credentials'],
      ['https://2130706433/x', 'no_ip_literal'],
      ['https://[::1]/x', 'no_ip_literal'],
      ['https://203.0.113.9/x', 'no_ip_literal'],
      // Loopback is allowed in this file, and https://localhost is then a loopback receiver; the other spelling is not.
      ['https://localhost./x', 'no_localhost'],
      ['https://app.localhost/x', 'no_localhost'],
      ['https://printer.local/x', 'no_private_hostname'],
      ['https://intranet/x', 'no_private_hostname'],
      ['https://db.internal/x', 'no_private_hostname'],
      ['not a url', 'not_a_url'],
    ];
    for (const [url, rule] of table) {
      const res = await svc.admin('PUT', `/admin/accounts/${account}/webhook`, { url, enabled: false }, { 'Accept-Language': 'en' });
      expect(res.status, url).toBe(400);
      const error = (res.json as { error: { code: string; message: string; request_id: string } }).error;
      expect(error.code).toBe('invalid_webhook_url');
      expect(error.message, url).toContain(rule);
      expect(error.request_id).toBe(res.headers.get('x-request-id'));
    }
    const after = await svc.admin('GET', `/admin/accounts/${account}/webhook`);
    expect(after.json).toMatchObject({ url: 'https://hooks.example.com/keep', enabled: true });
    // The secret was not replaced by any refused PUT.
    const again = await svc.admin('PUT', `/admin/accounts/${account}/webhook`, { url: 'https://hooks.example.com/keep', enabled: true });
    expect((again.json as { secret: string }).secret).toBe(secret);
  });

  it('words the refused-URL message wholly in Chinese by default and in English for Accept-Language en', async () => {
    const account = await newAccount();
    const urls = [
      'http://hooks.example.com/x',
      'https://user:pw@hooks.example.com/x',
      'https://0x7f.1/x',
      'https://localhost./x',
      'https://intranet/x',
      'https://db.internal/x',
      ' https://hooks.example.com/x',
    ];
    for (const url of urls) {
      const zh = await svc.admin('PUT', `/admin/accounts/${account}/webhook`, { url, enabled: true });
      const zhMessage = (zh.json as { error: { message: string } }).error.message;
      // DESIGN.md §3 "Language": no Accept-Language gives Chinese; only the rule code, host and scheme stay Latin.
      const latin = zhMessage.replace(/（[a-z_]+）/, '').replace(/[a-z0-9.:[\]-]*(?:hooks\.example\.com|localhost|intranet|internal|0x7f\.1|127\.0\.0\.1|https?)\b/g, '');
      expect(latin, url).not.toMatch(/[A-Za-z]{3,}/);
      const en = await svc.admin('PUT', `/admin/accounts/${account}/webhook`, { url, enabled: true }, { 'Accept-Language': 'en' });
      expect((en.json as { error: { message: string } }).error.message, url).not.toMatch(/[\u4e00-\u9fff]/);
    }
  });

  it('refuses a body that is not {url: string, enabled: boolean} with invalid_request and changes nothing', async () => {
    const account = await newAccount();
    await svc.admin('PUT', `/admin/accounts/${account}/webhook`, { url: 'https://hooks.example.com/keep', enabled: true });
    for (const body of ['{', { url: 'https://hooks.example.com/x' }, { url: 5, enabled: true }, { url: 'https://a.example.com/', enabled: 'yes' }, { url: '', enabled: true, extra: 1 }]) {
      const res = await svc.admin('PUT', `/admin/accounts/${account}/webhook`, body);
      expect(res.status).toBe(400);
      expect((res.json as { error: { code: string } }).error.code).toBe('invalid_request');
    }
    expect((await svc.admin('GET', `/admin/accounts/${account}/webhook`)).json).toMatchObject({ url: 'https://hooks.example.com/keep', enabled: true });
  });

  it('accepts explicit loopback URLs while allow_loopback_webhooks is on and refuses them once it is off', async () => {
    const account = await newAccount();
    for (const url of ['http://127.0.0.1:4567/hook', 'http://localhost:4567/hook']) {
      expect((await svc.admin('PUT', `/admin/accounts/${account}/webhook`, { url, enabled: true })).status).toBe(200);
    }
    const settings = await svc.admin('PUT', '/admin/settings', { allow_loopback_webhooks: false });
    expect(settings.json).toMatchObject({ allow_loopback_webhooks: false });
    const cases: Array<[string, string]> = [
      ['http://127.0.0.1:4567/hook', 'https_only'],
      ['http://localhost:4567/hook', 'https_only'],
      ['https://127.0.0.1:4567/hook', 'no_ip_literal'],
      ['https://localhost:4567/hook', 'no_localhost'],
    ];
    for (const [url, rule] of cases) {
      const res = await svc.admin('PUT', `/admin/accounts/${account}/webhook`, { url, enabled: true }, { 'Accept-Language': 'en' });
      expect(res.status).toBe(400);
      expect((res.json as { error: { message: string } }).error.message).toContain(rule);
    }
  });

  it('answers 404 not_found for an unknown account', async () => {
    for (const [method, path] of [
      ['GET', '/admin/accounts/acc_nope/webhook'],
      ['POST', '/admin/accounts/acc_nope/webhook/regenerate'],
      ['POST', '/admin/accounts/acc_nope/webhook/ping'],
    ] as const) {
      const res = await svc.admin(method, path);
      expect(res.status).toBe(404);
      expect((res.json as { error: { code: string } }).error.code).toBe('not_found');
    }
    const put = await svc.admin('PUT', '/admin/accounts/acc_nope/webhook', { url: '', enabled: false });
    expect(put.status).toBe(404);
  });

  it('needs the admin token', async () => {
    const res = await fetch(`${svc.service.baseUrl}/admin/accounts/${svc.accountId}/webhook`);
    expect(res.status).toBe(401);
  });
});

describe('ping and signing', () => {
  it('sends a signed ping whose signature verifies with an independent HMAC over the raw bytes', async () => {
    const { account, r, secret } = await accountWithWebhook();
    const ping = await svc.admin('POST', `/admin/accounts/${account}/webhook/ping`);
    expect(ping.status).toBe(202);
    const deliveryId = (ping.json as { delivery_id: string }).delivery_id;
    expect(deliveryId).toMatch(UUID_V4_PATTERN);

    const [req] = await r.waitFor(1);
    if (!req) throw new Error('no request');
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/hook');
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers['user-agent']).toBe('service-webhook/1');
    expect(req.headers['x-service-event']).toBe('ping');
    expect(req.headers['x-service-delivery']).toBe(deliveryId);
    const ts = Number(req.headers['x-service-timestamp']);
    expect(Number.isInteger(ts)).toBe(true);
    const clock = (await svc.admin('GET', '/admin/clock')).json as { now: number };
    expect(Math.abs(clock.now - ts)).toBeLessThanOrEqual(5);
    expect(req.body.toString('utf8')).toBe('{"event":"ping"}');
    expect(String(req.headers['x-service-signature'])).toMatch(/^v1=[0-9a-f]{64}$/);
    expect(verifiesWith(secret, req)).toBe(true);
    expect(verifiesWith('whsec_00000000000000000000000000000000', req)).toBe(false);

    const state = await waitUntil(async () => {
      const res = await svc.admin('GET', `/admin/accounts/${account}/webhook`);
      const body = res.json as { last_delivery: { outcome: string } | null };
      return body.last_delivery?.outcome === 'succeeded' ? body : null;
    });
    expect(state.last_delivery).toMatchObject({ delivery_id: deliveryId, event: 'ping', attempts: 1, outcome: 'succeeded', status: 200 });
  });

  it('signs with real time, not the service clock: after the clock moved 400 s a receiver with a 5-minute window verifies', async () => {
    // A spec-correct receiver (spec §6 steps 2 and 3): its own clock, a 5-minute window, 401 otherwise.
    const { account, r, secret } = await accountWithWebhook((req, _i, res) => {
      const skew = Math.abs(Math.floor(Date.now() / 1000) - Number(req.headers['x-service-timestamp']));
      res.writeHead(skew <= 300 && verifiesWith(secret, req) ? 204 : 401).end();
    });
    const moved = (await svc.admin('POST', '/admin/clock', { advance_s: 400 })).json as { now: number; offset_s: number };
    try {
      expect(moved.offset_s).toBeGreaterThanOrEqual(400);
      const ping = (await svc.admin('POST', `/admin/accounts/${account}/webhook/ping`)).json as { delivery_id: string };
      const [req] = await r.waitFor(1);
      expect(Math.abs(Number(req?.headers['x-service-timestamp']) - Date.now() / 1000)).toBeLessThan(5);
      const state = await waitUntil(async () => {
        const body = (await svc.admin('GET', `/admin/accounts/${account}/webhook`)).json as { last_delivery: { outcome: string } | null };
        return body.last_delivery?.outcome === 'pending' ? null : body;
      });
      expect(state.last_delivery).toMatchObject({ delivery_id: ping.delivery_id, attempts: 1, outcome: 'succeeded', status: 204 });
    } finally {
      await svc.admin('POST', '/admin/clock', { reset: true });
    }
  });

  it('refuses a ping while switched off or without a URL, and sends nothing', async () => {
    const { account, r } = await accountWithWebhook(undefined, false);
    const off = await svc.admin('POST', `/admin/accounts/${account}/webhook/ping`);
    expect(off.status).toBe(400);
    expect((off.json as { error: { code: string } }).error.code).toBe('invalid_request');
    await svc.admin('PUT', `/admin/accounts/${account}/webhook`, { url: '', enabled: true });
    expect((await svc.admin('POST', `/admin/accounts/${account}/webhook/ping`)).status).toBe(400);
    await sleep(300);
    expect(r.requests).toHaveLength(0);
    expect(((await svc.admin('GET', `/admin/accounts/${account}/webhook`)).json as { last_delivery: unknown }).last_delivery).toBeNull();
  });

  it('Regenerate switches the secret at once: the next delivery verifies only with the new one', async () => {
    const { account, r, secret: oldSecret } = await accountWithWebhook();
    const regen = await svc.admin('POST', `/admin/accounts/${account}/webhook/regenerate`);
    expect(regen.status).toBe(200);
    const newSecret = (regen.json as { secret: string }).secret;
    expect(newSecret).toMatch(ID_SHAPES.webhookSecret.pattern);
    expect(newSecret).not.toBe(oldSecret);
    await svc.admin('POST', `/admin/accounts/${account}/webhook/ping`);
    const [req] = await r.waitFor(1);
    if (!req) throw new Error('no request');
    expect(verifiesWith(newSecret, req)).toBe(true);
    expect(verifiesWith(oldSecret, req)).toBe(false);
    // A later PUT keeps the regenerated secret.
    const again = await svc.admin('PUT', `/admin/accounts/${account}/webhook`, { url: r.url, enabled: true });
    expect((again.json as { secret: string }).secret).toBe(newSecret);
  });

  it('signs a retry still pending at Regenerate with the new secret', async () => {
    const { account, r, secret: oldSecret } = await accountWithWebhook((_req, index, res) => {
      res.writeHead(index === 0 ? 500 : 200).end();
    });
    await svc.admin('POST', `/admin/accounts/${account}/webhook/ping`);
    const [first] = await r.waitFor(1);
    if (!first) throw new Error('no request');
    expect(verifiesWith(oldSecret, first)).toBe(true);
    const newSecret = ((await svc.admin('POST', `/admin/accounts/${account}/webhook/regenerate`)).json as { secret: string }).secret;
    const [, second] = await r.waitFor(2);
    if (!second) throw new Error('no retry');
    expect(second.headers['x-service-delivery']).toBe(first.headers['x-service-delivery']);
    expect(verifiesWith(newSecret, second)).toBe(true);
    expect(verifiesWith(oldSecret, second)).toBe(false);
  });

  it('stops sending to a saved loopback URL once allow_loopback_webhooks is off: the attempt fails without connecting', async () => {
    const { account, r } = await accountWithWebhook();
    await svc.admin('PUT', '/admin/settings', { allow_loopback_webhooks: false });
    const ping = await svc.admin('POST', `/admin/accounts/${account}/webhook/ping`);
    expect(ping.status).toBe(202);
    const state = await waitUntil(async () => {
      const body = (await svc.admin('GET', `/admin/accounts/${account}/webhook`)).json as { last_delivery: { attempts: number } | null };
      return body.last_delivery && body.last_delivery.attempts >= 1 ? body : null;
    });
    expect(state.last_delivery).toMatchObject({ attempts: 1, outcome: 'pending' });
    expect(state.last_delivery).not.toHaveProperty('status');
    expect(r.requests).toHaveLength(0);
    const list = await svc.admin('GET', `/admin/accounts/${account}/webhook/deliveries?limit=5`);
    expect((list.json as { deliveries: Array<{ error?: string }> }).deliveries[0]?.error).toContain('https_only');
  });

  it('sends no further retries once the webhook is switched off', async () => {
    const { account, r } = await accountWithWebhook((_req, _i, res) => res.writeHead(500).end());
    await svc.admin('POST', `/admin/accounts/${account}/webhook/ping`);
    await r.waitFor(1);
    await svc.admin('PUT', `/admin/accounts/${account}/webhook`, { url: r.url, enabled: false });
    const last = await waitUntil(async () => {
      const body = (await svc.admin('GET', `/admin/accounts/${account}/webhook`)).json as { last_delivery: { outcome: string } | null };
      return body.last_delivery?.outcome === 'failed' ? body.last_delivery : null;
    });
    expect(last).toMatchObject({ attempts: 1, outcome: 'failed', status: 500 });
    expect(r.requests).toHaveLength(1);
  });
});

describe('recent deliveries (console addition)', () => {
  it('lists deliveries newest first with their last error, and keeps last_delivery to the DESIGN.md §4 fields', async () => {
    const { account, r } = await accountWithWebhook((_req, index, res) => res.writeHead(index === 0 ? 418 : 200).end());
    const first = ((await svc.admin('POST', `/admin/accounts/${account}/webhook/ping`)).json as { delivery_id: string }).delivery_id;
    await r.waitFor(1);
    await sleep(100);
    const second = ((await svc.admin('POST', `/admin/accounts/${account}/webhook/ping`)).json as { delivery_id: string }).delivery_id;
    await r.waitFor(2);
    const list = await waitUntil(async () => {
      const body = (await svc.admin('GET', `/admin/accounts/${account}/webhook/deliveries`)).json as {
        deliveries: Array<{ delivery_id: string; outcome: string; status?: number; error?: string; created_at: number }>;
      };
      return body.deliveries.length === 2 && body.deliveries[0]?.outcome === 'succeeded' ? body.deliveries : null;
    });
    expect(list.map((d) => d.delivery_id)).toEqual([second, first]);
    expect(list[1]).toMatchObject({ outcome: 'pending', status: 418, error: 'HTTP 418' });
    const last = ((await svc.admin('GET', `/admin/accounts/${account}/webhook`)).json as { last_delivery: Record<string, unknown> }).last_delivery;
    expect(Object.keys(last).sort()).toEqual(['at', 'attempts', 'delivery_id', 'event', 'outcome', 'status']);
    expect((await svc.admin('GET', `/admin/accounts/${account}/webhook/deliveries?limit=0`)).status).toBe(400);
    expect((await svc.admin('GET', `/admin/accounts/${account}/webhook/deliveries?limit=1`)).json).toMatchObject({ deliveries: [{ delivery_id: second }] });
  });
});

describe('every attempt of a delivery (issue 27: not only the last status)', () => {
  it('lists each attempt with its status, start and duration, oldest first', async () => {
    const { account, r } = await accountWithWebhook((_req, index, res) => res.writeHead(index === 0 ? 500 : 204).end());
    const ping = await svc.admin('POST', `/admin/accounts/${account}/webhook/ping`);
    expect(ping.status).toBe(202);
    await r.waitFor(2, 15_000);
    const deliveries = await waitUntil(async () => {
      const body = (await svc.admin('GET', `/admin/accounts/${account}/webhook/deliveries`)).json as {
        deliveries: Array<{ outcome: string; attempt_log: Array<{ attempt: number; at: number; status: number | null; error: string | null; duration_ms: number }> }>;
      };
      return body.deliveries[0]?.outcome === 'succeeded' ? body.deliveries : null;
    });
    const log = deliveries[0]?.attempt_log ?? [];
    expect(log.map((a) => [a.attempt, a.status])).toEqual([
      [1, 500],
      [2, 204],
    ]);
    expect(log[0]?.error).toMatch(/500/);
    expect(log[1]?.error).toBeNull();
    // The retry waits 2 s after the first attempt ended (spec §6 rule 3).
    expect((log[1]?.at ?? 0) - (log[0]?.at ?? 0)).toBeGreaterThanOrEqual(1_900);
    for (const a of log) expect(a.duration_ms).toBeGreaterThanOrEqual(0);
  });

  it('GET …/webhook/secret gives the current secret to the admin, and 404 before any webhook was saved', async () => {
    const { account, secret } = await accountWithWebhook();
    expect((await svc.admin('GET', `/admin/accounts/${account}/webhook/secret`)).json).toEqual({ secret });
    const bare = await newAccount();
    expect((await svc.admin('GET', `/admin/accounts/${bare}/webhook/secret`)).status).toBe(404);
  });
});
