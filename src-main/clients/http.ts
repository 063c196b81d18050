// A small HTTP client over node:http(s). We do not use fetch for the service: its built-in dispatcher cuts
// a response off after 300 s of waiting for headers, and spec §1 allows a generation five minutes.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';

export type NetworkFailure =
  /** Our own deadline passed while waiting; the request was sent, its outcome is unknown. */
  | 'timeout'
  /** The caller aborted. */
  | 'cancelled'
  /** Nothing reached the server (refused, name not found): safe to send again. */
  | 'unreachable'
  /** The connection broke after the request went out; its outcome is unknown. */
  | 'dropped';

export class NetworkError extends Error {
  readonly failure: NetworkFailure;
  constructor(failure: NetworkFailure, message: string) {
    super(message);
    this.name = 'NetworkError';
    this.failure = failure;
  }
}

export interface RequestOptions {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  headers?: Record<string, string>;
  body?: string;
  /** Abort with a NetworkError as the reason to say why (timeout or cancelled). */
  signal?: AbortSignal;
  /** Called once the whole request (headers and body) has been handed to the network. */
  onSent?: () => void;
}

export interface BufferedResponse {
  status: number;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL']);

/** The failure behind an error, using the abort reason when the signal fired. */
export function classify(error: unknown, signal: AbortSignal | undefined): NetworkError {
  if (signal?.aborted) {
    const reason: unknown = signal.reason;
    return reason instanceof NetworkError ? reason : new NetworkError('cancelled', 'cancelled');
  }
  if (error instanceof NetworkError) return error;
  const e = error as NodeJS.ErrnoException;
  if (e.code && UNREACHABLE.has(e.code)) return new NetworkError('unreachable', `${e.code}: ${e.message}`);
  return new NetworkError('dropped', e.code ? `${e.code}: ${e.message}` : String(e.message ?? error));
}

/** Sends one request and resolves with the streaming response. */
export function openRequest(url: URL, options: RequestOptions): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) {
      reject(classify(null, options.signal));
      return;
    }
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const headers: Record<string, string> = { ...options.headers };
    if (options.body !== undefined) headers['content-length'] = String(Buffer.byteLength(options.body));
    const req = send(url, { method: options.method, headers, ...(options.signal ? { signal: options.signal } : {}) });
    req.on('error', (error) => reject(classify(error, options.signal)));
    req.on('response', resolve);
    if (options.onSent) req.once('finish', options.onSent);
    req.end(options.body);
  });
}

/** Reads a response body to the end; a broken or aborted stream becomes a NetworkError. */
/**
 * The most a buffered answer (JSON, an error page, a redirect) may hold. The API's answers are a few KB; a
 * service or proxy that sends more is cut off instead of filling main's memory. Image files are streamed to
 * disk by the downloader with their own cap.
 */
export const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

export function readBody(response: IncomingMessage, signal?: AbortSignal, maxBytes = MAX_ANSWER_BYTES): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    response.on('data', (c: Buffer) => {
      size += c.length;
      if (size > maxBytes) {
        if (tooLarge) return;
        tooLarge = true;
        chunks.length = 0;
        // The request went out and was answered: like a broken connection, its outcome is unknown.
        reject(new NetworkError('dropped', `the answer was larger than ${Math.round(maxBytes / 1024 / 1024)} MiB and was not read`));
        response.destroy();
        return;
      }
      chunks.push(c);
    });
    response.on('end', () => resolve(Buffer.concat(chunks)));
    response.on('error', (error) => reject(classify(error, signal)));
    response.on('close', () => {
      if (!response.complete) reject(classify(new Error('the connection closed before the answer was complete'), signal));
    });
  });
}

/** One request with a deadline for the whole exchange (headers and body). */
export async function sendRequest(url: URL, options: RequestOptions & { timeoutMs: number; maxBytes?: number }): Promise<BufferedResponse> {
  const controller = new AbortController();
  const seconds = Math.round(options.timeoutMs / 1000);
  const timer = setTimeout(() => controller.abort(new NetworkError('timeout', `no complete answer within ${seconds} s`)), options.timeoutMs);
  const onAbort = (): void => controller.abort(new NetworkError('cancelled', 'cancelled'));
  if (options.signal?.aborted) onAbort();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const response = await openRequest(url, { ...options, signal: controller.signal });
    const declared = Number(response.headers['content-length']);
    const max = options.maxBytes ?? MAX_ANSWER_BYTES;
    if (Number.isFinite(declared) && declared > max) {
      response.destroy();
      throw new NetworkError('dropped', `the answer announced ${declared} bytes, more than ${Math.round(max / 1024 / 1024)} MiB; it was not read`);
    }
    const body = await readBody(response, controller.signal, max);
    return { status: response.statusCode ?? 0, headers: response.headers, body };
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
}

export function headerValue(headers: IncomingMessage['headers'], name: string): string | null {
  const v = headers[name.toLowerCase()];
  if (Array.isArray(v)) return v[0] ?? null;
  return v ?? null;
}
