/* eslint-disable @typescript-eslint/no-explicit-any -- tests read response bodies field by field */
// Requests the service must survive with a clear answer: JSON nested to any depth (spec §7 invalid_request,
// never 500) and slow clients (slowloris) cut off without touching a generation that waits for its result
// after its body arrived (spec §1: up to 5 minutes). Real sockets on loopback.
import { connect, type Socket } from 'node:net';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_SCOPES } from '../../src-shared/api.ts';
import { LINGER_BYTES, LINGER_MS } from '../http/transport.ts';
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

  it('answers a 5 MB streamed (chunked) body with the 413 JSON that Node fetch can read, 20 times out of 20', async () => {
    const { key } = await svc.account({ credits: 500 });
    const chunk = new Uint8Array(64 * 1024).fill(0x20);
    const outcomes: string[] = [];
    for (let i = 0; i < 20; i++) {
      let sent = 0;
      // No declared length: the service refuses it while reading, once it passes the limit.
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent >= 5 * 1024 * 1024) return controller.close();
          sent += chunk.length;
          controller.enqueue(chunk);
        },
      });
      try {
        const res = await fetch(`${svc.baseUrl}/api/v1/generate`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
          body,
          duplex: 'half',
        } as RequestInit);
        const json = (await res.json()) as any;
        outcomes.push(`${res.status} ${json.error?.code}`);
      } catch (error) {
        outcomes.push(`failed: ${String((error as { cause?: unknown }).cause ?? error)}`);
      }
    }
    expect(outcomes).toEqual(Array(20).fill('413 payload_too_large'));
  });

  /**
   * Uploads `total` bytes on a raw socket as fast as the server reads them (declared or chunked), or only `sendOnly`
   * of them and then a byte every 200 ms; resolves once the server closes (or after `limitMs`) with what came back. A half-open
   * client keeps its side open after the server's end (by default it closes, as clients do after Connection: close).
   */
  function rawUpload(options: { key: string; total: number; chunked?: boolean; sendOnly?: number; halfOpen?: boolean; limitMs?: number }): Promise<{
    received: string;
    writeError: string | null;
    sent: number;
    closedAfterMs: number | null;
  }> {
    const { port } = new URL(svc.baseUrl);
    const socket = connect({ port: Number(port), host: '127.0.0.1', allowHalfOpen: options.halfOpen ?? false });
    const opened = Date.now();
    let received = '';
    let writeError: string | null = null;
    let sent = 0;
    const framing = options.chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${options.total}`;
    socket.write(`POST /api/v1/generate HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${options.key}\r\nContent-Type: application/json\r\n${framing}\r\n\r\n`);
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const frame = options.chunked ? Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]) : chunk;
    const upTo = options.sendOnly ?? options.total;
    let trickle: NodeJS.Timeout | undefined;
    const pump = (): void => {
      while (sent < upTo && !socket.destroyed) {
        sent += chunk.length;
        if (sent >= options.total && options.chunked) socket.write(Buffer.concat([frame, Buffer.from('0\r\n\r\n')]));
        else if (!socket.write(frame)) return void socket.once('drain', pump);
      }
      // A client that stalls goes on with a byte now and then: only a write can tell it the server has closed.
      if (sent < options.total) trickle = setInterval(() => socket.write(' '), 200);
    };
    pump();
    socket.on('data', (d: Buffer) => (received += d.toString()));
    socket.on('error', (error: NodeJS.ErrnoException) => (writeError = error.code ?? error.message));
    return new Promise((resolve) => {
      const limit = setTimeout(() => {
        clearInterval(trickle);
        socket.destroy();
        resolve({ received, writeError, sent, closedAfterMs: null });
      }, options.limitMs ?? 10_000);
      socket.on('close', () => {
        clearInterval(trickle);
        clearTimeout(limit);
        resolve({ received, writeError, sent, closedAfterMs: Date.now() - opened });
      });
    });
  }

  /** Status line, Connection header and error code of a raw answer. */
  function summary(received: string): string {
    const [head = '', body = ''] = received.split('\r\n\r\n');
    const connection = /\r\nconnection: *([^\r]*)/i.exec(head)?.[1] ?? '-';
    let code = '-';
    try {
      code = (JSON.parse(body) as any).error.code as string;
    } catch {
      /* no JSON body */
    }
    return `${head.split('\r\n')[0]} | ${connection} | ${code}`;
  }

  it('answers a 5 MB upload on a raw socket with the 413 JSON and reads it to its end before closing, 20 of 20', async () => {
    const { key } = await svc.account({ credits: 500 });
    const outcomes: string[] = [];
    for (let i = 0; i < 20; i++) {
      // Half declare their length (refused before reading), half are chunked (refused while read, at the limit).
      const upload = await rawUpload({ key, total: 5 * 1024 * 1024, chunked: i % 2 === 1 });
      outcomes.push(`${summary(upload.received)} | ${upload.writeError ?? 'sent all'}`);
    }
    expect(outcomes).toEqual(Array(20).fill('HTTP/1.1 413 Payload Too Large | close | payload_too_large | sent all'));
  });

  it('closes a refused upload that stops sending after a few seconds, and one that never stops after a bounded amount', async () => {
    const { key } = await svc.account({ credits: 500 });
    const [stalled, endless] = await Promise.all([
      rawUpload({ key, total: 5 * 1024 * 1024, sendOnly: 2 * 1024 * 1024, halfOpen: true, limitMs: 15_000 }),
      rawUpload({ key, total: 4 * 1024 * 1024 * 1024, limitMs: 15_000 }),
    ]);
    expect(summary(stalled.received)).toBe('HTTP/1.1 413 Payload Too Large | close | payload_too_large');
    expect(stalled.closedAfterMs).toBeGreaterThanOrEqual(LINGER_MS - 100);
    expect(stalled.closedAfterMs).toBeLessThan(LINGER_MS + 3_000);
    expect(summary(endless.received)).toBe('HTTP/1.1 413 Payload Too Large | close | payload_too_large');
    expect(endless.closedAfterMs).not.toBeNull();
    expect(endless.sent).toBeLessThan(LINGER_BYTES * 8);
  }, 30_000);

  it('answers headers over 16 KiB with the 431 JSON body', async () => {
    const res = await fetch(`${svc.baseUrl}/api/v1/generate`, { method: 'POST', headers: { 'X-Big': 'a'.repeat(20_000) }, body: '{}' });
    expect(res.status).toBe(431);
    const json = (await res.json()) as any;
    expect(json.error).toMatchObject({ code: 'invalid_request', request_id: res.headers.get('x-request-id') });
  });

  it('answers headers over 16 KiB with the 431 JSON body on a kept-alive connection too', async () => {
    const { port } = new URL(svc.baseUrl);
    const socket = connect(Number(port), '127.0.0.1');
    socket.on('error', () => undefined);
    let received = '';
    const closed = new Promise<void>((resolve) => socket.on('close', resolve));
    socket.on('data', (d: Buffer) => {
      received += d.toString();
      // The first answer is in: the same connection now sends headers too large.
      if (received.includes('"now"') && !received.includes(' 431 ')) socket.write(`GET /admin/clock HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    });
    socket.write(`GET /admin/clock HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${svc.adminToken}\r\n\r\n`);
    await closed;
    const second = received.slice(received.indexOf('HTTP/1.1', 1));
    expect(second).toMatch(/^HTTP\/1\.1 431 /);
    expect(JSON.parse(second.slice(second.indexOf('\r\n\r\n') + 4)).error).toMatchObject({ code: 'invalid_request' });
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
