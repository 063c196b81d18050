// The browser harness's HTTP + WebSocket front (DESIGN.md §2 rules 6 and 7): serves the built renderer and routes the real
// main-process handlers (a StudioApp) in place of Electron IPC. DESIGN.md §2 rule 6: it binds 127.0.0.1,
// needs a random per-run token on every request, and rejects any request whose Host or Origin is not its own,
// so no web page in the user's browser can drive it (DNS rebinding, cross-site fetch, cross-site WebSocket).
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { isAbsolute, resolve } from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import { z } from 'zod';
import { IPC_EVENT_NAMES, IPC_METHODS, methodByChannel, type IpcMethodName } from '../../src-shared/ipc/index.ts';
import type { StudioApp } from '../app/studio-app.ts';
import { isOwnLoopbackHost, isOwnLoopbackOrigin } from '../domain/own-address.ts';
import { originOf } from '../domain/remote-url.ts';
import { rendererAssetPath, rendererAssetType } from '../electron/app-request.ts';
import { CONTENT_SECURITY_POLICY } from '../electron/content-security-policy.ts';
import { BAD_IMAGE_REQUEST, fileInside, imageContentType, parseImageRequest, parseSheetRequest, sheetHeaders } from '../electron/image-request.ts';
import { harnessClientScript } from './client-script.ts';
import { FOLDER_PROMPT_EVENT } from './folder-prompt-client.ts';
import { FolderPromptRefusal, type FolderPrompt } from './folder-prompt.ts';

export interface HarnessServerOptions {
  app: StudioApp;
  /** The built renderer (out/renderer), holding index.html. */
  rendererDir: string;
  /** Image files are served only from inside this folder (the app data folder). */
  imageRoot: string;
  port?: number;
  host?: string;
  /** Defaults to 32 random bytes, hex. */
  token?: string;
  /** The recording shell's calls, for GET /harness/shell-calls. */
  shellCalls?: () => unknown;
  /** Sets what the recording shell answers (POST /harness/shell-answers), e.g. the folder chooseFolder returns. */
  setShellAnswers?: (answers: ShellAnswers) => void;
  /** Sets whether the "window" counts as focused (notifications are for the background only). */
  setWindowFocused?: (focused: boolean) => void;
  /** The folder chooser a person answers at the page when no script set an answer (/harness/folder-prompt…). */
  folderPrompt?: FolderPrompt;
}

/** The body of POST /harness/folder-prompt/answer: the open prompt's id and the folder chosen (null = cancel). */
const FolderPromptAnswerSchema = z.strictObject({ id: z.string().min(1).max(64), folder: z.string().min(1).max(4096).nullable() });

/** The body of POST /harness/shell-answers: the folder the recording shell's chooseFolder answers (null = cancel). */
export const ShellAnswersSchema = z.strictObject({
  chooseFolder: z
    .string()
    .min(1)
    .refine((path) => isAbsolute(path) && !path.includes('\0'), 'must be an absolute path')
    .nullable(),
});
export type ShellAnswers = z.infer<typeof ShellAnswersSchema>;

export interface HarnessServer {
  /** The URL to open: http://127.0.0.1:P/?token=… */
  url: string;
  origin: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

const MAX_IPC_BODY = 4 * 1024 * 1024;

/** Resolves a method by its contract name (`generateStart`) or its channel (`generate:start`). */
export function resolveMethodName(nameOrChannel: string): IpcMethodName | null {
  if (Object.hasOwn(IPC_METHODS, nameOrChannel)) return nameOrChannel as IpcMethodName;
  return methodByChannel(nameOrChannel)?.name ?? null;
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function cookieValue(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

function sendText(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
  res.end(text + '\n');
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

function readBody(req: IncomingMessage, limit: number): Promise<Buffer | null> {
  return new Promise((resolveBody, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        resolveBody(null);
        req.resume();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolveBody(size > limit ? null : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** The body as JSON checked against a schema: the check's result, or null when the body is not JSON (or too large). */
async function readJson<S extends z.ZodType>(req: IncomingMessage, schema: S, limit: number): Promise<ReturnType<S['safeParse']> | null> {
  const body = await readBody(req, limit);
  try {
    return schema.safeParse(JSON.parse(body?.toString('utf8') ?? '')) as ReturnType<S['safeParse']>;
  } catch {
    return null;
  }
}

/** What every request handler needs to know about this harness. */
interface Front {
  app: StudioApp;
  options: HarnessServerOptions;
  token: string;
  rendererDir: string;
  /** The port it listens on (known once it listens). */
  port: () => number;
}

// Cookies are per host, not per port: the port in the name keeps two harnesses from clobbering each other.
const cookieName = (front: Front): string => `studio_harness_${front.port()}`;

/** Host, Origin and token checks shared by HTTP and the WebSocket upgrade; null when allowed. */
function refusal(front: Front, req: IncomingMessage, url: URL): { status: number; reason: string } | null {
  const port = front.port();
  if (!isOwnLoopbackHost(req.headers.host, port)) {
    return { status: 403, reason: 'Forbidden: this harness answers only to its own Host.' };
  }
  const origin = req.headers.origin;
  if (origin !== undefined && !isOwnLoopbackOrigin(origin, port)) {
    return { status: 403, reason: 'Forbidden: requests from another origin are refused.' };
  }
  const headerToken = req.headers['x-studio-token'];
  const given =
    url.searchParams.get('token') ??
    (typeof headerToken === 'string' ? headerToken : null) ??
    cookieValue(req.headers.cookie, cookieName(front));
  if (given === null) return { status: 401, reason: 'Unauthorized: the harness token is missing (open the URL it printed).' };
  if (!sameSecret(given, front.token)) return { status: 403, reason: 'Forbidden: wrong harness token.' };
  return null;
}

async function serveIndex(front: Front, res: ServerResponse): Promise<void> {
  let html: string;
  try {
    html = await readFile(resolve(front.rendererDir, 'index.html'), 'utf8');
  } catch {
    sendText(res, 500, `The built renderer is missing (${front.rendererDir}/index.html): run npm run build.`);
    return;
  }
  // The client runs before the bundle: module scripts are deferred, this classic one is not.
  const tag = '<script src="/harness/api.js"></script>';
  const at = html.search(/<script\b|<\/head>/i);
  html = at >= 0 ? html.slice(0, at) + tag + '\n    ' + html.slice(at) : tag + html;
  res.writeHead(200, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'content-security-policy': CONTENT_SECURITY_POLICY,
    'set-cookie': `${cookieName(front)}=${front.token}; HttpOnly; SameSite=Strict; Path=/`,
  });
  res.end(html);
}

/**
 * GET /harness/api.js, only to the harness's own page: a browser marks a script that a page of another origin
 * includes (another loopback port included, where the harness's cookie is sent too) with Sec-Fetch-Site and
 * Referer. Non-browser callers send neither and already hold the token.
 */
function serveClientScript(front: Front, req: IncomingMessage, res: ServerResponse): void {
  const site = req.headers['sec-fetch-site'];
  const referer = req.headers.referer;
  if ((site !== undefined && site !== 'same-origin') || (referer !== undefined && !isOwnLoopbackOrigin(originOf(referer) ?? '', front.port()))) {
    return sendText(res, 403, "Forbidden: the harness's client script is served only to its own page.");
  }
  // The Host passed refusal(): it is this harness's own address, as the page was opened.
  const origin = `http://${(req.headers.host ?? '').toLowerCase()}`;
  res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' });
  res.end(harnessClientScript(front.token, origin));
}

async function serveStatic(rendererDir: string, res: ServerResponse, pathname: string): Promise<void> {
  // The same path rule as Electron's app://studio/ (electron/app-request.ts): a file inside the renderer folder.
  const file = rendererAssetPath(rendererDir, pathname);
  if (file === null) {
    sendText(res, 404, 'Not found.');
    return;
  }
  try {
    const info = await stat(file);
    if (!info.isFile()) throw new Error('not a file');
  } catch {
    // Browsers ask for a favicon on their own; an empty answer keeps a 404 out of the console tests read.
    if (pathname === '/favicon.ico') {
      res.writeHead(204, { 'cache-control': 'no-store' });
      res.end();
      return;
    }
    sendText(res, 404, 'Not found.');
    return;
  }
  res.writeHead(200, {
    'content-type': rendererAssetType(file),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
  createReadStream(file).pipe(res);
}

async function serveImage(front: Front, res: ServerResponse, kind: string, id: string): Promise<void> {
  const sheetIds = parseSheetRequest(kind, id);
  if (sheetIds) {
    const sheet = await front.app.imageSheet(sheetIds);
    res.writeHead(200, sheetHeaders(sheet));
    res.end(sheet.bytes);
    return;
  }
  const request = parseImageRequest(kind, id);
  if (!request) {
    sendText(res, 400, BAD_IMAGE_REQUEST);
    return;
  }
  const path = await front.app.imageFile(request.kind, request.id);
  const file = path === null ? null : await fileInside(front.options.imageRoot, path);
  if (file === null) {
    sendText(res, 404, 'No such image on disk.');
    return;
  }
  res.writeHead(200, { 'content-type': imageContentType(file), 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
  createReadStream(file).pipe(res);
}

async function serveIpc(app: StudioApp, req: IncomingMessage, res: ServerResponse, nameOrChannel: string): Promise<void> {
  const name = resolveMethodName(nameOrChannel);
  if (name === null) {
    sendJson(res, 404, { ok: false, error: { code: 'unknown_method', message: `No IPC method named ${nameOrChannel}.` } });
    return;
  }
  const body = await readBody(req, MAX_IPC_BODY);
  if (body === null) {
    sendJson(res, 413, { ok: false, error: { code: 'invalid_input', message: 'The request body is too large.' } });
    return;
  }
  let input: unknown = {};
  if (body.length > 0) {
    try {
      input = JSON.parse(body.toString('utf8'));
    } catch {
      sendJson(res, 400, { ok: false, error: { code: 'invalid_input', message: 'The request body is not JSON.' } });
      return;
    }
  }
  // The app parses the input against the contract's schema and never throws; the catch is the last guard.
  let result: unknown;
  try {
    result = await app.invoke(name, input);
  } catch (err) {
    result = { ok: false, error: { code: 'internal', message: err instanceof Error ? err.message : String(err) } };
  }
  sendJson(res, 200, result);
}

/** POST /harness/shell-answers: what the recording shell's chooseFolder answers from now on. */
async function serveShellAnswers(options: HarnessServerOptions, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== 'POST') return sendText(res, 405, 'POST {"chooseFolder": "<absolute path>" | null}.');
  const parsed = await readJson(req, ShellAnswersSchema, 64 * 1024);
  if (!parsed?.success) {
    const why = parsed?.error.issues.map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`).join('; ') ?? 'the body is not JSON';
    return sendText(res, 400, `Body must be {"chooseFolder": "<absolute path>" | null} (${why}).`);
  }
  options.setShellAnswers?.(parsed.data);
  return sendJson(res, 200, parsed.data);
}

/** POST /harness/window-focus: whether the "window" counts as focused. */
async function serveWindowFocus(options: HarnessServerOptions, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== 'POST') return sendText(res, 405, 'POST {"focused": boolean}.');
  const body = await readBody(req, 1024);
  let focused: unknown;
  try {
    focused = (JSON.parse(body?.toString('utf8') ?? '') as { focused?: unknown }).focused;
  } catch {
    focused = undefined;
  }
  if (typeof focused !== 'boolean') return sendText(res, 400, 'Body must be {"focused": true|false}.');
  options.setWindowFocused?.(focused);
  return sendJson(res, 200, { focused });
}

/**
 * The folder prompt's endpoints: GET /harness/folder-prompt (the open prompt or null), GET
 * /harness/folder-prompt/folders?path= (an allowed folder's sub-folders), POST /harness/folder-prompt/answer.
 * A refused folder answers its status and {"error": why}.
 */
async function serveFolderPrompt(prompt: FolderPrompt | undefined, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  if (!prompt) return sendText(res, 404, 'This harness has no folder prompt.');
  const route = url.pathname.slice('/harness/folder-prompt'.length);
  try {
    if (route === '' && req.method === 'GET') return sendJson(res, 200, { prompt: prompt.current() });
    if (route === '/folders' && req.method === 'GET') return sendJson(res, 200, await prompt.list(url.searchParams.get('path') ?? ''));
    if (route !== '/answer') return sendText(res, 404, 'Not found.');
    if (req.method !== 'POST') return sendText(res, 405, 'POST {"id": "<prompt id>", "folder": "<absolute path>" | null}.');
    const body = await readJson(req, FolderPromptAnswerSchema, 64 * 1024);
    if (!body?.success) return sendJson(res, 400, { error: 'Body must be {"id": "<prompt id>", "folder": "<absolute path>" | null}.' });
    return sendJson(res, 200, { folder: await prompt.answer(body.data.id, body.data.folder) });
  } catch (err) {
    if (err instanceof FolderPromptRefusal) return sendJson(res, err.status, { error: err.message });
    throw err;
  }
}

/** Routes one HTTP request, after the Host, Origin and token checks. */
async function handle(front: Front, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://harness.invalid');
  const refused = refusal(front, req, url);
  if (refused) {
    sendText(res, refused.status, refused.reason);
    return;
  }
  const method = req.method ?? 'GET';
  const path = url.pathname;
  const ipc = /^\/ipc\/([^/]+)$/.exec(path);
  if (ipc) {
    if (method !== 'POST') return sendText(res, 405, 'IPC calls are POST.');
    return serveIpc(front.app, req, res, decodeURIComponent(ipc[1] ?? ''));
  }
  if (path === '/harness/shell-answers') return serveShellAnswers(front.options, req, res);
  if (path === '/harness/window-focus') return serveWindowFocus(front.options, req, res);
  if (path === '/harness/folder-prompt' || path.startsWith('/harness/folder-prompt/')) return serveFolderPrompt(front.options.folderPrompt, req, res, url);
  if (method !== 'GET' && method !== 'HEAD') return sendText(res, 405, 'Method not allowed.');
  if (path === '/' || path === '/index.html') return serveIndex(front, res);
  if (path === '/harness/api.js') return serveClientScript(front, req, res);
  if (path === '/harness/shell-calls') return sendJson(res, 200, front.options.shellCalls?.() ?? []);
  const image = /^\/studio-image\/([^/]+)\/([^/]+)$/.exec(path);
  if (image) return serveImage(front, res, decodeURIComponent(image[1] ?? ''), decodeURIComponent(image[2] ?? ''));
  return serveStatic(front.rendererDir, res, path);
}

/** GET /events as a WebSocket: main's events go to every renderer connected (after the same checks as HTTP). */
function relayEvents(front: Front, server: Server): { close: () => void } {
  const sockets = new Set<WebSocket>();
  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://harness.invalid');
    const refused = refusal(front, req, url) ?? (url.pathname === '/events' ? null : { status: 404, reason: 'Not found.' });
    if (refused) {
      socket.end(`HTTP/1.1 ${refused.status} ${refused.status === 401 ? 'Unauthorized' : refused.status === 404 ? 'Not Found' : 'Forbidden'}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n${refused.reason}\n`);
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      sockets.add(ws);
      // A connected page can show the folder prompt: it is told of an open one now and of every change.
      const unwatch = front.options.folderPrompt?.watch((prompt) => {
        if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ event: FOLDER_PROMPT_EVENT, payload: prompt }));
      });
      const gone = () => {
        sockets.delete(ws);
        unwatch?.();
      };
      ws.on('close', gone);
      // The renderer only listens; anything it sends is ignored.
      ws.on('message', () => undefined);
      ws.on('error', gone);
    });
  });
  const unsubscribes = IPC_EVENT_NAMES.map((event) =>
    front.app.on(event, (payload) => {
      const message = JSON.stringify({ event, payload });
      for (const ws of sockets) if (ws.readyState === ws.OPEN) ws.send(message);
    }),
  );
  return {
    close() {
      for (const off of unsubscribes) off();
      for (const ws of sockets) ws.terminate();
      wss.close();
    },
  };
}

export async function startHarnessServer(options: HarnessServerOptions): Promise<HarnessServer> {
  let port = 0;
  const front: Front = {
    app: options.app,
    options,
    token: options.token ?? randomBytes(32).toString('hex'),
    rendererDir: resolve(options.rendererDir),
    port: () => port,
  };
  const server = createServer((req, res) => {
    handle(front, req, res).catch((err: unknown) => {
      if (!res.headersSent) sendText(res, 500, `Harness error: ${err instanceof Error ? err.message : String(err)}`);
      else res.destroy();
    });
  });
  const events = relayEvents(front, server);
  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolveListen();
    });
  });
  port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;

  return {
    url: `${origin}/?token=${front.token}`,
    origin,
    port,
    token: front.token,
    async close() {
      events.close();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
