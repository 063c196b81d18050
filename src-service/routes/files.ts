// GET /api/file/:filename (spec §4.2) and GET /direct/:filename (docs/local-service.md "Direct links"). Both answer
// plain-text errors. The 302 points to the direct-link origin (a second port of the same host, as production serves
// files from another host), where a request carrying Authorization is a client bug (it leaks the key) and answers 400.
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { Hono, type Context } from 'hono';
import { isFilename, newId } from '../../src-shared/ids.ts';
import type { AppEnv, ServiceDeps } from '../deps.ts';
import { refuseDeclaredTooLarge } from '../http/body.ts';
import { plainTextError } from '../http/errors.ts';
import { applyRequestFaults } from '../faults.ts';
import { createFileService } from '../services/files.ts';

const DIRECT_MESSAGES = {
  expired: { zh: '下载链接已过期，请重新通过 /api/file 获取。', en: 'The download link has expired; request it again through /api/file.' },
  bad_signature: { zh: '下载链接的签名无效。', en: 'The download link signature is not valid.' },
  missing: { zh: '文件不存在或已被清理。', en: 'The file does not exist or was cleaned up.' },
  key_sent: {
    zh: '下载链接不接受 Authorization 请求头：跟随 302 时不要带上 API Key（它会泄露给文件主机）。',
    en: 'The direct link refuses an Authorization header: follow the 302 without the API key (it would leak to the file host).',
  },
  get_only: { zh: '下载链接只接受 GET。', en: 'A direct link answers GET only.' },
  no_route: { zh: '此端口只提供下载链接 /direct/<文件名>。', en: 'This port serves only direct links, /direct/<filename>.' },
} as const;

type FileService = ReturnType<typeof createFileService>;

export function registerFileRoutes(app: Hono<AppEnv>, deps: ServiceDeps): void {
  const service = createFileService(deps);

  app.get('/api/file/:filename', deps.requireApiKey('assets:read'), async (c) => {
    const filename = c.req.param('filename');
    if (!isFilename(filename)) deps.fail('not_found', { what: filename });
    const faults = await applyRequestFaults(deps.faults, 'file', c.get('auth'), deps.settings.get().default_rate_limit_per_24h);
    // An absolute Location on the direct-link origin the service opened; the Host header is the client's to
    // forge, so it never picks where the key holder is sent.
    const link = service.directLink(c.get('auth').accountId, filename, { expired: faults.expiredLink });
    return c.redirect(`${deps.directBaseUrl()}${link}`, 302);
  });

  // Links given out before the direct-link origin existed keep working on the service's own origin.
  app.get('/direct/:filename', (c) => serveDirect(c, service));
}

/**
 * The app of the direct-link origin: only GET /direct/:filename, and a 400 for any request carrying Authorization
 * (production's file host would receive the key; here the client bug is caught). Its own request id on each answer.
 */
export function createDirectLinkApp(deps: ServiceDeps): Hono<AppEnv> {
  const service = createFileService(deps);
  const app = new Hono<AppEnv>();
  app.use('*', async (c, next) => {
    const id = newId('request');
    c.set('requestId', id);
    c.header('X-Request-Id', id);
    if (c.req.header('authorization') !== undefined) return plainTextError(c, 400, DIRECT_MESSAGES.key_sent);
    // The same body limit as the service's own origin (a GET has no business sending one).
    const refused = refuseDeclaredTooLarge(c);
    if (refused) return refused;
    await next();
  });
  app.get('/direct/:filename', (c) => serveDirect(c, service));
  app.on(['POST', 'PUT', 'PATCH', 'DELETE'], '/direct/:filename', (c) => {
    const refused = plainTextError(c, 405, DIRECT_MESSAGES.get_only);
    refused.headers.set('Allow', 'GET, HEAD');
    return refused;
  });
  app.notFound((c) => plainTextError(c, 404, DIRECT_MESSAGES.no_route));
  app.onError((error, c) => {
    deps.logger.error({ err: error, path: c.req.path }, 'direct link failed');
    return plainTextError(c, 500, { zh: '读取文件失败。', en: 'The file could not be read.' });
  });
  return app;
}

async function serveDirect(c: Context<AppEnv>, service: FileService): Promise<Response> {
  const filename = c.req.param('filename') ?? '';
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
}
