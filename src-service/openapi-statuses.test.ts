/* eslint-disable @typescript-eslint/no-explicit-any -- tests read the OpenAPI document and bodies field by field */
// docs/openapi.yaml declares every status the service can answer each operation with, and nothing else.
// Each status of each operation is provoked here for real, over loopback against a running service
// (413 and 431 included, and the 400/408/431 its HTTP server gives before the API sees a request); the
// provoked set must equal the declared set, and each answer must have the declared shape (JSON error body,
// plain text, or no body at all). The service's source is then read for the statuses its public routes can
// throw, so a new one cannot go undeclared without failing here.
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { API_SCOPES } from '../src-shared/api.ts';
import { ERROR_CODES, GENERATE_400_CODES, type ErrorCode } from '../src-shared/errors.ts';
import { MAX_BODY_BYTES } from './http/body.ts';
import { createLogger } from './logger.ts';
import { startService, type RunningService } from './start.ts';
import { startServiceWithLimits } from './test-support.ts';

const ROOT = resolve(import.meta.dirname, '..');
const DOC = parse(readFileSync(join(ROOT, 'docs/openapi.yaml'), 'utf8')) as any;
const source = (file: string): string => readFileSync(join(ROOT, 'src-service', file), 'utf8');

interface Answer {
  status: number;
  contentType: string | null;
  requestId: string | null;
  allow: string | null;
  location: string | null;
  body: string;
}

type Op = 'post /api/v1/generate' | 'get /api/file/{filename}' | 'get /api/v1/image-pack-publications/{id}' | 'get /direct/{filename}';
const OPS: Op[] = ['post /api/v1/generate', 'get /api/file/{filename}', 'get /api/v1/image-pack-publications/{id}', 'get /direct/{filename}'];

interface Case {
  /** What this provocation is. */
  what: string;
  provoke: () => Promise<Answer>;
  /** The spec §7 code a JSON error body must carry. */
  code?: ErrorCode;
  /** Answered before the API sees the request (node:http's parse errors): the JSON error body all the same. */
  transport?: boolean;
}

/** The declared response of an operation for a status, with its $ref resolved. */
function declaredResponse(op: Op, status: string): any {
  const [method, path] = op.split(' ') as [string, string];
  const response = DOC.paths[path]?.[method]?.responses?.[status];
  if (response?.$ref) return DOC.components.responses[String(response.$ref).split('/').pop() as string];
  return response;
}

/** The error codes a declared JSON error schema allows: the ErrorCode enum, or a code of its own (`const`). */
function declaredCodes(schema: any): string[] {
  const resolved = schema?.$ref ? DOC.components.schemas[String(schema.$ref).split('/').pop() as string] : schema;
  const code = resolved?.properties?.error?.properties?.code;
  if (code?.const !== undefined) return [code.const];
  if (code?.$ref) return DOC.components.schemas[String(code.$ref).split('/').pop() as string].enum;
  return [];
}

function declaredStatuses(op: Op): string[] {
  const [method, path] = op.split(' ') as [string, string];
  return Object.keys(DOC.paths[path]?.[method]?.responses ?? {}).sort();
}

// ---- talking to the service -----------------------------------------------------------------------------

let service: RunningService;
let dataDir: string;
let port = 0;
let directPort = 0;

async function viaFetch(method: string, path: string, init: { key?: string; body?: string; headers?: Record<string, string>; origin?: string } = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...(init.headers ?? {}) };
  if (init.key) headers.Authorization = `Bearer ${init.key}`;
  if (init.body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch((init.origin ?? service.baseUrl) + path, { method, headers, redirect: 'manual', ...(init.body !== undefined ? { body: init.body } : {}) });
  return {
    status: res.status,
    contentType: res.headers.get('content-type'),
    requestId: res.headers.get('x-request-id'),
    allow: res.headers.get('allow'),
    location: res.headers.get('location'),
    body: await res.text(),
  };
}

/**
 * Writes `head` (and then whatever `feed` writes) on a raw connection and reads one answer: what the HTTP
 * server itself says about a malformed, slow or oversized request never reaches fetch's API.
 */
function viaSocket(head: string, feed?: (write: (data: string | Buffer) => boolean) => void, toPort = port): Promise<Answer> {
  // `write` returns whether the connection is still open (backpressure is the kernel's business here).
  return new Promise((resolveAnswer, reject) => {
    const socket = connect(toPort, '127.0.0.1');
    let received = Buffer.alloc(0);
    const limit = setTimeout(() => finish(), 10_000);
    const finish = (): void => {
      clearTimeout(limit);
      socket.destroy();
      const text = received.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(text);
      if (!status || end < 0) {
        reject(new Error(`no HTTP answer: ${JSON.stringify(text.slice(0, 200))}`));
        return;
      }
      const headers = new Map<string, string>();
      for (const line of text.slice(0, end).split('\r\n').slice(1)) {
        const colon = line.indexOf(':');
        if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
      }
      const length = headers.has('content-length') ? Number(headers.get('content-length')) : null;
      const body = received.subarray(Buffer.byteLength(text.slice(0, end + 4), 'latin1'));
      resolveAnswer({
        status: Number(status[1]),
        contentType: headers.get('content-type') ?? null,
        requestId: headers.get('x-request-id') ?? null,
        allow: headers.get('allow') ?? null,
        location: headers.get('location') ?? null,
        body: (length === null ? body : body.subarray(0, length)).toString('utf8'),
      });
    };
    socket.on('error', () => undefined);
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      // One whole answer with a length is enough; otherwise the server closes the connection after it.
      const text = received.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      const length = /\r\ncontent-length:\s*(\d+)/i.exec(text.slice(0, end));
      if (end >= 0 && length && received.length >= Buffer.byteLength(text.slice(0, end + 4), 'latin1') + Number(length[1])) finish();
    });
    socket.on('close', finish);
    socket.on('connect', () => {
      socket.write(head);
      feed?.((data) => {
        if (socket.destroyed) return false;
        socket.write(data);
        return true;
      });
    });
  });
}

/** The request line and Host of a raw request for an operation's path. */
const requestLine = (method: string, path: string): string => `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`;

async function admin(method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(service.baseUrl + path, {
    method,
    headers: { Authorization: `Bearer ${service.adminToken}`, 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
  return text ? JSON.parse(text) : null;
}

async function newKey(accountId: string, scopes: string[], rateLimit?: number): Promise<string> {
  const key = await admin('POST', `/admin/accounts/${accountId}/api-keys`, { name: 'openapi', scopes });
  if (rateLimit !== undefined) await admin('PATCH', `/admin/api-keys/${key.id}`, { rate_limit_per_24h: rateLimit });
  return key.key as string;
}

/** A key with a 24-hour limit of one request, already used: its next request is rate limited. */
async function exhaustedKey(accountId: string): Promise<string> {
  const key = await newKey(accountId, [...API_SCOPES], 1);
  await viaFetch('GET', '/api/v1/image-pack-publications/999999', { key });
  return key;
}

/** Makes one table of the service's database unusable, so the next query of it throws (an unexpected failure). */
function breakTable(table: string): void {
  const db = new DatabaseSync(join(dataDir, 'service.db'));
  try {
    db.exec('PRAGMA busy_timeout = 5000');
    db.exec(`DROP TABLE IF EXISTS ${table}`);
  } finally {
    db.close();
  }
}

// ---- the facts every provocation needs -------------------------------------------------------------------

let accountId = '';
let keyAll = '';
let keyNone = '';
let poorKey = '';
let filename = '';
let publicationId = 0;
/** The path and query of a valid direct link (on the direct-link origin). */
let directLink = '';

const MALFORMED = 'this line is not a header\r\n\r\n';
const BIG_HEADER = `X-Padding: ${'a'.repeat(20 * 1024)}\r\n\r\n`;
const DECLARED_TOO_LARGE = `Content-Length: ${MAX_BODY_BYTES + 1}\r\n\r\n`;

/** The request waits for the rest of its headers, which never come. */
const slowHeaders = (method: string, path: string) => () => viaSocket(`${requestLine(method, path)}X-Slow: 1\r\n`);

const generateBody = (extra: Record<string, unknown> = {}) => JSON.stringify({ prompt: 'a mug', model: 'nano-banana-2', resolution: '1K', ...extra });

/** Every status of every operation, each provoked for real. The DB-breaking 500s run last (see below). */
function table(): Record<Op, Record<string, Case[]>> {
  const gen = '/api/v1/generate';
  const file = () => `/api/file/${filename}`;
  const pub = () => `/api/v1/image-pack-publications/${publicationId}`;
  return {
    'post /api/v1/generate': {
      '200': [{ what: 'a valid generation', provoke: () => viaFetch('POST', gen, { key: keyAll, body: generateBody() }) }],
      '400': [
        { what: 'a ratio the model does not support', code: 'invalid_ratio', provoke: () => viaFetch('POST', gen, { key: keyAll, body: generateBody({ model: 'seedream-5-0-pro', ratio: '4:5' }) }) },
        { what: 'a malformed header line', transport: true, provoke: () => viaSocket(requestLine('POST', gen) + MALFORMED) },
      ],
      '401': [{ what: 'no Authorization', code: 'unauthorized', provoke: () => viaFetch('POST', gen, { body: generateBody() }) }],
      '402': [{ what: 'an account without credits', code: 'insufficient_credits', provoke: () => viaFetch('POST', gen, { key: poorKey, body: generateBody() }) }],
      '403': [{ what: 'a key without generate:write', code: 'insufficient_scope', provoke: () => viaFetch('POST', gen, { key: keyNone, body: generateBody() }) }],
      '404': [{ what: 'a session that does not exist', code: 'session_not_found', provoke: () => viaFetch('POST', gen, { key: keyAll, body: generateBody({ session_id: 's_0000000000' }) }) }],
      '408': [{ what: 'headers that never finish', transport: true, provoke: slowHeaders('POST', gen) }],
      '413': [
        { what: 'a declared Content-Length over 1 MiB', code: 'payload_too_large', provoke: () => viaSocket(`${requestLine('POST', gen)}Authorization: Bearer ${keyAll}\r\n${DECLARED_TOO_LARGE}`) },
        {
          what: 'a chunked body that passes 1 MiB',
          code: 'payload_too_large',
          provoke: () =>
            viaSocket(`${requestLine('POST', gen)}Authorization: Bearer ${keyAll}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`, (write) => {
              const chunk = Buffer.alloc(64 * 1024, 0x20);
              let sent = 0;
              const more = (): void => {
                if (sent > MAX_BODY_BYTES * 2 || !write(Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]))) return;
                sent += chunk.length;
                setTimeout(more, 1);
              };
              more();
            }),
        },
      ],
      '429': [{ what: 'a key past its 24-hour limit', code: 'rate_limited', provoke: async () => viaFetch('POST', gen, { key: await exhaustedKey(accountId), body: generateBody() }) }],
      '431': [{ what: 'headers over 16 KiB', code: 'invalid_request', provoke: () => viaSocket(requestLine('POST', gen) + BIG_HEADER) }],
      '500': [
        {
          what: 'a generation that fails (armed fault)',
          code: 'internal_error',
          provoke: async () => {
            await admin('PUT', '/admin/faults', { generate: { fail: 1 } });
            return viaFetch('POST', gen, { key: keyAll, body: generateBody() });
          },
        },
      ],
      '503': [
        {
          what: 'the auth service down (armed fault)',
          code: 'auth_unavailable',
          provoke: async () => {
            await admin('PUT', '/admin/faults', { auth_unavailable: 1 });
            return viaFetch('POST', gen, { key: keyAll, body: generateBody() });
          },
        },
      ],
    },
    'get /api/file/{filename}': {
      '302': [{ what: 'an own file', provoke: () => viaFetch('GET', file(), { key: keyAll }) }],
      '400': [{ what: 'a malformed header line', transport: true, provoke: () => viaSocket(requestLine('GET', file()) + MALFORMED) }],
      '401': [{ what: 'no Authorization', provoke: () => viaFetch('GET', file()) }],
      '403': [{ what: 'a key without assets:read', provoke: () => viaFetch('GET', file(), { key: keyNone }) }],
      '404': [{ what: 'an unknown file', provoke: () => viaFetch('GET', '/api/file/ZZZZZZZZ.png', { key: keyAll }) }],
      '408': [{ what: 'headers that never finish', transport: true, provoke: slowHeaders('GET', '/api/file/ZZZZZZZZ.png') }],
      '413': [{ what: 'a declared Content-Length over 1 MiB', provoke: () => viaSocket(`${requestLine('GET', file())}Authorization: Bearer ${keyAll}\r\n${DECLARED_TOO_LARGE}`) }],
      '429': [{ what: 'a key past its 24-hour limit', provoke: async () => viaFetch('GET', file(), { key: await exhaustedKey(accountId) }) }],
      '431': [{ what: 'headers over 16 KiB', code: 'invalid_request', provoke: () => viaSocket(requestLine('GET', file()) + BIG_HEADER) }],
      '500': [], // below: the images table made unusable
      '503': [
        {
          what: 'the auth service down (armed fault)',
          provoke: async () => {
            await admin('PUT', '/admin/faults', { auth_unavailable: 1 });
            return viaFetch('GET', file(), { key: keyAll });
          },
        },
      ],
    },
    'get /direct/{filename}': {
      '200': [{ what: 'a valid link, no key', provoke: () => viaFetch('GET', directLink, { origin: service.directBaseUrl }) }],
      '400': [
        { what: 'the API key sent to it', provoke: () => viaFetch('GET', directLink, { origin: service.directBaseUrl, key: keyAll }) },
        { what: 'a malformed header line', transport: true, code: 'invalid_request', provoke: () => viaSocket(`GET ${directLink} HTTP/1.1\r\nHost: 127.0.0.1\r\n${MALFORMED}`, undefined, directPort) },
      ],
      '403': [{ what: 'a changed signature', provoke: () => viaFetch('GET', directLink.replace(/sig=./, (m) => (m.endsWith('a') ? 'sig=b' : 'sig=a')), { origin: service.directBaseUrl }) }],
      '404': [{ what: 'an unknown file', provoke: () => viaFetch('GET', '/direct/ZZZZ', { origin: service.directBaseUrl }) }],
      '408': [{ what: 'headers that never finish', transport: true, code: 'invalid_request', provoke: () => viaSocket(`GET ${directLink} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: 1\r\n`, undefined, directPort) }],
      '413': [{ what: 'a declared Content-Length over 1 MiB', provoke: () => viaSocket(`GET ${directLink} HTTP/1.1\r\nHost: 127.0.0.1\r\n${DECLARED_TOO_LARGE}`, undefined, directPort) }],
      '431': [{ what: 'headers over 16 KiB', code: 'invalid_request', provoke: () => viaSocket(`GET ${directLink} HTTP/1.1\r\nHost: 127.0.0.1\r\n${BIG_HEADER}`, undefined, directPort) }],
      '500': [], // below: the images table made unusable
    },
    'get /api/v1/image-pack-publications/{id}': {
      '200': [{ what: 'an own publication', provoke: () => viaFetch('GET', pub(), { key: keyAll }) }],
      '400': [{ what: 'a malformed header line', transport: true, provoke: () => viaSocket(requestLine('GET', pub()) + MALFORMED) }],
      '401': [{ what: 'no Authorization', code: 'unauthorized', provoke: () => viaFetch('GET', pub()) }],
      '403': [{ what: 'a key without documents:read', code: 'insufficient_scope', provoke: () => viaFetch('GET', pub(), { key: keyNone }) }],
      '404': [{ what: 'a publication that does not exist', code: 'not_found', provoke: () => viaFetch('GET', '/api/v1/image-pack-publications/999999', { key: keyAll }) }],
      '408': [{ what: 'headers that never finish', transport: true, provoke: slowHeaders('GET', pub()) }],
      '413': [{ what: 'a declared Content-Length over 1 MiB', code: 'payload_too_large', provoke: () => viaSocket(`${requestLine('GET', pub())}Authorization: Bearer ${keyAll}\r\n${DECLARED_TOO_LARGE}`) }],
      '429': [{ what: 'a key past its 24-hour limit', code: 'rate_limited', provoke: async () => viaFetch('GET', pub(), { key: await exhaustedKey(accountId) }) }],
      '431': [{ what: 'headers over 16 KiB', code: 'invalid_request', provoke: () => viaSocket(requestLine('GET', pub()) + BIG_HEADER) }],
      '500': [], // below: the publications table made unusable
      '503': [
        {
          what: 'the auth service down (armed fault)',
          code: 'auth_unavailable',
          provoke: async () => {
            await admin('PUT', '/admin/faults', { auth_unavailable: 1 });
            return viaFetch('GET', pub(), { key: keyAll });
          },
        },
      ],
    },
  };
}

/** The 500s of an unexpected failure: the table the operation reads is dropped, so its query throws. */
function brokenDatabaseCases(): Array<{ op: Op; table: string; case: Case }> {
  return [
    { op: 'get /api/v1/image-pack-publications/{id}', table: 'publications', case: { what: 'its table unusable', code: 'internal_error', provoke: () => viaFetch('GET', `/api/v1/image-pack-publications/${publicationId}`, { key: keyAll }) } },
    { op: 'get /api/file/{filename}', table: 'images', case: { what: 'its table unusable', provoke: () => viaFetch('GET', `/api/file/${filename}`, { key: keyAll }) } },
    { op: 'get /direct/{filename}', table: 'images', case: { what: 'its table unusable', provoke: () => viaFetch('GET', directLink, { origin: service.directBaseUrl }) } },
  ];
}

/** The answer has the shape the document declares for its status. */
function expectDeclaredShape(op: Op, status: string, c: Case, answer: Answer): void {
  const where = `${op} ${status} (${c.what})`;
  const declared = declaredResponse(op, status);
  expect(declared, `${where} is declared`).toBeDefined();
  const media = Object.keys(declared?.content ?? {});
  // node:http's own answers (transport) carry the JSON error body and a request id like every other.
  if (c.transport) expect(answer.contentType, where).toMatch(/^application\/json/);
  expect(answer.requestId, where).toMatch(/^req_[A-Za-z0-9]{20}$/);
  if (media.length === 0) {
    expect(answer.body, where).toBe('');
    return;
  }
  const type = (answer.contentType ?? '').split(';')[0]?.trim() ?? '';
  expect(media, `${where}: answered ${type}`).toContain(type);
  if (type === 'application/json' && Number(status) >= 400) {
    const body = JSON.parse(answer.body);
    expect(declaredCodes(declared.content['application/json'].schema), `${where}: ${body.error?.code}`).toContain(body.error?.code);
    expect(body.error.request_id, where).toBe(answer.requestId);
    expect(typeof body.error.message, where).toBe('string');
    if (c.code) expect(body.error.code, where).toBe(c.code);
  }
  if (type === 'text/plain') expect(answer.body.trim().length, where).toBeGreaterThan(0);
  for (const name of Object.keys(declared.headers ?? {})) {
    if (name === 'Location') {
      expect(answer.location, where).toMatch(/\/direct\/[A-Za-z0-9]{8}\.png\?expires=\d+&sig=[0-9a-f]{64}$/);
      expect(new URL(answer.location ?? '').origin, `${where}: on the direct-link origin`).toBe(service.directBaseUrl);
    }
  }
}

describe('docs/openapi.yaml declares every status of every operation', () => {
  /** op → statuses provoked for real. */
  const provoked = new Map<Op, Set<string>>(OPS.map((op) => [op, new Set<string>()]));

  beforeAll(async () => {
    // Short slow-client limits, so a 408 comes within a second or so.
    ({ service, dataDir } = await startServiceWithLimits('openapi-test-token', { headersMs: 1_000, requestMs: 3_000, checkIntervalMs: 100 }));
    port = Number(new URL(service.baseUrl).port);
    directPort = Number(new URL(service.directBaseUrl ?? '').port);
    const account = await admin('POST', '/admin/accounts', { credits: 10_000, age_days: 30 });
    accountId = account.id;
    keyAll = await newKey(accountId, [...API_SCOPES]);
    keyNone = await newKey(accountId, []);
    const poor = await admin('POST', '/admin/accounts', { credits: 0, age_days: 30 });
    poorKey = await newKey(poor.id, [...API_SCOPES]);
    const made = JSON.parse((await viaFetch('POST', '/api/v1/generate', { key: keyAll, body: generateBody() })).body);
    const image = made.images[0] as { id: string; filename: string };
    filename = image.filename;
    const pack = await admin('POST', `/admin/accounts/${accountId}/image-packs`, { style_code: 'OPENAPI-1', image_ids: [image.id] });
    publicationId = (await admin('POST', `/admin/image-packs/${pack.pack_id}/publish`)).publication.id;
    const location = new URL((await viaFetch('GET', `/api/file/${filename}`, { key: keyAll })).location ?? '');
    directLink = location.pathname + location.search;
  });
  afterAll(async () => {
    await service?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  for (const op of OPS) {
    it(`${op}: each status provoked answers as declared`, async () => {
      for (const [status, cases] of Object.entries(table()[op])) {
        for (const c of cases) {
          const answer = await c.provoke();
          expect(answer.status, `${op} ${status} (${c.what}): ${answer.body.slice(0, 200)}`).toBe(Number(status));
          expectDeclaredShape(op, status, c, answer);
          provoked.get(op)!.add(status);
        }
      }
    });
  }

  it('an unexpected failure answers 500 on every operation (the tables they read made unusable, last)', async () => {
    for (const { op, table: name, case: c } of brokenDatabaseCases()) {
      breakTable(name);
      const answer = await c.provoke();
      expect(answer.status, `${op} (${c.what}): ${answer.body.slice(0, 200)}`).toBe(500);
      expectDeclaredShape(op, '500', c, answer);
      provoked.get(op)!.add('500');
    }
  });

  it('what is declared is exactly what was provoked, operation by operation', () => {
    for (const op of OPS) {
      expect(declaredStatuses(op), op).toEqual([...(provoked.get(op) ?? [])].sort());
      // The table lists what each operation is meant to answer, and every entry was provoked above.
      expect(Object.keys(table()[op]).sort(), op).toEqual(declaredStatuses(op));
    }
    // No operation of the document is left out of the table.
    const documented = Object.entries(DOC.paths).flatMap(([path, item]: [string, any]) =>
      Object.keys(item).filter((k) => ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'].includes(k)).map((m) => `${m} ${path}`),
    );
    expect(documented.sort()).toEqual([...OPS].sort());
  });
});

describe('docs/openapi.yaml and the statuses in the source of the public routes', () => {
  const statusOf = (code: string): string => String(ERROR_CODES[code as ErrorCode]?.status ?? `unknown code ${code}`);
  /** The spec codes `fail('…')` / `new DomainError('…')` throw in a piece of source. */
  const thrownCodes = (text: string): string[] => [...text.matchAll(/(?:fail|DomainError)\(\s*'([a-z_]+)'/g)].map((m) => m[1] as string);
  const between = (text: string, from: string, to: string | null): string => {
    const start = text.indexOf(from);
    expect(start, `"${from}" is in the source`).toBeGreaterThanOrEqual(0);
    const end = to === null ? text.length : text.indexOf(to, start + from.length);
    expect(end, `"${to}" follows "${from}"`).toBeGreaterThan(start);
    return text.slice(start, end);
  };
  const apiKeyOps: Op[] = ['post /api/v1/generate', 'get /api/file/{filename}', 'get /api/v1/image-pack-publications/{id}'];

  it('every status the API-key middleware throws is declared on every operation behind it', () => {
    const auth = between(source('http/auth.ts'), 'export function createApiKeyAuth', 'export function createAdminAuth');
    // A fault the admin arms answers through faults.ts failAsForced, which names its status, not a code.
    const forced = [...auth.matchAll(/failAsForced\(\s*\{\s*status:\s*(\d{3})/g)].map((m) => m[1] as string);
    const statuses = new Set([...thrownCodes(auth).map(statusOf), ...forced]);
    expect([...statuses].sort()).toEqual(['401', '403', '429', '503']);
    for (const op of apiKeyOps) for (const s of statuses) expect(declaredStatuses(op), `${op} ${s}`).toContain(s);
  });

  it('the app-wide answers (body limit, unexpected errors) and the HTTP server’s own are declared on every operation', () => {
    // payload_too_large (the body limit) and internal_error (onError) can answer any operation; not_found and
    // method_not_allowed answer requests that match no operation (405 is checked on each path below). A new
    // app-wide code changes this list and has to be placed.
    // The body limit is http/body.ts refuseDeclaredTooLarge, which app.ts applies to every request.
    expect(source('app.ts')).toContain('refuseDeclaredTooLarge(c)');
    const appCodes = new Set([...thrownCodes(source('app.ts')), ...thrownCodes(between(source('http/body.ts'), 'export function refuseDeclaredTooLarge', null))]);
    expect(appCodes).toEqual(new Set(['payload_too_large', 'method_not_allowed', 'not_found', 'internal_error']));
    for (const op of OPS) for (const code of ['payload_too_large', 'internal_error']) expect(declaredStatuses(op), `${op} ${code}`).toContain(statusOf(code));
    // node:http answers 400 (not HTTP), 408 (slow client), 413 (chunk extensions) and 431 (headers too
    // large) itself; @hono/node-server answers 400 when it cannot build a Request (bad Host, backslash).
    for (const op of OPS) for (const s of ['400', '408', '413', '431', '500']) expect(declaredStatuses(op), `${op} ${s}`).toContain(s);
  });

  it('every status POST /api/v1/generate can throw is declared on it', () => {
    const codes = [...thrownCodes(source('routes/generate.ts')), ...thrownCodes(source('services/generate.ts')), ...GENERATE_400_CODES, ...thrownCodes(source('http/body.ts'))];
    for (const s of new Set(codes.map(statusOf))) expect(declaredStatuses('post /api/v1/generate'), s).toContain(s);
  });

  it('every status of the file routes and the publication fetch is declared on them', () => {
    const routes = source('routes/files.ts');
    const files = source('services/files.ts');
    const apiFile = [...thrownCodes(between(routes, "app.get('/api/file/:filename'", "app.get('/direct/:filename'")), ...thrownCodes(between(files, 'directLink(', 'checkDirect('))];
    for (const s of new Set(apiFile.map(statusOf))) expect(declaredStatuses('get /api/file/{filename}'), s).toContain(s);
    const publication = [
      ...thrownCodes(source('routes/publications.ts')),
      ...thrownCodes(between(source('services/packs.ts'), 'publicationRecord(', null)),
    ];
    for (const s of new Set(publication.map(statusOf))) expect(declaredStatuses('get /api/v1/image-pack-publications/{id}'), s).toContain(s);
  });

  it('every error code the public API can answer is documented, and every other code is admin-only', () => {
    const ownSchemas = Object.values(DOC.components.schemas).flatMap((schema) => {
      const code = (schema as any)?.properties?.error?.properties?.code;
      return code?.const === undefined ? [] : [code.const as string];
    });
    for (const code of Object.keys(ERROR_CODES)) {
      const where = DOC.components.schemas.ErrorCode.enum.includes(code)
        ? 'ErrorCode'
        : ownSchemas.includes(code)
          ? 'a schema of its own'
          : code === 'method_not_allowed'
            ? 'the path descriptions (405, checked below)'
            : ['invalid_webhook_url', 'publish_rejected'].includes(code)
              ? 'admin-only'
              : 'nowhere';
      expect(where, code).not.toBe('nowhere');
    }
    expect(ownSchemas).toEqual(['payload_too_large']);
  });

  it('405 for another method on a declared path is documented on the path, and answered with Allow', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-openapi-405-'));
    const svc = await startService({ port: 0, dataDir: dir, adminToken: 'x', logger: createLogger('silent') });
    try {
      for (const op of OPS) {
        const [method, path] = op.split(' ') as [string, string];
        expect(String(DOC.paths[path].description), path).toMatch(/\b405\b/);
        const concrete = path.replace('{filename}', 'AAAAAAAA.png').replace('{id}', '1');
        const other = method === 'get' ? 'PUT' : 'GET';
        const res = await fetch(svc.baseUrl + concrete, { method: other });
        expect(res.status, `${other} ${path}`).toBe(405);
        expect(res.headers.get('allow'), path).toContain(method.toUpperCase());
      }
    } finally {
      await svc.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
