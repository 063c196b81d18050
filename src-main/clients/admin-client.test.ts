// The one admin client against the real local service (src-service/start.ts on loopback): every route of
// DESIGN.md §4 and the read-only extras of docs/decisions.md answers a parsed value; a service error is a
// StudioError with the service's code, status, request id and words; a malformed answer is refused.
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../src-service/start.ts';
import { ServiceClient } from './service-client.ts';
import { StudioError } from '../domain/errors.ts';
import { AdminClient } from './admin-client.ts';

let service: RunningService;
let admin: AdminClient;
let language: 'zh' | 'en' = 'en';

beforeAll(async () => {
  service = await startService({ port: 0, dataDir: mkdtempSync(join(tmpdir(), 'admin-client-')), seed: true, logLevel: 'silent' });
  admin = new AdminClient(service.baseUrl, service.adminToken, { language: () => language });
});

afterAll(async () => {
  await service?.close();
});

async function rejection(work: Promise<unknown>): Promise<StudioError> {
  const error = await work.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(StudioError);
  return error as StudioError;
}

describe('AdminClient against the local service', () => {
  it('creates and reads accounts and keys, parsed into their contract shapes', async () => {
    const account = await admin.createAccount({ credits: 500, age_days: 10 });
    expect(account).toMatchObject({ id: expect.stringMatching(/^acc_/), credits: 500, banned: false });
    expect(await admin.account(account.id)).toMatchObject({ id: account.id, credits: 500, reserved: 0 });
    expect(await admin.updateAccount(account.id, { add_credits: 25, banned: true })).toMatchObject({ credits: 525, banned: true });

    const key = await admin.createApiKey(account.id, { name: 'ci', scopes: ['assets:read'] });
    expect(key.key).toMatch(/^sk_[A-Za-z0-9]{32}$/);
    const listed = await admin.apiKeys(account.id);
    expect(listed.map((k) => k.id)).toEqual([key.id]);
    expect(listed[0]).not.toHaveProperty('key');
    expect(await admin.setApiKeyRateLimit(key.id, 7)).toMatchObject({ id: key.id, rate_limit_per_24h: 7 });
    expect(await admin.revokeApiKey(key.id)).toEqual({ id: key.id, revoked: true });
  });

  it('configures, pings and lists the webhook, and manages packs, faults, clock and settings', async () => {
    const accountId = service.accountId as string;
    const saved = await admin.setWebhook(accountId, { url: 'https://hooks.example.com/in', enabled: false });
    expect(saved).toMatchObject({ url: 'https://hooks.example.com/in', enabled: false, secret: expect.stringMatching(/^whsec_/) });
    expect((await admin.regenerateWebhookSecret(accountId)).secret).not.toBe(saved.secret);
    expect(await admin.webhook(accountId)).toMatchObject({ url: 'https://hooks.example.com/in', enabled: false });
    await admin.setWebhook(accountId, { url: 'https://hooks.example.com/in', enabled: true });
    const ping = await admin.pingWebhook(accountId);
    expect(ping.delivery_id).toMatch(/^[0-9a-f-]{36}$/);
    expect((await admin.webhookDeliveries(accountId, 5)).map((d) => d.delivery_id)).toContain(ping.delivery_id);

    const pack = await admin.createPack(accountId, { style_code: 'SS26', image_ids: [] });
    expect(pack).toMatchObject({ pack_id: expect.stringMatching(/^pk_/), style_code: 'SS26', saved: true, versions: 0 });
    expect(await admin.updatePack(pack.pack_id, { style_code: 'AW26' })).toMatchObject({ style_code: 'AW26' });
    expect((await admin.pack(pack.pack_id)).style_code).toBe('AW26');
    expect((await admin.packs(accountId)).map((p) => p.pack_id)).toContain(pack.pack_id);
    // DESIGN.md §4: an empty pack is refused with 409 publish_rejected and its reason.
    const rejected = await rejection(admin.publishPack(pack.pack_id, 'idem-1'));
    expect(rejected).toMatchObject({ code: 'publish_rejected', status: 409, details: { reason: 'empty_pack' } });

    expect(await admin.setFaults({ auth_unavailable: 2 })).toMatchObject({ auth_unavailable: 2 });
    expect((await admin.faults()).auth_unavailable).toBe(2);
    await admin.setFaults({ auth_unavailable: 0 });
    const before = await admin.clock();
    expect(await admin.advanceClock(60)).toBeGreaterThanOrEqual(before + 60);
    expect(await admin.setSettings({ default_rate_limit_per_24h: 1234 })).toMatchObject({ default_rate_limit_per_24h: 1234 });
    expect((await admin.settings()).allow_loopback_webhooks).toBe(true);
  });

  it('lists an account’s turns since a moment, with the app’s own turn id, charge and images', async () => {
    const account = await admin.createAccount({ credits: 1000, age_days: 30 });
    const { key } = await admin.createApiKey(account.id, { name: 'turns', scopes: ['generate:write'] });
    const since = await admin.clock();
    const client = new ServiceClient({ environment: 'local', baseUrl: service.baseUrl, apiKey: key, language: 'en' });
    const generated = await client.generate({ prompt: 'a bottle', n: 2, resolution: '1K', model: 'nano-banana-2' }, undefined, { clientTurnId: 'lt_AdminClnt1' });
    if (!generated.ok) throw new Error(JSON.stringify(generated));
    const turns = await admin.accountTurns(account.id, since);
    expect(turns).toHaveLength(1);
    expect(turns[0]).toMatchObject({
      turn_id: generated.value.turn_id,
      session_id: generated.value.session_id,
      client_turn_id: 'lt_AdminClnt1',
      status: 'succeeded',
      credits_charged: generated.value.credits_charged,
      finished_at: expect.any(Number),
    });
    expect(turns[0]?.images.map((i) => i.id)).toEqual(generated.value.images.map((i) => i.id));
    expect(await admin.accountTurns(account.id, since + 3600)).toEqual([]);
  });

  it('reads the request ledger: a failed generation by its request id, and the account’s page of requests', async () => {
    const account = await admin.createAccount({ credits: 1000, age_days: 30 });
    const { key } = await admin.createApiKey(account.id, { name: 'ledger', scopes: ['generate:write'] });
    const client = new ServiceClient({ environment: 'local', baseUrl: service.baseUrl, apiKey: key, language: 'en' });
    const refused = await client.generate({ prompt: 'a bottle', model: 'no-such-model' } as never);
    if (refused.ok || refused.kind !== 'http') throw new Error('an unknown model was not refused over HTTP');
    const requestId = refused.error.requestId as string;
    expect(requestId).toMatch(/^req_/);
    let entry = null;
    for (let i = 0; i < 40 && !entry; i++) entry = await admin.requestEntry(requestId).catch(() => null);
    expect(entry).toMatchObject({ request_id: requestId, account_id: account.id, status: 400, route: 'generate' });
    const page = await admin.requestLog({ account_id: account.id, limit: 10 });
    expect(page).toEqual({ requests: [entry], next_cursor: null });
    expect(await rejection(admin.requestLog({ status: 42 }))).toMatchObject({ code: 'invalid_request', status: 400 });
    expect(await rejection(admin.requestEntry('req_AAAAAAAAAAAAAAAAAAAA'))).toMatchObject({ code: 'not_found', status: 404 });
  });

  it('sets, reads and clears a fault scenario; saves, lists, restores and deletes snapshots; resets; brings the clock back', async () => {
    const scenario = { seed: 3, rules: [{ match: { route: 'file' as const }, outcome: { status: 503 as const } }] };
    expect(await admin.setScenario(scenario)).toMatchObject({ seed: 3, matched: [0] });
    expect((await admin.scenario()).rules).toHaveLength(1);
    expect(await admin.clearScenario()).toEqual({ seed: 0, rules: [], matched: [] });

    const account = await admin.createAccount({ credits: 77 });
    const saved = await admin.saveSnapshot('client-test');
    expect(saved).toMatchObject({ name: 'client-test' });
    expect((await admin.snapshots()).map((s) => s.name)).toContain('client-test');
    await admin.updateAccount(account.id, { credits: 1 });
    expect(await admin.restoreSnapshot('client-test')).toMatchObject({ name: 'client-test' });
    expect((await admin.account(account.id)).credits).toBe(77);
    await admin.deleteSnapshot('client-test');
    expect((await rejection(admin.restoreSnapshot('client-test'))).code).toBe('not_found');

    await admin.advanceClock(400);
    expect((await admin.clockState()).offsetS).toBeGreaterThanOrEqual(399);
    await admin.resetClock();
    expect((await admin.clockState()).offsetS).toBe(0);
    // Reset on a service of its own: the other tests use this one's seeded account.
    const own = await startService({ port: 0, dataDir: mkdtempSync(join(tmpdir(), 'admin-client-reset-')), logLevel: 'silent' });
    try {
      const client = new AdminClient(own.baseUrl, own.adminToken, { language: () => language });
      const gone = await client.createAccount({});
      expect(await client.reset()).toMatchObject({ reset: true, offset_s: 0 });
      expect((await rejection(client.account(gone.id))).code).toBe('not_found');
    } finally {
      await own.close();
    }
  });

  it('throws the service’s error as a StudioError with its code, status, request id and message, in the language asked for', async () => {
    language = 'en';
    const en = await rejection(admin.account('acc_missing000'));
    expect(en).toMatchObject({ code: 'not_found', status: 404, requestId: expect.stringMatching(/^req_/), serviceLanguage: 'en' });
    expect(en.serviceMessage).toMatch(/acc_missing000/);
    expect(en.toIpc('en').message).toBe(en.serviceMessage);
    language = 'zh';
    const zh = await rejection(admin.setWebhook(service.accountId as string, { url: 'http://insecure.example.com/', enabled: true }));
    expect(zh).toMatchObject({ code: 'invalid_webhook_url', status: 400, serviceLanguage: 'zh' });
    expect(zh.toIpc('zh').message).toMatch(/[\u4e00-\u9fff]/);
    language = 'en';
  });
});

describe('AdminClient and a malformed answer', () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    // Stands in for a service whose answer breaks the contract (the real one never does).
    server = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'req_bad' });
      res.end(req.url?.startsWith('/admin/clock') ? '{"now":"soon"}' : 'not json');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((r) => server.close(() => r()));
  });

  it('refuses an answer that does not match the route’s schema with unexpected_response, never passing it on', async () => {
    const client = new AdminClient(url, 'adm_x');
    const wrongType = await rejection(client.clock());
    expect(wrongType).toMatchObject({ code: 'unexpected_response', status: 200, requestId: 'req_bad' });
    expect(String(wrongType.params.text)).toMatch(/now/);
    expect(await rejection(client.account('acc_1'))).toMatchObject({ code: 'unexpected_response' });
  });

  it('reports a service that does not answer as service_unreachable', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', () => r()));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    expect(await rejection(new AdminClient(`http://127.0.0.1:${port}`, 'adm_x').faults())).toMatchObject({ code: 'service_unreachable' });
  });
});
