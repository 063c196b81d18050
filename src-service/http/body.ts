// Reading JSON bodies for the admin API: a body that is not JSON, or fails its schema, is invalid_request
// naming what is wrong; nothing is changed (DESIGN.md §5).
import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import { z } from 'zod';
import { DomainError, errorResponse, fail } from './errors.ts';
import { closeAfterLingering } from './transport.ts';

// DESIGN.md §3 "Language": the zh message must not carry zod's English text, so a failing body is
// described a second time with zod's zh-CN messages (only on failure, so valid bodies pay nothing).
const ZH_ISSUE_MESSAGES = z.locales.zhCN().localeError;

function describeIssue(issue: z.core.$ZodIssue | undefined, fallback: string): string {
  const field = issue?.path.join('.') || (issue && 'keys' in issue ? String((issue as { keys: string[] }).keys.join(', ')) : '');
  return `${field ? `${field}: ` : ''}${issue?.message ?? fallback}`;
}

/** Largest request body accepted; a generate body is at most a 4000-character prompt and a few ids. */
export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Deepest JSON nesting accepted in a request body. Every body of the API nests 3 levels at most; deeper
 * input would only reach recursive code (validation, error texts) and overflow its stack into a 500.
 */
export const MAX_JSON_DEPTH = 64;

/** Whether `text` opens more than `max` nested arrays/objects (brackets inside strings do not count). */
export function jsonNestingExceeds(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c) i++; // backslash: skip the escaped character
      else if (ch === 0x22) inString = false;
    } else if (ch === 0x22) inString = true;
    else if (ch === 0x5b || ch === 0x7b) {
      if (++depth > max) return true;
    } else if (ch === 0x5d || ch === 0x7d) depth--;
  }
  return false;
}

/** spec §7: a body nested too deeply is invalid_request, like any body that is not JSON we accept. */
export function failIfTooDeep(text: string): void {
  if (jsonNestingExceeds(text)) {
    fail('invalid_request', {
      detail: `the JSON body nests deeper than ${MAX_JSON_DEPTH} levels`,
      detail_zh: `JSON 请求体的嵌套超过 ${MAX_JSON_DEPTH} 层`,
    });
  }
}

export async function readJson<T extends z.ZodType>(c: Context, schema: T, emptyAs: unknown = undefined): Promise<z.infer<T>> {
  const text = await readBodyText(c);
  failIfTooDeep(text);
  let value: unknown = emptyAs;
  if (text.trim() !== '' || emptyAs === undefined) {
    try {
      value = JSON.parse(text) as unknown;
    } catch {
      fail('invalid_request', { reason: 'not_json' });
    }
  }
  return parseOrFail(schema, value, { en: 'invalid body', zh: '请求体无效' });
}

/** The query string checked against `schema` (a strict object of strings); anything wrong is invalid_request naming it. */
export function readQuery<T extends z.ZodType>(c: Context, schema: T): z.infer<T> {
  return parseOrFail(schema, c.req.query(), { en: 'invalid query', zh: '查询参数无效' });
}

function parseOrFail<T extends z.ZodType>(schema: T, value: unknown, fallback: { en: string; zh: string }): z.infer<T> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const detail = describeIssue(parsed.error.issues[0], fallback.en);
    const inChinese = schema.safeParse(value, { error: ZH_ISSUE_MESSAGES });
    const detailZh = inChinese.success ? detail : describeIssue(inChinese.error.issues[0], fallback.zh);
    fail('invalid_request', { detail, detail_zh: detailZh });
  }
  return parsed.data;
}

/** Node's request under @hono/node-server, or undefined (the Fetch API elsewhere, e.g. app.request in tests). */
export function incomingOf(c: Context): IncomingMessage | undefined {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  return incoming && typeof incoming.on === 'function' ? incoming : undefined;
}

/** Each request's body is read once; the API-key check waits for it and the route then reads the same text. */
const bodies = new WeakMap<IncomingMessage, Promise<string>>();

/**
 * The raw request body as text, read straight from Node's IncomingMessage when the app runs on
 * @hono/node-server (no web-stream conversion on the hot path), else through the Fetch API.
 * The body-limit middleware has already refused oversized declared lengths; this caps undeclared ones.
 */
export function readBodyText(c: Context, maxBytes = MAX_BODY_BYTES): Promise<string> {
  const incoming = incomingOf(c);
  if (!incoming) return c.req.text();
  let body = bodies.get(incoming);
  if (!body) {
    body = incoming.readableEnded ? c.req.text() : collect(incoming, maxBytes);
    bodies.set(incoming, body);
  }
  return body;
}

/** The body text if the request's handling read it (the request ledger keeps it), else undefined. */
export function bodyTextIfRead(c: Context): Promise<string> | undefined {
  const incoming = incomingOf(c);
  return incoming ? bodies.get(incoming) : undefined;
}

/** Reads the body up to `maxBytes`; past it, answers 413 and throws the rest away as it arrives. */
function collect(incoming: IncomingMessage, maxBytes: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = (): void => {
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.off('error', onError);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size <= maxBytes) return void chunks.push(chunk);
      stop();
      discardRestOfBody(incoming);
      reject(new DomainError('payload_too_large', { limit: maxBytes }, { Connection: 'close' }));
    };
    const onEnd = (): void => {
      stop();
      resolve(Buffer.concat(chunks, size).toString('utf8'));
    };
    const onError = (error: Error): void => {
      stop();
      reject(error);
    };
    incoming.on('data', onData);
    incoming.on('end', onEnd);
    incoming.on('error', onError);
  });
}

/**
 * The rest of a refused body (413, Connection: close) is read and thrown away, never kept, and the connection is
 * closed only once the client has stopped sending or a linger cap is reached (http/transport.ts).
 */
export function discardRestOfBody(incoming: IncomingMessage): void {
  incoming.resume();
  closeAfterLingering(incoming.socket);
}

/**
 * A declared length over the limit is refused before anything is read (413, Connection: close); the rest of the body
 * is read and thrown away, and the connection closed once the client stops sending (discardRestOfBody). Undefined when
 * the request may go on.
 */
export function refuseDeclaredTooLarge(c: Context): Response | undefined {
  const declared = c.req.header('content-length');
  if (declared === undefined || Number(declared) <= MAX_BODY_BYTES) return undefined;
  const incoming = incomingOf(c);
  if (incoming) discardRestOfBody(incoming);
  return errorResponse(c, new DomainError('payload_too_large', { limit: MAX_BODY_BYTES }, { Connection: 'close' }));
}
