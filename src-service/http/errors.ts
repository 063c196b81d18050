// Domain errors and their one rendering: the spec §7 JSON body with X-Request-Id, or plain text on
// /api/file and /direct (DESIGN.md §3 "Files"). Messages follow Accept-Language (src-shared/language.ts).
import type { Context } from 'hono';
import { ERROR_CODES, errorMessage, type ErrorBody, type ErrorCode, type ErrorParams } from '../../src-shared/errors.ts';
import { newId } from '../../src-shared/ids.ts';
import { languageFromAcceptLanguage, type Language } from '../../src-shared/language.ts';

export class DomainError extends Error {
  readonly code: ErrorCode;
  readonly params: ErrorParams;
  readonly status: number;
  /** Extra response headers, e.g. Retry-After on every 429 (DESIGN.md §3). */
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, params: ErrorParams = {}, headers: Record<string, string> = {}) {
    // A domain error is an answer, not a bug: skip the stack trace, which costs more than the answer itself
    // on hot 4xx paths.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(`${code}`);
    Error.stackTraceLimit = limit;
    this.name = 'DomainError';
    this.code = code;
    this.params = params;
    this.status = ERROR_CODES[code].status;
    this.headers = headers;
  }
}

/** Throws the domain error; services use it so routes stay free of error handling. */
export function fail(code: ErrorCode, params: ErrorParams = {}, headers: Record<string, string> = {}): never {
  throw new DomainError(code, params, headers);
}

export function languageOf(c: Context): Language {
  return languageFromAcceptLanguage(c.req.header('accept-language'));
}

/** The request id set by the first middleware (req_ + 20); every response carries it as X-Request-Id. */
export function requestIdOf(c: Context): string {
  let id = c.get('requestId') as string | undefined;
  if (!id) {
    id = newId('request');
    c.set('requestId', id);
    c.header('X-Request-Id', id);
  }
  return id;
}

/** True for the paths whose errors are plain text instead of the JSON body (spec §4.2, §7). */
export function isPlainTextPath(path: string): boolean {
  return path.startsWith('/api/file/') || path === '/api/file' || path.startsWith('/direct/') || path === '/direct';
}

export function errorBody(code: ErrorCode, params: ErrorParams, language: Language, requestId: string): ErrorBody {
  const body: ErrorBody = { error: { code, message: errorMessage(code, params, language), request_id: requestId } };
  // DESIGN.md §4: 409 publish_rejected adds `reason`.
  if (code === 'publish_rejected' && typeof params.reason === 'string') body.error.reason = params.reason;
  return body;
}

/** Turns a domain error into the response: JSON body (spec §7) or plain text, with X-Request-Id. */
export function errorResponse(c: Context, error: DomainError): Response {
  const requestId = requestIdOf(c);
  const language = languageOf(c);
  // The request ledger records the code, also for the plain-text answers of /api/file.
  c.set('errorCode', error.code);
  const headers: Record<string, string> = { 'X-Request-Id': requestId, ...error.headers };
  if (isPlainTextPath(c.req.path)) {
    headers['Content-Type'] = 'text/plain; charset=utf-8';
    return new Response(`${errorMessage(error.code, error.params, language)}\n`, { status: error.status, headers });
  }
  headers['Content-Type'] = 'application/json; charset=utf-8';
  return new Response(JSON.stringify(errorBody(error.code, error.params, language, requestId)), { status: error.status, headers });
}

/** A plain-text failure on /direct with a message of its own (no spec code covers a bad link). */
export function plainTextError(c: Context, status: number, message: { zh: string; en: string }): Response {
  return new Response(`${message[languageOf(c)]}\n`, {
    status,
    headers: { 'X-Request-Id': requestIdOf(c), 'Content-Type': 'text/plain; charset=utf-8' },
  });
}
