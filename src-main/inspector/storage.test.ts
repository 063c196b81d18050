// The inspector under a flood, over real HTTP on loopback and real SQLite files: requests a browser sends are
// refused and never stored, captures stay under their byte cap with the newest kept, inspector.db gives space
// back after pruning and after Clear, the change event is coalesced, the list pages in SQL, and the captures an
// earlier version kept in library.db are dropped (migration 0101) and library.db is vacuumed once.
import { createHmac, randomUUID } from 'node:crypto';
import { existsSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { openLibraryDatabase } from '../library/database.ts';
import { MIGRATIONS } from '../library/migrations/index.ts';
import { createInspectorHandlers, type InspectorHandlers } from './handlers.ts';
import type { InspectorOptions } from './inspector.ts';
import { InspectorSecretKeeper } from './secrets.ts';
import { createTestContext, type TestContext } from './test-context.ts';

const SECRET = 'whsec_' + 'S'.repeat(32);

interface Answer {
  status: number;
  headers: IncomingMessage['headers'];
  body: string;
}

function send(url: string, headers: Record<string, string>, body: Buffer | string, method = 'POST'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

function delivery(options: { deliveryId?: string; padding?: number; packId?: string; version?: number } = {}) {
  const body = JSON.stringify({
    event: 'image_pack.published',
    publication: { id: 1, pack_id: options.packId ?? 'pk_Flood123', version: options.version ?? 1, style_code: 'SS26', published_at: 1_790_000_000 },
    ...(options.padding ? { padding: 'x'.repeat(options.padding) } : {}),
  });
  const ts = Math.floor(Date.now() / 1000);
  const deliveryId = options.deliveryId ?? randomUUID();
  return {
    deliveryId,
    body,
    headers: {
      'Content-Type': 'application/json',
      'User-Agent': 'service-webhook/1',
      'X-Service-Event': 'image_pack.published',
      'X-Service-Delivery': deliveryId,
      'X-Service-Timestamp': String(ts),
      'X-Service-Signature': `v1=${createHmac('sha256', SECRET).update(`${ts}.`).update(body).digest('hex')}`,
    },
  };
}

const size = (file: string) => (existsSync(file) ? statSync(file).size : 0);

/** inspector.db and its WAL after a checkpoint, through a connection of the test's own. */
function fileBytes(ctx: TestContext): { db: number; wal: number; stored: number; rows: number } {
  const db = new DatabaseSync(ctx.inspectorDbFile);
  try {
    db.exec('PRAGMA busy_timeout = 5000');
    const { b, n } = db.prepare('SELECT COALESCE(SUM(stored_bytes), 0) AS b, COUNT(*) AS n FROM inspector_requests').get() as { b: number; n: number };
    db.prepare('PRAGMA wal_checkpoint(TRUNCATE)').get();
    return { db: size(ctx.inspectorDbFile), wal: size(`${ctx.inspectorDbFile}-wal`), stored: b, rows: n };
  } finally {
    db.close();
  }
}

async function eventually<T>(read: () => T, ok: (value: T) => boolean, timeoutMs = 5_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = read();
    if (ok(value) || Date.now() > until) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
}

const open: InspectorHandlers[] = [];
afterEach(async () => {
  for (const handlers of open.splice(0)) await handlers.close();
});

async function start(options: InspectorOptions = {}, ctx?: TestContext) {
  const context = ctx ?? (await createTestContext());
  await new InspectorSecretKeeper(context.secrets).replace(SECRET);
  const handlers = createInspectorHandlers(context, options);
  open.push(handlers);
  await handlers.ready;
  const url = (await handlers.inspectorStatus({})).url as string;
  return { ctx: context, handlers, url };
}

describe('requests from a browser', () => {
  it('refuses a request carrying Origin or Sec-Fetch-Site with 403 and a short JSON error, stores nothing, and still takes the real sender', async () => {
    const { handlers, url } = await start();
    const d = delivery();
    const browsers: Array<Record<string, string>> = [
      { Origin: 'https://evil.example' },
      { Origin: 'null' },
      { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'no-cors' },
      { 'sec-fetch-site': 'same-origin' },
    ];
    for (const extra of browsers) {
      const answer = await send(url, { ...d.headers, ...extra }, d.body);
      expect(answer.status).toBe(403);
      expect(JSON.parse(answer.body)).toMatchObject({ error: 'browser_request_refused' });
      expect(answer.headers['access-control-allow-origin']).toBeUndefined();
    }
    // Other paths too, and a form post's body is never read.
    expect((await send(url.replace('/webhooks', '/other'), { Origin: 'http://localhost:3000', 'Content-Type': 'text/plain' }, 'x'.repeat(200_000))).status).toBe(403);
    // A CORS preflight gets no allowance, so the browser never sends the real request.
    const preflight = await send(url, { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'x-service-signature' }, '', 'OPTIONS');
    expect(preflight.status).toBe(403);
    expect(Object.keys(preflight.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);

    expect(await handlers.inspectorList({})).toEqual({ groups: [], total: 0 });
    expect((await handlers.inspectorStatus({})).browserRequestsRefused).toBe(browsers.length + 2);
    // What the service sends (spec §6 headers, no Origin, no Sec-Fetch-*) is recorded and verifies.
    expect((await send(url, d.headers, d.body)).status).toBe(200);
    const { groups, total } = await handlers.inspectorList({});
    expect(total).toBe(1);
    expect(groups[0]).toMatchObject({ deliveryId: d.deliveryId, anyValid: true });
  });
});

describe('requests to another host name', () => {
  it('answers 421 to any Host but its own address and port, before reading the body, stores nothing, and still takes its own', async () => {
    const { handlers, url } = await start();
    const port = new URL(url).port;
    const d = delivery();
    // A page whose name was rebound to 127.0.0.1 sends its own name; a stale URL names another port.
    for (const host of ['evil.example', `evil.example:${port}`, `127.0.0.1:${Number(port) + 1}`, '127.0.0.1', `127.0.0.1.nip.io:${port}`]) {
      const answer = await send(url, { ...d.headers, Host: host }, d.body);
      expect(answer.status, host).toBe(421);
      expect(JSON.parse(answer.body), host).toEqual({ error: 'wrong_host', hint: `this receiver answers only to Host 127.0.0.1:${port} or localhost:${port}` });
    }
    expect(await handlers.inspectorList({})).toEqual({ groups: [], total: 0 });
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`]) {
      const own = delivery();
      expect((await send(url, { ...own.headers, Host: host }, own.body)).status, host).toBe(200);
    }
    expect((await handlers.inspectorList({})).total).toBe(3);
  });
});

describe('captures stored by an earlier version', () => {
  it('show only a prefix of the expected HMAC when read, even if the stored report holds all of it', async () => {
    const { ctx, handlers, url } = await start();
    const d = delivery();
    expect((await send(url, d.headers, d.body)).status).toBe(200);
    const requestId = (await handlers.inspectorList({})).groups[0]?.attempts[0]?.requestId as string;
    // What an earlier version wrote: the whole expected HMAC in report_json.
    const whole = createHmac('sha256', SECRET).update(`${d.headers['X-Service-Timestamp']}.`).update('other bytes').digest('hex');
    const db = new DatabaseSync(ctx.inspectorDbFile);
    try {
      db.exec('PRAGMA busy_timeout = 5000');
      db.prepare("UPDATE inspector_payloads SET report_json = json_set(report_json, '$.signature.expected', ?)").run(whole);
    } finally {
      db.close();
    }
    const detail = await handlers.inspectorGet({ requestId });
    expect(detail.verification.report.signature.expected).toBe(whole.slice(0, 8));
    expect(JSON.stringify(detail)).not.toContain(whole.slice(0, 9));
  });
});

describe('caps and disk space', () => {
  it('keeps a flood of real deliveries under the byte cap, newest first, and the file shrinks after Clear', async () => {
    const maxBytes = 2 * 1024 * 1024;
    const { ctx, handlers, url } = await start({ maxBytes });
    const sent: string[] = [];
    // 60 deliveries of ~100 KB (about 6 MB, three times the cap), five at a time.
    for (let wave = 0; wave < 12; wave++) {
      const batch = Array.from({ length: 5 }, () => delivery({ padding: 100_000 }));
      sent.push(...batch.map((d) => d.deliveryId));
      const answers = await Promise.all(batch.map((d) => send(url, d.headers, d.body)));
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    }
    const { groups, total } = await handlers.inspectorList({ limit: 500 });
    const kept = new Set(groups.map((g) => g.deliveryId));
    expect(total).toBeGreaterThanOrEqual(15);
    expect(total).toBeLessThan(21);
    // The newest are the ones kept (the last wave certainly; within a wave arrival order is the server's).
    for (const id of sent.slice(-5)) expect(kept.has(id)).toBe(true);
    for (const id of sent.slice(0, sent.length - 25)) expect(kept.has(id)).toBe(false);

    // The byte total in the file stays under the cap, and so does the file once freed pages are given back.
    const afterFlood = await eventually(
      () => fileBytes(ctx),
      (f) => f.db < maxBytes * 1.5,
    );
    expect(afterFlood.rows).toBe(total);
    expect(afterFlood.stored).toBeLessThanOrEqual(maxBytes);
    expect(afterFlood.stored).toBeGreaterThan(maxBytes - 200_000);
    expect(afterFlood.db).toBeLessThan(maxBytes * 1.5);
    expect(afterFlood.wal).toBe(0);

    const beforeClear = size(ctx.inspectorDbFile) + size(`${ctx.inspectorDbFile}-wal`);
    expect(await handlers.inspectorClear({})).toEqual({ cleared: total });
    // Clear gives the space back itself and truncates the WAL: no checkpoint of ours needed.
    const afterClear = size(ctx.inspectorDbFile) + size(`${ctx.inspectorDbFile}-wal`);
    expect(afterClear).toBeLessThan(200 * 1024);
    expect(afterClear).toBeLessThan(beforeClear / 5);
    expect(await handlers.inspectorList({})).toEqual({ groups: [], total: 0 });
    // And it keeps recording.
    const d = delivery();
    expect((await send(url, d.headers, d.body)).status).toBe(200);
    expect((await handlers.inspectorList({})).total).toBe(1);
  }, 30_000);

  it('gives back the space of pruned captures when smaller ones replace them, and applies a lowered cap at the next start', async () => {
    const ctx = await createTestContext();
    const first = await start({ maxKept: 25, maxBytes: 4 * 1024 * 1024 }, ctx);
    for (let i = 0; i < 25; i++) {
      const d = delivery({ padding: 120_000 });
      expect((await send(first.url, d.headers, d.body)).status).toBe(200);
    }
    const full = fileBytes(ctx);
    expect(full.db).toBeGreaterThan(25 * 120_000);
    // Small deliveries push the big ones out (row cap); the freed pages go back to the file system.
    for (let i = 0; i < 40; i++) {
      const d = delivery();
      expect((await send(first.url, d.headers, d.body)).status).toBe(200);
    }
    await first.handlers.close();
    open.length = 0;
    const shrunk = fileBytes(ctx);
    expect(shrunk.rows).toBe(25);
    expect(shrunk.stored).toBeLessThan(100_000);
    expect(shrunk.db).toBeLessThan(full.db / 4);

    // The same file opened with a cap of 10 rows: pruned at open, newest kept.
    const again = await start({ maxKept: 10 }, ctx);
    const { total } = await again.handlers.inspectorList({});
    expect(total).toBe(10);
    expect(fileBytes(ctx).rows).toBe(10);
  }, 30_000);

  it('starts afresh when inspector.db is damaged (captures are disposable)', async () => {
    const ctx = await createTestContext();
    writeFileSync(ctx.inspectorDbFile, 'this is not a database, it is a flood of garbage'.repeat(200));
    const { handlers, url } = await start({}, ctx);
    const d = delivery();
    expect((await send(url, d.headers, d.body)).status).toBe(200);
    expect((await handlers.inspectorList({})).groups[0]?.deliveryId).toBe(d.deliveryId);
    expect(fileBytes(ctx).rows).toBe(1);
  });
});

describe('an open list under a burst', () => {
  it('emits inspector:delivery at most once per 150 ms window, the last one naming the newest capture', async () => {
    // The window's clock and timer are the test's: a burst falls in one window however slow the machine is.
    let now = 1_000;
    const timers: Array<() => void> = [];
    const eventClock = { now: () => now, after: (_ms: number, run: () => void) => (timers.push(run), { cancel: () => undefined }) };
    const { ctx, handlers, url } = await start({ eventClock });
    const events = () => ctx.events.filter((e) => e.event === 'inspector:delivery');
    const deliveries: string[] = [];
    for (let i = 0; i < 40; i++) {
      const d = delivery();
      deliveries.push(d.deliveryId);
      expect((await send(url, d.headers, d.body)).status).toBe(200);
    }
    await eventually(() => events().length, (n) => n >= 1);
    // The first of a quiet period at once; the rest of the burst waits for one trailing event.
    expect(events().map((e) => (e.payload as { deliveryId: string }).deliveryId)).toEqual([deliveries[0]]);
    expect(timers).toHaveLength(1);
    now += 150;
    timers.shift()!();
    expect(events()).toHaveLength(2);
    const last = deliveries.at(-1);
    expect(events().at(-1)?.payload).toMatchObject({ deliveryId: last });
    const { groups } = await handlers.inspectorList({ limit: 1 });
    expect(events().at(-1)?.payload).toEqual({ requestId: groups[0]?.attempts.at(-1)?.requestId, deliveryId: last });
    // A delivery a window after the trailing event is again told at once.
    now += 150;
    const after = delivery();
    expect((await send(url, after.headers, after.body)).status).toBe(200);
    await eventually(() => events().length, (n) => n >= 3);
    expect(events().at(-1)?.payload).toMatchObject({ deliveryId: after.deliveryId });
    expect(timers).toHaveLength(0);
  });

  it('pages groups newest first in SQL, each with all its attempts, and counts every group', async () => {
    const { handlers, url } = await start();
    const a = randomUUID();
    const b = randomUUID();
    const c = randomUUID();
    const post = async (id: string, packId: string) => {
      const d = delivery({ deliveryId: id, packId });
      expect((await send(url, d.headers, d.body)).status).toBe(200);
      await new Promise((r) => setTimeout(r, 5));
    };
    await post(a, 'pk_Pagea123');
    await post(b, 'pk_Pageb123');
    await post(c, 'pk_Pagea123');
    await post(a, 'pk_Pagea123');
    const page = await handlers.inspectorList({ limit: 2 });
    expect(page.total).toBe(3);
    expect(page.groups.map((g) => g.deliveryId)).toEqual([a, c]);
    expect(page.groups[0]?.attempts).toHaveLength(2);
    expect(page.groups[0]?.firstAt).toBeLessThan(page.groups[0]?.lastAt as number);
    // c repeats a's (pack_id, version), which a delivered first.
    expect(page.groups[1]?.duplicateOf).toBe(a);
    expect(page.groups[0]?.duplicateOf).toBeNull();
    expect((await handlers.inspectorList({})).groups.map((g) => g.deliveryId)).toEqual([a, c, b]);
  });
});

describe('captures of earlier versions in library.db', () => {
  it('are dropped by migration 0101, library.db is vacuumed once, and the inspector settings are kept', async () => {
    const ctx0 = await createTestContext();
    const file = ctx0.dbFile;
    ctx0.db.close();
    // library.db as an earlier version left it: migrations up to 0100 and 20 MB of captures.
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
    const old = openLibraryDatabase(file, MIGRATIONS.filter((m) => m.version <= 100));
    const insert = old.prepare(
      `INSERT INTO inspector_requests (id, received_at, method, path, headers_json, body, body_bytes, too_large, response_status, valid, diagnosis)
       VALUES (?, ?, 'POST', '/webhooks', '[]', ?, 10000, 0, 200, 1, 'valid')`,
    );
    const body = new Uint8Array(10_000).fill(0x61);
    old.exec('BEGIN');
    for (let i = 0; i < 2000; i++) insert.run(`r_old${i}`, Date.now(), body);
    old.exec('COMMIT');
    old.prepare("INSERT INTO inspector_settings (key, value_json) VALUES ('behaviour', ?)").run(JSON.stringify({ port: 0, forcedStatus: 503, delayMs: 0 }));
    old.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    old.close();
    expect(size(file)).toBeGreaterThan(20_000_000);

    const ctx = await createTestContext({ dir: ctx0.dataDir });
    expect(ctx.db.prepare("SELECT name FROM sqlite_master WHERE name = 'inspector_requests'").get()).toBeUndefined();
    expect(ctx.db.prepare("SELECT value_json FROM inspector_settings WHERE key = 'vacuumLibrary'").get()).toEqual({ value_json: 'true' });
    const { handlers } = await start({}, ctx);
    // The VACUUM ran once, at the inspector's start: the file is small again and the request is gone.
    expect(size(file) + size(`${file}-wal`)).toBeLessThan(1_000_000);
    expect(ctx.db.prepare("SELECT value_json FROM inspector_settings WHERE key = 'vacuumLibrary'").get()).toBeUndefined();
    expect((await handlers.inspectorStatus({})).forcedStatus).toBe(503);
    expect(await handlers.inspectorList({})).toEqual({ groups: [], total: 0 });
    expect(ctx.db.prepare('SELECT version FROM schema_migrations WHERE version = 101').get()).toEqual({ version: 101 });
  });

  it('a new library gets no vacuum request', async () => {
    const ctx = await createTestContext();
    expect(ctx.db.prepare("SELECT name FROM sqlite_master WHERE name = 'inspector_requests'").get()).toBeUndefined();
    expect(ctx.db.prepare("SELECT 1 FROM inspector_settings WHERE key = 'vacuumLibrary'").get()).toBeUndefined();
  });
});
