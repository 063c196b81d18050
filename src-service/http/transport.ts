// Answers node:http gives before a request reaches the app: headers too large get the spec §7 JSON body rather
// than node:http's bodiless 431; the other parse errors are answered as node:http answers them. And how a refused
// request's connection is closed: after its answer, once the client has stopped sending (lingering).
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
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

const BODILESS: Record<string, string> = {
  HPE_CHUNK_EXTENSIONS_OVERFLOW: 'HTTP/1.1 413 Payload Too Large\r\nConnection: close\r\n\r\n',
  ERR_HTTP_REQUEST_TIMEOUT: 'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n',
};

/** The 431 with the spec §7 body (no header could be read, so the default language, and a fresh request id). */
function headersTooLargeAnswer(): string {
  const requestId = newId('request');
  const detail = { detail: 'the request line and headers are over 16 KiB', detail_zh: '请求行和请求头合计超过 16 KiB' };
  const body = JSON.stringify(errorBody('invalid_request', detail, languageFromAcceptLanguage(undefined), requestId));
  return [
    'HTTP/1.1 431 Request Header Fields Too Large',
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Request-Id: ${requestId}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

/**
 * node:http's 'clientError' (a request it could not parse): as node:http answers, except that headers too large
 * get the JSON body.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (answered.has(socket)) return;
  if (!socket.writable || currentAnswer.get(socket)?.headersSent) {
    socket.destroy();
    return;
  }
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    // Not destroy(): the answer is sent with the connection's end instead of being cut by a reset.
    answered.add(socket);
    socket.write(headersTooLargeAnswer());
    endLingering(socket);
    return;
  }
  socket.write(BODILESS[error.code ?? ''] ?? 'HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
  socket.destroy();
}
