// `studio-image://<kind>/<id>`: the one protocol through which the renderer reads files (DESIGN.md §2 rule 5).
// Registered as a privileged standard, secure scheme before `ready`; handled after it with the core's
// imageFile and a check that the file lies inside the app's data folder.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { protocol, type CustomScheme } from 'electron';
import type { StudioApp } from '../app/studio-app.ts';
import { APP_SCHEME } from './app-request.ts';
import { BAD_IMAGE_REQUEST, fileInside, imageContentType, parseImageRequest, parseSheetRequest, sheetHeaders } from './image-request.ts';

export const IMAGE_SCHEME = 'studio-image';

/**
 * Must run before app `ready`, once: each call of registerSchemesAsPrivileged replaces the last, so both of
 * the app's schemes are registered together. `app://` serves the renderer (app-protocol.ts): standard and
 * secure so its origin is `app://studio` and 'self' in the CSP covers it; CORS-enabled for module scripts.
 */
export function registerAppSchemes(): void {
  const schemes: CustomScheme[] = [
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, stream: true, corsEnabled: true } },
    { scheme: IMAGE_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, stream: true, corsEnabled: false } },
  ];
  protocol.registerSchemesAsPrivileged(schemes);
}

export function handleImageProtocol(app: StudioApp, dataDir: string): void {
  protocol.handle(IMAGE_SCHEME, async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return new Response('Method not allowed', { status: 405 });
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return new Response('Bad image URL', { status: 400 });
    }
    let id: string;
    try {
      id = decodeURIComponent(url.pathname.replace(/^\//, ''));
    } catch {
      return new Response('Bad image URL', { status: 400 });
    }
    const sheetIds = parseSheetRequest(url.hostname, id);
    if (sheetIds) {
      const sheet = await app.imageSheet(sheetIds);
      return new Response(request.method === 'HEAD' ? null : new Uint8Array(sheet.bytes), { status: 200, headers: sheetHeaders(sheet) });
    }
    const parsed = parseImageRequest(url.hostname, id);
    if (!parsed) return new Response(BAD_IMAGE_REQUEST, { status: 400 });
    const path = await app.imageFile(parsed.kind, parsed.id);
    const file = path === null ? null : await fileInside(dataDir, path);
    if (file === null) return new Response('No such image on disk.', { status: 404 });
    // Streamed directly, not through net.fetch(file://): the session refuses every file:// request.
    const { size } = await stat(file);
    const headers = { 'content-type': imageContentType(file), 'content-length': String(size), 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' };
    if (request.method === 'HEAD') return new Response(null, { status: 200, headers });
    return new Response(Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>, { status: 200, headers });
  });
}
