// The preload (DESIGN.md §2): exposes exactly the IPC contract's named functions as window.api, built from
// IPC_METHODS, plus `on` for the contract's events and `imageUrl` for the app's one file protocol. Nothing
// else crosses: no ipcRenderer, no event objects (their `sender` would leak ipcRenderer), no Node.
// Built as CommonJS (out/preload/index.cjs) because a sandboxed preload cannot be an ES module.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import type { IpcResult } from '../src-shared/ipc/contract.ts';
import { withEarlySettings } from '../src-shared/ipc/early-settings.ts';
import { EARLY_SETTINGS_MS, IPC_EVENT_NAMES, IPC_METHODS, type ImageUrlKind, type IpcEventName, type IpcMethodName, type StudioApi } from '../src-shared/ipc/index.ts';

type MethodFunctions = Omit<StudioApi, 'on' | 'imageUrl'>;

function methodFunctions(): MethodFunctions {
  const functions: Partial<Record<IpcMethodName, (input: unknown) => Promise<IpcResult<unknown>>>> = {};
  for (const name of Object.keys(IPC_METHODS) as IpcMethodName[]) {
    const channel = IPC_METHODS[name].channel;
    // Like the harness's client: a call without input sends {} (every contract input is an object).
    functions[name] = (input: unknown) => ipcRenderer.invoke(channel, input === undefined ? {} : input) as Promise<IpcResult<unknown>>;
  }
  return functions as MethodFunctions;
}

const EVENTS: ReadonlySet<string> = new Set(IPC_EVENT_NAMES);

const api = {
  // The settings are asked for as the window opens: the renderer's first render waits for them.
  ...withEarlySettings(methodFunctions(), EARLY_SETTINGS_MS),
  on(event: IpcEventName, listener: (payload: never) => void): () => void {
    if (!EVENTS.has(event)) throw new Error(`Unknown event: ${String(event)}`);
    if (typeof listener !== 'function') throw new TypeError('listener must be a function');
    const forward = (_event: IpcRendererEvent, payload: unknown) => listener(payload as never);
    ipcRenderer.on(event, forward);
    return () => {
      ipcRenderer.removeListener(event, forward);
    };
  },
  imageUrl(kind: ImageUrlKind, imageId: string): string {
    return `studio-image://${encodeURIComponent(kind)}/${encodeURIComponent(imageId)}`;
  },
} satisfies StudioApi;

contextBridge.exposeInMainWorld('api', api);
