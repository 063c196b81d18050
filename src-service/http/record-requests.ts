// The middleware that feeds the request ledger (services/request-ledger.ts): every request under /api, and any
// other request whose answer names a webhook delivery it queued (X-Service-Delivery: an admin publish). The entry
// is handed over only after the answer has been produced, and its bodies are read off the critical path.
import type { MiddlewareHandler } from 'hono';
import type { RequestRoute } from '../../src-shared/admin.ts';
import type { AppEnv, ServiceDeps } from '../deps.ts';
import { runNotingRequest } from '../services/request-ledger.ts';
import { bodyTextIfRead } from './body.ts';

/** Route names of the ledger (the `route` filter of GET /admin/requests), by path. */
const ROUTES: Array<[RegExp, RequestRoute]> = [
  [/^\/api\/v1\/generate\/?$/, 'generate'],
  [/^\/api\/file(\/|$)/, 'file'],
  [/^\/api\/v1\/image-pack-publications(\/|$)/, 'publication'],
  [/^\/admin\/image-packs\/[^/]+\/publish\/?$/, 'publish'],
];

/** The ledger's name for the route of `path`; `other` for paths no route answers. */
export function routeNameOf(path: string): RequestRoute {
  return ROUTES.find(([pattern]) => pattern.test(path))?.[1] ?? 'other';
}

/** The response body as text when it is text; a binary answer is described, not kept. */
async function responseTextOf(response: Response): Promise<string> {
  const type = response.headers.get('content-type') ?? '';
  if (response.body === null) return '';
  if (!/^(application\/json|text\/)/.test(type)) return `[${type || 'body'} not kept]`;
  return response.clone().text();
}

export function recordRequests(deps: Pick<ServiceDeps, 'clock' | 'requests' | 'logger'>): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const atMs = deps.clock.now();
    const started = performance.now();
    const { notes, result } = runNotingRequest(() => next());
    await result;
    const delivery = c.res.headers.get('x-service-delivery');
    if (!c.req.path.startsWith('/api/') && delivery === null) return;
    const auth = c.get('auth') as AppEnv['Variables']['auth'] | undefined;
    const errorCode = (c.get('errorCode') as string | undefined) ?? null;
    const base = {
      requestId: c.get('requestId'),
      atMs,
      durationMs: Math.round(performance.now() - started),
      caller: { accountId: auth?.accountId ?? null, keyId: auth?.keyId ?? null },
      turnId: notes.turnId,
      deliveryIds: delivery === null ? [] : [delivery],
    };
    const asked = { method: c.req.method, path: c.req.path, route: routeNameOf(c.req.path) };
    const status = c.res.status;
    const requestBody = bodyTextIfRead(c) ?? Promise.resolve('');
    // Not awaited: the answer goes out now; the ledger gets the entry when both bodies are read.
    void Promise.all([requestBody.catch(() => ''), responseTextOf(c.res).catch(() => '')])
      .then(([requestText, responseText]) =>
        deps.requests.record({ ...base, asked: { ...asked, body: requestText }, answered: { status, errorCode, body: responseText } }),
      )
      .catch((error: unknown) => deps.logger.error({ err: error }, 'request ledger entry not recorded'));
  };
}
