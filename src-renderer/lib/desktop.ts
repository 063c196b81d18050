// The only file that touches window.api (STYLE.md): the preload's bridge in Electron, the harness's client in
// a browser. Everything else imports these functions, so the bridge can be swapped without touching features.
import { sheetId } from '../../src-shared/image-sheet.ts';
import { appText, textNow } from '../i18n/text.ts';
import type { ImageKind, ImageUrlKind, IpcError, IpcEventName, IpcEvents, IpcMethodName, IpcMethods, MethodInputOf, MethodOutputOf, StudioApi } from './ipc-types.ts';

/** An IPC failure as a thrown value, so react-query sees it as an error and the UI can read `.ipc`. */
export class DesktopError extends Error {
  readonly ipc: IpcError;
  constructor(ipc: IpcError) {
    super(ipc.message);
    this.name = 'DesktopError';
    this.ipc = ipc;
  }
}

function bridge(): StudioApi | null {
  return typeof window !== 'undefined' && typeof window.api === 'object' && window.api !== null ? window.api : null;
}

function noBridge(): IpcError {
  return { code: 'no_bridge', message: textNow(appText)('errors.noBridge') };
}

/** Calls one contract method and unwraps its result; a failure throws a DesktopError. */
export async function call<K extends IpcMethodName>(name: K, input: MethodInputOf<K>): Promise<MethodOutputOf<K>> {
  const api = bridge();
  if (!api) throw new DesktopError(noBridge());
  const fn = api[name] as unknown as (i: MethodInputOf<K>) => Promise<{ ok: true; value: MethodOutputOf<K> } | { ok: false; error: IpcError }>;
  let result;
  try {
    result = await fn(input);
  } catch (err) {
    throw new DesktopError({ code: 'bridge_failed', message: err instanceof Error ? err.message : String(err) });
  }
  if (!result.ok) throw new DesktopError(result.error);
  return result.value;
}

/** Subscribes to a main → renderer event; returns the unsubscribe function. */
export function onEvent<E extends IpcEventName>(event: E, listener: (payload: IpcEvents[E]) => void): () => void {
  const api = bridge();
  if (!api) return () => {};
  return api.on(event, listener);
}

/** URL of an image file through the app's protocol; thumbnails for the gallery, full for the viewer. */
export function imageUrl(kind: ImageKind, imageId: string): string {
  const api = bridge();
  return api ? api.imageUrl(kind, imageId) : '';
}

/** URL of one image holding the thumbnails of up to SHEET_MOST images side by side, as square tiles in this order
 *  (src-shared/image-sheet.ts; main's files/thumbnail-sheet.ts): one request where each image would be one. */
export function imageSheetUrl(imageIds: readonly string[]): string {
  const api = bridge();
  return api ? api.imageUrl('sheet' satisfies ImageUrlKind, sheetId(imageIds)) : '';
}

export type { IpcMethods };
