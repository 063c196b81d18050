// GET /api/file/:filename (spec §4.2) and GET /direct/:filename (DESIGN.md §3 "Files"). Both answer
// plain-text errors; the direct link never needs (and never reads) an Authorization header.
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import type { Hono } from 'hono';
import { isFilename } from '../../src-shared/ids.ts';
import type { AppEnv, ServiceDeps } from '../deps.ts';
import { plainTextError } from '../http/errors.ts';
import { applyRequestFaults } from '../faults.ts';
import { createFileService } from '../services/files.ts';

const DIRECT_MESSAGES = {
  expired: { zh: '下载链接已过期，请重新通过 /api/file 获取。', en: 'The download link has expired; request it again through /api/file.' },
  bad_signature: { zh: '下载链接的签名无效。', en: 'The download link signature is not valid.' },
  missing: { zh: '文件不存在或已被清理。', en: 'The file does not exist or was cleaned up.' },
} as const;

export function registerFileRoutes(app: Hono<AppEnv>, deps: ServiceDeps): void {
  const service = createFileService(deps);

  app.get('/api/file/:filename', deps.requireApiKey('assets:read'), async (c) => {
    const filename = c.req.param('filename');
    if (!isFilename(filename)) deps.fail('not_found', { what: filename });
    const faults = await applyRequestFaults(deps.faults, 'file', c.get('auth'), deps.settings.get().default_rate_limit_per_24h);
    // DESIGN.md §3 "Files": an absolute Location on the service's own base URL; the Host header is the
    // client's to forge, so it never picks where the key holder is sent.
    const link = service.directLink(c.get('auth').accountId, filename, { expired: faults.expiredLink });
    return c.redirect(`${deps.baseUrl()}${link}`, 302);
  });

  app.get('/direct/:filename', async (c) => {
    const filename = c.req.param('filename');
    if (!isFilename(filename)) return plainTextError(c, 404, DIRECT_MESSAGES.missing);
    const check = await service.checkDirect(filename, c.req.query('expires'), c.req.query('sig'));
    if (!check.ok) return plainTextError(c, check.status, DIRECT_MESSAGES[check.why]);
    const stream = Readable.toWeb(createReadStream(check.path)) as ReadableStream<Uint8Array>;
    return new Response(stream, {
      status: 200,
      headers: {
        'Content-Type': 'image/png',
        'Content-Length': String(check.size),
        'Cache-Control': 'private, max-age=3600',
        'X-Request-Id': c.get('requestId'),
      },
    });
  });
}
