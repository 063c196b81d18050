// The inspector's IPC inputs refuse bad values with a clear message (zod, src-shared/ipc/inspector.ts), and
// every diagnosis has a plain-language explanation in both languages.
import { describe, expect, it } from 'vitest';
import { inspectorMethods, type DiagnosisCode } from '../../src-shared/ipc/inspector.ts';
import { describeDiagnosis } from './explain.ts';

function refuses(name: keyof typeof inspectorMethods, input: unknown): string {
  const parsed = inspectorMethods[name].input.safeParse(input);
  expect(parsed.success).toBe(false);
  return parsed.success ? '' : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
}

describe('inspector IPC inputs', () => {
  it('refuses ports, statuses and delays outside their limits', () => {
    expect(refuses('inspectorConfigure', { port: 70_000 })).toMatch(/port/);
    expect(refuses('inspectorConfigure', { forcedStatus: 99 })).toMatch(/forcedStatus/);
    expect(refuses('inspectorConfigure', { delayMs: 30_001 })).toMatch(/delayMs/);
    expect(refuses('inspectorConfigure', { delayMs: 1.5 })).toMatch(/delayMs/);
    expect(inspectorMethods.inspectorConfigure.input.safeParse({ port: 0, forcedStatus: null, delayMs: 30_000 }).success).toBe(true);
  });

  it('refuses targets that are not http(s) or carry credentials', () => {
    for (const url of ['ftp://example.com/x', 'https://user:pw@example.com/x', 'not a url', 'javascript:alert(1)']) {
      expect(refuses('inspectorSendTest', { url, event: 'ping', secret: 'whsec_x' })).toMatch(/url/);
    }
    expect(inspectorMethods.inspectorSendTest.input.safeParse({ url: 'http://127.0.0.1:9/x', event: 'ping', useStoredSecret: true }).success).toBe(true);
  });

  it('needs a secret or the stored one, and a known event', () => {
    refuses('inspectorSendTest', { url: 'https://example.com', event: 'ping' });
    refuses('inspectorSendTest', { url: 'https://example.com', event: 'ping', secret: '' });
    refuses('inspectorSendTest', { url: 'https://example.com', event: 'image_pack.deleted', secret: 'whsec_x' });
    refuses('inspectorVerifyPasted', { raw: 'X: y' });
    refuses('inspectorVerifyPasted', { secret: 'whsec_x' });
    expect(inspectorMethods.inspectorVerifyPasted.input.safeParse({ headers: 'X: y', body: '', useStoredSecret: true }).success).toBe(true);
  });

  it('caps pasted bodies near the receiver limit', () => {
    refuses('inspectorVerifyPasted', { headers: 'X: y', body: 'a'.repeat(1024 * 1024 + 1), secret: 's' });
    refuses('inspectorExport', { requestId: 'r_1', format: 'xml' });
    refuses('inspectorFetchPublication', { publicationId: -1 });
  });
});

describe('diagnoses', () => {
  const codes: DiagnosisCode[] = [
    'valid', 'missing_header', 'unknown_event', 'timestamp_invalid', 'timestamp_stale', 'timestamp_future', 'no_v1_signature',
    'no_secret', 'wrong_secret', 'old_secret', 'timestamp_changed', 'body_changed', 'body_not_json', 'body_shape', 'too_large', 'wrong_path',
  ];
  it.each(codes)('explains %s in Chinese and English', (code) => {
    const params = { missing: 'x-service-timestamp', skew: 400, tolerance: 300, how: 'reserialized', replacedAt: Date.UTC(2026, 0, 2), bytes: 2_000_000, path: '/x', event: 'e', timestamp: 'abc', shape: 's', parts: 'v0=1', signedAt: '1790000000' };
    const zh = describeDiagnosis(code, params, 'zh');
    const en = describeDiagnosis(code, params, 'en');
    expect(zh.message).toMatch(/[\u4e00-\u9fff]/);
    expect(en.message).toMatch(/^[\x20-\x7e…’]+$/);
    expect(zh.message).not.toContain('undefined');
    expect(en.message).not.toContain('undefined');
  });
});
