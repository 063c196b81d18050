// The inspector's HTTP receiver (DESIGN.md §2 rule 6): node:http on 127.0.0.1. It only transports: it keeps the raw
// body bytes (up to 1 MB) and every header as received, and asks its handler what to answer. It never acts on
// a request beyond that (DESIGN.md §2 rule 6) and survives any input a client can send. A `refuse` hook sees the
// request line and headers first; a request it refuses is answered without reading its body and never reaches
// the handler. No answer carries CORS headers, so a browser's preflight never succeeds. A request whose Host is
// not the receiver's own address (127.0.0.1 or localhost with its port) is answered 421 before anything else, so
// a page whose DNS name was rebound to 127.0.0.1 cannot fill the list.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { INSPECTOR_BODY_LIMIT } from '../../src-shared/ipc/inspector.ts';
import { isOwnLoopbackHost } from '../domain/own-address.ts';

export interface ReceivedHead {
  receivedAt: number;
  method: string;
  /** Path without the query string. */
  path: string;
  /** Header pairs exactly as received (case and repeats kept). */
  headers: Array<[string, string]>;
}

export interface ReceivedRequest extends ReceivedHead {
  body: Uint8Array;
  /** Bytes seen, or the declared Content-Length when refused before reading. */
  bodyBytes: number;
  tooLarge: boolean;
}

export interface ReceiverAnswer {
  status: number;
  body?: string;
}

export type ReceiverHandler = (request: ReceivedRequest) => Promise<ReceiverAnswer>;

export interface ReceiverOptions {
  handler: ReceiverHandler;
  /** Called before the body is read; an answer refuses the request (its body is not read, the handler not called). */
  refuse?: (head: ReceivedHead) => ReceiverAnswer | null;
  host?: string;
  bodyLimit?: number;
}

export class WebhookReceiver {
  private server: Server | null = null;
  private readonly handler: ReceiverHandler;
  private readonly refuse: ((head: ReceivedHead) => ReceiverAnswer | null) | null;
  private readonly host: string;
  private readonly bodyLimit: number;

  constructor(options: ReceiverOptions) {
    this.handler = options.handler;
    this.refuse = options.refuse ?? null;
    this.host = options.host ?? '127.0.0.1';
    this.bodyLimit = options.bodyLimit ?? INSPECTOR_BODY_LIMIT;
  }

  get port(): number | null {
    const address = this.server?.address();
    return address && typeof address === 'object' ? (address as AddressInfo).port : null;
  }

  get url(): string | null {
    return this.port === null ? null : `http://127.0.0.1:${this.port}/webhooks`;
  }

  /** Listens on `port` (0 = any free port); resolves with the port. */
  async start(port: number): Promise<number> {
    await this.stop();
    const server = createServer({ requestTimeout: 30_000, headersTimeout: 15_000, maxHeaderSize: 32 * 1024 }, (req, res) => {
      this.onRequest(req, res).catch(() => {
        // The handler never throws by design; if it does, answer 500 and keep serving.
        if (!res.headersSent) res.writeHead(500).end();
      });
    });
    // Malformed HTTP: answer 400 and close; there is nothing to record.
    server.on('clientError', (_err, socket) => {
      if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      else socket.destroy();
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, this.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
    return this.port as number;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const receivedAt = Date.now();
    const headers: Array<[string, string]> = [];
    for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) headers.push([req.rawHeaders[i] as string, req.rawHeaders[i + 1] as string]);
    const path = (req.url ?? '/').split('?')[0] || '/';
    const base = { receivedAt, method: req.method ?? '?', path, headers };
    req.on('error', () => {});
    res.on('error', () => {});

    // The port this connection came in on: the receiver's own, even while it moves to another.
    const port = req.socket.localPort ?? 0;
    if (!isOwnLoopbackHost(req.headers.host, port)) {
      answerAndClose(req, res, wrongHost(port));
      return;
    }
    const refused = this.refuse?.(base) ?? null;
    if (refused) {
      answerAndClose(req, res, refused);
      return;
    }

    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > this.bodyLimit) {
      // Refuse before reading a byte (DESIGN.md §2 rule 6: the receiver caps body size).
      await this.answerTooLarge(req, res, { ...base, body: new Uint8Array(0), bodyBytes: declared, tooLarge: true });
      return;
    }
    const read = await readCapped(req, this.bodyLimit);
    if (read.tooLarge) {
      await this.answerTooLarge(req, res, { ...base, body: new Uint8Array(0), bodyBytes: read.seen, tooLarge: true });
      return;
    }
    if (read.aborted) return;
    const answer = await this.handler({ ...base, body: read.body, bodyBytes: read.body.byteLength, tooLarge: false });
    if (res.destroyed) return;
    const text = answer.body ?? '';
    res.writeHead(answer.status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
    res.end(text);
  }

  private async answerTooLarge(req: IncomingMessage, res: ServerResponse, request: ReceivedRequest): Promise<void> {
    answerAndClose(req, res, await this.handler(request));
  }
}

/** 421 Misdirected Request: the request named another host; nothing is read, stored or handled. */
function wrongHost(port: number): ReceiverAnswer {
  const hint = `this receiver answers only to Host 127.0.0.1:${port} or localhost:${port}`;
  return { status: 421, body: JSON.stringify({ error: 'wrong_host', hint }) };
}

/** Answers without reading (the rest of) the body: the connection closes once the answer is out. */
function answerAndClose(req: IncomingMessage, res: ServerResponse, answer: ReceiverAnswer): void {
  if (res.destroyed) return;
  const text = answer.body ?? '';
  res.writeHead(answer.status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text), Connection: 'close' });
  res.end(text, () => setTimeout(() => req.socket.destroy(), 50).unref());
}

function readCapped(req: IncomingMessage, limit: number): Promise<{ body: Uint8Array; seen: number; tooLarge: boolean; aborted: boolean }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let seen = 0;
    let done = false;
    const finish = (result: { tooLarge: boolean; aborted: boolean }) => {
      if (done) return;
      done = true;
      req.off('data', onData);
      resolve({ body: result.tooLarge ? new Uint8Array(0) : new Uint8Array(Buffer.concat(chunks)), seen, ...result });
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.byteLength;
      if (seen > limit) {
        req.pause();
        finish({ tooLarge: true, aborted: false });
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.on('end', () => finish({ tooLarge: false, aborted: false }));
    req.on('close', () => finish({ tooLarge: false, aborted: !req.complete }));
    req.on('error', () => finish({ tooLarge: false, aborted: true }));
  });
}
