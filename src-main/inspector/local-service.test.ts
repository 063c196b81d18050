// Real deliveries from the bundled local service (src-service/start.ts on loopback) arriving at the inspector:
// one click connects, pings and publishes verify, a forced 500 shows as one delivery with three attempts,
// Regenerate is followed, and the publication a notification points to is fetched with the environment's key.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../src-service/start.ts';
import type { DeliveryGroup } from '../../src-shared/ipc/inspector.ts';
import { createInspectorHandlers, type InspectorHandlers } from './handlers.ts';
import { SECRET_ACCOUNT } from './secrets.ts';
import { createTestContext, type TestContext } from './test-context.ts';

let service: RunningService;
let ctx: TestContext;
let handlers: InspectorHandlers;

async function admin(method: string, path: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${service.baseUrl}${path}`, {
    method,
    headers: { Authorization: `Bearer ${service.adminToken}`, 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, json: (await res.json().catch(() => ({}))) as Record<string, unknown> };
}

async function waitForGroup(predicate: (g: DeliveryGroup) => boolean, timeoutMs = 20_000): Promise<DeliveryGroup> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const found = (await handlers.inspectorList({})).groups.find(predicate);
    if (found) return found;
    if (Date.now() > until) throw new Error('no matching delivery arrived');
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  service = await startService({ port: 0, dataDir: mkdtempSync(join(tmpdir(), 'inspector-service-')), seed: true, logLevel: 'silent' });
  ctx = await createTestContext();
  ctx.setLocal({ baseUrl: service.baseUrl, adminToken: service.adminToken, accountId: service.accountId as string });
  ctx.setApi({ baseUrl: service.baseUrl, apiKey: service.apiKey as string });
  handlers = createInspectorHandlers(ctx);
  await handlers.ready;
});

afterAll(async () => {
  await handlers?.close();
  await service?.close();
});

describe('the inspector against the local service', () => {
  it('connects the local webhook in one click, keeps the secret in the secret store, and shows only its masked tail', async () => {
    const status = await handlers.inspectorConnectLocal({});
    expect(status.secretStored).toBe(true);
    const webhook = await admin('GET', `/admin/accounts/${service.accountId}/webhook`);
    expect(webhook.json).toMatchObject({ url: status.url, enabled: true });
    const stored = await ctx.secretStore.get(SECRET_ACCOUNT);
    expect(stored).toMatch(/^whsec_[A-Za-z0-9]{32}$/);
    expect(status.secretMasked).toBe(`whsec_…${stored?.slice(-4)}`);
    expect(JSON.stringify(status)).not.toContain(stored);
  });

  it('receives a ping from the service and verifies it', async () => {
    const ping = await admin('POST', `/admin/accounts/${service.accountId}/webhook/ping`);
    expect(ping.status).toBe(202);
    const group = await waitForGroup((g) => g.deliveryId === ping.json.delivery_id);
    expect(group.event).toBe('ping');
    expect(group.attempts).toHaveLength(1);
    expect(group.attempts[0]).toMatchObject({ valid: true, responseStatus: 200, diagnosis: 'valid' });
    const detail = await handlers.inspectorGet({ requestId: group.attempts[0]?.requestId as string });
    expect(detail.verification.report.signature.verdict).toBe('pass');
    expect(detail.headers.find((h) => h.name.toLowerCase() === 'user-agent')?.value).toBe('service-webhook/1');
  });

  it('receives a real publish, verifies it, and fetches the publication with its images', async () => {
    const gen = await fetch(`${service.baseUrl}/api/v1/generate`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${service.apiKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ prompt: 'a ceramic cup', model: 'nano-banana-2', resolution: '1K', ratio: '1:1', n: 1 }),
    });
    expect(gen.status).toBe(200);
    const image = ((await gen.json()) as { images: Array<{ id: string }> }).images[0] as { id: string };
    const pack = await admin('POST', `/admin/accounts/${service.accountId}/image-packs`, { style_code: 'SS26', image_ids: [image.id] });
    expect(pack.status).toBe(201);
    const published = await admin('POST', `/admin/image-packs/${pack.json.pack_id}/publish`);
    expect(published.status).toBe(200);
    const publication = published.json.publication as { id: number; pack_id: string; version: number };
    const group = await waitForGroup((g) => g.attempts.some((a) => a.publication?.id === publication.id));
    expect(group.event).toBe('image_pack.published');
    expect(group.attempts[0]).toMatchObject({ valid: true, publication: { id: publication.id, packId: publication.pack_id, version: publication.version } });
    expect(group.duplicateOf).toBeNull();

    const record = await handlers.inspectorFetchPublication({ publicationId: publication.id });
    expect(record).toMatchObject({ id: publication.id, pack_id: publication.pack_id, version: publication.version, style_code: 'SS26' });
    expect(record.images.map((i) => i.id)).toEqual([image.id]);
    await expect(handlers.inspectorFetchPublication({ publicationId: 999_999 })).rejects.toMatchObject({ code: 'not_found', status: 404 });

    // The same (pack_id, version) under a new delivery id is flagged as a duplicate.
    const body = JSON.parse(await (await handlers.inspectorGet({ requestId: group.attempts[0]?.requestId as string })).bodyText) as {
      publication: { id: number; pack_id: string; version: number; style_code: string; published_at: number };
    };
    const status = await handlers.inspectorStatus({});
    await handlers.inspectorSendTest({ url: status.url as string, event: 'image_pack.published', publication: body.publication, useStoredSecret: true });
    const duplicate = await waitForGroup((g) => g.duplicateOf === group.key);
    expect(duplicate.anyValid).toBe(true);
  });

  it('shows the retries of a forced 500 as one delivery with three attempts', async () => {
    await handlers.inspectorConfigure({ forcedStatus: 500 });
    try {
      const ping = await admin('POST', `/admin/accounts/${service.accountId}/webhook/ping`);
      // spec §6: two retries, after 2 s and 10 s.
      const group = await waitForGroup((g) => g.deliveryId === ping.json.delivery_id && g.attempts.length === 3, 30_000);
      expect(group.attempts.map((a) => a.responseStatus)).toEqual([500, 500, 500]);
      expect(group.attempts.every((a) => a.valid)).toBe(true);
      const gaps = group.attempts.slice(1).map((a, i) => a.receivedAt - (group.attempts[i]?.receivedAt ?? 0));
      expect(gaps[0]).toBeGreaterThanOrEqual(1_500);
      expect(gaps[1]).toBeGreaterThanOrEqual(9_000);
      const webhook = await admin('GET', `/admin/accounts/${service.accountId}/webhook`);
      expect(webhook.json.last_delivery).toMatchObject({ delivery_id: ping.json.delivery_id, attempts: 3, outcome: 'failed', status: 500 });
    } finally {
      await handlers.inspectorConfigure({ forcedStatus: null });
    }
  }, 45_000);

  it('moves the local webhook along when the receiver changes port, keeping the secret', async () => {
    const before = await handlers.inspectorStatus({});
    const secret = await ctx.secretStore.get(SECRET_ACCOUNT);
    const after = await handlers.inspectorConfigure({ port: 0 });
    expect(after.port).not.toBe(before.port);
    const webhook = await admin('GET', `/admin/accounts/${service.accountId}/webhook`);
    expect(webhook.json).toMatchObject({ url: after.url, enabled: true });
    expect(await ctx.secretStore.get(SECRET_ACCOUNT)).toBe(secret);
    const ping = await admin('POST', `/admin/accounts/${service.accountId}/webhook/ping`);
    expect((await waitForGroup((g) => g.deliveryId === ping.json.delivery_id)).anyValid).toBe(true);
  });

  it('follows Regenerate: new deliveries verify, and one signed with the replaced secret is named as such', async () => {
    const old = (await ctx.secretStore.get(SECRET_ACCOUNT)) as string;
    const status = await handlers.inspectorRegenerateLocal({});
    expect(status.previousSecrets).toBe(1);
    const current = await ctx.secretStore.get(SECRET_ACCOUNT);
    expect(current).not.toBe(old);
    const ping = await admin('POST', `/admin/accounts/${service.accountId}/webhook/ping`);
    const group = await waitForGroup((g) => g.deliveryId === ping.json.delivery_id);
    expect(group.attempts[0]?.valid).toBe(true);
    // An integrator still signing (or verifying) with the old secret.
    const sent = await handlers.inspectorSendTest({ url: status.url as string, event: 'ping', secret: old });
    expect(sent.status).toBe(401);
    const stale = await waitForGroup((g) => g.deliveryId === sent.deliveryId);
    expect(stale.attempts[0]?.diagnosis).toBe('old_secret');
  });

  it('verifies its own service\'s ping after "Move clock forward" (24 h): deliveries are signed with real time', async () => {
    expect((await admin('POST', '/admin/clock', { advance_s: 86_400 })).status).toBe(200);
    try {
      const ping = await admin('POST', `/admin/accounts/${service.accountId}/webhook/ping`);
      const group = await waitForGroup((g) => g.deliveryId === ping.json.delivery_id);
      expect(group.attempts[0]).toMatchObject({ valid: true, responseStatus: 200, diagnosis: 'valid' });
    } finally {
      await admin('POST', '/admin/clock', { reset: true });
    }
  });
});
