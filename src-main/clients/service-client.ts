// The client for the service's public API (spec §4). One client per environment: it holds that
// environment's base URL and key, and attaches the key only to requests for that exact origin.
import type { z } from 'zod';
import { ErrorBodySchema, GenerateResultSchema, PublicationRecordSchema, type GenerateRequest, type GenerateResult, type PublicationRecord } from '../../src-shared/api.ts';
import { isErrorCode } from '../../src-shared/errors.ts';
import type { IpcError } from '../../src-shared/ipc/contract.ts';
import type { EnvironmentName } from '../../src-shared/ipc/settings.ts';
import { acceptLanguageFor, type Language } from '../../src-shared/language.ts';
import { redactSecrets } from '../domain/secret-screen.ts';
import { headerValue, openRequest, readBody, sendRequest, type BufferedResponse, type NetworkFailure, NetworkError } from './http.ts';

/** spec §1: a run may take five minutes; we wait a little longer before calling the outcome unknown. */
export const GENERATE_TIMEOUT_MS = 330_000;
const REQUEST_TIMEOUT_MS = 30_000;

export type ClientResult<T> =
  | { ok: true; value: T; requestId: string | null; status: number }
  | { ok: false; kind: 'http'; error: IpcError; retryAfterS: number | null }
  | { ok: false; kind: 'network'; failure: NetworkFailure; message: string };

export interface ServiceClientOptions {
  environment: EnvironmentName;
  baseUrl: string;
  apiKey: string | null;
  language: Language;
  generateTimeoutMs?: number;
  requestTimeoutMs?: number;
}

/** Plain-text errors of GET /api/file (DESIGN.md §3) have no code; we name them by status. */
function codeForStatus(status: number): string {
  if (status === 401) return 'invalid_api_key';
  if (status === 403) return 'insufficient_scope';
  if (status === 404) return 'not_found';
  if (status === 429) return 'rate_limited';
  if (status === 503) return 'auth_unavailable';
  if (status >= 500) return 'internal_error';
  return 'invalid_request';
}

/** The spec §7 error body (`{error: {code, message, request_id, reason?}}`) of a failed answer, or null. */
export function readErrorBody(text: string): z.infer<typeof ErrorBodySchema>['error'] | null {
  try {
    const parsed = ErrorBodySchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data.error : null;
  } catch {
    return null;
  }
}

/**
 * The error of a failed answer. Its text is the remote service's and is screened here, before anything stores
 * or shows it: a service (or a proxy) that echoes the request's Authorization header must not put the key
 * into the library or an event (domain/secret-screen.ts). `known` are the exact secrets the caller sent.
 */
export function errorFromResponse(response: BufferedResponse, known: Iterable<string> = []): { error: IpcError; retryAfterS: number | null } {
  const secrets = [...known];
  const clean = (text: string) => redactSecrets(text, secrets);
  const headerRequestId = headerValue(response.headers, 'x-request-id');
  const retryAfter = headerValue(response.headers, 'retry-after');
  const retryAfterS = retryAfter !== null && /^\d+$/.test(retryAfter.trim()) ? Number(retryAfter.trim()) : null;
  const text = response.body.toString('utf8');
  const e = readErrorBody(text);
  if (e) {
    const error: IpcError = { code: clean(e.code), message: clean(e.message), status: response.status, requestId: clean(e.request_id || headerRequestId || '') || undefined };
    if (e.reason) error.details = { reason: clean(e.reason) };
    if (retryAfterS !== null) error.details = { ...error.details, retryAfterS };
    if (!isErrorCode(e.code)) error.details = { ...error.details, unknownCode: true };
    return { error, retryAfterS };
  }
  const error: IpcError = { code: codeForStatus(response.status), message: clean(text.trim().slice(0, 500)) || `HTTP ${response.status}`, status: response.status };
  if (headerRequestId) error.requestId = clean(headerRequestId);
  if (retryAfterS !== null) error.details = { retryAfterS };
  return { error, retryAfterS };
}

export class ServiceClient {
  readonly environment: EnvironmentName;
  readonly baseUrl: string;
  readonly origin: string;
  private readonly apiKey: string | null;
  private readonly language: Language;
  private readonly generateTimeoutMs: number;
  private readonly requestTimeoutMs: number;

  constructor(options: ServiceClientOptions) {
    this.environment = options.environment;
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.origin = new URL(this.baseUrl).origin;
    this.apiKey = options.apiKey;
    this.language = options.language;
    this.generateTimeoutMs = options.generateTimeoutMs ?? GENERATE_TIMEOUT_MS;
    this.requestTimeoutMs = options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  }

  /** A URL on this environment's service. */
  url(path: string): URL {
    return new URL(path, `${this.baseUrl}/`);
  }

  /**
   * Headers for a request to `url`. The key goes only to this environment's own origin (DESIGN.md §3 "Files": never to another host): a
   * URL anywhere else, a redirect target included, never gets it.
   */
  headersFor(url: URL, extra: Record<string, string> = {}): Record<string, string> {
    const headers: Record<string, string> = { 'accept-language': acceptLanguageFor(this.language), 'user-agent': 'image-studio/0.1', ...extra };
    if (this.apiKey !== null && url.origin === this.origin) headers.authorization = `Bearer ${this.apiKey}`;
    return headers;
  }

  private async call<T>(
    path: string,
    init: { method: 'GET' | 'POST'; body?: string; signal?: AbortSignal | undefined; timeoutMs: number; onSent?: (() => void) | undefined; headers?: Record<string, string> },
    parse: (json: unknown) => T,
  ): Promise<ClientResult<T>> {
    const url = this.url(path);
    const headers = this.headersFor(url, { ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}), ...init.headers });
    let response: BufferedResponse;
    try {
      response = await sendRequest(url, { method: init.method, headers, body: init.body, signal: init.signal, timeoutMs: init.timeoutMs, onSent: init.onSent });
    } catch (error) {
      const e = error instanceof NetworkError ? error : new NetworkError('dropped', String(error));
      return { ok: false, kind: 'network', failure: e.failure, message: this.clean(e.message) };
    }
    const requestId = headerValue(response.headers, 'x-request-id');
    if (response.status >= 200 && response.status < 300) {
      try {
        return { ok: true, value: parse(JSON.parse(response.body.toString('utf8'))), requestId, status: response.status };
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        return { ok: false, kind: 'http', error: { code: 'unexpected_response', message: this.clean(`Unexpected answer from the service: ${message.slice(0, 300)}`), status: response.status, ...(requestId ? { requestId: this.clean(requestId) } : {}) }, retryAfterS: null };
      }
    }
    const { error, retryAfterS } = errorFromResponse(response, this.secrets());
    return { ok: false, kind: 'http', error, retryAfterS };
  }

  /**
   * POST /api/v1/generate (spec §4.1), waiting up to the generate deadline. `onSent` fires when the request
   * has gone out: from then on the run is the service's (up to 5 minutes) and the outcome may be charged.
   */
  generate(body: GenerateRequest, signal?: AbortSignal, hooks: { onSent?: () => void; clientTurnId?: string } = {}): Promise<ClientResult<GenerateResult>> {
    // The app's own turn id travels as a header a service may ignore (spec §4.1 has no such field, and an
    // unknown body field is refused); the bundled service records it so a crash can be reconciled.
    const headers = hooks.clientTurnId ? { 'x-client-turn-id': hooks.clientTurnId } : undefined;
    return this.call(
      'api/v1/generate',
      { method: 'POST', body: JSON.stringify(body), signal, timeoutMs: this.generateTimeoutMs, onSent: hooks.onSent, ...(headers ? { headers } : {}) },
      (j) => GenerateResultSchema.parse(j),
    );
  }

  /** Proves the key authenticates and may generate, without spending: an empty body is refused after auth. */
  async testKey(): Promise<ClientResult<true>> {
    const result = await this.call('api/v1/generate', { method: 'POST', body: '{}', timeoutMs: this.requestTimeoutMs }, () => true as const);
    // DESIGN.md §3 order: auth and rate limit come before the body rules, so invalid_request means the key passed.
    if (!result.ok && result.kind === 'http' && result.error.code === 'invalid_request') return { ok: true, value: true, requestId: result.error.requestId ?? null, status: 400 };
    return result;
  }

  /** GET /api/v1/image-pack-publications/<id> (spec §4.3). */
  publication(id: number): Promise<ClientResult<PublicationRecord>> {
    return this.call(`api/v1/image-pack-publications/${encodeURIComponent(String(id))}`, { method: 'GET', timeoutMs: this.requestTimeoutMs }, (j) => PublicationRecordSchema.parse(j));
  }

  /**
   * GET /api/file/<filename> without following the redirect (spec §4.2): resolves with the direct link,
   * which the caller fetches without the key.
   */
  async fileLocation(filename: string, signal?: AbortSignal): Promise<ClientResult<URL>> {
    const url = this.url(`api/file/${encodeURIComponent(filename)}`);
    let response: BufferedResponse;
    try {
      response = await sendRequest(url, { method: 'GET', headers: this.headersFor(url), signal, timeoutMs: this.requestTimeoutMs });
    } catch (error) {
      const e = error instanceof NetworkError ? error : new NetworkError('dropped', String(error));
      return { ok: false, kind: 'network', failure: e.failure, message: this.clean(e.message) };
    }
    const location = headerValue(response.headers, 'location');
    if (response.status >= 300 && response.status < 400 && location) {
      return { ok: true, value: new URL(location, url), requestId: headerValue(response.headers, 'x-request-id'), status: response.status };
    }
    if (response.status >= 300 && response.status < 400) {
      return { ok: false, kind: 'http', error: { code: 'unexpected_response', message: 'The file redirect had no Location.', status: response.status }, retryAfterS: null };
    }
    const { error, retryAfterS } = errorFromResponse(response, this.secrets());
    return { ok: false, kind: 'http', error, retryAfterS };
  }

  private secrets(): string[] {
    return this.apiKey === null ? [] : [this.apiKey];
  }

  private clean(text: string): string {
    return redactSecrets(text, this.secrets());
  }
}

/** Opens the direct link of a file WITHOUT the key (DESIGN.md §3: clients must not send it there). */
export function openDirectLink(url: URL, signal?: AbortSignal) {
  return openRequest(url, { method: 'GET', headers: { 'user-agent': 'image-studio/0.1' }, signal });
}

export { readBody };
