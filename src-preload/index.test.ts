// The preload's bridge, checked in Node: Electron cannot run on this machine, so `electron` is replaced by a
// stand-in that records what the preload exposes and sends. The real bridge runs in e2e/electron.spec.ts
// wherever an Electron binary exists.
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { EARLY_SETTINGS_MS, IPC_EVENT_NAMES, IPC_METHODS } from '../src-shared/ipc/index.ts';

const exposed: Record<string, unknown> = {};
const invoked: Array<{ channel: string; input: unknown }> = [];
const subscribed = new Map<string, Set<(...args: unknown[]) => void>>();

vi.mock('electron', () => ({
  contextBridge: {
    exposeInMainWorld: (key: string, value: unknown) => {
      exposed[key] = value;
    },
  },
  ipcRenderer: {
    invoke: (channel: string, input: unknown) => {
      invoked.push({ channel, input });
      return Promise.resolve({ ok: true, value: channel });
    },
    on: (channel: string, listener: (...args: unknown[]) => void) => {
      const set = subscribed.get(channel) ?? new Set();
      subscribed.set(channel, set);
      set.add(listener);
    },
    removeListener: (channel: string, listener: (...args: unknown[]) => void) => {
      subscribed.get(channel)?.delete(listener);
    },
  },
}));

type Api = Record<string, (...args: unknown[]) => unknown>;
let api: Api;
let sentAsLoaded: Array<{ channel: string; input: unknown }> = [];

beforeAll(async () => {
  await import('./index.ts');
  api = exposed.api as Api;
  sentAsLoaded = [...invoked];
});

describe('preload bridge', () => {
  // Runs first: the early answer is there for the first call only.
  it('asks main for the settings as the window opens; the first settingsGet() takes that answer, later ones ask again', async () => {
    expect(sentAsLoaded).toEqual([{ channel: 'settings:get', input: {} }]);
    invoked.length = 0;
    await expect(api.settingsGet!()).resolves.toEqual({ ok: true, value: 'settings:get' });
    expect(invoked).toEqual([]);
    await api.settingsGet!({});
    expect(invoked).toEqual([{ channel: 'settings:get', input: {} }]);
  });

  it('exposes only window.api, with exactly the contract functions plus on and imageUrl', () => {
    expect(Object.keys(exposed)).toEqual(['api']);
    expect(Object.keys(api).sort()).toEqual([...Object.keys(IPC_METHODS), 'on', 'imageUrl'].sort());
    for (const value of Object.values(api)) expect(typeof value).toBe('function');
  });

  it('sends each method on its contract channel with the input unchanged', async () => {
    for (const [name, method] of Object.entries(IPC_METHODS)) {
      invoked.length = 0;
      const input = { probe: name };
      await expect(api[name]!(input)).resolves.toEqual({ ok: true, value: method.channel });
      expect(invoked).toEqual([{ channel: method.channel, input }]);
    }
  });

  it('sends {} for a call without input, as the harness does', async () => {
    invoked.length = 0;
    await api.settingsGet!();
    expect(invoked).toEqual([{ channel: 'settings:get', input: {} }]);
  });

  it('delivers event payloads without the Electron event object, and unsubscribes', () => {
    const seen: unknown[] = [];
    const off = api.on!('library:changed', (...args: unknown[]) => seen.push(args)) as () => void;
    const [listener] = subscribed.get('library:changed') ?? [];
    listener?.({ sender: 'ipcRenderer would leak here' }, { kind: 'turn', id: 'lt_1' });
    expect(seen).toEqual([[{ kind: 'turn', id: 'lt_1' }]]);
    off();
    expect(subscribed.get('library:changed')?.size).toBe(0);
  });

  it('refuses events outside the contract', () => {
    expect(() => api.on!('ipc:raw', () => undefined)).toThrow('Unknown event');
    expect(subscribed.has('ipc:raw')).toBe(false);
    for (const event of IPC_EVENT_NAMES) (api.on!(event, () => undefined) as () => void)();
  });

  it('builds image URLs on the app protocol with the id escaped', () => {
    expect(api.imageUrl!('thumb', 'img_AbCd1234')).toBe('studio-image://thumb/img_AbCd1234');
    expect(api.imageUrl!('full', '../x')).toBe('studio-image://full/..%2Fx');
  });
});

describe('preload bridge, the early settings answer', () => {
  async function freshBridge(): Promise<Api> {
    vi.resetModules();
    await import('./index.ts');
    return exposed.api as Api;
  }

  it('is dropped after EARLY_SETTINGS_MS: a later first call asks main', async () => {
    vi.useFakeTimers();
    try {
      invoked.length = 0;
      const fresh = await freshBridge();
      expect(invoked).toEqual([{ channel: 'settings:get', input: {} }]);
      vi.advanceTimersByTime(EARLY_SETTINGS_MS);
      await fresh.settingsGet!();
      expect(invoked).toEqual([
        { channel: 'settings:get', input: {} },
        { channel: 'settings:get', input: {} },
      ]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('is not given to a call with input, and that call ends it', async () => {
    invoked.length = 0;
    const fresh = await freshBridge();
    await fresh.settingsGet!({ probe: 1 });
    await fresh.settingsGet!();
    expect(invoked).toEqual([
      { channel: 'settings:get', input: {} },
      { channel: 'settings:get', input: { probe: 1 } },
      { channel: 'settings:get', input: {} },
    ]);
  });
});
