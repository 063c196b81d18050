// Image packs, publish rules, versions, Idempotency-Key, notifications and the publication fetch over real
// HTTP on loopback (spec §4.3, §6; DESIGN.md §3/§4).
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { AdminPack } from '../../src-shared/admin.ts';
import type { Publication } from '../../src-shared/api.ts';
import { ID_SHAPES } from '../../src-shared/ids.ts';
import { sleep, useFileService, type Receiver, type ReceivedRequest } from './packs-webhooks.test-support.ts';

type Pack = AdminPack;
interface ErrorJson {
  error: { code: string; message: string; request_id: string; reason?: string };
}

const { svc, receiver: startFileReceiver } = useFileService();

/** An account with a key of the given scopes and `count` generated images (through POST /api/v1/generate). */
async function accountWithImages(count: 1 | 2 | 4, scopes = ['generate:write', 'assets:read', 'documents:read']) {
  const account = (await svc.admin('POST', '/admin/accounts', { credits: 1000, age_days: 30 })).json as { id: string };
  const key = (await svc.admin('POST', `/admin/accounts/${account.id}/api-keys`, { name: 't', scopes: ['generate:write', ...scopes] })).json as { key: string };
  const gen = await svc.api('POST', '/api/v1/generate', {
    key: key.key,
    body: { prompt: 'a ceramic cup', model: 'nano-banana-2', resolution: '1K', ratio: '1:1', n: count },
  });
  expect(gen.status).toBe(200);
  const images = (gen.json as { images: Array<{ id: string; filename: string; url: string; width: number; height: number }> }).images;
  return { accountId: account.id, key: key.key, images };
}

async function createPack(accountId: string, imageIds: string[], styleCode = 'SPRING-01'): Promise<Pack> {
  const res = await svc.admin('POST', `/admin/accounts/${accountId}/image-packs`, { style_code: styleCode, image_ids: imageIds });
  expect(res.status).toBe(201);
  return res.json as Pack;
}

async function publish(packId: string, idempotencyKey?: string) {
  return svc.admin('POST', `/admin/image-packs/${packId}/publish`, undefined, idempotencyKey === undefined ? {} : { 'Idempotency-Key': idempotencyKey });
}

async function receiverFor(accountId: string, enabled = true): Promise<{ receiver: Receiver; secret: string }> {
  const receiver = await startFileReceiver();
  const put = await svc.admin('PUT', `/admin/accounts/${accountId}/webhook`, { url: receiver.url, enabled });
  return { receiver, secret: (put.json as { secret: string }).secret };
}

function signatureOk(secret: string, req: ReceivedRequest): boolean {
  const ts = String(req.headers['x-service-timestamp']);
  const expected = createHmac('sha256', secret).update(`${ts}.`).update(req.body).digest('hex');
  return req.headers['x-service-signature'] === `v1=${expected}`;
}

describe('image packs', () => {
  it('creates a pack with a pk_ id and lists it with its version count', async () => {
    const { accountId, images } = await accountWithImages(2);
    const pack = await createPack(accountId, images.map((i) => i.id));
    expect(pack.pack_id).toMatch(ID_SHAPES.pack.pattern);
    expect(pack).toMatchObject({ account_id: accountId, style_code: 'SPRING-01', image_ids: images.map((i) => i.id), saved: true, versions: 0 });
    expect(Number.isInteger(pack.created_at)).toBe(true);
    await publish(pack.pack_id);
    const list = await svc.admin('GET', `/admin/accounts/${accountId}/image-packs`);
    expect(list.status).toBe(200);
    expect((list.json as { packs: Pack[] }).packs).toEqual([expect.objectContaining({ pack_id: pack.pack_id, versions: 1 })]);
    const one = await svc.admin('GET', `/admin/image-packs/${pack.pack_id}`);
    expect(one.json).toMatchObject({ pack_id: pack.pack_id, versions: 1 });
  });

  it('refuses bad pack bodies with invalid_request and creates nothing', async () => {
    const { accountId, images } = await accountWithImages(1);
    const other = await accountWithImages(1);
    const bad: unknown[] = [
      '{not json',
      {},
      { style_code: 'A' },
      { image_ids: [] },
      { style_code: 5, image_ids: [] },
      { style_code: 'A', image_ids: 'img_x' },
      { style_code: 'A', image_ids: [1] },
      { style_code: '', image_ids: [] },
      { style_code: 'A', image_ids: [], extra: true },
      { style_code: 'A', image_ids: ['img_AAAAAAAA'] },
      { style_code: 'A', image_ids: [other.images[0]?.id] },
      { style_code: 'A', image_ids: [images[0]?.id, images[0]?.id] },
    ];
    for (const body of bad) {
      const res = await svc.admin('POST', `/admin/accounts/${accountId}/image-packs`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((res.json as ErrorJson).error.code).toBe('invalid_request');
    }
    expect(((await svc.admin('GET', `/admin/accounts/${accountId}/image-packs`)).json as { packs: Pack[] }).packs).toEqual([]);
    const unknown = await svc.admin('POST', '/admin/accounts/acc_missing000/image-packs', { style_code: 'A', image_ids: [] });
    expect(unknown.status).toBe(404);
    expect((unknown.json as ErrorJson).error.code).toBe('not_found');
  });

  it('PATCH edits the pack; saved: false marks unsaved changes and a later edit saves them', async () => {
    const { accountId, images } = await accountWithImages(2);
    const pack = await createPack(accountId, [images[0]?.id ?? '']);
    const draft = await svc.admin('PATCH', `/admin/image-packs/${pack.pack_id}`, { style_code: 'SUMMER-02', saved: false });
    expect(draft.status).toBe(200);
    expect(draft.json).toMatchObject({ style_code: 'SUMMER-02', saved: false });
    const saved = await svc.admin('PATCH', `/admin/image-packs/${pack.pack_id}`, { image_ids: images.map((i) => i.id) });
    expect(saved.json).toMatchObject({ style_code: 'SUMMER-02', image_ids: images.map((i) => i.id), saved: true });
    const bad = await svc.admin('PATCH', `/admin/image-packs/${pack.pack_id}`, { style_code: 7 });
    expect(bad.status).toBe(400);
    expect((await svc.admin('GET', `/admin/image-packs/${pack.pack_id}`)).json).toMatchObject({ style_code: 'SUMMER-02', saved: true });
    expect((await svc.admin('PATCH', '/admin/image-packs/pk_missing0', { saved: false })).status).toBe(404);
  });
});

describe('publishing', () => {
  it('publishes version 1, then version 2 of the unchanged pack, with published_at in Unix seconds', async () => {
    const { accountId, images } = await accountWithImages(1);
    const pack = await createPack(accountId, [images[0]?.id ?? ''], 'AW-7');
    const now = ((await svc.admin('GET', '/admin/clock')).json as { now: number }).now;
    const first = await publish(pack.pack_id);
    expect(first.status).toBe(200);
    const p1 = (first.json as { published: boolean; publication: Publication }).publication;
    expect(first.json).toEqual({ published: true, publication: p1 });
    expect(p1).toMatchObject({ pack_id: pack.pack_id, version: 1, style_code: 'AW-7' });
    expect(Number.isInteger(p1.id)).toBe(true);
    expect(Number.isInteger(p1.published_at)).toBe(true);
    expect(Math.abs(p1.published_at - now)).toBeLessThanOrEqual(5);
    const second = (await publish(pack.pack_id)).json as { publication: Publication };
    expect(second.publication.version).toBe(2);
    expect(second.publication.id).not.toBe(p1.id);
  });

  it('rejects an empty pack with 409 publish_rejected reason empty_pack', async () => {
    const { accountId } = await accountWithImages(1);
    const pack = await createPack(accountId, []);
    const res = await publish(pack.pack_id);
    expect(res.status).toBe(409);
    const error = (res.json as ErrorJson).error;
    expect(error).toMatchObject({ code: 'publish_rejected', reason: 'empty_pack' });
    expect(error.request_id).toMatch(ID_SHAPES.request.pattern);
    expect(error.request_id).toBe(res.headers.get('x-request-id'));
    expect(error.message.length).toBeGreaterThan(0);
  });

  it('rejects unsaved changes with reason unsaved_changes', async () => {
    const { accountId, images } = await accountWithImages(1);
    const pack = await createPack(accountId, [images[0]?.id ?? '']);
    await svc.admin('PATCH', `/admin/image-packs/${pack.pack_id}`, { saved: false });
    const res = await publish(pack.pack_id);
    expect(res.status).toBe(409);
    expect((res.json as ErrorJson).error).toMatchObject({ code: 'publish_rejected', reason: 'unsaved_changes' });
  });

  it('rejects a pack with an image deleted through DELETE /admin/images/:id with reason missing_images', async () => {
    const { accountId, images } = await accountWithImages(2);
    const pack = await createPack(accountId, images.map((i) => i.id));
    expect((await svc.admin('DELETE', `/admin/images/${images[1]?.id}`)).status).toBe(204);
    const res = await publish(pack.pack_id);
    expect(res.status).toBe(409);
    expect((res.json as ErrorJson).error).toMatchObject({ code: 'publish_rejected', reason: 'missing_images' });
  });

  it('uses no version for a rejected publish', async () => {
    const { accountId, images } = await accountWithImages(1);
    const pack = await createPack(accountId, [images[0]?.id ?? '']);
    expect(((await publish(pack.pack_id)).json as { publication: Publication }).publication.version).toBe(1);
    await svc.admin('PATCH', `/admin/image-packs/${pack.pack_id}`, { saved: false });
    expect((await publish(pack.pack_id)).status).toBe(409);
    await svc.admin('PATCH', `/admin/image-packs/${pack.pack_id}`, {});
    expect(((await publish(pack.pack_id)).json as { publication: Publication }).publication.version).toBe(2);
    expect((await svc.admin('GET', `/admin/image-packs/${pack.pack_id}`)).json).toMatchObject({ versions: 2 });
  });

  it('answers 404 not_found for an unknown pack', async () => {
    const res = await publish('pk_unknown1');
    expect(res.status).toBe(404);
    expect((res.json as ErrorJson).error.code).toBe('not_found');
  });
});

describe('Idempotency-Key', () => {
  it('returns the earlier result for a key seen in the last 24 hours, creates no version and sends nothing', async () => {
    const { accountId, images } = await accountWithImages(1);
    const { receiver } = await receiverFor(accountId);
    const pack = await createPack(accountId, [images[0]?.id ?? '']);
    const first = await publish(pack.pack_id, 'click-1');
    await receiver.waitFor(1);
    const again = await publish(pack.pack_id, 'click-1');
    expect(again.status).toBe(200);
    expect(again.json).toEqual(first.json);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const later = await svc.admin('POST', '/admin/clock', { advance_s: 23 * 3600 });
    expect(later.status).toBe(200);
    expect((await publish(pack.pack_id, 'click-1')).json).toEqual(first.json);
    await sleep(400);
    expect(receiver.requests).toHaveLength(1);
    expect((await svc.admin('GET', `/admin/image-packs/${pack.pack_id}`)).json).toMatchObject({ versions: 1 });

    // Past 24 hours of the service clock the key is forgotten: a new version, and a notification.
    await svc.admin('POST', '/admin/clock', { advance_s: 3600 + 1 });
    const fresh = (await publish(pack.pack_id, 'click-1')).json as { publication: Publication };
    expect(fresh.publication.version).toBe(2);
    await receiver.waitFor(2);
  });

  it('keeps keys per pack, and a new key makes a new version', async () => {
    const { accountId, images } = await accountWithImages(2);
    const a = await createPack(accountId, [images[0]?.id ?? '']);
    const b = await createPack(accountId, [images[1]?.id ?? '']);
    const pa = ((await publish(a.pack_id, 'k')).json as { publication: Publication }).publication;
    const pb = ((await publish(b.pack_id, 'k')).json as { publication: Publication }).publication;
    expect(pb.pack_id).toBe(b.pack_id);
    expect(pb.id).not.toBe(pa.id);
    expect(((await publish(a.pack_id, 'k2')).json as { publication: Publication }).publication.version).toBe(2);
  });

  it('does not spend a key on a rejected publish: the retry after a fix publishes', async () => {
    const { accountId, images } = await accountWithImages(1);
    const pack = await createPack(accountId, []);
    expect((await publish(pack.pack_id, 'retry-me')).status).toBe(409);
    await svc.admin('PATCH', `/admin/image-packs/${pack.pack_id}`, { image_ids: [images[0]?.id] });
    const res = await publish(pack.pack_id, 'retry-me');
    expect(res.status).toBe(200);
    expect((res.json as { publication: Publication }).publication.version).toBe(1);
  });

  it('refuses an empty or over-long Idempotency-Key with invalid_request', async () => {
    const { accountId, images } = await accountWithImages(1);
    const pack = await createPack(accountId, [images[0]?.id ?? '']);
    for (const key of ['', 'x'.repeat(256)]) {
      const res = await publish(pack.pack_id, key);
      expect(res.status).toBe(400);
      expect((res.json as ErrorJson).error.code).toBe('invalid_request');
    }
    expect((await svc.admin('GET', `/admin/image-packs/${pack.pack_id}`)).json).toMatchObject({ versions: 0 });
  });
});

describe('publish notifications', () => {
  it('sends image_pack.published with the publication, signed over the exact bytes', async () => {
    const { accountId, images } = await accountWithImages(1);
    const { receiver, secret } = await receiverFor(accountId);
    const pack = await createPack(accountId, [images[0]?.id ?? ''], 'FW-3');
    const res = await publish(pack.pack_id);
    const publication = (res.json as { publication: Publication }).publication;
    const [req] = await receiver.waitFor(1);
    if (!req) throw new Error('no delivery');
    expect(req.headers['x-service-event']).toBe('image_pack.published');
    expect(req.headers['x-service-delivery']).toBe(res.headers.get('x-service-delivery'));
    expect(signatureOk(secret, req)).toBe(true);
    expect(req.body.toString('utf8')).toBe(
      JSON.stringify({
        event: 'image_pack.published',
        publication: { id: publication.id, pack_id: pack.pack_id, version: 1, style_code: 'FW-3', published_at: publication.published_at },
      }),
    );
  });

  it('sends nothing when switched off, when the URL is empty, or when the publish is rejected', async () => {
    const { accountId, images } = await accountWithImages(1);
    const { receiver } = await receiverFor(accountId, false);
    const pack = await createPack(accountId, [images[0]?.id ?? '']);
    expect((await publish(pack.pack_id)).status).toBe(200);
    await svc.admin('PUT', `/admin/accounts/${accountId}/webhook`, { url: '', enabled: true });
    expect((await publish(pack.pack_id)).status).toBe(200);
    await svc.admin('PUT', `/admin/accounts/${accountId}/webhook`, { url: receiver.url, enabled: true });
    await svc.admin('PATCH', `/admin/image-packs/${pack.pack_id}`, { saved: false });
    expect((await publish(pack.pack_id)).status).toBe(409);
    await sleep(500);
    expect(receiver.requests).toHaveLength(0);
    expect(((await svc.admin('GET', `/admin/accounts/${accountId}/webhook`)).json as { last_delivery: unknown }).last_delivery).toBeNull();
  });

  it('a failing receiver never affects the publish', async () => {
    const { accountId, images } = await accountWithImages(1);
    const receiver = await startFileReceiver((_r, _i, res) => res.writeHead(500).end('down'));
    await svc.admin('PUT', `/admin/accounts/${accountId}/webhook`, { url: receiver.url, enabled: true });
    const pack = await createPack(accountId, [images[0]?.id ?? '']);
    expect((await publish(pack.pack_id)).status).toBe(200);
    await receiver.waitFor(1);
    expect(((await publish(pack.pack_id)).json as { publication: Publication }).publication.version).toBe(2);
  });
});

describe('GET /api/v1/image-pack-publications/:id', () => {
  it('returns the notification fields plus the Image objects with documents:read', async () => {
    const { accountId, key, images } = await accountWithImages(2);
    const pack = await createPack(accountId, images.map((i) => i.id), 'SS-9');
    const publication = ((await publish(pack.pack_id)).json as { publication: Publication }).publication;
    const res = await svc.api('GET', `/api/v1/image-pack-publications/${publication.id}`, { key });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toMatch(ID_SHAPES.request.pattern);
    expect(res.json).toEqual({ ...publication, images });
  });

  it('keeps the images of the published version after the pack changes', async () => {
    const { accountId, key, images } = await accountWithImages(2);
    const pack = await createPack(accountId, [images[0]?.id ?? '']);
    const v1 = ((await publish(pack.pack_id)).json as { publication: Publication }).publication;
    await svc.admin('PATCH', `/admin/image-packs/${pack.pack_id}`, { image_ids: [images[1]?.id], style_code: 'NEW' });
    const res = await svc.api('GET', `/api/v1/image-pack-publications/${v1.id}`, { key });
    expect(res.json).toMatchObject({ version: 1, style_code: 'SPRING-01', images: [images[0]] });
  });

  it('leaves out an image cleaned up after publishing, since its file is gone', async () => {
    const { accountId, key, images } = await accountWithImages(2);
    const pack = await createPack(accountId, images.map((i) => i.id));
    const publication = ((await publish(pack.pack_id)).json as { publication: Publication }).publication;
    expect((await svc.admin('DELETE', `/admin/images/${images[0]?.id}`)).status).toBe(204);
    const res = await svc.api('GET', `/api/v1/image-pack-publications/${publication.id}`, { key });
    expect(res.json).toEqual({ ...publication, images: [images[1]] });
  });

  it('answers 403 insufficient_scope without documents:read, and 401 without a key', async () => {
    const { accountId, images } = await accountWithImages(1, ['assets:read']);
    const pack = await createPack(accountId, [images[0]?.id ?? '']);
    const publication = ((await publish(pack.pack_id)).json as { publication: Publication }).publication;
    const limited = (await svc.admin('POST', `/admin/accounts/${accountId}/api-keys`, { name: 'x', scopes: ['generate:write', 'assets:read'] })).json as { key: string };
    const res = await svc.api('GET', `/api/v1/image-pack-publications/${publication.id}`, { key: limited.key });
    expect(res.status).toBe(403);
    expect((res.json as ErrorJson).error.code).toBe('insufficient_scope');
    const none = await svc.api('GET', `/api/v1/image-pack-publications/${publication.id}`, { key: '' });
    expect(none.status).toBe(401);
    expect((none.json as ErrorJson).error.code).toBe('unauthorized');
  });

  it("answers 404 not_found for another account's record, an unknown id and a non-integer id", async () => {
    const owner = await accountWithImages(1);
    const pack = await createPack(owner.accountId, [owner.images[0]?.id ?? '']);
    const publication = ((await publish(pack.pack_id)).json as { publication: Publication }).publication;
    const stranger = await accountWithImages(1);
    for (const id of [String(publication.id), '999999999', 'abc', '1.5', '-1', '0']) {
      const res = await svc.api('GET', `/api/v1/image-pack-publications/${id}`, { key: stranger.key });
      expect(res.status, id).toBe(404);
      const error = (res.json as ErrorJson).error;
      expect(error.code).toBe('not_found');
      expect(error.request_id).toBe(res.headers.get('x-request-id'));
      // spec §7: the message follows Accept-Language, default Chinese, with no English words mixed in.
      expect(error.message.replace(id, ''), id).not.toMatch(/[A-Za-z]{3,}/);
    }
    expect((await svc.api('GET', `/api/v1/image-pack-publications/${publication.id}`, { key: owner.key })).status).toBe(200);
  });
});
