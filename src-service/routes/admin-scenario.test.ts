/* eslint-disable @typescript-eslint/no-explicit-any -- tests read response bodies field by field */
// Fault scenarios over real HTTP on loopback (docs/local-service.md "Fault scenarios"): seeded draws replay
// identically, a sequence happens in order for its account only, the file and publication outcomes, the service's
// own webhook deliveries dropped, duplicated, delayed and forced to a status as a real receiver sees them, bad
// scenarios refused with nothing changed, and `--scenario FILE` at start.
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readScenarioFile, parseServiceArgs } from '../cli-options.ts';
import { createLogger } from '../logger.ts';
import { seededUnit } from '../services/scenario.ts';
import { startService } from '../start.ts';
import { useTestService } from '../test-support.ts';
import { startReceiver, waitUntil, type Receiver, type ReceivedRequest } from './packs-webhooks.test-support.ts';

const svc = useTestService();
const cleanups: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
  await svc.admin('DELETE', '/admin/scenario');
});

const ONE_IMAGE = { prompt: 'a ceramic cup', model: 'nano-banana-2', resolution: '1K', ratio: '1:1', n: 1 };

function generate(key: string, n = 1) {
  return svc.api('/api/v1/generate', { key, body: { ...ONE_IMAGE, n } });
}

/** A file of the account, made by one real generation. */
async function fileOf(key: string): Promise<string> {
  const made = await generate(key);
  expect(made.status).toBe(200);
  return made.body.images[0].filename as string;
}

/** status + error code of each answer, the list two runs are compared by. */
const outcomeOf = (res: { status: number; body: any; text: string }) => `${res.status} ${res.body?.error?.code ?? ''}`.trim();

describe('seeded draws', () => {
  it('gives the same outcomes for the same seed and requests, run twice', async () => {
    const a = await svc.account();
    const filename = await fileOf(a.key);
    const scenario = { seed: 20261126, rules: [{ match: { account_id: a.id, route: 'file' }, probability: 0.5, outcome: { status: 500 } }] };
    const run = async (): Promise<string[]> => {
      expect((await svc.admin('PUT', '/admin/scenario', scenario)).status).toBe(200);
      const outcomes: string[] = [];
      for (let i = 0; i < 24; i++) {
        const res = await svc.api(`/api/file/${filename}`, { key: a.key });
        outcomes.push(res.status === 500 ? `500 ${res.text.length > 0}` : String(res.status));
      }
      return outcomes;
    };
    const first = await run();
    const second = await run();
    expect(second).toEqual(first);
    // The probability really draws: both outcomes occur.
    expect(first).toContain('302');
    expect(first).toContain('500 true');
    expect((await svc.admin('GET', '/admin/scenario')).body).toMatchObject({ seed: 20261126, matched: [24] });
  });

  it('draws a latency between min and max, the same on a replay', async () => {
    const a = await svc.account();
    const filename = await fileOf(a.key);
    const scenario = { seed: 7, rules: [{ match: { account_id: a.id, route: 'file' }, outcome: { latency_ms: { min: 0, max: 400 } } }] };
    const timings = async (): Promise<number[]> => {
      await svc.admin('PUT', '/admin/scenario', scenario);
      const took: number[] = [];
      for (let i = 0; i < 4; i++) {
        const started = performance.now();
        expect((await svc.api(`/api/file/${filename}`, { key: a.key })).status).toBe(302);
        took.push(performance.now() - started);
      }
      return took;
    };
    // The draws of seed 7 for rule 0, requests 0 to 3 (services/scenario.ts): evenly between 0 and 400 ms.
    const drawn = [0, 1, 2, 3].map((n) => Math.floor(seededUnit(7, 0, n, 1) * 401));
    expect(new Set(drawn).size).toBe(4);
    for (const took of [await timings(), await timings()]) {
      for (const [i, ms] of took.entries()) {
        expect(ms, `request ${i}`).toBeGreaterThanOrEqual((drawn[i] ?? 0) - 5);
        expect(ms, `request ${i}`).toBeLessThan((drawn[i] ?? 0) + 250);
      }
    }
  });
});

describe('sequences and per-account rules', () => {
  it('answers 500, then 2 of 4 images, then 429 Retry-After 5 for the matched account only, while another account passes', async () => {
    const a = await svc.account();
    const b = await svc.account();
    const put = await svc.admin('PUT', '/admin/scenario', {
      seed: 1,
      rules: [{ match: { account_id: a.id, route: 'generate' }, sequence: [{ status: 500 }, { partial: { produce: 2 } }, { status: 429, retry_after_s: 5 }] }],
    });
    expect(put.status).toBe(200);

    const first = await generate(a.key, 4);
    expect(outcomeOf(first)).toBe('500 internal_error');
    expect((await svc.admin('GET', `/admin/accounts/${a.id}`)).body).toMatchObject({ credits: 10_000, reserved: 0 });
    expect((await generate(b.key, 4)).body.images).toHaveLength(4);

    const second = await generate(a.key, 4);
    expect(second.status).toBe(200);
    expect(second.body.images).toHaveLength(2);
    expect(second.body.warnings.map((w: { feature: string }) => w.feature)).toContain('n');
    expect((await generate(b.key, 4)).body.images).toHaveLength(4);

    const third = await generate(a.key, 4);
    expect(outcomeOf(third)).toBe('429 rate_limited');
    expect(third.headers.get('retry-after')).toBe('5');
    const turnsOfA = (await svc.admin('GET', `/admin/accounts/${a.id}/turns?since=0`)).body.turns;
    expect(turnsOfA).toHaveLength(2); // the 429 was refused before anything was reserved

    // The sequence is spent: the account passes again.
    expect((await generate(a.key, 1)).status).toBe(200);
    expect((await svc.admin('GET', '/admin/scenario')).body.matched).toEqual([4]);
  });

  it('matches on n: a rule for n 4 fails only the generations that ask for 4 images', async () => {
    const a = await svc.account();
    const put = await svc.admin('PUT', '/admin/scenario', { rules: [{ match: { route: 'generate', n: 4 }, outcome: { status: 500 } }] });
    expect(put.status).toBe(200);
    expect(put.body.rules[0].match).toEqual({ route: 'generate', n: 4 });
    expect((await generate(a.key, 1)).status).toBe(200);
    expect((await generate(a.key, 2)).status).toBe(200);
    expect(outcomeOf(await generate(a.key, 4))).toBe('500 internal_error');
    expect((await svc.admin('GET', '/admin/scenario')).body.matched).toEqual([1]);
  });

  it('forces a publication lookup to 503 with Retry-After, a file link expired and a file download slow', async () => {
    const a = await svc.account();
    const filename = await fileOf(a.key);
    await svc.admin('PUT', '/admin/scenario', {
      rules: [
        { match: { account_id: a.id, route: 'publication' }, outcome: { status: 503 } },
        { match: { key_id: a.keyId, route: 'file' }, sequence: [{ expired_link: true }, { latency_ms: 300 }] },
      ],
    });
    const publication = await svc.api('/api/v1/image-pack-publications/1', { key: a.key });
    expect(outcomeOf(publication)).toBe('503 auth_unavailable');
    expect(publication.headers.get('retry-after')).toBe('3');

    const expired = await svc.api(`/api/file/${filename}`, { key: a.key });
    expect(expired.status).toBe(302);
    const direct = await fetch(String(expired.headers.get('location')));
    expect(direct.status).toBe(403);
    expect(await direct.text()).toMatch(/expired|过期/);

    const started = performance.now();
    const slow = await svc.api(`/api/file/${filename}`, { key: a.key });
    expect(slow.status).toBe(302);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    expect((await fetch(String(slow.headers.get('location')))).status).toBe(200);
  });

  it('keeps the one-shot counters as a shorthand beside the scenario', async () => {
    const a = await svc.account();
    await svc.admin('PUT', '/admin/scenario', { rules: [{ match: { account_id: a.id }, sequence: [{ pass: true }, { status: 500 }] }] });
    await svc.admin('PUT', '/admin/faults', { generate: { fail: 1 } });
    expect(outcomeOf(await generate(a.key))).toBe('500 internal_error'); // the counter
    expect(outcomeOf(await generate(a.key))).toBe('500 internal_error'); // the scenario's second step
    expect((await generate(a.key)).status).toBe(200);
    expect((await svc.admin('GET', '/admin/faults')).body.generate.fail).toBe(0);
  });

  it('lets every request pass again after DELETE', async () => {
    const a = await svc.account();
    await svc.admin('PUT', '/admin/scenario', { rules: [{ match: { account_id: a.id }, outcome: { status: 500 } }] });
    expect((await generate(a.key)).status).toBe(500);
    expect((await svc.admin('DELETE', '/admin/scenario')).body).toEqual({ seed: 0, rules: [], matched: [] });
    expect((await generate(a.key)).status).toBe(200);
  });
});

describe('the service\'s own webhook deliveries', () => {
  function verifies(secret: string, req: ReceivedRequest): boolean {
    const ts = String(req.headers['x-service-timestamp']);
    const expected = createHmac('sha256', secret).update(`${ts}.`).update(req.body).digest('hex');
    return req.headers['x-service-signature'] === `v1=${expected}`;
  }

  async function hooked(): Promise<{ id: string; r: Receiver; secret: string }> {
    const { id } = await svc.account();
    const r = await startReceiver();
    cleanups.push(() => r.close());
    const put = await svc.admin('PUT', `/admin/accounts/${id}/webhook`, { url: r.url, enabled: true });
    return { id, r, secret: put.body.secret };
  }

  const settled = (id: string) =>
    waitUntil(async () => {
      const last = (await svc.admin('GET', `/admin/accounts/${id}/webhook`)).body.last_delivery;
      return last && last.outcome !== 'pending' ? last : null;
    }, 20_000);

  it('drops, duplicates, delays and forces a status as a real receiver sees it', async () => {
    const [drop, twice, slow, forced] = [await hooked(), await hooked(), await hooked(), await hooked()];
    const put = await svc.admin('PUT', '/admin/scenario', {
      rules: [
        { match: { account_id: drop.id, route: 'webhook' }, sequence: [{ drop: true }] },
        { match: { account_id: twice.id, route: 'webhook' }, sequence: [{ duplicate: true }] },
        { match: { account_id: slow.id, route: 'webhook' }, sequence: [{ delay_ms: 1500 }] },
        { match: { account_id: forced.id, route: 'webhook' }, sequence: [{ status: 302 }] },
      ],
    });
    expect(put.status).toBe(200);
    const pingedAt = performance.now();
    const ids: Record<string, string> = {};
    for (const h of [drop, twice, slow, forced]) ids[h.id] = (await svc.admin('POST', `/admin/accounts/${h.id}/webhook/ping`)).body.delivery_id;

    // Dropped: the first attempt never arrives; the retry 2 s later does.
    const [retried] = await drop.r.waitFor(1);
    expect(retried?.at ?? 0).toBeGreaterThan(pingedAt + 1_900);
    expect(await settled(drop.id)).toMatchObject({ delivery_id: ids[drop.id], attempts: 2, outcome: 'succeeded' });
    expect(drop.r.requests).toHaveLength(1);

    // Duplicated: the same signed request twice, one attempt.
    const [one, two] = await twice.r.waitFor(2);
    expect(two?.headers['x-service-delivery']).toBe(one?.headers['x-service-delivery']);
    expect(two?.headers['x-service-signature']).toBe(one?.headers['x-service-signature']);
    expect(two?.body.equals(one?.body ?? Buffer.alloc(0))).toBe(true);
    expect(await settled(twice.id)).toMatchObject({ attempts: 1, outcome: 'succeeded' });

    // Delayed after signing: arrives 1.5 s late, still verifies, with the timestamp of its signing.
    const [late] = await slow.r.waitFor(1);
    expect((late?.at ?? 0) - pingedAt).toBeGreaterThanOrEqual(1_450);
    expect(verifies(slow.secret, late as ReceivedRequest)).toBe(true);

    // Forced 302: the receiver answered 200, the service counts a failure and retries the same delivery.
    const [a, b] = await forced.r.waitFor(2);
    expect(b?.headers['x-service-delivery']).toBe(a?.headers['x-service-delivery']);
    expect(await settled(forced.id)).toMatchObject({ attempts: 2, outcome: 'succeeded' });
    const history = (await svc.admin('GET', `/admin/accounts/${forced.id}/webhook/deliveries`)).body.deliveries;
    expect(history[0]).toMatchObject({ delivery_id: ids[forced.id], attempts: 2, outcome: 'succeeded' });
    expect(twice.r.requests).toHaveLength(2);
  });
});

describe('bad scenarios', () => {
  it('are refused with 400 naming the field, and change nothing', async () => {
    const kept = { seed: 3, rules: [{ match: { route: 'generate' }, sequence: [{ pass: true }] }] };
    await svc.admin('PUT', '/admin/scenario', kept);
    const before = (await svc.admin('GET', '/admin/scenario')).body;
    const bad: Array<[unknown, string]> = [
      [{ rules: 'none' }, 'rules'],
      [{ seed: -1, rules: [] }, 'seed'],
      [{ rules: [{ match: { route: 'download' }, outcome: { status: 500 } }] }, 'rules.0.match.route'],
      [{ rules: [{ match: {}, outcome: { status: 404 } }] }, 'rules.0.outcome.status'],
      [{ rules: [{ match: { route: 'file' }, outcome: { partial: { produce: 1 } } }] }, 'rules.0.outcome.partial'],
      [{ rules: [{ match: { route: 'webhook' }, sequence: [{ drop: true }, { latency_ms: 5 }] }] }, 'rules.0.sequence.1.latency_ms'],
      [{ rules: [{ match: { route: 'webhook' }, outcome: { drop: true, duplicate: true } }] }, 'rules.0.outcome.duplicate'],
      [{ rules: [{ match: {}, probability: 1.5, outcome: { status: 500 } }] }, 'rules.0.probability'],
      [{ rules: [{ match: {}, probability: 0.5 }] }, 'rules.0.outcome'],
      [{ rules: [{ match: {}, outcome: { status: 500, retry_after_s: 5 } }] }, 'rules.0.outcome.retry_after_s'],
      [{ rules: [{ match: { model: 'dall-e' }, outcome: { status: 500 } }] }, 'rules.0.match.model'],
      [{ rules: [{ match: { n: 3 }, outcome: { status: 500 } }] }, 'rules.0.match.n'],
      [{ rules: [{ match: { route: 'file', n: 2 }, outcome: { status: 500 } }] }, 'rules.0.match.n'],
      [{ rules: [{ match: {}, outcome: {} }] }, 'rules.0.outcome.pass'],
      [{ rules: [{ match: {}, outcome: { pass: true, status: 500 } }] }, 'rules.0.outcome.status'],
    ];
    for (const [body, field] of bad) {
      const res = await fetch(`${svc.baseUrl}/admin/scenario`, {
        method: 'PUT',
        headers: { Authorization: `Bearer ${svc.adminToken}`, 'Content-Type': 'application/json', 'Accept-Language': 'en' },
        body: JSON.stringify(body),
      });
      const error = ((await res.json()) as any).error;
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(error.code).toBe('invalid_request');
      expect(error.message, JSON.stringify(body)).toContain(`${field}:`);
    }
    expect((await svc.admin('GET', '/admin/scenario')).body).toEqual(before);
  });
});

describe('--scenario FILE', () => {
  it('starts the service with the scenario of the file, and refuses a bad file naming the field', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-scenario-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'scenario.json');
    const scenario = { seed: 99, rules: [{ match: { route: 'generate' }, sequence: [{ status: 500 }] }] };
    writeFileSync(file, JSON.stringify(scenario));
    const options = parseServiceArgs(['--port', '0', '--data', join(dir, 'data'), '--scenario', file]);
    const service = await startService({ ...options, logger: createLogger('silent') });
    cleanups.push(() => service.close());
    const res = await fetch(`${service.baseUrl}/admin/scenario`, { headers: { Authorization: `Bearer ${service.adminToken}` } });
    expect(await res.json()).toEqual({ ...scenario, matched: [0] });

    writeFileSync(file, JSON.stringify({ rules: [{ match: { route: 'file' }, outcome: { downgrade: true } }] }));
    expect(() => readScenarioFile(file)).toThrow(/--scenario .*scenario\.json: rules\.0\.outcome\.downgrade: /);
    writeFileSync(file, '{ not json');
    expect(() => parseServiceArgs(['--scenario', file])).toThrow(/not JSON/);
  });
});
