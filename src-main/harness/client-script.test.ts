// The harness's client script, run as the browser would run it (a classic script in its own global), against a
// recorded fetch: window.api has the contract's shape and takes its early settings as the preload does (the
// same function, src-shared/ipc/early-settings.ts, serialised into the script).
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { IPC_METHODS } from '../../src-shared/ipc/index.ts';
import { harnessClientScript } from './client-script.ts';

function loadClient() {
  const posted: Array<{ url: string; body: unknown }> = [];
  const window: Record<string, unknown> = {};
  const fetch = async (url: string, init: { body: string }) => {
    posted.push({ url, body: JSON.parse(init.body) as unknown });
    return { status: 200, json: async () => ({ ok: true, value: url }) };
  };
  class WebSocket {}
  runInNewContext(harnessClientScript('tok'), { window, fetch, WebSocket, location: { protocol: 'http:', host: 'h' }, setTimeout, console });
  return { api: window.api as Record<string, (input?: unknown) => Promise<unknown>>, posted };
}

describe('harness client script', () => {
  it('defines window.api with every contract method, on and imageUrl', () => {
    const { api } = loadClient();
    expect(Object.keys(api).sort()).toEqual([...Object.keys(IPC_METHODS), 'imageUrl', 'on'].sort());
  });

  it('asks for the settings as it loads; the first settingsGet() takes that answer, later ones ask again', async () => {
    const { api, posted } = loadClient();
    expect(posted).toEqual([{ url: '/ipc/settings%3Aget', body: {} }]);
    await expect(api.settingsGet!()).resolves.toEqual({ ok: true, value: '/ipc/settings%3Aget' });
    expect(posted).toHaveLength(1);
    await api.settingsGet!();
    expect(posted).toHaveLength(2);
  });
});
