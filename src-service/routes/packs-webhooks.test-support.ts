// Test support for the pack/publication/webhook suites: a real service on loopback (startService, port 0,
// temp data dir) and a plain node:http receiver that records the raw bytes of every request it gets.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { startService, type RunningService } from '../start.ts';

export interface HttpAnswer {
  status: number;
  json: unknown;
  text: string;
  headers: Headers;
}

export interface TestService {
  service: RunningService;
  dataDir: string;
  accountId: string;
  apiKey: string;
  admin(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<HttpAnswer>;
  api(method: string, path: string, options?: { key?: string; body?: unknown }): Promise<HttpAnswer>;
  /** Stops the service; with keepData the folder stays for a restart. */
  close(options?: { keepData?: boolean }): Promise<void>;
}

async function answer(res: Response): Promise<HttpAnswer> {
  const text = await res.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text) as unknown;
  } catch {
    // not JSON: leave null
  }
  return { status: res.status, json, text, headers: res.headers };
}

export async function startTestService(dataDir?: string): Promise<TestService> {
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), 's2-service-'));
  const service = await startService({ port: 0, dataDir: dir, seed: true, logLevel: 'silent' });
  let accountId = service.accountId;
  let apiKey = service.apiKey;
  const admin = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<HttpAnswer> =>
    answer(
      await fetch(`${service.baseUrl}${path}`, {
        method,
        headers: { Authorization: `Bearer ${service.adminToken}`, 'Content-Type': 'application/json', ...headers },
        ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
      }),
    );
  if (!accountId || !apiKey) throw new Error('seeded service without account');
  // A restart on the same folder seeds a fresh account; tests that restart read ids from the first run.
  return {
    service,
    dataDir: dir,
    accountId,
    apiKey,
    admin,
    async api(method, path, options = {}) {
      return answer(
        await fetch(`${service.baseUrl}${path}`, {
          method,
          headers: {
            ...(options.key === '' ? {} : { Authorization: `Bearer ${options.key ?? apiKey}` }),
            'Content-Type': 'application/json',
          },
          ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
        }),
      );
    },
    async close(options = {}) {
      await service.close();
      accountId = undefined;
      apiKey = undefined;
      if (!options.keepData) rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** performance.now() when the request's body had fully arrived. */
  at: number;
  /** performance.now() when the service closed the connection (set later, if it does). */
  closedAt: number | null;
}

export type Responder = (req: ReceivedRequest, index: number, res: ServerResponse) => void;

export interface Receiver {
  url: string;
  port: number;
  requests: ReceivedRequest[];
  respond: Responder;
  /** Resolves when at least n requests have arrived. */
  waitFor(n: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

export const ok200: Responder = (_req, _i, res) => {
  res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok');
};

export async function startReceiver(respond: Responder = ok200): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const waiters: Array<() => boolean> = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const record: ReceivedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks),
        at: performance.now(),
        closedAt: null,
      };
      res.on('close', () => {
        record.closedAt = performance.now();
      });
      requests.push(record);
      receiver.respond(record, requests.length - 1, res);
      for (const w of waiters.splice(0)) if (!w()) waiters.push(w);
    });
  });
  const receiver: Receiver = {
    url: '',
    port: 0,
    requests,
    respond,
    waitFor(n, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const check = (): boolean => {
          if (requests.length >= n) {
            clearTimeout(timer);
            resolve(requests);
            return true;
          }
          return false;
        };
        const timer = setTimeout(() => reject(new Error(`receiver got ${requests.length} of ${n} requests`)), timeoutMs);
        if (!check()) waiters.push(check);
      });
    },
    close() {
      return new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.url = `http://127.0.0.1:${receiver.port}/hook`;
  return receiver;
}

export async function waitUntil<T>(probe: () => Promise<T | null | undefined | false>, timeoutMs = 30_000, stepMs = 50): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, stepMs));
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** One service for a whole test file plus the receivers its tests start, closed after each test. */
export interface FileService {
  /** The file's service (started in beforeAll): use it inside tests and hooks. */
  svc: TestService;
  /** Starts a receiver that is closed after the current test. */
  receiver(respond?: Responder): Promise<Receiver>;
}

/** Registers the beforeAll/afterAll/afterEach hooks the pack and webhook suites share; `afterEachTest` runs after the receivers close. */
export function useFileService(afterEachTest?: (svc: TestService) => Promise<unknown>): FileService {
  let started: TestService | undefined;
  const current = (): TestService => {
    if (!started) throw new Error('the file service starts in beforeAll; use it inside a test or hook');
    return started;
  };
  const receivers: Receiver[] = [];
  beforeAll(async () => {
    started = await startTestService();
  });
  afterAll(async () => {
    await started?.close();
  });
  afterEach(async () => {
    await Promise.all(receivers.splice(0).map((r) => r.close()));
    if (afterEachTest) await afterEachTest(current());
  });
  // Forwards to the service started in beforeAll, so a file can name `svc` at its top.
  const svc: TestService = {
    get service() { return current().service; },
    get dataDir() { return current().dataDir; },
    get accountId() { return current().accountId; },
    get apiKey() { return current().apiKey; },
    admin: (...args) => current().admin(...args),
    api: (...args) => current().api(...args),
    close: (...args) => current().close(...args),
  };
  async function receiver(respond?: Responder): Promise<Receiver> {
    const r = await startReceiver(respond);
    receivers.push(r);
    return r;
  }
  return { svc, receiver };
}
