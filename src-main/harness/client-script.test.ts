// The harness's client script, run as the browser would run it (a classic script in its own global), against a
// recorded fetch: window.api has the contract's shape and takes its early settings as the preload does (the
// same function, src-shared/ipc/early-settings.ts, serialised into the script).
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { IPC_METHODS } from '../../src-shared/ipc/index.ts';
import { harnessClientScript } from './client-script.ts';

const ORIGIN = 'http://127.0.0.1:4567';

function loadClient() {
  const posted: Array<{ url: string; body: unknown }> = [];
  const sockets: string[] = [];
  const window: Record<string, unknown> = {};
  const fetch = async (url: string, init: { body: string }) => {
    posted.push({ url, body: JSON.parse(init.body) as unknown });
    return { status: 200, json: async () => ({ ok: true, value: url }) };
  };
  class WebSocket {
    constructor(url: string) {
      sockets.push(url);
    }
  }
  // The page runs somewhere else: nothing the script asks for may follow the page's location.
  runInNewContext(harnessClientScript('tok', ORIGIN), { window, fetch, WebSocket, location: { protocol: 'http:', host: '127.0.0.1:9999' }, setTimeout, console });
  return { api: window.api as Record<string, (input?: unknown) => Promise<unknown>>, posted, sockets };
}

describe('harness client script', () => {
  it('defines window.api with every contract method, on and imageUrl', () => {
    const { api } = loadClient();
    expect(Object.keys(api).sort()).toEqual([...Object.keys(IPC_METHODS), 'imageUrl', 'on'].sort());
  });

  it("addresses every request to the harness's own origin, never relative to the page", async () => {
    const { api, posted, sockets } = loadClient();
    await api.libraryGetImage!({ imageId: 'img_A' });
    expect(posted.map((p) => p.url)).toEqual([`${ORIGIN}/ipc/settings%3Aget`, `${ORIGIN}/ipc/${encodeURIComponent(IPC_METHODS.libraryGetImage.channel)}`]);
    expect(sockets).toEqual(['ws://127.0.0.1:4567/events?token=tok']);
    expect((api.imageUrl as unknown as (kind: string, id: string) => string)('thumb', 'img_A')).toBe(`${ORIGIN}/studio-image/thumb/img_A?token=tok`);
  });

  it('asks for the settings as it loads; the first settingsGet() takes that answer, later ones ask again', async () => {
    const { api, posted } = loadClient();
    expect(posted).toEqual([{ url: `${ORIGIN}/ipc/settings%3Aget`, body: {} }]);
    await expect(api.settingsGet!()).resolves.toEqual({ ok: true, value: `${ORIGIN}/ipc/settings%3Aget` });
    expect(posted).toHaveLength(1);
    await api.settingsGet!();
    expect(posted).toHaveLength(2);
  });
});
