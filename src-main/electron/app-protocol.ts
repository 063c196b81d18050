// `app://studio/…`: the renderer's own files (out/renderer), served by main instead of loaded from file://, so
// the page has a real origin and the grantFileProtocolExtraPrivileges fuse can be off (electron-builder.yml).
// Only files inside the renderer folder (symlinks resolved), only GET and HEAD; the path rules are in
// app-request.ts. The registration with the other privileged scheme is in image-protocol.ts.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { protocol } from 'electron';
import { APP_SCHEME, appRequestPath, rendererAssetType } from './app-request.ts';
import { CONTENT_SECURITY_POLICY } from './content-security-policy.ts';
import { fileInside } from './image-request.ts';

function notFound(): Response {
  return new Response('Not found.', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } });
}

async function servedFile(url: string, rendererDir: string): Promise<{ file: string; size: number } | null> {
  const named = appRequestPath(url, rendererDir);
  const file = named === null ? null : await fileInside(rendererDir, named);
  if (file === null) return null;
  const info = await stat(file).catch(() => null);
  return info?.isFile() ? { file, size: info.size } : null;
}

export function handleAppProtocol(rendererDir: string): void {
  protocol.handle(APP_SCHEME, async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return new Response('Method not allowed', { status: 405 });
    const served = await servedFile(request.url, rendererDir);
    if (served === null) return notFound();
    const headers: Record<string, string> = {
      'content-type': rendererAssetType(served.file),
      'content-length': String(served.size),
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    };
    // With the page itself, whether or not the session's onHeadersReceived sees custom-protocol answers
    // (window.ts adds the same policy there): the directives a <meta> cannot carry (frame-ancestors).
    headers['content-security-policy'] = CONTENT_SECURITY_POLICY;
    if (request.method === 'HEAD') return new Response(null, { status: 200, headers });
    return new Response(Readable.toWeb(createReadStream(served.file)) as ReadableStream<Uint8Array>, { status: 200, headers });
  });
}
