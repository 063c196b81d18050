// Answers node:http gives before a request reaches the app: headers too large get the spec §7 JSON body rather
// than node:http's bodiless 431; the other parse errors are answered as node:http answers them.
import type { Socket } from 'node:net';
import { languageFromAcceptLanguage } from '../../src-shared/language.ts';
import { newId } from '../../src-shared/ids.ts';
import { errorBody } from './errors.ts';

/** Sockets already answered by answerClientError (its parser may report the same request again). */
const answered = new WeakSet<Socket>();

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
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (answered.has(socket)) return;
  if (!socket.writable || socket.bytesWritten > 0) {
    socket.destroy();
    return;
  }
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    // end(), not destroy(): the answer is sent with the connection's end instead of being cut by a reset.
    answered.add(socket);
    socket.end(headersTooLargeAnswer());
    return;
  }
  socket.write(BODILESS[error.code ?? ''] ?? 'HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
  socket.destroy();
}
