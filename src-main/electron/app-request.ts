// The renderer's own files, as the `app://studio/…` protocol (Electron) and the harness's static route serve
// them: which file a URL path names inside the built renderer folder, and its content type. Runtime-free, so
// the path rules are tested in plain Node.
import { extname, isAbsolute, relative, resolve } from 'node:path';

/** The renderer is served from `app://studio/` (a standard, secure scheme: its origin is `app://studio`). */
export const APP_SCHEME = 'app';
export const APP_HOST = 'studio';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_INDEX_URL = `${APP_ORIGIN}/index.html`;

const RENDERER_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
};

export function rendererAssetType(file: string): string {
  return RENDERER_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * The file a URL path (still percent-encoded, e.g. `/assets/index-abc.js`) names inside `rendererDir`, or null
 * when it is not a path inside it: bad percent-encoding, a NUL, `..` (also as `%2e%2e` or `%2f`), the folder itself.
 */
export function rendererAssetPath(rendererDir: string, pathname: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  const root = resolve(rendererDir);
  const file = resolve(root, '.' + (decoded.startsWith('/') ? decoded : `/${decoded}`));
  const rel = relative(root, file);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return null;
  return file;
}

/** The file an `app://studio/…` URL names in the renderer folder; null for another scheme or host, or a path outside. */
export function appRequestPath(url: string, rendererDir: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== `${APP_SCHEME}:` || parsed.host.toLowerCase() !== APP_HOST || parsed.username !== '' || parsed.password !== '') return null;
  return rendererAssetPath(rendererDir, parsed.pathname);
}
