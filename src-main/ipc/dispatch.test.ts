import { describe, expect, it } from 'vitest';
import { StudioError } from '../domain/errors.ts';
import { dispatch, holdsSecret, type IpcHandlers } from './dispatch.ts';

function handlers(partial: Partial<Record<string, (input: unknown) => Promise<unknown>>>): IpcHandlers {
  return partial as unknown as IpcHandlers;
}

describe('IPC dispatch', () => {
  it('blocks a reply that holds a known secret or anything shaped like a key', async () => {
    const leaky = handlers({ settingsGet: async () => ({ note: 'my-very-secret-token' }) });
    const blocked = await dispatch(leaky, 'settingsGet', {}, 'en', () => ['my-very-secret-token']);
    expect(blocked).toMatchObject({ ok: false, error: { code: 'secret_blocked' } });
    expect(JSON.stringify(blocked)).not.toContain('my-very-secret-token');
    const shaped = handlers({ settingsGet: async () => ({ key: `sk_${'a'.repeat(32)}` }) });
    expect(await dispatch(shaped, 'settingsGet', {}, 'en')).toMatchObject({ ok: false, error: { code: 'secret_blocked' } });
    expect(holdsSecret('a prompt about sk_ prefixes', [])).toBe(false);
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
