/* eslint-disable @typescript-eslint/no-explicit-any -- tests read response bodies field by field */
// Requests the service must survive with a clear answer: JSON nested to any depth (spec §7 invalid_request,
// never 500) and slow clients (slowloris) cut off without touching a generation that waits for its result
// after its body arrived (spec §1: up to 5 minutes). Real sockets on loopback.
import { connect, type Socket } from 'node:net';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_SCOPES } from '../../src-shared/api.ts';
import type { RunningService } from '../start.ts';
import { adminApi, startServiceWithLimits, useTestService } from '../test-support.ts';

// One service for the cases below that need no special limits (the slow-client cases start their own).
const svc = useTestService();

describe('JSON nested to any depth', () => {
  it('answers 400 invalid_request on POST /api/v1/generate and on admin bodies, and reserves nothing', async () => {
    const { id, key } = await svc.account({ credits: 500 });
    const arrays = (n: number): string => '['.repeat(n) + ']'.repeat(n);
    const objects = (n: number): string => '{"a":'.repeat(n) + '1' + '}'.repeat(n);
    const generateBodies = [
      `{"prompt":"x","n":${arrays(100_000)}}`,
      `{"prompt":"x","model":${objects(100_000)}}`,
      `{"prompt":"x","ratio":${arrays(5_000)}}`,
      arrays(100_000),
      `{"prompt":"x","n":${arrays(70)}}`,
    ];
    for (const raw of generateBodies) {
      const res = await svc.api('/api/v1/generate', { key, raw });
      expect(res.status, raw.slice(0, 40)).toBe(400);
      expect(res.body.error.code).toBe('invalid_request');
    }
    const adminBodies: Array<[string, string, string]> = [
      ['PUT', '/admin/faults', `{"generate":{"fail":${arrays(100_000)}}}`],
      ['PATCH', `/admin/accounts/${id}`, `{"credits":${objects(100_000)}}`],
      ['POST', '/admin/accounts', arrays(100_000)],
    ];
    for (const [method, path, raw] of adminBodies) {
      const res = await fetch(svc.baseUrl + path, { method, headers: { Authorization: `Bearer ${svc.adminToken}` }, body: raw });
      expect(res.status, path).toBe(400);
      expect(((await res.json()) as any).error.code).toBe('invalid_request');
    }
    // Brackets inside strings are text, not nesting; a normal body still runs.
    const ok = await svc.api('/api/v1/generate', { key, body: { prompt: '['.repeat(200), resolution: '1K', model: 'nano-banana-2' } });
    expect(ok.status).toBe(200);
    expect((await svc.admin('GET', `/admin/accounts/${id}`)).body).toMatchObject({ credits: 488, reserved: 0 });
  });
});

describe('slow clients', () => {
  let service: RunningService;
  let dataDir: string;
  beforeAll(async () => {
    ({ service, dataDir } = await startServiceWithLimits('slow-test-token', { headersMs: 600, requestMs: 1_000, checkIntervalMs: 100 }));
  });
  afterAll(async () => {
    await service.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** Opens a raw connection; resolves with what the server sent and when it closed, or 'open' after `limitMs`. */
  function rawClient(feed: (socket: Socket) => void, limitMs: number): Promise<{ closedAfterMs: number; received: string } | 'open'> {
    const { port } = new URL(service.baseUrl);
    return new Promise((resolve) => {
      const socket = connect(Number(port), '127.0.0.1');
      const opened = Date.now();
      let received = '';
      let feeder: NodeJS.Timeout | undefined;
      const limit = setTimeout(() => {
        clearInterval(feeder);
        socket.destroy();
        resolve('open');
      }, limitMs);
      socket.on('data', (d: Buffer) => (received += d.toString()));
      socket.on('error', () => undefined);
      socket.on('close', () => {
        clearTimeout(limit);
        clearInterval(feeder);
        resolve({ closedAfterMs: Date.now() - opened, received });
      });
      socket.on('connect', () => {
        feed(socket);
        feeder = setInterval(() => {
          if (!socket.destroyed) socket.emit('feed');
        }, 150);
      });
    });
  }

  it('closes a connection that trickles its headers', async () => {
    const outcome = await rawClient((socket) => {
      socket.write('POST /api/v1/generate HTTP/1.1\r\nHost: 127.0.0.1\r\n');
      let n = 0;
      socket.on('feed', () => socket.write(`X-Slow-${n++}: a\r\n`));
    }, 5_000);
    expect(outcome).not.toBe('open');
    if (outcome === 'open') return;
    expect(outcome.received).toMatch(/^HTTP\/1\.1 408/);
  });

  it('closes a connection that sends its headers but never its body', async () => {
    const outcome = await rawClient((socket) => {
      // Authorized, so the route waits for the body (an unauthorized one is answered 401 at once).
      socket.write(
        'PUT /admin/faults HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer slow-test-token\r\n' +
          'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"gen',
      );
    }, 5_000);
    expect(outcome).not.toBe('open');
    if (outcome === 'open') return;
    expect(outcome.received).toMatch(/^HTTP\/1\.1 408/);
  });

  it('lets a generation wait for its result well past both limits once its body has arrived', async () => {
    const admin = adminApi(service);
    const account = await admin('POST', '/admin/accounts', { credits: 100, age_days: 30 });
    const key = await admin('POST', `/admin/accounts/${account.id}/api-keys`, { name: 'k', scopes: [...API_SCOPES] });
    await admin('PUT', '/admin/faults', { generate: { latency_ms: 2_500 } });
    const res = await fetch(`${service.baseUrl}/api/v1/generate`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key.key}` },
      body: JSON.stringify({ prompt: 'slow but legitimate', resolution: '1K', model: 'nano-banana-2' }),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).credits_charged).toBe(12);
  });
});

describe('refused bodies and unfinished bodies', () => {
  it('answers a 5 MB body with the 413 JSON that Node fetch can read, 20 times out of 20', async () => {
    const { key } = await svc.account({ credits: 500 });
    const body = Buffer.alloc(5 * 1024 * 1024, 0x20);
    const outcomes: string[] = [];
    for (let i = 0; i < 20; i++) {
      try {
        const res = await fetch(`${svc.baseUrl}/api/v1/generate`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
          body,
        });
        const json = (await res.json()) as any;
        outcomes.push(`${res.status} ${json.error?.code}`);
      } catch (error) {
        outcomes.push(`failed: ${String((error as { cause?: unknown }).cause ?? error)}`);
      }
    }
    expect(outcomes).toEqual(Array(20).fill('413 payload_too_large'));
  });

  it('answers headers over 16 KiB with the 431 JSON body', async () => {
    const res = await fetch(`${svc.baseUrl}/api/v1/generate`, { method: 'POST', headers: { 'X-Big': 'a'.repeat(20_000) }, body: '{}' });
    expect(res.status).toBe(431);
    const json = (await res.json()) as any;
    expect(json.error).toMatchObject({ code: 'invalid_request', request_id: res.headers.get('x-request-id') });
  });

  it('counts a request against the key only once its body has arrived: 1,000 unfinished bodies use none of it', async () => {
    const { key, keyId } = await svc.account({ credits: 500 });
    await svc.admin('PATCH', `/admin/api-keys/${keyId}`, { rate_limit_per_24h: 5 });
    const sockets: Socket[] = [];
    const { port } = new URL(svc.baseUrl);
    try {
      for (let i = 0; i < 1_000; i++) {
        const socket = connect(Number(port), '127.0.0.1');
        socket.on('error', () => undefined);
        socket.write(`POST /api/v1/generate HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"prompt":`);
        sockets.push(socket);
      }
      // Every unfinished request has reached the service (its headers are read) before the real ones go.
      await new Promise((r) => setTimeout(r, 1_000));
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await svc.api('/api/v1/generate', { key, body: { prompt: 'a mug', resolution: '1K', model: 'nano-banana-2' } })).status);
      expect(statuses).toEqual([200, 200, 200, 200, 200]);
      expect((await svc.api('/api/v1/generate', { key, body: { prompt: 'a mug', resolution: '1K', model: 'nano-banana-2' } })).status).toBe(429);
    } finally {
      for (const socket of sockets) socket.destroy();
    }
  }, 60_000);
});
