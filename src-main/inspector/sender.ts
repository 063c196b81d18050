// Sends a signed notification to any URL, the way the service would (spec §6), and reports the answer:
// integrators test their own endpoint like `stripe trigger`. Redirects are not followed; 8 s timeout.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { CapturedHeader, SendResult } from '../../src-shared/ipc/inspector.ts';
import { buildBrokenDelivery, type WebhookBreakage } from '../../src-shared/webhook-breakage.ts';
import type { WebhookEvent } from '../../src-shared/webhook-signature.ts';

export const SEND_TIMEOUT_MS = 8_000;
const SNIPPET_BYTES = 4096;

export interface SendOptions {
  url: string;
  secret: string;
  event: WebhookEvent;
  deliveryId: string;
  body: Uint8Array;
  /** Unix seconds; fresh at each send. */
  timestamp: number;
  timeoutMs?: number;
  /** Deliberate breakage (src-shared/webhook-breakage.ts); none by default. */
  breakage?: WebhookBreakage;
  /** The secret replaced last, for the `previous_secret` breakage. */
  previousSecret?: string | null;
}

function pairs(raw: string[]): CapturedHeader[] {
  const out: CapturedHeader[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) out.push({ name: raw[i] as string, value: raw[i + 1] as string });
  return out;
}

export async function sendSignedNotification(options: SendOptions): Promise<SendResult> {
  const built = await buildBrokenDelivery({
    secret: options.secret,
    previousSecret: options.previousSecret ?? null,
    event: options.event,
    deliveryId: options.deliveryId,
    timestamp: options.timestamp,
    body: options.body,
    breakage: options.breakage ?? 'none',
  });
  const headers: Array<[string, string]> = [...Object.entries(built.headers), ['Content-Length', String(built.body.byteLength)]];
  const answer = await postOnce(options.url, headers, built.body, options.timeoutMs ?? SEND_TIMEOUT_MS);
  return {
    url: options.url,
    deliveryId: options.deliveryId,
    timestamp: built.timestamp,
    requestHeaders: headers.map(([name, value]) => ({ name, value })),
    body: new TextDecoder().decode(built.body),
    ...answer,
  };
}

export interface PostAnswer {
  /** null when no answer came (connection refused, timeout). */
  status: number | null;
  responseHeaders: CapturedHeader[];
  responseSnippet: string;
  durationMs: number;
  error: string | null;
}

/**
 * One POST with exactly these headers and bytes; never follows a redirect (a 3xx is reported as it came, as the
 * service treats it: a failure). Used to send a signed notification and to forward a captured one unchanged.
 */
export function postOnce(target: string, headers: ReadonlyArray<readonly [string, string]>, body: Uint8Array, timeoutMs = SEND_TIMEOUT_MS): Promise<PostAnswer> {
  const url = new URL(target);
  const started = performance.now();
  return new Promise<PostAnswer>((resolve) => {
    let settled = false;
    const settle = (r: Omit<PostAnswer, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...r, durationMs: Math.round(performance.now() - started) });
    };
    const requestFn = url.protocol === 'https:' ? httpsRequest : httpRequest;
    // An object (not a raw array) so Node adds Host; a repeated header becomes an array, sent as repeated lines.
    const bag: Record<string, string | string[]> = {};
    for (const [name, value] of headers) {
      const had = bag[name];
      bag[name] = had === undefined ? value : [...(Array.isArray(had) ? had : [had]), value];
    }
    const req = requestFn(url, { method: 'POST', headers: bag, agent: false }, (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const finish = () =>
        settle({
          status: res.statusCode ?? null,
          responseHeaders: pairs(res.rawHeaders),
          responseSnippet: Buffer.concat(chunks).subarray(0, SNIPPET_BYTES).toString('utf8'),
          error: null,
        });
      res.on('data', (chunk: Buffer) => {
        if (size < SNIPPET_BYTES) chunks.push(chunk);
        size += chunk.byteLength;
        if (size >= SNIPPET_BYTES) {
          finish();
          res.destroy();
        }
      });
      res.on('end', finish);
      res.on('error', finish);
      res.on('close', finish);
    });
    const timer = setTimeout(() => {
      req.destroy();
      settle({ status: null, responseHeaders: [], responseSnippet: '', error: `no answer within ${timeoutMs / 1000} s (timeout)` });
    }, timeoutMs);
    req.on('error', (error: NodeJS.ErrnoException) => {
      settle({ status: null, responseHeaders: [], responseSnippet: '', error: error.code ? `${error.code}: ${error.message}` : error.message });
    });
    req.end(Buffer.from(body));
  });
}
