// Which renderer may call main (STYLE.md "IPC": main checks the sender frame). Runtime-free so it is
// tested in plain Node; src-main/electron/ipc-handlers.ts applies it to `event.senderFrame`.
import { isAbsolute, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface TrustedRenderer {
  /** The built renderer's index.html on disk (file:// in production). */
  indexFile: string;
  /** The electron-vite dev server (ELECTRON_RENDERER_URL) in development only. */
  devServerUrl?: string | null;
}

/** True only for the app's own page: the exact index.html file, or a page of the dev server's origin. */
export function isTrustedRendererUrl(url: string, trusted: TrustedRenderer): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol === 'file:') {
    if (parsed.host !== '') return false;
    try {
      return resolve(fileURLToPath(parsed)) === resolve(trusted.indexFile);
    } catch {
      return false;
    }
  }
  if (trusted.devServerUrl) {
    try {
      return parsed.origin === new URL(trusted.devServerUrl).origin && (parsed.protocol === 'http:' || parsed.protocol === 'https:');
    } catch {
      return false;
    }
  }
  return false;
}

/** A file:// request the renderer may load: only files inside the built renderer's folder. */
export function isRendererAsset(url: string, rendererDir: string): boolean {
  let path: string;
  try {
    path = resolve(fileURLToPath(new URL(url)));
  } catch {
    return false;
  }
  const rel = relative(resolve(rendererDir), path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}
