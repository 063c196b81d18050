// IPC in Electron: one ipcMain.handle per contract method. Each call is refused unless it comes from the
// app's own renderer page (the sender frame's URL and a top frame), then handed to the core, which parses
// the input against the contract's schema and never throws (DESIGN.md §2 rule 2).
import type { IpcMain, IpcMainInvokeEvent } from 'electron';
import { IPC_METHODS, type IpcMethodName } from '../../src-shared/ipc/index.ts';
import type { IpcResult } from '../../src-shared/ipc/contract.ts';
import type { StudioApp } from '../app/studio-app.ts';
import { isTrustedRendererUrl, type TrustedRenderer } from './sender-policy.ts';

export function isTrustedSender(event: IpcMainInvokeEvent, trusted: TrustedRenderer): boolean {
  const frame = event.senderFrame;
  if (!frame || frame.isDestroyed() || frame.parent !== null) return false;
  return isTrustedRendererUrl(frame.url, trusted);
}

export function registerIpcHandlers(ipcMain: IpcMain, app: StudioApp, trusted: TrustedRenderer): () => void {
  const channels: string[] = [];
  for (const name of Object.keys(IPC_METHODS) as IpcMethodName[]) {
    const channel = IPC_METHODS[name].channel;
    channels.push(channel);
    ipcMain.handle(channel, async (event, input: unknown): Promise<IpcResult<unknown>> => {
      if (!isTrustedSender(event, trusted)) {
        return { ok: false, error: { code: 'forbidden_sender', message: 'This page may not call the app.' } };
      }
      try {
        return await app.invoke(name, input);
      } catch (err) {
        return { ok: false, error: { code: 'internal', message: err instanceof Error ? err.message : String(err) } };
      }
    });
  }
  return () => {
    for (const channel of channels) ipcMain.removeHandler(channel);
  };
}
