/* eslint-disable @typescript-eslint/no-explicit-any -- tests read response bodies field by field */
// The request ledger over loopback (issue 27 Deliver 1): a request looked up by its X-Request-Id shows what it was,
// what it answered, what it cost and what it caused; paging, bounds, filters and the health route.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { API_SCOPES } from '../../src-shared/api.ts';
import { createLogger } from '../logger.ts';
import { startService } from '../start.ts';
import { adminApi, useTestService } from '../test-support.ts';

const svc = useTestService();
const GENERATE = { prompt: 'a bottle on a table', resolution: '1K', model: 'nano-banana-2' };

/** The ledger entry of a request id (entries are written just after the answer, so it is asked a few times). */
async function entryOf(requestId: string): Promise<any> {
  for (let i = 0; i < 40; i++) {
    const res = await svc.admin('GET', `/admin/requests/${requestId}`);
    if (res.status === 200) return res.body;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`no ledger entry for ${requestId}`);
}

async function receiver(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((_req, res) => res.writeHead(200).end('ok'));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

describe('GET /admin/requests/:request_id', () => {
  it('shows a failed generation: status, code, capped bodies without the key, its reserve and refund', async () => {
    const { id, key, keyId } = await svc.account();
    await svc.admin('PUT', '/admin/faults', { generate: { fail: 1 } });
    // A client that pastes its key into the prompt: the ledger screens it out.
    const failed = await svc.api('/api/v1/generate', { key, body: { ...GENERATE, prompt: `a jar, key ${key}` } });
    expect(failed.status).toBe(500);
    const requestId = failed.headers.get('x-request-id')!;
    expect(failed.body.error.request_id).toBe(requestId);

    const entry = await entryOf(requestId);
    expect(entry).toMatchObject({
      request_id: requestId,
      account_id: id,
      key_id: keyId,
      method: 'POST',
      path: '/api/v1/generate',
      route: 'generate',
      status: 500,
      error_code: 'internal_error',
    });
    expect(entry.turn_id).toMatch(/^t_/);
    expect(entry.credits.reserved).toBeGreaterThan(0);
    expect(entry.credits).toEqual({ reserved: entry.credits.reserved, charged: 0, refunded: entry.credits.reserved });
    expect(entry.request_body).toEqual({ text: JSON.stringify({ ...GENERATE, prompt: 'a jar, key [redacted]' }), cut: false });
    expect(JSON.stringify(entry)).not.toContain(key);
    expect(entry.response_body).toEqual({ text: failed.text, cut: false });
    expect(Math.abs(entry.at - Date.now() / 1000)).toBeLessThan(60);
    expect(entry.duration_ms).toBeGreaterThanOrEqual(0);
  });

  it('keeps at most 16 KiB of a body and says it was cut', async () => {
    const { key } = await svc.account();
    const long = await svc.api('/api/v1/generate', { key, body: { ...GENERATE, prompt: 'long '.repeat(5000) } });
    expect(long.status).toBe(400);
    const entry = await entryOf(long.headers.get('x-request-id')!);
    expect(entry.error_code).toBe('prompt_too_long');
    expect(entry.request_body.cut).toBe(true);
    expect(Buffer.byteLength(entry.request_body.text)).toBe(16 * 1024);
    expect(entry.response_body.cut).toBe(false);
  });

  it('shows a successful generation with its charge, and a publish with the delivery it queued', async () => {
    const { id, key } = await svc.account();
    const ok = await svc.api('/api/v1/generate', { key, body: GENERATE });
    expect(ok.status).toBe(200);
    const generated = await entryOf(ok.headers.get('x-request-id')!);
    expect(generated).toMatchObject({ status: 200, error_code: null, turn_id: ok.body.turn_id, deliveries: [] });
    expect(generated.credits.charged).toBeGreaterThan(0);
    expect(generated.credits.refunded).toBe(generated.credits.reserved - generated.credits.charged);

    const hook = await receiver();
    try {
      await svc.admin('PUT', `/admin/accounts/${id}/webhook`, { url: hook.url, enabled: true });
      const pack = await svc.admin('POST', `/admin/accounts/${id}/image-packs`, { style_code: 'LEDGER-1', image_ids: [ok.body.images[0].id] });
      const published = await svc.admin('POST', `/admin/image-packs/${pack.body.pack_id}/publish`);
      const deliveryId = published.headers.get('x-service-delivery')!;
      expect(deliveryId).toBeTruthy();
      const entry = await entryOf(published.headers.get('x-request-id')!);
      expect(entry).toMatchObject({ route: 'publish', status: 200, deliveries: [expect.objectContaining({ delivery_id: deliveryId, event: 'image_pack.published' })] });
      // The delivery's state is read when the entry is shown: once delivered, the entry says so.
      for (let i = 0; i < 100 && (await entryOf(entry.request_id)).deliveries[0].outcome !== 'succeeded'; i++) await new Promise((r) => setTimeout(r, 50));
      expect((await entryOf(entry.request_id)).deliveries[0]).toMatchObject({ outcome: 'succeeded', status: 200, attempts: 1 });
    } finally {
      await hook.close();
    }
  });

  it('answers 404 with the admin error body for an unknown id, and 401 without the admin token', async () => {
    const missing = await svc.admin('GET', '/admin/requests/req_AAAAAAAAAAAAAAAAAAAA');
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('not_found');
    const anonymous = await fetch(`${svc.baseUrl}/admin/requests`);
    expect(anonymous.status).toBe(401);
  });
});

describe('GET /admin/requests', () => {
  it('filters by account, key, status, code and route', async () => {
    const a = await svc.account();
    const b = await svc.account();
    await svc.api('/api/v1/generate', { key: a.key, body: { prompt: '' } });
    await svc.api('/api/v1/generate', { key: b.key, body: GENERATE });
    await svc.api('/api/v1/generate', { key: 'sk_wrongwrongwrongwrongwrongwrong1' , body: GENERATE });
    await new Promise((r) => setTimeout(r, 100));
    const byAccount = await svc.admin('GET', `/admin/requests?account_id=${a.id}`);
    expect(byAccount.body.requests.map((r: any) => r.account_id)).toEqual([a.id]);
    expect(byAccount.body.requests[0]).toMatchObject({ status: 400, route: 'generate' });
    const code = byAccount.body.requests[0].error_code;
    const byCode = await svc.admin('GET', `/admin/requests?code=${code}&key_id=${a.keyId}`);
    expect(byCode.body.requests).toHaveLength(1);
    const byStatus = await svc.admin('GET', `/admin/requests?status=200&account_id=${b.id}&route=generate`);
    expect(byStatus.body.requests).toHaveLength(1);
    const unauthorised = await svc.admin('GET', '/admin/requests?status=401&limit=200');
    expect(unauthorised.body.requests.length).toBeGreaterThanOrEqual(1);
    expect(unauthorised.body.requests.every((r: any) => r.key_id === null && r.error_code === 'invalid_api_key')).toBe(true);
    const future = await svc.admin('GET', `/admin/requests?since=${Math.floor(Date.now() / 1000) + 3600}`);
    expect(future.body).toEqual({ requests: [], next_cursor: null });
  });

  it('pages with a cursor: every row once, newest first, while requests keep arriving', async () => {
    const { id, key } = await svc.account();
    for (let i = 0; i < 25; i++) await svc.api('/api/v1/image-pack-publications/999999', { key });
    await new Promise((r) => setTimeout(r, 100));
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: any = await svc.admin('GET', `/admin/requests?account_id=${id}&limit=7${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.status).toBe(200);
      seen.push(...page.body.requests.map((r: any) => r.request_id));
      // More requests arrive between pages; they are newer than the first page and never shift the rest.
      await svc.api('/api/v1/image-pack-publications/999998', { key });
      cursor = page.body.next_cursor;
    } while (cursor !== null);
    expect(seen).toHaveLength(25);
    expect(new Set(seen).size).toBe(25);
  });

  it('refuses bad filters with 400 invalid_request naming the filter', async () => {
    for (const [query, named] of [
      ['status=abc', 'status'],
      ['status=42', 'status'],
      ['code=no_such_code', 'code'],
      ['route=somewhere', 'route'],
      ['since=yesterday', 'since'],
      ['cursor=-1', 'cursor'],
      ['limit=0', 'limit'],
      ['limit=201', 'limit'],
      ['account_id=bob', 'account_id'],
      ['request_id=req_short', 'request_id'],
      ['colour=red', 'colour'],
    ] as const) {
      const res = await svc.admin('GET', `/admin/requests?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.error.code).toBe('invalid_request');
      expect(res.body.error.message, query).toContain(named);
    }
  });
});

describe('GET /healthz', () => {
  it('answers 200 {ok: true} without any token', async () => {
    const res = await fetch(`${svc.baseUrl}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
  });
});

describe('bounds', () => {
  it('keeps at most the row and byte bounds, pruning the oldest first', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-ledger-'));
    const service = await startService({
      port: 0,
      dataDir,
      seed: true,
      logger: createLogger('silent'),
      testing: { requestLedgerBounds: { rows: 20, bytes: 40 * 1024 } },
    });
    const admin = adminApi(service);
    try {
      const ids: string[] = [];
      const send = async (prompt: string): Promise<void> => {
        const res = await fetch(`${service.baseUrl}/api/v1/generate`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${service.apiKey}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ prompt, model: 'no-such-model' }),
        });
        await res.text();
        ids.push(res.headers.get('x-request-id')!);
      };
      for (let i = 0; i < 30; i++) await send(`small ${i}`);
      const byRows = await admin('GET', '/admin/requests?limit=200');
      // A prune removes a tenth of the bound at least (2 rows here), so what is left depends on how the entries were
      // batched into writes: 19 or 20 of them, always the newest.
      const keptByRows = byRows.requests.map((r: any) => r.request_id);
      expect(keptByRows.length).toBeGreaterThanOrEqual(19);
      expect(keptByRows.length).toBeLessThanOrEqual(20);
      expect(keptByRows).toEqual(ids.slice(-keptByRows.length).reverse());
      // Each of these weighs about 8 KiB: the byte bound (40 KiB) holds fewer than 20 of them.
      for (let i = 0; i < 10; i++) await send('x'.repeat(8 * 1024));
      const byBytes = await admin('GET', '/admin/requests?limit=200');
      const kept = byBytes.requests.map((r: any) => r.request_id);
      expect(kept.length).toBeLessThan(6);
      expect(kept).toEqual(ids.slice(-kept.length).reverse());
      expect(API_SCOPES.length).toBeGreaterThan(0);
    } finally {
      await service.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
