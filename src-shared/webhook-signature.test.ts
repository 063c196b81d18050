import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { computeWebhookSignature, constantTimeEqual, parseSignatureHeader, signWebhookDelivery, verifyWebhook } from './webhook-signature.ts';

const secret = 'whsec_ABCDEFGHIJKLMNOPQRSTUVWXYZ012345';
const body = Buffer.from('{"event":"image_pack.published","publication":{"id":7,"pack_id":"pk_AbCdEf12","version":3,"style_code":"S1","published_at":1763700000}}');
const now = 1_763_700_000;

// An independent HMAC from node:crypto, over the raw bytes.
function nodeHmac(key: string, ts: number | string, bytes: Buffer): string {
  return createHmac('sha256', key).update(`${ts}.`).update(bytes).digest('hex');
}

function headers(overrides: Record<string, string | undefined> = {}, ts: number = now, sig?: string) {
  return {
    'content-type': 'application/json',
    'x-service-event': 'image_pack.published',
    'x-service-delivery': '0b8f8c3e-9f3a-4c55-9b1e-3a7d2b8c9e10',
    'x-service-timestamp': String(ts),
    'x-service-signature': sig ?? `v1=${nodeHmac(secret, ts, body)}`,
    ...overrides,
  };
}

describe('signing', () => {
  it('equals an independent node:crypto HMAC over ts.body', async () => {
    expect(await computeWebhookSignature(secret, now, body)).toBe(nodeHmac(secret, now, body));
    const utf8 = Buffer.from('{"event":"ping","note":"新品"}');
    expect(await computeWebhookSignature(secret, '123', utf8)).toBe(nodeHmac(secret, '123', utf8));
  });

  it('builds the delivery headers of spec §6', async () => {
    const h = await signWebhookDelivery({ secret, event: 'ping', deliveryId: 'd', timestamp: now, body: '{"event":"ping"}' });
    expect(h).toMatchObject({ 'User-Agent': 'service-webhook/1', 'X-Service-Event': 'ping', 'X-Service-Timestamp': String(now) });
    expect(h['X-Service-Signature']).toBe(`v1=${nodeHmac(secret, now, Buffer.from('{"event":"ping"}'))}`);
  });
});

describe('verifyWebhook', () => {
  it('accepts a correct delivery and reports every step as passed', async () => {
    const r = await verifyWebhook({ headers: headers(), body, secret, now });
    expect(r.valid).toBe(true);
    expect(r.reason).toBeNull();
    expect([r.headers.verdict, r.event.verdict, r.timestamp.verdict, r.signature.verdict, r.body.verdict]).toEqual(['pass', 'pass', 'pass', 'pass', 'pass']);
    expect(r.signature.expected).toBe(nodeHmac(secret, now, body));
  });

  it('accepts any matching v1 part among several', async () => {
    const good = nodeHmac(secret, now, body);
    const r = await verifyWebhook({ headers: headers({}, now, `v0=abc, v1=${'0'.repeat(64)},v1=${good}`), body, secret, now });
    expect(r.valid).toBe(true);
    expect(r.signature.parts.map((p) => [p.problem, p.matches])).toEqual([
      ['other_scheme', false],
      [null, false],
      [null, true],
    ]);
  });

  it.each<[string, Parameters<typeof verifyWebhook>[0], string]>([
    ['a changed body byte', { headers: headers(), body: Buffer.from(body.toString().replace('"version":3', '"version":4')), secret, now }, 'signature_mismatch'],
    ['a wrong secret', { headers: headers(), body, secret: 'whsec_other', now }, 'signature_mismatch'],
    ['a stale timestamp (301 s)', { headers: headers({}, now - 301), body, secret, now }, 'timestamp_stale'],
    ['a future timestamp (301 s)', { headers: headers({}, now + 301), body, secret, now }, 'timestamp_future'],
    ['a missing signature header', { headers: headers({ 'x-service-signature': undefined }), body, secret, now }, 'missing_header'],
    ['an empty signature header', { headers: headers({ 'x-service-signature': '' }), body, secret, now }, 'missing_header'],
    ['a wrong prefix', { headers: headers({}, now, `sha256=${nodeHmac(secret, now, body)}`), body, secret, now }, 'no_v1_signature'],
    ['non-hex', { headers: headers({}, now, `v1=${'z'.repeat(64)}`), body, secret, now }, 'no_v1_signature'],
    ['a non-numeric timestamp', { headers: headers({ 'x-service-timestamp': '17637e5' }), body, secret, now }, 'timestamp_invalid'],
    ['an unknown event', { headers: headers({ 'x-service-event': 'order.created' }), body, secret, now }, 'unknown_event'],
  ])('rejects %s', async (_name, input, reason) => {
    const r = await verifyWebhook(input);
    expect(r.valid).toBe(false);
    expect(r.reason).toBe(reason);
  });

  it('keeps exactly 5 minutes both ways', async () => {
    for (const ts of [now - 300, now + 300]) {
      const r = await verifyWebhook({ headers: headers({}, ts), body, secret, now });
      expect(r.valid).toBe(true);
    }
    const edge = await verifyWebhook({ headers: headers({}, now - 240), body, secret, now });
    expect(edge.timestamp.skewSeconds).toBe(240);
    expect(edge.timestamp.expiresInSeconds).toBe(60);
  });

  it('verifies the raw bytes, not a re-serialisation', async () => {
    const spaced = Buffer.from('{ "event": "ping" }');
    const r = await verifyWebhook({ headers: headers({ 'x-service-event': 'ping' }, now, `v1=${nodeHmac(secret, now, spaced)}`), body: spaced, secret, now });
    expect(r.valid).toBe(true);
  });

  it('flags a correctly signed body that is not JSON of the documented shape', async () => {
    const bad = Buffer.from('not json');
    const r = await verifyWebhook({ headers: headers({}, now, `v1=${nodeHmac(secret, now, bad)}`), body: bad, secret, now });
    expect(r.signatureValid).toBe(true);
    expect(r.reason).toBe('body_not_json');
    const wrongShape = Buffer.from('{"event":"image_pack.published","publication":{"id":"7"}}');
    const r2 = await verifyWebhook({ headers: headers({}, now, `v1=${nodeHmac(secret, now, wrongShape)}`), body: wrongShape, secret, now });
    expect(r2.reason).toBe('body_shape');
  });
});

describe('helpers', () => {
  it('compares in constant time but correctly', () => {
    expect(constantTimeEqual('abc', 'abc')).toBe(true);
    expect(constantTimeEqual('abc', 'abd')).toBe(false);
    expect(constantTimeEqual('abc', 'ab')).toBe(false);
    expect(constantTimeEqual('abc', 'abcd')).toBe(false);
  });
  it('parses header parts with spaces and junk', () => {
    expect(parseSignatureHeader(' v1=AB , junk ,,v2=x').map((p) => p.problem)).toEqual(['not_hex', 'not_key_value', 'other_scheme']);
  });
});
