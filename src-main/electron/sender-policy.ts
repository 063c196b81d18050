// Which renderer may call main (STYLE.md "IPC": main checks the sender frame). Runtime-free so it is
// tested in plain Node; src-main/electron/ipc-handlers.ts applies it to `event.senderFrame`.
import { APP_HOST, APP_SCHEME } from './app-request.ts';

export interface TrustedRenderer {
  /** The electron-vite dev server (ELECTRON_RENDERER_URL) in development only. */
  devServerUrl?: string | null;
}

/**
 * True only for the app's own page: `app://studio/index.html` (any hash or query), or a page of the dev
 * server's origin. A file:// page is never the app's (the renderer is not loaded from disk by path).
 */
export function isTrustedRendererUrl(url: string, trusted: TrustedRenderer): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol === `${APP_SCHEME}:`) {
    return parsed.host.toLowerCase() === APP_HOST && parsed.pathname === '/index.html' && parsed.username === '' && parsed.password === '';
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
