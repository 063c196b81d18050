// How a test calls the app as the renderer does: `call` answers the IpcResult, `ok` the value (or throws with
// the error). Every reply is handed to `saw` first, for the tests that scan replies for secrets.
import type { IpcResult } from '../../src-shared/ipc/contract.ts';
import type { IpcMethodName } from '../../src-shared/ipc/index.ts';
import type { StudioApp } from './studio-app.ts';

export interface IpcCalls {
  call<T = unknown>(method: IpcMethodName, input: unknown): Promise<IpcResult<T>>;
  ok<T = unknown>(method: IpcMethodName, input: unknown): Promise<T>;
}

/** `app` is read at each call, so a test may open (or reopen) its app after making these. */
export function ipcCalls(app: () => Pick<StudioApp, 'invoke'>, saw: (reply: IpcResult<unknown>) => void = () => {}): IpcCalls {
  const call = async <T,>(method: IpcMethodName, input: unknown): Promise<IpcResult<T>> => {
    const result = (await app().invoke(method, input)) as IpcResult<T>;
    saw(result);
    return result;
  };
  const ok = async <T,>(method: IpcMethodName, input: unknown): Promise<T> => {
    const result = await call<T>(method, input);
    if (!result.ok) throw new Error(`${method} failed: ${JSON.stringify(result.error)}`);
    return result.value;
  };
  return { call, ok };
}

/** Polls `probe` every 40 ms until it answers something truthy, and fails naming `what` after `timeoutMs`. */
export async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 40));
  }
}
