// A loopback stand-in for the service, for running the "copy as code" samples: POST /api/v1/generate answers after
// `delayMs`, GET /api/file/<name> 302s to a direct link on a second server (another origin, as the service does), which
// serves the bytes. It records what each request carried, so a test sees a key sent where it must not be.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { API_KEY_ENV } from '../src-shared/copy-as-code.ts';

export const SAMPLE_KEY = 'sk_' + 'k'.repeat(32);
export const FILE_BYTES = Buffer.from('89504e470d0a1a0a-not-really-a-png', 'utf8');

export interface SeenRequest {
  path: string | undefined;
  auth: string | undefined;
  lang: string | undefined;
  turnId: string | undefined;
  body: string;
  /** Milliseconds since the fake started when the request arrived. */
  atMs: number;
}

export interface FakeService {
  baseUrl: string;
  /** Requests to the API origin (generate, file). */
  api: SeenRequest[];
  /** Requests to the direct-link origin. */
  direct: SeenRequest[];
  close(): Promise<void>;
}

function seen(req: IncomingMessage, body: string, startedAt: number): SeenRequest {
  return {
    path: req.url,
    auth: req.headers.authorization,
    lang: req.headers['accept-language'] as string | undefined,
    turnId: req.headers['x-client-turn-id'] as string | undefined,
    body,
    atMs: Date.now() - startedAt,
  };
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
}

export async function startFakeService(options: { delayMs: number }): Promise<FakeService> {
  const startedAt = Date.now();
  const api: SeenRequest[] = [];
  const direct: SeenRequest[] = [];
  let directUrl = '';
  const directServer = createServer((req, res) => {
    direct.push(seen(req, '', startedAt));
    if (req.headers.authorization !== undefined) return void res.writeHead(400, { 'content-type': 'text/plain' }).end('key sent to the direct link\n');
    res.writeHead(200, { 'content-type': 'image/png', 'content-length': FILE_BYTES.length }).end(FILE_BYTES);
  });
  const apiServer = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      api.push(seen(req, body, startedAt));
      const file = /^\/api\/file\/([A-Za-z0-9]{8}\.png)$/.exec(req.url ?? '');
      if (file) return void res.writeHead(302, { location: `${directUrl}/direct/${file[1]}?expires=9999999999&sig=abc` }).end();
      const images = ['AAAAAAA1', 'AAAAAAA2'].map((id) => ({ id: `img_${id}`, filename: `${id}.png`, url: `/api/file/${id}.png`, width: 1, height: 1 }));
      const answer = JSON.stringify({ ok: true, turn_id: 't_AAAAAAAAAA', session_id: 's_AAAAAAAAAA', credits_charged: 34, duration_ms: options.delayMs, warnings: [], images });
      setTimeout(() => res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'req_' + 'r'.repeat(20) }).end(answer), options.delayMs);
    });
  });
  // node:http would cut a request waiting 305 s for its answer (requestTimeout covers only receiving it, but be explicit).
  apiServer.requestTimeout = 0;
  apiServer.keepAliveTimeout = 1_000;
  directUrl = await listen(directServer);
  const baseUrl = await listen(apiServer);
  return {
    baseUrl,
    api,
    direct,
    close: async () => {
      apiServer.closeAllConnections();
      directServer.closeAllConnections();
      await Promise.all([new Promise((r) => apiServer.close(r)), new Promise((r) => directServer.close(r))]);
    },
  };
}

/** Runs a sample in `cwd` with the key in its environment. Asynchronous: the fake lives in this process. */
export function runSample(cmd: string, args: string[], cwd: string): Promise<{ status: number | null; stdout: string; stderr: string; ms: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd, env: { ...process.env, [API_KEY_ENV]: SAMPLE_KEY } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.on('close', (status) => resolve({ status, stdout, stderr, ms: Date.now() - started }));
  });
}

/**
 * What every sample must have done against its own fake: one generate with the key and a client turn id of the
 * service's shape, then each file through /api/file with the key and its direct link without it, saved in `dir`.
 */
export function expectSampleDidItAll(fake: FakeService, run: { status: number | null; stderr: string; stdout: string }, dir: string): void {
  expect(run.status, run.stderr + run.stdout).toBe(0);
  const generate = fake.api.filter((r) => r.path === '/api/v1/generate');
  expect(generate).toHaveLength(1);
  expect(generate[0]?.auth).toBe(`Bearer ${SAMPLE_KEY}`);
  expect(generate[0]?.turnId).toMatch(/^lt_[A-Za-z0-9]{10}$/);
  expect(run.stderr).toContain(generate[0]?.turnId);
  const files = fake.api.filter((r) => r.path?.startsWith('/api/file/'));
  expect(files.map((r) => r.path).sort()).toEqual(['/api/file/AAAAAAA1.png', '/api/file/AAAAAAA2.png']);
  for (const r of files) expect(r.auth).toBe(`Bearer ${SAMPLE_KEY}`);
  expect(fake.direct).toHaveLength(2);
  for (const r of fake.direct) expect(r.auth, 'the key must not follow the redirect').toBeUndefined();
  for (const name of ['AAAAAAA1.png', 'AAAAAAA2.png']) expect(readFileSync(join(dir, name))).toEqual(FILE_BYTES);
}
