// POST /api/v1/generate over real HTTP: validation order, billing, warnings, sessions, concurrency.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { GENERATE_400_CODES } from '../../src-shared/errors.ts';
import { ID_SHAPES } from '../../src-shared/ids.ts';
import { useTestService } from '../test-support.ts';

const svc = useTestService();

async function balance(accountId: string): Promise<{ credits: number; reserved: number }> {
  const res = await svc.admin('GET', `/admin/accounts/${accountId}`);
  return { credits: res.body.credits, reserved: res.body.reserved };
}

describe('400 sub-codes: one fault per request, nothing charged', () => {
  const long = 'a'.repeat(4001);
  const cases: Array<[string, string | unknown]> = [
    ['invalid_request', '{not json'],
    ['invalid_request', {}],
    ['invalid_request', { prompt: 'x', ration: '1:1' }],
    ['invalid_request', { prompt: 'x', purpose_id: 'hero' }],
    ['invalid_request', { prompt: 'x', session_id: 5 }],
    ['invalid_request', { prompt: 7 }],
    ['invalid_request', { prompt: null }],
    ['invalid_request', { prompt: 'x', model: 'flux-kontext-pro' }],
    ['prompt_too_long', { prompt: long }],
    ['invalid_model', { prompt: 'x', model: 'dall-e' }],
    ['invalid_ratio', { prompt: 'x', ratio: '2:3' }],
    ['invalid_ratio', { prompt: 'x', model: 'seedream-5-0-pro', ratio: '4:5' }],
    ['invalid_resolution', { prompt: 'x', resolution: '2k' }],
    ['invalid_resolution', { prompt: 'x', model: 'seedream-5-0-pro', resolution: '4K' }],
    ['invalid_quality', { prompt: 'x', quality: 'ultra' }],
    ['invalid_image_count', { prompt: 'x', n: 3 }],
    ['invalid_image_count', { prompt: 'x', n: '2' }],
    ['invalid_image_count', { prompt: 'x', n: 1.5 }],
    ['invalid_image_count', { prompt: 'x', n: 0 }],
    ['invalid_reference_images', { prompt: 'x', ref_image_ids: 'img_aaaaaaaa' }],
    ['invalid_reference_images', { prompt: 'x', ref_image_ids: [1] }],
    ['too_many_reference_images', { prompt: 'x', model: 'qwen-image-3.0-pro', ref_image_ids: ['a', 'b', 'c', 'd'] }],
    ['too_many_reference_images', { ref_image_ids: Array.from({ length: 17 }, (_, i) => `img_${i}`) }],
    ['reference_image_missing', { prompt: 'x', ref_image_ids: ['img_zzzzzzzz'] }],
    ['prompt_or_reference_required', { prompt: '   ' }],
    ['prompt_or_reference_required', { prompt: '', ref_image_ids: [] }],
  ];

  it('covers every 400 sub-code of spec §7', () => {
    expect(new Set(cases.map(([code]) => code))).toEqual(new Set(GENERATE_400_CODES));
  });

  it.each(cases)('answers %s for %j and charges nothing', async (code, body) => {
    const account = await svc.account({ credits: 500 });
    const res = await svc.api('/api/v1/generate', { key: account.key, ...(typeof body === 'string' ? { raw: body } : { body }) });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe(code);
    expect(res.body.error.request_id).toMatch(ID_SHAPES.request.pattern);
    expect(res.headers.get('x-request-id')).toBe(res.body.error.request_id);
    expect(await balance(account.id)).toEqual({ credits: 500, reserved: 0 });
  });

  it('lists the allowed values in invalid_ratio and states the limit in too_many_reference_images', async () => {
    const account = await svc.account();
    const ratio = await svc.api('/api/v1/generate', {
      key: account.key,
      headers: { 'Accept-Language': 'en' },
      body: { prompt: 'x', model: 'seedream-5-0-pro', ratio: '4:5' },
    });
    expect(ratio.body.error.message).toContain('1:1, 3:4, 16:9, 9:16');
    const many = await svc.api('/api/v1/generate', {
      key: account.key,
      headers: { 'Accept-Language': 'en' },
      body: { prompt: 'x', model: 'qwen-image-3.0-pro', ref_image_ids: ['a', 'b', 'c', 'd'] },
    });
    expect(many.body.error.message).toMatch(/at most 3/);
  });

  it('answers in Chinese by default and in English for Accept-Language en', async () => {
    const account = await svc.account();
    const zh = await svc.api('/api/v1/generate', { key: account.key, body: { prompt: 'x', n: 3 } });
    const en = await svc.api('/api/v1/generate', { key: account.key, body: { prompt: 'x', n: 3 }, headers: { 'Accept-Language': 'en-US' } });
    expect(zh.body.error.message).toMatch(/[\u4e00-\u9fff]/);
    expect(en.body.error.message).toMatch(/^Image count/);
  });
});

describe('stateful rules', () => {
  it('answers 404 session_not_found for an unknown or another account\'s session, charging nothing', async () => {
    const a = await svc.account({ credits: 300 });
    const b = await svc.account({ credits: 300 });
    const own = await svc.api('/api/v1/generate', { key: a.key, body: { prompt: 'x', resolution: '1K' } });
    expect(own.status).toBe(200);
    const foreign = await svc.api('/api/v1/generate', { key: b.key, body: { prompt: 'x', session_id: own.body.session_id } });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('session_not_found');
    const unknown = await svc.api('/api/v1/generate', { key: b.key, body: { prompt: 'x', session_id: 's_0000000000' } });
    expect(unknown.body.error.code).toBe('session_not_found');
    expect(await balance(b.id)).toEqual({ credits: 300, reserved: 0 });
  });

  it('groups generations in a passed session and creates a new one when omitted', async () => {
    const a = await svc.account();
    const first = await svc.api('/api/v1/generate', { key: a.key, body: { prompt: 'x', resolution: '1K' } });
    expect(first.body.session_id).toMatch(ID_SHAPES.session.pattern);
    const second = await svc.api('/api/v1/generate', { key: a.key, body: { prompt: 'y', resolution: '1K', session_id: first.body.session_id } });
    expect(second.body.session_id).toBe(first.body.session_id);
    const third = await svc.api('/api/v1/generate', { key: a.key, body: { prompt: 'z', resolution: '1K' } });
    expect(third.body.session_id).not.toBe(first.body.session_id);
  });

  it('refuses a deleted reference and another account\'s image alike with reference_image_missing', async () => {
    const a = await svc.account({ credits: 1000 });
    const b = await svc.account({ credits: 1000 });
    const made = await svc.api('/api/v1/generate', { key: a.key, body: { prompt: 'x', resolution: '1K', n: 2 } });
    const [keep, drop] = made.body.images;
    const reuse = await svc.api('/api/v1/generate', { key: a.key, body: { ref_image_ids: [keep.id], resolution: '1K' } });
    expect(reuse.status).toBe(200);
    expect((await svc.admin('DELETE', `/admin/images/${drop.id}`)).status).toBe(204);
    const before = await balance(a.id);
    const deleted = await svc.api('/api/v1/generate', { key: a.key, body: { ref_image_ids: [keep.id, drop.id] } });
    expect(deleted.status).toBe(400);
    expect(deleted.body.error.code).toBe('reference_image_missing');
    expect(await balance(a.id)).toEqual(before);
    const foreign = await svc.api('/api/v1/generate', { key: b.key, body: { ref_image_ids: [keep.id] } });
    expect(foreign.body.error.code).toBe('reference_image_missing');
    expect(await balance(b.id)).toEqual({ credits: 1000, reserved: 0 });
  });

  it('treats a reference whose file vanished from disk as missing, charging nothing', async () => {
    const a = await svc.account({ credits: 100 });
    const made = await svc.api('/api/v1/generate', { key: a.key, body: { prompt: 'x', resolution: '1K' } });
    rmSync(join(svc.dataDir, 'files', made.body.images[0].filename));
    const before = await balance(a.id);
    const res = await svc.api('/api/v1/generate', { key: a.key, body: { ref_image_ids: [made.body.images[0].id] } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('reference_image_missing');
    expect(await balance(a.id)).toEqual(before);
  });

  it('answers 402 with the amount needed and the balance, reserving nothing', async () => {
    const a = await svc.account({ credits: 31 });
    const res = await svc.api('/api/v1/generate', { key: a.key, headers: { 'Accept-Language': 'en' }, body: { prompt: 'x', n: 2, resolution: '2K' } });
    expect(res.status).toBe(402);
    expect(res.body.error.code).toBe('insufficient_credits');
    expect(res.body.error.message).toContain('needs 32');
    expect(res.body.error.message).toContain('balance is 31');
    expect(res.body.error.message).toMatch(/top up/i);
    expect(await balance(a.id)).toEqual({ credits: 31, reserved: 0 });
  });

  it('caps a new account at 2000 credits per rolling 24 hours, with Retry-After, and lifts it as the window rolls', async () => {
    const a = await svc.account({ credits: 10_000, age_days: 1 });
    // gpt-image-2 high at 1K: 50 per image; 4 images = 200 per call; 10 calls = 2000.
    const body = { prompt: 'x', model: 'gpt-image-2', quality: 'high', n: 4, resolution: '1K' };
    for (let i = 0; i < 10; i++) expect((await svc.api('/api/v1/generate', { key: a.key, body })).status).toBe(200);
    const over = await svc.api('/api/v1/generate', { key: a.key, body: { ...body, n: 1, quality: 'low' } });
    expect(over.status).toBe(429);
    expect(over.body.error.code).toBe('new_user_daily_limit');
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await balance(a.id)).toEqual({ credits: 8000, reserved: 0 });
    await svc.admin('POST', '/admin/clock', { advance_s: 86_401 });
    expect((await svc.api('/api/v1/generate', { key: a.key, body })).status).toBe(200);
  });

  it('does not cap an account older than 7 days', async () => {
    const a = await svc.account({ credits: 10_000, age_days: 8 });
    const body = { prompt: 'x', model: 'gpt-image-2', quality: 'high', n: 4, resolution: '1K' };
    for (let i = 0; i < 11; i++) expect((await svc.api('/api/v1/generate', { key: a.key, body })).status).toBe(200);
  });
});

describe('billing and warnings', () => {
  it('charges the estimate on success and returns images of the exact pixel size', async () => {
    const a = await svc.account({ credits: 1000 });
    const res = await svc.api('/api/v1/generate', { key: a.key, body: { prompt: 'x', n: 2, ratio: '16:9', resolution: '1K' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toMatch(ID_SHAPES.request.pattern);
    expect(res.body).toMatchObject({ ok: true, credits_charged: 24, warnings: [] });
    expect(res.body.turn_id).toMatch(ID_SHAPES.turn.pattern);
    expect(typeof res.body.duration_ms).toBe('number');
    expect(res.body.images).toHaveLength(2);
    for (const image of res.body.images) {
      expect(image.id).toMatch(ID_SHAPES.image.pattern);
      expect(image.filename).toMatch(/^[A-Za-z0-9]{8}\.png$/);
      expect(image.url).toBe(`/api/file/${image.filename}`);
      expect([image.width, image.height]).toEqual([1376, 768]);
    }
    expect(await balance(a.id)).toEqual({ credits: 976, reserved: 0 });
  });

  it('bills GPT quality and the reference surcharge as estimated', async () => {
    const a = await svc.account({ credits: 1000 });
    const first = await svc.api('/api/v1/generate', { key: a.key, body: { prompt: 'x', resolution: '1K' } });
    const ref = first.body.images[0].id;
    const res = await svc.api('/api/v1/generate', { key: a.key, body: { prompt: 'x', model: 'gpt-image-2', ref_image_ids: [ref], n: 2 } });
    // medium (omitted) 15 + 1 per reference, × 2
    expect(res.body.credits_charged).toBe(32);
  });

  it('warns that quality is unsupported on a non-GPT model and still bills by resolution', async () => {
    const a = await svc.account();
    const res = await svc.api('/api/v1/generate', { key: a.key, body: { prompt: 'x', quality: 'high', resolution: '1K' } });
    expect(res.body.warnings).toEqual([expect.objectContaining({ type: 'unsupported', feature: 'quality' })]);
    // no Accept-Language: details in Chinese (spec §2.3)
    expect(res.body.warnings[0].details).toMatch(/[\u4e00-\u9fff]/);
    expect(res.body.credits_charged).toBe(12);
  });

  it('bills only produced images on partial success, refunds the rest and warns about n', async () => {
    const a = await svc.account({ credits: 1000 });
    await svc.admin('PUT', '/admin/faults', { generate: { partial: { count: 1, produce: 2 } } });
    const res = await svc.api('/api/v1/generate', { key: a.key, headers: { 'Accept-Language': 'en' }, body: { prompt: 'x', n: 4, resolution: '1K' } });
    expect(res.status).toBe(200);
    expect(res.body.images).toHaveLength(2);
    expect(res.body.credits_charged).toBe(24);
    expect(res.body.warnings).toEqual([expect.objectContaining({ type: 'downgraded', feature: 'n' })]);
    expect(await balance(a.id)).toEqual({ credits: 976, reserved: 0 });
    // the fault was consumed by that one call
    const next = await svc.api('/api/v1/generate', { key: a.key, body: { prompt: 'x', n: 4, resolution: '1K' } });
    expect(next.body.images).toHaveLength(4);
  });

  it('refunds everything and answers 500 internal_error when the whole run fails', async () => {
    const a = await svc.account({ credits: 1000 });
    await svc.admin('PUT', '/admin/faults', { generate: { fail: 1 } });
    const res = await svc.api('/api/v1/generate', { key: a.key, body: { prompt: 'x', n: 2 } });
    expect(res.status).toBe(500);
    expect(res.body.error.code).toBe('internal_error');
    expect(await balance(a.id)).toEqual({ credits: 1000, reserved: 0 });
  });

  it('warns about a downgraded resolution and still returns the requested pixel size', async () => {
    const a = await svc.account();
    await svc.admin('PUT', '/admin/faults', { generate: { downgrade: 1 } });
    const res = await svc.api('/api/v1/generate', { key: a.key, headers: { 'Accept-Language': 'en' }, body: { prompt: 'x', resolution: '2K', ratio: '1:1' } });
    expect(res.body.warnings).toEqual([expect.objectContaining({ type: 'downgraded', feature: 'resolution' })]);
    expect(res.body.warnings[0].details).toMatch(/not native/);
    expect([res.body.images[0].width, res.body.images[0].height]).toEqual([2048, 2048]);
    expect(res.body.credits_charged).toBe(16);
  });

  it('lets exactly 10 of 25 concurrent requests through on a balance that covers 10, never going negative', async () => {
    const a = await svc.account({ credits: 120 });
    const results = await Promise.all(
      Array.from({ length: 25 }, () => svc.api('/api/v1/generate', { key: a.key, body: { prompt: 'x', resolution: '1K' } })),
    );
    const ok = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status === 402);
    expect(ok).toHaveLength(10);
    expect(refused).toHaveLength(15);
    expect(refused.every((r) => r.body.error.code === 'insufficient_credits')).toBe(true);
    expect(await balance(a.id)).toEqual({ credits: 0, reserved: 0 });
  });
});

describe('auto model choice (spec §4.1, DESIGN.md §3), seen through what is billed', () => {
  it('picks nano-banana-2 by default, gpt-image-2 for text in the image, and a model that fits the references', async () => {
    const a = await svc.account({ credits: 10_000 });
    // nano-banana-2 defaults to 2K: 16 credits
    expect((await svc.api('/api/v1/generate', { key: a.key, body: { prompt: 'a bottle on a table' } })).body.credits_charged).toBe(16);
    // gpt-image-2, quality omitted = medium: 15 credits
    expect((await svc.api('/api/v1/generate', { key: a.key, body: { prompt: 'a bottle with the slogan "FRESH"' } })).body.credits_charged).toBe(15);
    // 15 references exceed nano-banana-2's 14: gpt-image-2 at 15 + 1 per reference
    const made = await svc.api('/api/v1/generate', { key: a.key, body: { prompt: 'x', resolution: '1K', n: 4 } });
    const ids: string[] = made.body.images.map((i: { id: string }) => i.id);
    for (let i = 0; i < 3; i++) {
      const more = await svc.api('/api/v1/generate', { key: a.key, body: { prompt: 'x', resolution: '1K', n: 4 } });
      ids.push(...more.body.images.map((img: { id: string }) => img.id));
    }
    const res = await svc.api('/api/v1/generate', { key: a.key, body: { ref_image_ids: ids.slice(0, 15) } });
    expect(res.status).toBe(200);
    expect(res.body.credits_charged).toBe(15 + 15);
  });
});

describe('sessions', () => {
  it("titles an automatically created session 'API generation'", async () => {
    const a = await svc.account();
    const res = await svc.api('/api/v1/generate', { key: a.key, body: { prompt: 'x', resolution: '1K' } });
    const db = new DatabaseSync(join(svc.dataDir, 'service.db'), { readOnly: true });
    try {
      const row = db.prepare('SELECT title, account_id FROM sessions WHERE id = ?').get(res.body.session_id) as { title: string; account_id: string };
      expect(row).toEqual({ title: 'API generation', account_id: a.id });
    } finally {
      db.close();
    }
  });
});

describe('ledger', () => {
  it('keeps every balance equal to the sum of its ledger rows, with no reservation left pending', async () => {
    // runs after the billing tests above on the same database
    const db = new DatabaseSync(join(svc.dataDir, 'service.db'), { readOnly: true });
    try {
      const mismatched = db
        .prepare('SELECT a.id, a.credits, COALESCE(SUM(l.amount), 0) AS total FROM accounts a LEFT JOIN ledger l ON l.account_id = a.id GROUP BY a.id HAVING a.credits != total')
        .all();
      expect(mismatched).toEqual([]);
      expect(db.prepare("SELECT COUNT(*) AS n FROM reservations WHERE status = 'pending'").get()).toEqual({ n: 0 });
      const accounts = (db.prepare('SELECT COUNT(*) AS n FROM accounts').get() as { n: number }).n;
      expect(accounts).toBeGreaterThan(10);
    } finally {
      db.close();
    }
  });
});

describe('routing errors carry the spec §7 body', () => {
  it('answers 405 method_not_allowed for a wrong method', async () => {
    const res = await svc.api('/api/v1/generate', { method: 'GET' });
    expect(res.status).toBe(405);
    expect(res.body.error.code).toBe('method_not_allowed');
    expect(res.headers.get('allow')).toContain('POST');
  });

  it('answers 404 with the JSON body for an unknown /api/v1 route', async () => {
    const res = await svc.api('/api/v1/nothing-here');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
    expect(res.body.error.request_id).toBe(res.headers.get('x-request-id'));
  });

  it('answers 413 payload_too_large for an oversized body, charging nothing', async () => {
    const a = await svc.account({ credits: 100 });
    const res = await svc.api('/api/v1/generate', { key: a.key, raw: JSON.stringify({ prompt: 'x'.repeat(2_000_000) }) });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('payload_too_large');
    expect(await balance(a.id)).toEqual({ credits: 100, reserved: 0 });
  });
});

describe('random bodies', () => {
  it('never answer 5xx for 200 seeded random bodies', async () => {
    const a = await svc.account({ credits: 1_000_000 });
    let seed = 42;
    const rand = (): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)] as T;
    const values: unknown[] = [null, true, 0, 1, 2, 4, -1, 1.5, '', 'x', '1K', '3:4', 'auto', [], ['img_x'], {}, { a: 1 }, 'a'.repeat(5000), 1e308];
    const fields = ['prompt', 'ref_image_ids', 'model', 'ratio', 'resolution', 'quality', 'n', 'session_id', 'purpose_id', 'ration', '__proto__', 'constructor'];
    const statuses = new Map<number, number>();
    for (let i = 0; i < 200; i++) {
      let raw: string;
      if (rand() < 0.1) raw = pick(['', '[]', 'null', '"x"', '{', '{"prompt":}', '12', '{"prompt":"x"}{}']);
      else {
        const body: Record<string, unknown> = {};
        const count = Math.floor(rand() * 5);
        for (let j = 0; j < count; j++) body[pick(fields)] = pick(values);
        if (rand() < 0.5) body.prompt = pick(['a bottle', 'price tag "SALE"', '', 7]);
        raw = JSON.stringify(body);
      }
      const res = await svc.api('/api/v1/generate', { key: a.key, raw });
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      expect(res.status, `body ${raw.slice(0, 200)}`).toBeLessThan(500);
      if (res.status !== 200) expect(res.body.error.code).toEqual(expect.any(String));
    }
    expect(statuses.get(400)).toBeGreaterThan(0);
  });
});
