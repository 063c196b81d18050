// Shared by the inspector's tests (inspector.test.ts, integrators.test.ts): secrets, an independent node:crypto
// HMAC, a raw node:http POST, signed headers, and an inspector on a real receiver that closeOpened() stops.
import { createHmac, randomUUID } from 'node:crypto';
import { request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import { createInspectorHandlers, type InspectorHandlers } from './handlers.ts';
import { InspectorSecretKeeper } from './secrets.ts';
import { createTestContext, type TestContext } from './test-context.ts';

export const SECRET = 'whsec_' + 'A'.repeat(32);
export const OTHER = 'whsec_' + 'B'.repeat(32);

export function nodeHmac(secret: string, ts: number | string, body: Buffer | string): string {
  return createHmac('sha256', secret).update(`${ts}.`).update(body).digest('hex');
}

export const publishedBody = (packId = 'pk_Abcd1234', version = 3, id = 7, style = 'SS26') =>
  JSON.stringify({ event: 'image_pack.published', publication: { id, pack_id: packId, version, style_code: style, published_at: 1_790_000_000 } });

export interface Sent {
  status: number;
  body: string;
}

/** POSTs with node:http so headers and bytes are exactly what the test says. */
export function post(url: string, headers: Record<string, string>, body: Buffer | string, method = 'POST'): Promise<Sent> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) }, agent: false }, (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

export function signed(body: string, options: { secret?: string; ts?: number; deliveryId?: string; event?: string; signature?: string } = {}) {
  const ts = options.ts ?? Math.floor(Date.now() / 1000);
  return {
    'Content-Type': 'application/json',
    'User-Agent': 'service-webhook/1',
    'X-Service-Event': options.event ?? 'image_pack.published',
    'X-Service-Delivery': options.deliveryId ?? randomUUID(),
    'X-Service-Timestamp': String(ts),
    'X-Service-Signature': options.signature ?? `v1=${nodeHmac(options.secret ?? SECRET, ts, body)}`,
  };
}

export const open: Array<{ handlers: InspectorHandlers } | Server> = [];
/** Closes every inspector and server a test opened (call from afterEach). */
export async function closeOpened(): Promise<void> {
  for (const item of open.splice(0)) {
    if ('handlers' in item) await item.handlers.close();
    else await new Promise<void>((r) => item.close(() => r()));
  }
}

export async function startInspector(ctx?: TestContext, secrets: string[] = [SECRET]) {
  const context = ctx ?? (await createTestContext());
  const keeper = new InspectorSecretKeeper(context.secrets);
  for (const s of secrets) await keeper.replace(s, Date.UTC(2026, 10, 20, 8, 0, 0));
  const handlers = createInspectorHandlers(context);
  open.push({ handlers });
  await handlers.ready;
  const status = await handlers.inspectorStatus({});
  if (!status.url) throw new Error('receiver not running');
  return { ctx: context, handlers, url: status.url, port: status.port as number };
}

export async function lastRequest(handlers: InspectorHandlers) {
  const { groups } = await handlers.inspectorList({});
  const attempt = groups[0]?.attempts.at(-1);
  if (!attempt) throw new Error('nothing recorded');
  return handlers.inspectorGet({ requestId: attempt.requestId });
}
