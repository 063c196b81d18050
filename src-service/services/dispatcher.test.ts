// Delivery mechanics of spec §6 over real HTTP on loopback: retry timing of a failing receiver, redirects,
// the 8 s timeout, a restart resuming a pending retry, and the resolved-address rule. Timing is checked
// with tolerances (STYLE.md: never assert speed); the slow cases run concurrently to keep the file short.
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UUID_V4_PATTERN } from '../../src-shared/ids.ts';
import { createClock } from '../clock.ts';
import { openDatabase } from '../db.ts';
import { createLogger } from '../logger.ts';
import { createAccountService } from './accounts.ts';
import { createSettingsStore } from '../settings.ts';
import { startReceiver, startTestService, sleep, waitUntil, type Receiver, type ReceivedRequest, type TestService } from '../routes/packs-webhooks.test-support.ts';
import { createWebhookService } from './webhooks.ts';

interface LastDelivery {
  delivery_id: string;
  event: string;
  attempts: number;
  outcome: 'pending' | 'succeeded' | 'failed';
  status?: number;
  at: number;
  error?: string;
}

function signatureOk(secret: string, req: ReceivedRequest): boolean {
  const ts = String(req.headers['x-service-timestamp']);
  const expected = createHmac('sha256', secret).update(`${ts}.`).update(req.body).digest('hex');
  return req.headers['x-service-signature'] === `v1=${expected}`;
}

let svc: TestService;
const cleanups: Array<() => Promise<void>> = [];

beforeAll(async () => {
  svc = await startTestService();
});
afterAll(async () => {
  for (const fn of cleanups.splice(0)) await fn();
  await svc.close();
});

async function track(r: Promise<Receiver>): Promise<Receiver> {
  const receiver = await r;
  cleanups.push(() => receiver.close());
  return receiver;
}

async function accountWithWebhook(service: TestService, url: string): Promise<{ accountId: string; secret: string }> {
  const account = (await service.admin('POST', '/admin/accounts', {})).json as { id: string };
  const put = await service.admin('PUT', `/admin/accounts/${account.id}/webhook`, { url, enabled: true });
  expect(put.status).toBe(200);
  return { accountId: account.id, secret: (put.json as { secret: string }).secret };
}

async function lastDelivery(service: TestService, accountId: string): Promise<LastDelivery | null> {
  return ((await service.admin('GET', `/admin/accounts/${accountId}/webhook`)).json as { last_delivery: LastDelivery | null }).last_delivery;
}

async function finished(service: TestService, accountId: string, timeoutMs = 40_000): Promise<LastDelivery> {
  return waitUntil(async () => {
    const last = await lastDelivery(service, accountId);
    return last && last.outcome !== 'pending' ? last : null;
  }, timeoutMs, 100);
}

describe.concurrent('delivery and retry (spec §6)', () => {
  it('makes exactly 3 attempts to a receiver answering 500: same delivery id, fresh timestamp and signature, waits ≈2 s and ≈10 s', async ({ expect }) => {
    const receiver = await track(startReceiver((_r, _i, res) => res.writeHead(500).end('broken')));
    const { accountId, secret } = await accountWithWebhook(svc, receiver.url);
    const ping = await svc.admin('POST', `/admin/accounts/${accountId}/webhook/ping`);
    const deliveryId = (ping.json as { delivery_id: string }).delivery_id;
    expect(deliveryId).toMatch(UUID_V4_PATTERN);

    const last = await finished(svc, accountId);
    expect(last).toMatchObject({ delivery_id: deliveryId, event: 'ping', attempts: 3, outcome: 'failed', status: 500 });
    const [a, b, c] = receiver.requests;
    if (!a || !b || !c) throw new Error('fewer than 3 attempts');
    for (const req of [a, b, c]) {
      expect(req.headers['x-service-delivery']).toBe(deliveryId);
      expect(req.body.toString()).toBe('{"event":"ping"}');
      expect(signatureOk(secret, req)).toBe(true);
    }
    const gap1 = (b.at - a.at) / 1000;
    const gap2 = (c.at - b.at) / 1000;
    expect(gap1).toBeGreaterThanOrEqual(1.8);
    expect(gap1).toBeLessThanOrEqual(4);
    expect(gap2).toBeGreaterThanOrEqual(9.5);
    expect(gap2).toBeLessThanOrEqual(13);
    const [ta, tb, tc] = [a, b, c].map((r) => Number(r.headers['x-service-timestamp'])) as [number, number, number];
    expect(tb).toBeGreaterThan(ta);
    expect(tc - tb).toBeGreaterThanOrEqual(9);
    expect(new Set([a, b, c].map((r) => r.headers['x-service-signature'])).size).toBe(3);

    // After the third attempt nothing is sent again.
    await sleep(2500);
    expect(receiver.requests).toHaveLength(3);
  });

  it('counts a 302 as a failure and never requests its Location', async ({ expect }) => {
    const receiver = await track(
      startReceiver((req, _i, res) => {
        if (req.path === '/moved') res.writeHead(200).end();
        else res.writeHead(302, { Location: `http://127.0.0.1:${receiver.port}/moved` }).end();
      }),
    );
    const { accountId } = await accountWithWebhook(svc, receiver.url);
    await svc.admin('POST', `/admin/accounts/${accountId}/webhook/ping`);
    const last = await finished(svc, accountId);
    expect(last).toMatchObject({ attempts: 3, outcome: 'failed', status: 302 });
    expect(receiver.requests.map((r) => r.path)).toEqual(['/hook', '/hook', '/hook']);
  });

  it('gives up on an attempt after 8 s without an answer and retries 2 s later', async ({ expect }) => {
    const receiver = await track(
      startReceiver((_req, index, res) => {
        if (index > 0) res.writeHead(204).end();
        // The first request is never answered.
      }),
    );
    const { accountId } = await accountWithWebhook(svc, receiver.url);
    await svc.admin('POST', `/admin/accounts/${accountId}/webhook/ping`);
    const last = await finished(svc, accountId);
    expect(last).toMatchObject({ attempts: 2, outcome: 'succeeded', status: 204 });
    const [a, b] = receiver.requests;
    if (!a || !b) throw new Error('fewer than 2 attempts');
    expect(a.closedAt).not.toBeNull();
    const cutAfter = ((a.closedAt ?? 0) - a.at) / 1000;
    expect(cutAfter).toBeGreaterThanOrEqual(7.5);
    expect(cutAfter).toBeLessThanOrEqual(10);
    const gap = (b.at - a.at) / 1000;
    expect(gap).toBeGreaterThanOrEqual(9.5);
    expect(gap).toBeLessThanOrEqual(13);
    expect(b.headers['x-service-delivery']).toBe(a.headers['x-service-delivery']);
  });

  it('resumes a pending retry after a restart on the same data folder', async ({ expect }) => {
    const dir = mkdtempSync(join(tmpdir(), 's2-restart-'));
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    const first = await startTestService(dir);
    const receiver = await track(startReceiver((_r, index, res) => res.writeHead(index === 0 ? 503 : 200).end()));
    const { accountId, secret } = await accountWithWebhook(first, receiver.url);
    const deliveryId = ((await first.admin('POST', `/admin/accounts/${accountId}/webhook/ping`)).json as { delivery_id: string }).delivery_id;
    await waitUntil(async () => ((await lastDelivery(first, accountId))?.attempts ?? 0) >= 1);
    expect(await lastDelivery(first, accountId)).toMatchObject({ attempts: 1, outcome: 'pending', status: 503 });
    await first.close({ keepData: true });
    expect(receiver.requests).toHaveLength(1);

    const second = await startTestService(dir);
    cleanups.push(() => second.close({ keepData: true }));
    const last = await finished(second, accountId);
    expect(last).toMatchObject({ delivery_id: deliveryId, attempts: 2, outcome: 'succeeded', status: 200 });
    const [a, b] = receiver.requests;
    if (!a || !b) throw new Error('the retry was not resumed');
    expect(b.headers['x-service-delivery']).toBe(deliveryId);
    expect(signatureOk(secret, b)).toBe(true);
    // The wait still counts from the end of the failed attempt, across the restart.
    expect((b.at - a.at) / 1000).toBeGreaterThanOrEqual(1.8);
  });
});

describe('resolved-address rule (checked at each attempt)', () => {
  it('fails an attempt to a name resolving to a private address without connecting', async () => {
    const dir = mkdtempSync(join(tmpdir(), 's2-resolve-'));
    const db = openDatabase(join(dir, 'service.db'));
    const clock = createClock(db);
    const settings = createSettingsStore(db);
    settings.update({ allow_loopback_webhooks: false });
    const receiver = await startReceiver();
    const looked: string[] = [];
    const answers: Record<string, string> = { 'hooks.example.com': '127.0.0.1', 'lan.example.net': '10.20.30.40', 'v6.example.org': 'fd00::5' };
    const webhooks = createWebhookService(
      { db, clock, settings, logger: createLogger('silent') },
      {
        resolve: async (hostname) => {
          looked.push(hostname);
          const address = answers[hostname];
          if (!address) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
          return [{ address, family: address.includes(':') ? 6 : 4 }];
        },
      },
    );
    try {
      const account = createAccountService(db, clock, () => 1000).create({});
      for (const host of ['hooks.example.com', 'lan.example.net', 'v6.example.org', 'gone.example.com']) {
        // The URL text is fine: a public-looking name can be saved even when it does not resolve.
        const saved = webhooks.put(account.id, { url: `https://${host}:${receiver.port}/hook`, enabled: true });
        expect(saved.url).toContain(host);
        const { delivery_id } = webhooks.ping(account.id);
        const last = await waitUntil(async () => {
          const view = webhooks.deliveries(account.id, 1)[0];
          return view && view.delivery_id === delivery_id && view.attempts >= 1 ? view : null;
        });
        expect(last.outcome).toBe('pending');
        expect(last.status).toBeUndefined();
        expect(last.error).toMatch(host === 'gone.example.com' ? /cannot resolve/ : /private_address/);
      }
      // Every attempt looked the name up (retries of earlier pings may add repeats).
      expect([...new Set(looked)].sort()).toEqual(['gone.example.com', 'hooks.example.com', 'lan.example.net', 'v6.example.org']);
      expect(receiver.requests).toHaveLength(0);
    } finally {
      await webhooks.dispatcher.close();
      await receiver.close();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
