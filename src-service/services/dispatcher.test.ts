// Delivery mechanics of spec §6 over real HTTP on loopback: retry timing of a failing receiver, redirects,
// the 8 s timeout, a restart resuming a pending retry, and the resolved-address rule. Waits and timeouts run on
// a manual timer and the service clock on the same manual time, so the timing rules are asserted exactly
// (2 s and 10 s from the end of the failed attempt, 8 s per attempt), never against wall-clock bounds.
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { UUID_V4_PATTERN } from '../../src-shared/ids.ts';
import type { Clock } from '../clock.ts';
import { createClock } from '../clock.ts';
import { openDatabase } from '../db.ts';
import { createLogger } from '../logger.ts';
import { createAccountService } from './accounts.ts';
import { createSettingsStore } from '../settings.ts';
import { ok200, startReceiver, waitUntil, type Receiver, type ReceivedRequest, type Responder } from '../routes/packs-webhooks.test-support.ts';
import { createWebhooksRepo } from '../repos/webhooks.ts';
import { canMountSmallDisk, fillDisk, smallDisk } from '../test-support.ts';
import { WRITE_RETRY_DELAYS_MS } from '../write-retry.ts';
import { createDispatcher, INTERNAL_FAILURE, type DispatcherTimers } from './dispatcher.ts';
import { createWebhookService, PING_BODY, type WebhookService } from './webhooks.ts';

function signatureOk(secret: string, req: ReceivedRequest): boolean {
  const ts = String(req.headers['x-service-timestamp']);
  const expected = createHmac('sha256', secret).update(`${ts}.`).update(req.body).digest('hex');
  return req.headers['x-service-signature'] === `v1=${expected}`;
}

/** Time that moves only when the test says so; due callbacks run in order, synchronously, in advance(). */
class ManualTimers implements DispatcherTimers {
  private time = 1_800_000_000_000;
  private seq = 0;
  private readonly queue = new Map<number, { at: number; fn: () => void }>();
  now(): number {
    return this.time;
  }
  setTimeout(fn: () => void, ms: number): number {
    const id = ++this.seq;
    this.queue.set(id, { at: this.time + Math.max(0, ms), fn });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.queue.delete(handle as number);
  }
  /** Milliseconds until the next callback is due, or null when none is waiting. */
  nextDueIn(): number | null {
    const next = Math.min(...[...this.queue.values()].map((t) => t.at));
    return Number.isFinite(next) ? next - this.time : null;
  }
  advance(ms: number): void {
    const until = this.time + ms;
    for (;;) {
      const due = [...this.queue.entries()].filter(([, t]) => t.at <= until).sort((a, b) => a[1].at - b[1].at || a[0] - b[0])[0];
      if (!due) break;
      this.queue.delete(due[0]);
      this.time = due[1].at;
      due[1].fn();
    }
    this.time = until;
  }
}

interface Rig {
  timers: ManualTimers;
  webhooks: WebhookService;
  accountId: string;
  secret: string;
  receiver: Receiver;
  db: DatabaseSync;
  dir: string;
}

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

function serviceOn(db: DatabaseSync, timers: ManualTimers): WebhookService {
  const clock: Clock = { now: () => timers.now(), nowSeconds: () => Math.floor(timers.now() / 1000), advance: () => timers.now(), reset: () => timers.now(), offsetSeconds: () => 0, reload: () => undefined };
  const webhooks = createWebhookService({ db, clock, settings: createSettingsStore(db), logger: createLogger('silent') }, { timers });
  cleanups.push(() => webhooks.dispatcher.close());
  return webhooks;
}

/** A webhook service on a fresh database and manual time, an account whose webhook points at a real receiver. */
async function rig(respond: Responder, dir = mkdtempSync(join(tmpdir(), 's2-dispatch-'))): Promise<Rig> {
  const db = openDatabase(join(dir, 'service.db'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  cleanups.push(() => db.close());
  const receiver = await startReceiver(respond);
  cleanups.push(() => receiver.close());
  const timers = new ManualTimers();
  const webhooks = serviceOn(db, timers);
  const clock: Clock = { now: () => timers.now(), nowSeconds: () => Math.floor(timers.now() / 1000), advance: () => timers.now(), reset: () => timers.now(), offsetSeconds: () => 0, reload: () => undefined };
  const accountId = createAccountService(db, clock, () => 1000).create({}).id;
  const { secret } = webhooks.put(accountId, { url: receiver.url, enabled: true });
  return { timers, webhooks, accountId, secret, receiver, db, dir };
}

/** Waits (real time: HTTP on loopback) until the delivery has recorded `attempts` finished attempts. */
async function attemptRecorded(r: Rig, attempts: number): Promise<ReturnType<WebhookService['deliveries']>[number]> {
  return waitUntil(async () => {
    const view = r.webhooks.deliveries(r.accountId, 1)[0];
    return view && view.attempts >= attempts && view.error !== 'the service stopped during this attempt' ? view : null;
  }, 10_000, 10);
}

describe('delivery and retry (spec §6)', () => {
  it('makes exactly 3 attempts to a receiver answering 500: same delivery id, fresh timestamp and signature, waits 2 s and 10 s', async () => {
    const r = await rig((_r, _i, res) => res.writeHead(500).end('broken'));
    const { delivery_id: deliveryId } = r.webhooks.ping(r.accountId);
    expect(deliveryId).toMatch(UUID_V4_PATTERN);

    r.timers.advance(0);
    expect(await attemptRecorded(r, 1)).toMatchObject({ attempts: 1, outcome: 'pending', status: 500 });
    // The retry waits exactly 2 s from the end of the failed attempt, then 10 s.
    expect(r.timers.nextDueIn()).toBe(2_000);
    r.timers.advance(1_999);
    expect(r.receiver.requests).toHaveLength(1);
    r.timers.advance(1);
    expect(await attemptRecorded(r, 2)).toMatchObject({ attempts: 2, outcome: 'pending', status: 500 });
    expect(r.timers.nextDueIn()).toBe(10_000);
    r.timers.advance(10_000);
    expect(await attemptRecorded(r, 3)).toMatchObject({ attempts: 3, outcome: 'failed', status: 500 });
    expect(r.webhooks.get(r.accountId).last_delivery).toMatchObject({ delivery_id: deliveryId, event: 'ping', attempts: 3, outcome: 'failed', status: 500 });

    const [a, b, c] = r.receiver.requests;
    if (!a || !b || !c) throw new Error('fewer than 3 attempts');
    for (const req of [a, b, c]) {
      expect(req.headers['x-service-delivery']).toBe(deliveryId);
      expect(req.body.toString()).toBe('{"event":"ping"}');
      expect(signatureOk(r.secret, req)).toBe(true);
    }
    const [ta, tb, tc] = [a, b, c].map((q) => Number(q.headers['x-service-timestamp'])) as [number, number, number];
    expect([tb - ta, tc - tb]).toEqual([2, 10]);
    expect(new Set([a, b, c].map((q) => q.headers['x-service-signature'])).size).toBe(3);

    // After the third attempt nothing is left to send.
    expect(r.timers.nextDueIn()).toBeNull();
    r.timers.advance(3_600_000);
    expect(r.receiver.requests).toHaveLength(3);
  });

  it('counts a 302 as a failure and never requests its Location', async () => {
    const r = await rig((req, _i, res) => {
      if (req.path === '/moved') res.writeHead(200).end();
      else res.writeHead(302, { Location: `http://127.0.0.1:${r.receiver.port}/moved` }).end();
    });
    r.webhooks.ping(r.accountId);
    r.timers.advance(0);
    await attemptRecorded(r, 1);
    r.timers.advance(2_000);
    await attemptRecorded(r, 2);
    r.timers.advance(10_000);
    expect(await attemptRecorded(r, 3)).toMatchObject({ attempts: 3, outcome: 'failed', status: 302 });
    expect(r.receiver.requests.map((q) => q.path)).toEqual(['/hook', '/hook', '/hook']);
  });

  it('gives up on an attempt after exactly 8 s without an answer and retries 2 s later', async () => {
    const r = await rig((_req, index, res) => {
      if (index > 0) res.writeHead(204).end();
      // The first request is never answered.
    });
    r.webhooks.ping(r.accountId);
    r.timers.advance(0);
    const [a] = await r.receiver.waitFor(1, 10_000);
    if (!a) throw new Error('no first attempt');
    expect(r.timers.nextDueIn()).toBe(8_000);
    r.timers.advance(7_999);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(a.closedAt).toBeNull();
    r.timers.advance(1);
    expect(await attemptRecorded(r, 1)).toMatchObject({ attempts: 1, outcome: 'pending', error: 'no answer within 8 s' });
    await waitUntil(async () => a.closedAt !== null, 10_000, 10);
    expect(r.timers.nextDueIn()).toBe(2_000);
    r.timers.advance(2_000);
    expect(await attemptRecorded(r, 2)).toMatchObject({ attempts: 2, outcome: 'succeeded', status: 204 });
    const b = r.receiver.requests[1];
    expect(b?.headers['x-service-delivery']).toBe(a.headers['x-service-delivery']);
    expect(Number(b?.headers['x-service-timestamp']) - Number(a.headers['x-service-timestamp'])).toBe(10);
  });

  it('resumes a pending retry after a restart on the same data folder, 2 s after the failed attempt', async () => {
    const r = await rig((_req, index, res) => res.writeHead(index === 0 ? 503 : 200).end());
    const { delivery_id: deliveryId } = r.webhooks.ping(r.accountId);
    r.timers.advance(0);
    expect(await attemptRecorded(r, 1)).toMatchObject({ attempts: 1, outcome: 'pending', status: 503 });
    await r.webhooks.dispatcher.close();
    r.timers.advance(500);

    // A second service on the same database (the restart) picks the retry up where the first left it.
    const second = serviceOn(r.db, r.timers);
    second.dispatcher.resume();
    expect(r.timers.nextDueIn()).toBe(1_500);
    r.timers.advance(1_500);
    const last = await waitUntil(async () => {
      const view = second.get(r.accountId).last_delivery;
      return view && view.outcome !== 'pending' ? view : null;
    }, 10_000, 10);
    expect(last).toMatchObject({ delivery_id: deliveryId, attempts: 2, outcome: 'succeeded', status: 200 });
    const [a, b] = r.receiver.requests;
    if (!a || !b) throw new Error('the retry was not resumed');
    expect(b.headers['x-service-delivery']).toBe(deliveryId);
    expect(signatureOk(r.secret, b)).toBe(true);
    expect(Number(b.headers['x-service-timestamp']) - Number(a.headers['x-service-timestamp'])).toBe(2);
  });
});

describe('failures that are not the receiver\'s', () => {
  it.skipIf(!canMountSmallDisk)('keeps a delivery whose record cannot be written on a full disk, backs off, and sends it once space returns', async () => {
    const disk = smallDisk(4);
    cleanups.push(disk.remove);
    const r = await rig(ok200, join(disk.dir, 'data'));
    const { delivery_id: deliveryId } = r.webhooks.ping(r.accountId);
    // The write-ahead log starts empty, so the next write needs new space on a disk that has none.
    r.db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    const filler = fillDisk(disk.dir);

    // The attempt is counted before it is sent; that write fails, so nothing is sent and the row stays pending.
    r.timers.advance(0);
    await waitUntil(async () => r.timers.nextDueIn() === WRITE_RETRY_DELAYS_MS[0], 10_000, 10);
    r.timers.advance(WRITE_RETRY_DELAYS_MS[0] ?? 0);
    await waitUntil(async () => r.timers.nextDueIn() === WRITE_RETRY_DELAYS_MS[1], 10_000, 10);
    expect(r.receiver.requests).toHaveLength(0);
    expect(r.webhooks.deliveries(r.accountId, 1)[0]).toMatchObject({ delivery_id: deliveryId, attempts: 0, outcome: 'pending' });

    rmSync(filler);
    r.timers.advance(WRITE_RETRY_DELAYS_MS[1] ?? 0);
    expect(await attemptRecorded(r, 1)).toMatchObject({ delivery_id: deliveryId, attempts: 1, outcome: 'succeeded', status: 200 });
    expect(r.receiver.requests).toHaveLength(1);
    expect(r.timers.nextDueIn()).toBeNull();
  });

  it('gives up a delivery whose handling hits a bug, records why, and goes on with the others', async () => {
    const r = await rig(ok200);
    const clock: Clock = { now: () => r.timers.now(), nowSeconds: () => Math.floor(r.timers.now() / 1000), advance: () => r.timers.now(), reset: () => r.timers.now(), offsetSeconds: () => 0, reload: () => undefined };
    const other = createAccountService(r.db, clock, () => 1000).create({}).id;
    r.webhooks.put(other, { url: r.receiver.url, enabled: true });
    // The same real database, with a bug in reading one account's webhook.
    const repo = createWebhooksRepo(r.db);
    const buggy: typeof repo = {
      ...repo,
      getConfig: (accountId) => {
        if (accountId === r.accountId) throw new TypeError('a bug in this delivery');
        return repo.getConfig(accountId);
      },
    };
    const dispatcher = createDispatcher({ repo: buggy, now: () => r.timers.now(), allowLoopback: () => true, timers: r.timers, log: createLogger('silent') });
    cleanups.push(() => dispatcher.close());
    const bad = dispatcher.enqueue(r.accountId, r.receiver.url, 'ping', PING_BODY);
    const good = dispatcher.enqueue(other, r.receiver.url, 'ping', PING_BODY);

    r.timers.advance(0);
    const given = await waitUntil(async () => {
      const view = r.webhooks.deliveries(r.accountId, 1)[0];
      return view?.outcome === 'failed' ? view : null;
    }, 10_000, 10);
    expect(given).toMatchObject({ delivery_id: bad, attempts: 0, outcome: 'failed', error: INTERNAL_FAILURE });
    const sent = await waitUntil(async () => {
      const view = r.webhooks.deliveries(other, 1)[0];
      return view?.outcome === 'succeeded' ? view : null;
    }, 10_000, 10);
    expect(sent).toMatchObject({ delivery_id: good, attempts: 1 });
    // Nothing is left to try: the bug is not retried forever.
    expect(r.timers.nextDueIn()).toBeNull();
    expect(r.receiver.requests.map((q) => q.headers['x-service-delivery'])).toEqual([good]);
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
