// Remote keys and the secret screen, end to end in plain Node: the real core (createStudioApp) with the real
// local service, and a stand-in Remote service on loopback that misbehaves the way the security review
// found: it echoes the Authorization header in its error bodies. Every reply and event is kept and, with
// every file in the data folder (library.db and its -wal included), searched for the key at the end.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IpcResult } from '../../src-shared/ipc/contract.ts';
import type { IpcEventName, SettingsState, TurnRecord } from '../../src-shared/ipc/index.ts';
import { IPC_EVENT_NAMES } from '../../src-shared/ipc/index.ts';
import { RecordingShell } from '../ports/desktop-shell.ts';
import { createStudioApp } from './create-app.ts';
import { NodeLocalServiceHost } from '../service-host/node-service-host.ts';
import type { CoreStudioApp } from './studio-app.ts';
import { ipcCalls } from './ipc-calls.test-support.ts';

const KEY = `sk_${'E'.repeat(28)}echo`;
const SECOND_KEY = `sk_${'F'.repeat(28)}next`;

/** Answers generate with one image and the file endpoint with a 500 that echoes the request's headers. */
function echoingRemote(seen: Array<{ url: string; headers: IncomingHttpHeaders }>): Server {
  return createServer((req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers });
    req.resume();
    const echo = `you sent Authorization: ${req.headers.authorization ?? '(none)'}`;
    if (req.url === '/api/v1/generate' && req.headers['x-fail'] === undefined && seen.filter((s) => s.url === '/api/v1/generate').length === 1) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          ok: true,
          turn_id: 'turn_remote_1',
          session_id: 'sess_remote_1',
          credits_charged: 2,
          duration_ms: 5,
          warnings: [],
          images: [{ id: 'img_remote_1', filename: 'img_remote_1.png', url: '/api/file/img_remote_1.png', width: 1024, height: 1024 }],
        }),
      );
      return;
    }
    if (req.url === '/api/v1/generate') {
      res.writeHead(400, { 'content-type': 'application/json', 'x-request-id': 'req_BBBBBBBBBBBBBBBBBBBB' });
      res.end(JSON.stringify({ error: { code: 'invalid_request', message: echo, request_id: 'req_BBBBBBBBBBBBBBBBBBBB' } }));
      return;
    }
    // Not the spec's shape: a proxy's plain-text page with the header in it.
    res.writeHead(500, { 'content-type': 'text/plain' }).end(echo);
  });
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe('Remote keys are bound to an origin, and nothing that leaves main holds one', () => {
  let app: CoreStudioApp;
  let dataDir: string;
  const saw: unknown[] = [];
  const seen: Array<{ url: string; headers: IncomingHttpHeaders }> = [];
  let remote: Server;
  let remoteUrl: string;
  const { call, ok } = ipcCalls(() => app, (result) => saw.push(result));
  /** The real keychain (gnome-keyring under `npm test`), one entry name per test run. */
  const keychainService = `image-studio-test-${randomUUID()}`;
  async function openApp(folder: string, service = keychainService): Promise<CoreStudioApp> {
    const opened = await createStudioApp({
      dataDir: folder,
      shell: new RecordingShell(),
      localService: new NodeLocalServiceHost({ dataDir: join(folder, 'local-service'), restartDelayMs: 100 }),
      keychainService: service,
      testing: { generation: { generateTimeoutMs: 2500, authRetryDelaysMs: [50], rateLimitBaseMs: 100 }, downloadRetryDelaysMs: [50] },
    });
    for (const event of IPC_EVENT_NAMES as readonly IpcEventName[]) opened.on(event, (payload) => saw.push(payload));
    return opened;
  }
  const code = (r: IpcResult<unknown>) => (r.ok ? 'ok' : r.error.code);
  const remoteInfo = async () => (await ok<SettingsState>('settingsGet', {})).environments.remote;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'studio-remote-keys-'));
    remote = echoingRemote(seen);
    await new Promise<void>((r) => remote.listen(0, '127.0.0.1', () => r()));
    remoteUrl = `http://127.0.0.1:${(remote.address() as AddressInfo).port}`;
    app = await openApp(dataDir);
  });

  afterAll(async () => {
    await app.close();
    remote.close();
  });

  it('takes https:// for any host, http:// only for this computer (with a warning), and refuses the rest unchanged', async () => {
    const before = (await remoteInfo()).baseUrl;
    const refused = await call('environmentSetRemote', { baseUrl: 'http://images.example.com/api' });
    expect(refused).toMatchObject({ ok: false, error: { code: 'remote_url_not_https' } });
    expect(refused.ok ? '' : refused.error.message).toContain('http://images.example.com');
    expect((await remoteInfo()).baseUrl).toBe(before);
    await ok('environmentSetRemote', { baseUrl: 'https://images.example.com/' });
    expect(await remoteInfo()).toMatchObject({ baseUrl: 'https://images.example.com', insecure: false });
    for (const loopback of ['http://localhost:9', 'http://127.0.0.2:9', 'http://[::1]:9']) {
      await ok('environmentSetRemote', { baseUrl: loopback });
      expect(await remoteInfo()).toMatchObject({ baseUrl: loopback, insecure: true });
    }
    expect(code(await call('environmentSetRemote', { baseUrl: 'http://127.0.0.1.example.com' }))).toBe('remote_url_not_https');
    expect(code(await call('environmentSetRemote', { baseUrl: 'https://user:pw@images.example.com' }))).toBe('invalid_input');
    expect((await remoteInfo()).baseUrl).toBe('http://[::1]:9');
  });

  it('binds a key to the origin it was entered for; another origin asks for it again', async () => {
    await ok('keyClear', { environment: 'remote' });
    await ok('environmentSetRemote', { baseUrl: `${remoteUrl}/v1` });
    await ok('keySet', { environment: 'remote', key: KEY });
    expect(await remoteInfo()).toMatchObject({ keySet: true, keyOrigin: remoteUrl });
    // Same origin, other path: the key stays.
    await ok('environmentSetRemote', { baseUrl: remoteUrl });
    expect(await remoteInfo()).toMatchObject({ keySet: true, keyOrigin: remoteUrl });
    // Another origin: the key is gone, and the next one is bound to the new origin.
    await ok('environmentSetRemote', { baseUrl: 'https://other.example.com' });
    expect(await remoteInfo()).toMatchObject({ keySet: false, keyOrigin: null });
    await ok('keySet', { environment: 'remote', key: SECOND_KEY });
    expect(await remoteInfo()).toMatchObject({ keySet: true, keyOrigin: 'https://other.example.com' });
    await ok('keyClear', { environment: 'remote' });
  });

  it('refuses a Remote key before any base URL, so it cannot follow whatever address comes next', async () => {
    const fresh = await openApp(mkdtempSync(join(tmpdir(), 'studio-remote-fresh-')), `image-studio-test-${randomUUID()}`);
    try {
      const r = (await fresh.invoke('keySet', { environment: 'remote', key: KEY })) as IpcResult<SettingsState>;
      expect(r).toMatchObject({ ok: false, error: { code: 'key_needs_base_url' } });
      const state = (await fresh.invoke('settingsGet', {})) as IpcResult<SettingsState>;
      expect(state.ok && state.value.environments.remote.keySet).toBe(false);
    } finally {
      await fresh.close();
    }
  });

  it('redacts a remote error body that echoes the key: in replies, events, the library and its WAL', async () => {
    await ok('environmentSetRemote', { baseUrl: remoteUrl });
    await ok('keySet', { environment: 'remote', key: KEY });
    await ok('environmentSelect', { environment: 'remote' });
    try {
      // 1: generate succeeds, the download's file endpoint answers 500 with the header echoed.
      const { turnId } = await ok<{ turnId: string }>('generateStart', { request: { prompt: 'bottle', model: 'nano-banana-2' } });
      await app.whenGenerationsSettled();
      await app.whenDownloadsIdle();
      const turn = await ok<TurnRecord>('libraryGetTurn', { turnId });
      expect(turn.status).toBe('succeeded');
      // 2: generate answers 400 with the header echoed in the spec's error body.
      const second = await ok<{ turnId: string }>('generateStart', { request: { prompt: 'bottle again', model: 'nano-banana-2' } });
      await app.whenGenerationsSettled();
      const failed = await ok<TurnRecord>('libraryGetTurn', { turnId: second.turnId });
      expect(failed.error?.code).toBe('invalid_request');
      expect(JSON.stringify(failed.error)).toContain('you sent Authorization: Bearer [redacted]"');
      // The stand-in really did receive the key, and really did echo it.
      expect(seen.filter((s) => s.headers.authorization === `Bearer ${KEY}`).length).toBeGreaterThanOrEqual(3);
      const progress = saw.filter((p) => JSON.stringify(p).includes('img_remote_1') && JSON.stringify(p).includes('redacted'));
      expect(progress.length).toBeGreaterThan(0);
    } finally {
      await ok('environmentSelect', { environment: 'local' });
    }
    expect(JSON.stringify(saw)).not.toContain(KEY);
    expect(JSON.stringify(saw)).not.toContain(KEY.slice(3));
    for (const file of filesUnder(dataDir)) {
      expect(readFileSync(file).includes(Buffer.from(KEY.slice(3))), file).toBe(false);
    }
  });

  it('never sends a key to an origin it was not entered for, whatever settings.json says', async () => {
    // The key is entered for the echoing stand-in, then the settings file is changed under the app.
    await ok('environmentSetRemote', { baseUrl: remoteUrl });
    await ok('keySet', { environment: 'remote', key: KEY });
    const settingsFile = join(dataDir, 'settings.json');
    const stored = JSON.parse(readFileSync(settingsFile, 'utf8')) as Record<string, unknown>;
    expect(stored.remoteKeyOrigin).toBe(remoteUrl);
    // The address is changed behind the app's back (a synced or hand-edited settings file) to another port.
    const otherSeen: IncomingHttpHeaders[] = [];
    const other = createServer((req, res) => {
      otherSeen.push(req.headers);
      res.writeHead(500).end();
    });
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', () => r()));
    const otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
    try {
      await app.close();
      writeFileSync(settingsFile, JSON.stringify({ ...stored, remoteBaseUrl: otherUrl, environment: 'remote' }));
      app = await openApp(dataDir);
      const info = await remoteInfo();
      expect(info).toMatchObject({ baseUrl: otherUrl, keySet: true, keyOrigin: remoteUrl });
      const test = await call('keyTest', { environment: 'remote' });
      expect(test).toMatchObject({ ok: false, error: { code: 'key_origin_mismatch' } });
      expect(test.ok ? '' : test.error.message).toContain(remoteUrl);
      expect(test.ok ? '' : test.error.message).toContain(otherUrl);
      const run = await call('generateStart', { request: { prompt: 'x', model: 'nano-banana-2' } });
      if (run.ok) await app.whenGenerationsSettled();
      // The inspector's publication lookup uses the key too, through the same check.
      expect(await call('inspectorFetchPublication', { publicationId: 1 })).toMatchObject({ ok: false, error: { code: 'key_origin_mismatch' } });
      expect(otherSeen).toEqual([]);
      // An earlier version let a plain http:// address for another host in: its key is not sent in clear.
      await app.close();
      writeFileSync(settingsFile, JSON.stringify({ ...stored, remoteBaseUrl: 'http://images.example.com', remoteKeyOrigin: 'http://images.example.com', environment: 'remote' }));
      app = await openApp(dataDir);
      expect(await remoteInfo()).toMatchObject({ keySet: true, insecure: true });
      expect(await call('keyTest', { environment: 'remote' })).toMatchObject({ ok: false, error: { code: 'remote_url_not_https' } });
      expect(await call('inspectorFetchPublication', { publicationId: 1 })).toMatchObject({ ok: false, error: { code: 'remote_url_not_https' } });
    } finally {
      other.close();
    }
  });
});
