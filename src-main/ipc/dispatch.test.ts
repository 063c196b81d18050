import { describe, expect, it } from 'vitest';
import { StudioError } from '../domain/errors.ts';
import { dispatch, type IpcHandlers } from './dispatch.ts';

function handlers(partial: Partial<Record<string, (input: unknown) => Promise<unknown>>>): IpcHandlers {
  return partial as unknown as IpcHandlers;
}

describe('IPC dispatch', () => {
  it('redacts a known secret or anything shaped like a key, and still answers', async () => {
    const key = `sk_${'a'.repeat(32)}`;
    const leaky = handlers({ settingsGet: async () => ({ note: 'token my-very-secret-token here', prompt: `a bottle labelled ${key}`, n: 3 }) });
    const reply = await dispatch(leaky, 'settingsGet', {}, 'en', () => ['my-very-secret-token']);
    expect(reply).toEqual({ ok: true, value: { note: 'token [redacted] here', prompt: 'a bottle labelled sk_[redacted]', n: 3 } });
    // Errors are screened too: a thrown message that echoes an Authorization header.
    const echo = handlers({ keyClear: async () => { throw new Error(`upstream said: Authorization: Bearer ${key}`); } });
    const failed = await dispatch(echo, 'keyClear', { environment: 'local' }, 'en');
    expect(failed.ok).toBe(false);
    expect(JSON.stringify(failed)).not.toContain(key);
    expect(JSON.stringify(failed)).toContain('Bearer [redacted]');
  });

  it('lets the one-time key of localCreateKey through once, and nothing else in that reply', async () => {
    const key = `sk_${'c'.repeat(32)}`;
    const create = handlers({ localCreateKey: async () => ({ keyId: 'key_1', oneTimeKey: key, note: `copy ${key}` }) });
    const reply = await dispatch(create, 'localCreateKey', { name: 'ci', scopes: ['generate:write'] }, 'en', () => [key]);
    expect(reply).toEqual({ ok: true, value: { keyId: 'key_1', oneTimeKey: key, note: 'copy [redacted]' } });
    // The same field name on any other method is screened.
    const other = handlers({ settingsGet: async () => ({ oneTimeKey: key }) });
    expect(await dispatch(other, 'settingsGet', {}, 'en')).toEqual({ ok: true, value: { oneTimeKey: 'sk_[redacted]' } });
  });

  it('lets the inspector secret through on inspectorRevealSecret only, the field named secret', async () => {
    const secret = `whsec_${'d'.repeat(32)}`;
    const reveal = handlers({ inspectorRevealSecret: async () => ({ secret }) });
    expect(await dispatch(reveal, 'inspectorRevealSecret', {}, 'en', () => [secret])).toEqual({ ok: true, value: { secret } });
    const other = handlers({ inspectorStatus: async () => ({ secret }) } as never);
    expect(JSON.stringify(await dispatch(other, 'inspectorStatus', {}, 'en', () => [secret]))).not.toContain(secret);
  });

  it('turns thrown errors into values and never throws', async () => {
    const failing = handlers({
      settingsGet: async () => {
        throw new StudioError('no_api_key', { environment: 'remote' });
      },
      keyClear: async () => {
        throw new TypeError('boom');
      },
      keySet: async () => {
        throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
      },
    });
    // The text comes from the catalog in the language of the call, the facts stay as details.
    expect(await dispatch(failing, 'settingsGet', {}, 'en')).toEqual({
      ok: false,
      error: { code: 'no_api_key', message: 'This environment has no API key yet; enter one in Settings.', details: { environment: 'remote' } },
    });
    expect(await dispatch(failing, 'settingsGet', {}, 'zh')).toMatchObject({ ok: false, error: { code: 'no_api_key', message: '该环境还没有 API 密钥，请在设置中填写。' } });
    expect(await dispatch(failing, 'keyClear', { environment: 'local' }, 'en')).toMatchObject({ ok: false, error: { code: 'internal', message: expect.stringContaining('boom'), details: { cause: 'boom' } } });
    expect(await dispatch(failing, 'keySet', { environment: 'local', key: `sk_${'b'.repeat(32)}` }, 'en')).toMatchObject({ ok: false, error: { code: 'disk_full' } });
    expect(await dispatch(failing, 'keyClear', { environment: 'moon' }, 'zh')).toMatchObject({ ok: false, error: { code: 'invalid_input', details: { field: 'environment' } } });
    expect(await dispatch(failing, 'toString', {}, 'en')).toMatchObject({ ok: false, error: { code: 'unknown_method' } });
  });
});

describe('IPC dispatch of ids and header values', () => {
  it('answers invalid_input naming the field for a lone surrogate id or a non-ASCII idempotency key, before the handler', async () => {
    const called: string[] = [];
    const local = handlers({
      localRevokeKey: async () => called.push('localRevokeKey'),
      localPackPublish: async () => called.push('localPackPublish'),
      libraryGetImage: async () => called.push('libraryGetImage'),
    });
    expect(await dispatch(local, 'localRevokeKey', { keyId: 'key_\uD800' }, 'en')).toMatchObject({ ok: false, error: { code: 'invalid_input', details: { field: 'keyId' } } });
    expect(await dispatch(local, 'localPackPublish', { packId: 'pk_AbCd1234', idempotencyKey: 'clé-1' }, 'en')).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', details: { field: 'idempotencyKey' } },
    });
    expect(await dispatch(local, 'libraryGetImage', { imageId: 'x'.repeat(65) }, 'en')).toMatchObject({ ok: false, error: { code: 'invalid_input', details: { field: 'imageId' } } });
    expect(called).toEqual([]);
    // Ids and keys the app hands out still pass.
    expect(await dispatch(local, 'localPackPublish', { packId: 'pk_AbCd1234', idempotencyKey: 'publish-1' }, 'en')).toMatchObject({ ok: true });
    expect(called).toEqual(['localPackPublish']);
  });

  it('bounds a pack update like a pack create: the style code and the image ids', async () => {
    const update = handlers({ localPackUpdate: async () => ({}) });
    expect(await dispatch(update, 'localPackUpdate', { packId: 'pk_AbCd1234', styleCode: 'x'.repeat(65) }, 'en')).toMatchObject({ ok: false, error: { code: 'invalid_input', details: { field: 'styleCode' } } });
    expect(await dispatch(update, 'localPackUpdate', { packId: 'pk_AbCd1234', imageIds: ['img_ok', '../img'] }, 'en')).toMatchObject({ ok: false, error: { code: 'invalid_input', details: { field: 'imageIds.1' } } });
    expect(await dispatch(update, 'localPackUpdate', { packId: 'pk_AbCd1234', styleCode: ' SPRING ', imageIds: ['img_AbCd1234'] }, 'en')).toMatchObject({ ok: true });
  });

  it('refuses an API key with a non-ASCII character before it reaches an Authorization header', async () => {
    const set = handlers({ keySet: async () => ({}) });
    expect(await dispatch(set, 'keySet', { environment: 'remote', key: `sk_${'a'.repeat(30)}é` }, 'en')).toMatchObject({ ok: false, error: { code: 'invalid_input', details: { field: 'key' } } });
    expect(await dispatch(set, 'keySet', { environment: 'remote', key: `sk_${'a'.repeat(32)}` }, 'en')).toMatchObject({ ok: true });
  });
});

describe('IPC dispatch of a generation request', () => {
  it('refuses reference ids outside the id rule or too many of them, naming the field', async () => {
    const start = handlers({ generateStart: async () => ({ turnId: 'lt_1' }) });
    expect(await dispatch(start, 'generateStart', { request: { prompt: 'a mug', ref_image_ids: ['img_\uDC00'] } }, 'en')).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', details: { field: 'request.ref_image_ids.0' } },
    });
    const many = Array.from({ length: 101 }, (_, i) => `img_${i}`);
    expect(await dispatch(start, 'generateStart', { request: { prompt: 'a mug', ref_image_ids: many } }, 'en')).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(await dispatch(start, 'generateStart', { request: { prompt: 'a mug', ref_image_ids: ['img_AbCd1234'] }, sessionId: 'ls_AbCdEf1234' }, 'en')).toMatchObject({ ok: true });
  });
});
