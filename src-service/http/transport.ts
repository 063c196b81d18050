// Answers node:http gives before a request reaches the app (400 not HTTP, 408 too slow, 413 chunk extensions, 431
// headers too large): each with the spec §7 JSON body rather than node:http's bodiless one. And how a refused
// request's connection is closed: after its answer, once the client has stopped sending (lingering).
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { RequestError } from '@hono/node-server';
import { languageFromAcceptLanguage } from '../../src-shared/language.ts';
import { newId } from '../../src-shared/ids.ts';
import { errorBody } from './errors.ts';

/** After a refused request's answer, its connection stays open at most this long while the client finishes sending. */
export const LINGER_MS = 5_000;
/** ... and reads (and throws away) at most this much more: a 5 MB upload to the 1 MiB body limit is read to its end. */
export const LINGER_BYTES = 32 * 1024 * 1024;

/** Sockets already lingering (node:http may ask to close one more than once). */
const lingering = new WeakSet<Socket>();

/**
 * Ends our side of the connection after what was written (the client reads the answer, then its end) and keeps
 * reading until the client ends its side, when the socket closes by itself; destroys it only at a cap. Closing a
 * socket with unread bytes resets it, and a client still sending (Node's fetch, a raw socket) would then get EPIPE or
 * ECONNRESET instead of the answer.
 */
function endLingering(socket: Socket): void {
  if (lingering.has(socket)) return;
  lingering.add(socket);
  socket.end();
  const startedAt = Date.now();
  const bytesBefore = socket.bytesRead;
  const watch = setInterval(() => {
    if (Date.now() - startedAt >= LINGER_MS || socket.bytesRead - bytesBefore > LINGER_BYTES) socket.destroy();
  }, 100);
  watch.unref();
  socket.once('close', () => clearInterval(watch));
}

/**
 * node:http closes a Connection: close answer's socket with destroySoon() once the answer is written; for this
 * socket that call lingers instead (endLingering).
 */
export function closeAfterLingering(socket: Socket | null): void {
  if (socket) socket.destroySoon = () => endLingering(socket);
}

/** Sockets already answered by answerClientError (its parser may report the same request again). */
const answered = new WeakSet<Socket>();

/**
 * The answer each connection is writing (or about to write). A parse error while that answer's headers are out (a
 * pipelined request) cannot be answered without corrupting it; on a kept-alive connection between requests it can.
 */
const currentAnswer = new WeakMap<Socket, ServerResponse>();

function noteAnswer(req: IncomingMessage, res: ServerResponse): void {
  const socket = req.socket;
  currentAnswer.set(socket, res);
  res.once('finish', () => {
    if (currentAnswer.get(socket) === res) currentAnswer.delete(socket);
  });
}

/** Installs the answers below on the service's server. */
export function answerClientErrors(server: Server): void {
  server.on('request', noteAnswer);
  server.on('clientError', answerClientError);
}

interface TransportAnswer {
  statusLine: string;
  code: 'invalid_request' | 'payload_too_large';
  params: { detail: string; detail_zh: string } | { limit: number };
}

/** node:http's parse errors, each answered with the spec §7 body (generated clients narrow errors on it). */
const ANSWERS: Record<string, TransportAnswer> = {
  HPE_HEADER_OVERFLOW: {
    statusLine: '431 Request Header Fields Too Large',
    code: 'invalid_request',
    params: { detail: 'the request line and headers are over 16 KiB', detail_zh: '请求行和请求头合计超过 16 KiB' },
  },
  HPE_CHUNK_EXTENSIONS_OVERFLOW: {
    statusLine: '413 Payload Too Large',
    code: 'payload_too_large',
    // node:http's own limit on the extensions of a chunked body.
    params: { limit: 16 * 1024 },
  },
  ERR_HTTP_REQUEST_TIMEOUT: {
    statusLine: '408 Request Timeout',
    code: 'invalid_request',
    params: { detail: 'the request headers or body did not arrive in time', detail_zh: '请求头或请求体未在时限内送达' },
  },
};

const MALFORMED: TransportAnswer = {
  statusLine: '400 Bad Request',
  code: 'invalid_request',
  params: { detail: 'the request is not well-formed HTTP/1.1', detail_zh: '请求不是格式正确的 HTTP/1.1' },
};

/** The answer with the spec §7 body (no header could be read, so the default language, and a fresh request id). */
function transportAnswer(answer: TransportAnswer): string {
  const requestId = newId('request');
  const body = JSON.stringify(errorBody(answer.code, answer.params, languageFromAcceptLanguage(undefined), requestId));
  return [
    `HTTP/1.1 ${answer.statusLine}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Request-Id: ${requestId}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

/**
 * @hono/node-server's answer to a request it cannot turn into a Request (a malformed Host, a backslash in the path):
 * the 400 with the spec §7 body rather than its bodiless one; anything else thrown there is a 500.
 */
export function unbuildableRequestAnswer(error: unknown): Response {
  const requestId = newId('request');
  const malformed = error instanceof RequestError;
  const body = errorBody(malformed ? MALFORMED.code : 'internal_error', malformed ? MALFORMED.params : {}, languageFromAcceptLanguage(undefined), requestId);
  return new Response(JSON.stringify(body), {
    status: malformed ? 400 : 500,
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'X-Request-Id': requestId, Connection: 'close' },
  });
}

/** node:http's 'clientError' (a request it could not parse, or too slow): answered with the spec §7 JSON body. */
function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (answered.has(socket)) return;
  if (!socket.writable || currentAnswer.get(socket)?.headersSent) {
    socket.destroy();
    return;
  }
  answered.add(socket);
  socket.write(transportAnswer(ANSWERS[error.code ?? ''] ?? MALFORMED));
  // Headers too large: the client may still be sending them, so the answer is let out with the connection's end.
  // The others close at once as node:http closes them (a slow client is not waited for a second time).
  if (error.code === 'HPE_HEADER_OVERFLOW') endLingering(socket);
  else socket.destroy();
}
