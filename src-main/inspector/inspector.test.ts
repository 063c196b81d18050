// The inspector over real HTTP on loopback, a real SQLite file and the secret store: every request is
// recorded and gets the right verdict, adversarial input never takes the receiver down, nothing is lost on
// restart, and sends are checked with an independent node:crypto HMAC.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { randomUUID } from 'node:crypto';
import { createServer, request as httpRequest, type IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { StudioError } from '../domain/errors.ts';
import { openLibraryDatabase } from '../library/database.ts';
import { createInspectorHandlers, type InspectorHandlers } from './handlers.ts';
import { InspectorSecretKeeper } from './secrets.ts';
import { SEND_TIMEOUT_MS, sendSignedNotification } from './sender.ts';
import { createTestContext } from './test-context.ts';
import { closeOpened, lastRequest, nodeHmac, open, OTHER, post, publishedBody, SECRET, signed, startInspector } from './inspector.test-support.ts';

afterEach(closeOpened);

describe('receiver', () => {
  it('records a correctly signed delivery with its raw bytes and headers, answers 200 and emits inspector:delivery', async () => {
    const { ctx, handlers, url } = await startInspector();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/webhooks$/);
    const body = publishedBody();
    const headers = signed(body);
    const res = await post(url, headers, body);
    expect(res.status).toBe(200);
    const detail = await lastRequest(handlers);
    expect(detail.valid).toBe(true);
    expect(detail.bodyText).toBe(body);
    expect(detail.headers).toContainEqual({ name: 'X-Service-Signature', value: headers['X-Service-Signature'] });
    expect(detail.deliveryId).toBe(headers['X-Service-Delivery']);
    expect(detail.publication).toEqual({ id: 7, packId: 'pk_Abcd1234', version: 3 });
    expect(detail.verification.diagnosis.code).toBe('valid');
    // Only a prefix of the expected HMAC, beside the received signature (which matches it).
    expect(detail.verification.report.signature.expected).toBe(nodeHmac(SECRET, headers['X-Service-Timestamp'], body).slice(0, 8));
    expect(ctx.events).toContainEqual({ event: 'inspector:delivery', payload: { requestId: detail.requestId, deliveryId: detail.deliveryId } });
  });

  const now = () => Math.floor(Date.now() / 1000);
  const body = publishedBody();
  /** The body signed now, with an X-Service-Signature header built around the right HMAC for that timestamp. */
  const signedNowAs = (signature: (rightHmac: string) => string) => () => {
    const ts = now();
    return { headers: signed(body, { ts, signature: signature(nodeHmac(SECRET, ts, body)) }), body };
  };
  const cases: Array<{ name: string; make: () => { headers: Record<string, string>; body: Buffer | string }; status: number; diagnosis: string }> = [
    {
      name: 'a changed body byte (no earlier attempt) is a wrong-secret-or-tamper 401',
      make: () => ({ headers: signed(body), body: body.replace('SS26', 'SS27') }),
      status: 401,
      diagnosis: 'wrong_secret',
    },
    {
      name: 'a re-serialised body is named as body changed',
      make: () => ({ headers: signed(body), body: JSON.stringify(JSON.parse(body), null, 2) }),
      status: 401,
      diagnosis: 'body_changed',
    },
    { name: 'a stale timestamp (301 s old)', make: () => ({ headers: signed(body, { ts: now() - 301 }), body }), status: 401, diagnosis: 'timestamp_stale' },
    // 302 s, not 301: the receiver reads the clock a moment later, and a second boundary crossed in between (a loaded
    // machine) would bring 301 s ahead to exactly 300, inside the window.
    { name: 'a future timestamp (302 s ahead)', make: () => ({ headers: signed(body, { ts: now() + 302 }), body }), status: 401, diagnosis: 'timestamp_future' },
    { name: 'a timestamp 290 s old is still inside the window', make: () => ({ headers: signed(body, { ts: now() - 290 }), body }), status: 200, diagnosis: 'valid' },
    {
      name: 'several signature parts where one v1 part matches',
      make: signedNowAs((hmac) => `v1=${'0'.repeat(64)}, v0=abc, v1=${hmac}`),
      status: 200,
      diagnosis: 'valid',
    },
    {
      name: 'the right HMAC under the prefix v0=',
      make: signedNowAs((hmac) => `v0=${hmac}`),
      status: 401,
      diagnosis: 'no_v1_signature',
    },
    {
      name: 'the right HMAC under the prefix sha256=',
      make: signedNowAs((hmac) => `sha256=${hmac}`),
      status: 401,
      diagnosis: 'no_v1_signature',
    },
    { name: 'a non-hex v1 value', make: () => ({ headers: signed(body, { signature: `v1=${'z'.repeat(64)}` }), body }), status: 401, diagnosis: 'no_v1_signature' },
    { name: 'an empty signature header', make: () => ({ headers: signed(body, { signature: '' }), body }), status: 401, diagnosis: 'missing_header' },
    {
      name: 'a missing timestamp header',
      make: () => {
        const h: Record<string, string> = signed(body);
        delete h['X-Service-Timestamp'];
        return { headers: h, body };
      },
      status: 401,
      diagnosis: 'missing_header',
    },
    { name: 'a body signed with another secret', make: () => ({ headers: signed(body, { secret: OTHER }), body }), status: 401, diagnosis: 'wrong_secret' },
    { name: 'invalid JSON with a valid signature', make: () => ({ headers: signed('{"event":'), body: '{"event":' }), status: 400, diagnosis: 'body_not_json' },
    {
      name: 'non-UTF-8 bytes with a valid signature',
      make: () => {
        const bytes = Buffer.from([0xff, 0xfe, 0x7b, 0x7d]);
        return { headers: signed(bytes as unknown as string), body: bytes };
      },
      status: 400,
      diagnosis: 'body_not_json',
    },
    {
      name: 'an unknown event name',
      // The event header is outside the signature: it verifies, then fails the event step, so 400.
      make: () => ({ headers: signed(body, { event: 'image_pack.deleted' }), body }),
      status: 400,
      diagnosis: 'unknown_event',
    },
  ];

  it.each(cases)('gives the right verdict for $name and keeps serving', async ({ make, status, diagnosis }) => {
    const { handlers, url } = await startInspector();
    const { headers, body: sent } = make();
    const res = await post(url, headers, sent);
    expect(res.status).toBe(status);
    const detail = await lastRequest(handlers);
    expect(detail.verification.diagnosis.code).toBe(diagnosis);
    expect(detail.responseStatus).toBe(status);
    expect(detail.verification.diagnosis.message.length).toBeGreaterThan(20);
    // Still alive for the next, honest delivery.
    const ok = publishedBody();
    expect((await post(url, signed(ok), ok)).status).toBe(200);
  });

  it('records a delivery that arrives before any secret is stored, explains it, and rejects it with 401 (not 500)', async () => {
    const ctx = await createTestContext();
    const { handlers, url } = await startInspector(ctx, []);
    expect((await handlers.inspectorStatus({})).secretStored).toBe(false);
    const headers = signed(body);
    const res = await post(url, headers, body);
    // spec §6: a receiver that cannot verify the signature rejects the delivery.
    expect(res.status).toBe(401);
    const detail = await lastRequest(handlers);
    expect(detail.deliveryId).toBe(headers['X-Service-Delivery']);
    expect(detail.bodyText).toBe(body);
    expect(detail.responseStatus).toBe(401);
    expect(detail.valid).toBe(false);
    expect(detail.verification.diagnosis.code).toBe('no_secret');
    expect(detail.verification.report.signature).toMatchObject({ verdict: 'skip', expected: null });
    expect(detail.verification.diagnosis.message).toMatch(/No signing secret is stored/);
    ctx.setLanguage('zh');
    const zh = await handlers.inspectorGet({ requestId: detail.requestId });
    expect(zh.verification.diagnosis.message).toMatch(/没有存储签名密钥/);
  });

  it('names a changed byte as "body changed" when an earlier attempt of the same delivery verified', async () => {
    const { handlers, url } = await startInspector();
    const deliveryId = randomUUID();
    const ts = Math.floor(Date.now() / 1000);
    const headers = signed(body, { deliveryId, ts });
    expect((await post(url, headers, body)).status).toBe(200);
    expect((await post(url, headers, body.replace('"version":3', '"version":4'))).status).toBe(401);
    const detail = await lastRequest(handlers);
    expect(detail.verification.diagnosis.code).toBe('body_changed');
    expect(detail.verification.diagnosis.params.how).toBe('differs_from_earlier_attempt');
  });

  it('names a replay whose timestamp was edited without re-signing', async () => {
    const { handlers, url } = await startInspector();
    const deliveryId = randomUUID();
    const ts = Math.floor(Date.now() / 1000) - 100;
    const original = signed(body, { deliveryId, ts });
    expect((await post(url, original, body)).status).toBe(200);
    const doctored = { ...original, 'X-Service-Timestamp': String(ts + 60) };
    expect((await post(url, doctored, body)).status).toBe(401);
    const detail = await lastRequest(handlers);
    expect(detail.verification.diagnosis).toMatchObject({ code: 'timestamp_changed', params: { signedAt: String(ts) } });
  });

  it('names a secret replaced by Regenerate when an old secret matches', async () => {
    const ctx = await createTestContext();
    const { handlers, url } = await startInspector(ctx, [OTHER, SECRET]);
    expect((await handlers.inspectorStatus({})).previousSecrets).toBe(1);
    expect((await post(url, signed(body, { secret: OTHER }), body)).status).toBe(401);
    const detail = await lastRequest(handlers);
    expect(detail.verification.diagnosis.code).toBe('old_secret');
    expect(detail.verification.diagnosis.message).toMatch(/Regenerate/);
    ctx.setLanguage('zh');
    const zh = await handlers.inspectorGet({ requestId: detail.requestId });
    expect(zh.verification.diagnosis.message).toMatch(/重新生成/);
  });

  it('notices a secret stored by another part of main (the local console) and names the replaced one as old', async () => {
    const ctx = await createTestContext();
    const { handlers, url } = await startInspector(ctx, [SECRET]);
    expect((await post(url, signed(body), body)).status).toBe(200);
    // The local console stores the secret the service returned on a webhook change, bypassing the inspector.
    await ctx.secretStore.set('inspector:webhook-secret', OTHER);
    expect((await post(url, signed(body, { secret: OTHER }), body)).status).toBe(200);
    expect((await post(url, signed(body, { secret: SECRET }), body)).status).toBe(401);
    expect((await lastRequest(handlers)).verification.diagnosis.code).toBe('old_secret');
    expect((await handlers.inspectorStatus({})).previousSecrets).toBe(1);
  });

  it('refuses a body over 1 MB with 413, records it, and keeps none of its bytes', async () => {
    const { handlers, url } = await startInspector();
    const big = Buffer.alloc(1024 * 1024 + 1, 0x61);
    const res = await post(url, signed('x'), big);
    expect(res.status).toBe(413);
    const detail = await lastRequest(handlers);
    expect(detail.tooLarge).toBe(true);
    expect(detail.bodyText).toBe('');
    expect(detail.bodyBytes).toBe(big.byteLength);
    expect(detail.verification.diagnosis.code).toBe('too_large');
    // A chunked upload without Content-Length is cut off at the cap too.
    const chunked = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(url, { method: 'POST', headers: { 'Transfer-Encoding': 'chunked' }, agent: false }, (r) => {
        r.resume();
        resolve(r.statusCode ?? 0);
      });
      req.on('error', reject);
      const piece = Buffer.alloc(256 * 1024, 0x62);
      for (let i = 0; i < 5; i++) req.write(piece);
      req.end();
    });
    expect(chunked).toBe(413);
    const ok = publishedBody();
    expect((await post(url, signed(ok), ok)).status).toBe(200);
  });

  it('records requests to other paths and methods, answers 404 there, and survives malformed HTTP', async () => {
    const { handlers, url, port } = await startInspector();
    expect((await post(url.replace('/webhooks', '/other?x=1'), {}, 'hello')).status).toBe(404);
    const detail = await lastRequest(handlers);
    expect(detail.path).toBe('/other');
    expect(detail.bodyText).toBe('hello');
    expect((await post(url, {}, '', 'GET')).status).toBe(401);
    const garbage = await new Promise<string>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => socket.write('\u0000\u0001GARBAGE \r\n\r\n'));
      let text = '';
      socket.on('data', (d) => (text += d.toString()));
      socket.on('close', () => resolve(text));
      socket.on('error', () => resolve(text));
    });
    expect(garbage).toMatch(/^HTTP\/1\.1 400/);
    const ok = publishedBody();
    expect((await post(url, signed(ok), ok)).status).toBe(200);
  });

  it('answers a forced status after the configured delay while still recording the true verdict', async () => {
    const { handlers, url } = await startInspector();
    const status = await handlers.inspectorConfigure({ forcedStatus: 503, delayMs: 300 });
    expect(status).toMatchObject({ forcedStatus: 503, delayMs: 300 });
    const ok = publishedBody();
    const started = Date.now();
    expect((await post(url, signed(ok), ok)).status).toBe(503);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    const detail = await lastRequest(handlers);
    expect(detail.responseStatus).toBe(503);
    expect(detail.valid).toBe(true);
    await handlers.inspectorConfigure({ forcedStatus: null, delayMs: 0 });
    expect((await post(url, signed(ok), ok)).status).toBe(200);
  });

  it('moves to a new port on configure and refuses a port that is taken, changing nothing', async () => {
    const { handlers, port } = await startInspector();
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
    open.push(blocker);
    const taken = (blocker.address() as AddressInfo).port;
    await expect(handlers.inspectorConfigure({ port: taken })).rejects.toMatchObject({ code: 'port_unavailable' });
    const after = await handlers.inspectorStatus({});
    expect(after.port).toBe(port);
    expect(after.running).toBe(true);
  });
});

describe('grouping, duplicates and persistence', () => {
  it('groups attempts by delivery id, flags a second delivery of the same (pack_id, version), and keeps everything across a restart', async () => {
    const ctx = await createTestContext();
    const { handlers, url } = await startInspector(ctx);
    const first = randomUUID();
    const b = publishedBody('pk_Dupl1234', 5);
    await handlers.inspectorConfigure({ forcedStatus: 500 });
    await post(url, signed(b, { deliveryId: first }), b);
    await post(url, signed(b, { deliveryId: first }), b);
    await handlers.inspectorConfigure({ forcedStatus: null });
    await post(url, signed(b, { deliveryId: first }), b);
    const second = randomUUID();
    await post(url, signed(b, { deliveryId: second }), b);

    const check = async (h: InspectorHandlers) => {
      const { groups, total } = await h.inspectorList({});
      expect(total).toBe(2);
      const g1 = groups.find((g) => g.deliveryId === first);
      const g2 = groups.find((g) => g.deliveryId === second);
      expect(g1?.attempts.map((a) => a.responseStatus)).toEqual([500, 500, 200]);
      expect(g1?.duplicateOf).toBeNull();
      expect(g2?.duplicateOf).toBe(first);
      expect(groups[0]?.deliveryId).toBe(second);
    };
    await check(handlers);
    await handlers.close();
    open.length = 0;
    ctx.db.close();

    const reopened = await createTestContext({ dir: ctx.dataDir, db: openLibraryDatabase(ctx.dbFile) });
    const again = createInspectorHandlers(reopened);
    open.push({ handlers: again });
    await again.ready;
    await check(again);
    const before = (await again.inspectorList({})).groups[0]?.attempts[0]?.requestId as string;
    expect((await again.inspectorGet({ requestId: before })).bodyText).toBe(b);
    expect(await again.inspectorClear({})).toEqual({ cleared: 4 });
    expect(await again.inspectorList({})).toEqual({ groups: [], total: 0 });
    await expect(again.inspectorGet({ requestId: before })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('keeps only the newest requests once the cap is reached, so a flood cannot fill the disk', async () => {
    const ctx = await createTestContext();
    await new InspectorSecretKeeper(ctx.secrets).replace(SECRET);
    const handlers = createInspectorHandlers(ctx, { maxKept: 3 });
    open.push({ handlers });
    await handlers.ready;
    const url = (await handlers.inspectorStatus({})).url as string;
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const id = randomUUID();
      ids.push(id);
      const b = publishedBody('pk_Flood123', i);
      await post(url, signed(b, { deliveryId: id }), b);
    }
    const { groups, total } = await handlers.inspectorList({});
    expect(total).toBe(3);
    expect(groups.map((g) => g.deliveryId).sort()).toEqual(ids.slice(2).sort());
  });

  it('listens again on the port it had last time, so the service URL keeps working after a restart', async () => {
    const ctx = await createTestContext();
    const { handlers, port } = await startInspector(ctx);
    await handlers.close();
    open.length = 0;
    const again = createInspectorHandlers(ctx);
    open.push({ handlers: again });
    await again.ready;
    expect((await again.inspectorStatus({})).port).toBe(port);
  });

  it('says why the receiver is not running, and why a port is refused, in the language the user has when reading', async () => {
    const ctx = await createTestContext();
    const { handlers } = await startInspector(ctx);
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
    open.push(blocker);
    const taken = (blocker.address() as AddressInfo).port;
    const refused = await handlers.inspectorConfigure({ port: taken }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(StudioError);
    expect(refused).toMatchObject({ code: 'port_unavailable', params: { port: taken } });
    expect((refused as StudioError).toIpc('en').message).toMatch(new RegExp(`^Port ${taken} cannot be used`));
    expect((refused as StudioError).toIpc('zh').message).toMatch(new RegExp(`^端口 ${taken} 无法使用`));

    // A receiver configured for a port that is taken at the next start reports it in the current language.
    const free = createServer();
    await new Promise<void>((r) => free.listen(0, '127.0.0.1', () => r()));
    const wanted = (free.address() as AddressInfo).port;
    await new Promise<void>((r) => free.close(() => r()));
    await handlers.inspectorConfigure({ port: wanted });
    await handlers.close();
    open.length = 0;
    const occupier = createServer();
    await new Promise<void>((r) => occupier.listen(wanted, '127.0.0.1', () => r()));
    open.push(occupier);
    const again = createInspectorHandlers(ctx);
    open.push({ handlers: again });
    await again.ready;
    const en = await again.inspectorStatus({});
    expect(en.running).toBe(false);
    expect(en.error).toMatch(new RegExp(`Port ${wanted} cannot be used .*the receiver is not running`));
    ctx.setLanguage('zh');
    expect((await again.inspectorStatus({})).error).toMatch(new RegExp(`端口 ${wanted} 无法使用.*接收器未运行`));
  });
});

describe('send test, resend, paste and export', () => {
  async function endpoint(answer: (req: IncomingMessage, body: Buffer) => { status: number; headers?: Record<string, string>; body?: string }) {
    const seen: Array<{ headers: IncomingMessage['headers']; body: Buffer }> = [];
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const b = Buffer.concat(chunks);
        seen.push({ headers: req.headers, body: b });
        const a = answer(req, b);
        res.writeHead(a.status, a.headers ?? {});
        res.end(a.body ?? '');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    open.push(server);
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, seen };
  }

  it('sends a signed test notification that an independent node:crypto HMAC verifies, and reports the answer', async () => {
    const { handlers } = await startInspector();
    const target = await endpoint((req, b) => {
      const ts = String(req.headers['x-service-timestamp']);
      const ok = req.headers['x-service-signature'] === `v1=${nodeHmac(OTHER, ts, b)}`;
      return { status: ok ? 204 : 401, headers: { 'X-Checked': ok ? 'yes' : 'no' }, body: '' };
    });
    const publication = { id: 42, pack_id: 'pk_Edit1234', version: 9, style_code: 'AW', published_at: 1_800_000_000 };
    const result = await handlers.inspectorSendTest({ url: target.url, event: 'image_pack.published', publication, secret: OTHER, deliveryId: 'keep-me' });
    expect(result.status).toBe(204);
    expect(result.error).toBeNull();
    expect(result.responseHeaders).toContainEqual({ name: 'X-Checked', value: 'yes' });
    const got = target.seen[0];
    expect(got?.headers['x-service-delivery']).toBe('keep-me');
    expect(got?.headers['user-agent']).toBe('service-webhook/1');
    expect(JSON.parse(String(got?.body))).toEqual({ event: 'image_pack.published', publication });
    expect(Math.abs(Number(got?.headers['x-service-timestamp']) - Date.now() / 1000)).toBeLessThan(5);
    // The stored secret and a ping, with a new UUID delivery id.
    const ping = await handlers.inspectorSendTest({ url: target.url, event: 'ping', useStoredSecret: true });
    expect(ping.status).toBe(401);
    expect(ping.deliveryId).toMatch(/^[0-9a-f-]{36}$/);
    expect(String(target.seen[1]?.body)).toBe('{"event":"ping"}');
    expect(target.seen[1]?.headers['x-service-signature']).toBe(`v1=${nodeHmac(SECRET, String(target.seen[1]?.headers['x-service-timestamp']), '{"event":"ping"}')}`);
  });

  it('never follows a redirect and reports a refused connection as an error, not a status', async () => {
    const { handlers } = await startInspector();
    const elsewhere = await endpoint(() => ({ status: 200 }));
    const redirecting = await endpoint(() => ({ status: 302, headers: { Location: elsewhere.url } }));
    const result = await handlers.inspectorSendTest({ url: redirecting.url, event: 'ping', secret: SECRET });
    expect(result.status).toBe(302);
    expect(elsewhere.seen).toHaveLength(0);
    const closed = await new Promise<number>((resolve) => {
      const s = createServer();
      s.listen(0, '127.0.0.1', () => {
        const p = (s.address() as AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
    const refused = await handlers.inspectorSendTest({ url: `http://127.0.0.1:${closed}/x`, event: 'ping', secret: SECRET });
    expect(refused.status).toBeNull();
    expect(refused.error).toMatch(/ECONNREFUSED/);
  });

  it('gives up on an endpoint that does not answer in time and says so', async () => {
    const silent = createServer(() => {
      // Never answers.
    });
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', () => r()));
    open.push(silent);
    expect(SEND_TIMEOUT_MS).toBe(8_000);
    const result = await sendSignedNotification({
      url: `http://127.0.0.1:${(silent.address() as AddressInfo).port}/slow`,
      secret: SECRET,
      event: 'ping',
      deliveryId: randomUUID(),
      body: new TextEncoder().encode('{"event":"ping"}'),
      timestamp: Math.floor(Date.now() / 1000),
      timeoutMs: 300,
    });
    expect(result.status).toBeNull();
    expect(result.error).toMatch(/timeout/);
    expect(result.durationMs).toBeGreaterThanOrEqual(250);
    silent.closeAllConnections();
  });

  it('re-sends a captured delivery byte for byte with the same delivery id and a fresh timestamp and signature', async () => {
    const { handlers, url } = await startInspector();
    const b = publishedBody('pk_Resend12', 2);
    const deliveryId = randomUUID();
    const oldTs = Math.floor(Date.now() / 1000) - 250;
    await post(url, signed(b, { deliveryId, ts: oldTs }), b);
    const captured = await lastRequest(handlers);
    const target = await endpoint(() => ({ status: 200, body: 'ok' }));
    const result = await handlers.inspectorResend({ requestId: captured.requestId, url: target.url, useStoredSecret: true });
    expect(result.status).toBe(200);
    expect(result.responseSnippet).toBe('ok');
    const got = target.seen[0];
    expect(String(got?.body)).toBe(b);
    expect(got?.headers['x-service-delivery']).toBe(deliveryId);
    const ts = Number(got?.headers['x-service-timestamp']);
    expect(ts).toBeGreaterThan(oldTs);
    expect(got?.headers['x-service-signature']).toBe(`v1=${nodeHmac(SECRET, ts, b)}`);
    // Re-sent into the inspector itself, it lands in the same group as a second attempt.
    await handlers.inspectorResend({ requestId: captured.requestId, url, useStoredSecret: true });
    const group = (await handlers.inspectorList({})).groups.find((g) => g.deliveryId === deliveryId);
    expect(group?.attempts.map((a) => a.valid)).toEqual([true, true]);
  });

  it('verifies a pasted raw request step by step and shows the failing step of a tampered one', async () => {
    const { handlers } = await startInspector();
    const b = publishedBody();
    const h = signed(b);
    const raw = `POST /hook HTTP/1.1\r\n${Object.entries(h).map(([k, v]) => `${k}: ${v}`).join('\r\n')}\r\n\r\n${b}`;
    const good = await handlers.inspectorVerifyPasted({ raw, useStoredSecret: true });
    expect(good.diagnosis.code).toBe('valid');
    expect(good.report.signature.verdict).toBe('pass');
    const tampered = await handlers.inspectorVerifyPasted({ raw: raw.replace('"version":3', '"version":30'), useStoredSecret: true });
    // D10: nothing to compare a paste with, so the secret is not blamed (the body may have changed).
    expect(tampered.diagnosis.code).toBe('signature_unexplained');
    expect(tampered.report.signature.verdict).toBe('fail');
    expect(tampered.report.headers.verdict).toBe('pass');
    expect(tampered.report.signature.expected).not.toBe(h['X-Service-Signature'].slice(3));
    // No signing oracle: the HMAC of the bytes the renderer chose is shown only as a prefix, and nowhere whole.
    const tamperedHmac = nodeHmac(SECRET, h['X-Service-Timestamp'], b.replace('"version":3', '"version":30'));
    expect(tampered.report.signature.expected).toBe(tamperedHmac.slice(0, 8));
    expect(JSON.stringify(tampered)).not.toContain(tamperedHmac.slice(0, 9));
    const newline = await handlers.inspectorVerifyPasted({ headers: Object.entries(h).map(([k, v]) => `${k}: ${v}`).join('\n'), body: `${b}\n`, secret: SECRET });
    expect(newline.diagnosis).toMatchObject({ code: 'body_changed', params: { how: 'trailing_whitespace' } });
    const wrong = await handlers.inspectorVerifyPasted({ raw, secret: OTHER });
    expect(wrong.diagnosis.code).toBe('signature_unexplained');
  });

  it('D10: a paste of a captured delivery names a changed body or timestamp, and blames the secret only when the bytes are the same', async () => {
    const { handlers, url } = await startInspector();
    const b = publishedBody();
    const h = signed(b);
    expect((await post(url, h, b)).status).toBe(200);
    const raw = (headers: Record<string, string>, body: string) => `${Object.entries(headers).map(([k, v]) => `${k}: ${v}`).join('\r\n')}\r\n\r\n${body}`;
    const edited = await handlers.inspectorVerifyPasted({ raw: raw(h, b.replace('"version":3', '"version":30')), useStoredSecret: true });
    expect(edited.diagnosis).toMatchObject({ code: 'body_changed', params: { how: 'differs_from_earlier_attempt' } });
    const laterTs = String(Number(h['X-Service-Timestamp']) + 5);
    const retimed = await handlers.inspectorVerifyPasted({ raw: raw({ ...h, 'X-Service-Timestamp': laterTs }, b), useStoredSecret: true });
    expect(retimed.diagnosis).toMatchObject({ code: 'timestamp_changed', params: { signedAt: h['X-Service-Timestamp'] } });
    const other = await handlers.inspectorVerifyPasted({ raw: raw(h, b), secret: OTHER });
    expect(other.diagnosis.code).toBe('wrong_secret');
  });

  it('refuses to sign with the stored secret when none is stored, with a clear error', async () => {
    const { handlers } = await startInspector(undefined, []);
    await expect(handlers.inspectorSendTest({ url: 'http://127.0.0.1:9/x', event: 'ping', useStoredSecret: true })).rejects.toMatchObject({ code: 'no_secret' });
    const status = await handlers.inspectorStatus({});
    expect(status).toMatchObject({ secretStored: false, secretMasked: null });
  });

  it('exports a delivery as a curl command that replays it into the receiver and verifies, and as JSON', async () => {
    const { handlers, url } = await startInspector();
    const b = publishedBody('pk_Quote123', 1, 1, "it's \"quoted\" $HOME `x`");
    await post(url, signed(b), b);
    const captured = await lastRequest(handlers);
    const curl = await handlers.inspectorExport({ requestId: captured.requestId, format: 'curl' });
    expect(curl.text).toContain('--data-binary');
    expect(curl.text).toContain("-H 'X-Service-Signature: v1=");
    // Asynchronously: the receiver answering curl lives in this very process.
    await promisify(execFile)('sh', ['-c', `${curl.text.trim()} -s -o /dev/null`]);
    const replayed = await lastRequest(handlers);
    expect(replayed.requestId).not.toBe(captured.requestId);
    expect(replayed.bodyText).toBe(b);
    expect(replayed.valid).toBe(true);
    const json = JSON.parse((await handlers.inspectorExport({ requestId: captured.requestId, format: 'json' })).text) as Record<string, unknown>;
    expect(json).toMatchObject({ deliveryId: captured.deliveryId, body: b, responseStatus: 200, valid: true });
    expect(Buffer.from(String(json.bodyBase64), 'base64').toString()).toBe(b);
  });
});
