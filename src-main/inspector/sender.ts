// Sends a signed notification to any URL, the way the service would (spec §6), and reports the answer:
// integrators test their own endpoint like `stripe trigger`. Redirects are not followed; 8 s timeout.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { CapturedHeader, SendResult } from '../../src-shared/ipc/inspector.ts';
import { signWebhookDelivery, type WebhookEvent } from '../../src-shared/webhook-signature.ts';

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
}

function pairs(raw: string[]): CapturedHeader[] {
  const out: CapturedHeader[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) out.push({ name: raw[i] as string, value: raw[i + 1] as string });
  return out;
}

export async function sendSignedNotification(options: SendOptions): Promise<SendResult> {
  const signed = await signWebhookDelivery({
    secret: options.secret,
    event: options.event,
    deliveryId: options.deliveryId,
    timestamp: options.timestamp,
    body: options.body,
  });
  const headers: Record<string, string> = { ...signed, 'Content-Length': String(options.body.byteLength) };
  const url = new URL(options.url);
  const started = performance.now();
  const base = {
    url: options.url,
    deliveryId: options.deliveryId,
    timestamp: options.timestamp,
    requestHeaders: Object.entries(headers).map(([name, value]) => ({ name, value })),
    body: new TextDecoder().decode(options.body),
  };
  const timeoutMs = options.timeoutMs ?? SEND_TIMEOUT_MS;

  return new Promise<SendResult>((resolve) => {
    let settled = false;
    const settle = (r: Omit<SendResult, keyof typeof base | 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...base, ...r, durationMs: Math.round(performance.now() - started) });
    };
    const requestFn = url.protocol === 'https:' ? httpsRequest : httpRequest;
    // Node's http client never follows redirects: a 3xx is reported as it came (spec §6: a 3xx is a failure).
    const req = requestFn(url, { method: 'POST', headers, agent: false }, (res: IncomingMessage) => {
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
    req.end(Buffer.from(options.body));
  });
}
