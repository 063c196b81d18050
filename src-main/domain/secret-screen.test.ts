import { describe, expect, it } from 'vitest';
import { holdsSecret, redactSecrets, screenValue } from './secret-screen.ts';

const KEY = `sk_${'A1b2'.repeat(8)}`;
const WHSEC = `whsec_${'z9'.repeat(16)}`;
const ADMIN = `adm_${'Q'.repeat(32)}`;

describe('secret screen', () => {
  it('redacts key, webhook secret, admin token and bearer shapes, and exact known values', () => {
    expect(redactSecrets(`GET /${KEY} with ${WHSEC} and ${ADMIN}`)).toBe('GET /sk_[redacted] with whsec_[redacted] and adm_[redacted]');
    expect(redactSecrets('{"echo":"Authorization: Bearer abc.def-ghi_jkl-mno.pq"}')).toBe('{"echo":"Authorization: Bearer [redacted]"}');
    expect(redactSecrets('bearer   tok123tok123tok123')).toBe('bearer [redacted]');
    expect(redactSecrets(`Authorization: Bearer ${KEY}`)).toBe('Authorization: Bearer [redacted]');
    // Glued to other text or with inner underscores (Stripe-style live keys).
    expect(redactSecrets(`token_${KEY}`)).toBe('token_sk_[redacted]');
    expect(redactSecrets('sk_live_0123456789abcdefABCD')).toBe('sk_[redacted]');
    // A remote service's key need not look like ours: the exact value is known to main.
    expect(redactSecrets('your key rk-live-0123456789 is wrong', ['rk-live-0123456789'])).toBe('your key [redacted] is wrong');
  });

  it('leaves ordinary text alone', () => {
    for (const text of [
      'a prompt about sk_ prefixes',
      'sk_short',
      'task_0123456789abcdef0123',
      'mask_ABCDEFGHIJKLMNOPQRSTU',
      'img_0123456789abcdef0123456789abcdef',
      'Bearer',
      'A ring bearer pillow with lace, on white',
      'flag bearer holding a banner; Bearer bond certificates',
      'req_AAAAAAAAAAAAAAAAAAAA lt_0123456789abcdef',
    ]) {
      expect(redactSecrets(text)).toBe(text);
      expect(holdsSecret(text)).toBe(false);
    }
    // Known values shorter than 8 characters are not searched for.
    expect(redactSecrets('a b c', ['b'])).toBe('a b c');
  });

  it('screens every string of a reply, keys included, and keeps the rest of its shape', () => {
    const reply = { ok: true, value: { items: [{ prompt: `bottle ${KEY}`, width: 1024, at: null, ok: false }], [KEY]: 'x' } };
    expect(screenValue(reply)).toEqual({ ok: true, value: { items: [{ prompt: 'bottle sk_[redacted]', width: 1024, at: null, ok: false }], 'sk_[redacted]': 'x' } });
    const clean = { a: [1, 'two'] };
    expect(screenValue(clean)).toBe(clean);
  });

  it('finds a known value that JSON escapes (quotes, backslashes) in a reply', () => {
    const odd = 'abc"def\\0123456';
    expect(screenValue({ message: `key ${odd}` }, [odd])).toEqual({ message: 'key [redacted]' });
  });

  it('lets an exact kept string through whole, but not inside other text', () => {
    const reply = { oneTimeKey: KEY, message: `created ${KEY}` };
    expect(screenValue(reply, [KEY], new Set([KEY]))).toEqual({ oneTimeKey: KEY, message: 'created [redacted]' });
  });
});
