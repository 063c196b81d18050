// The harness's own transport (token, Host/Origin checks, routing, events, image serving) over real HTTP and
// WebSocket on loopback. The StudioApp behind it is a small in-test stand-in: these tests are about the
// harness, and the end-to-end runs (e2e/harness.spec.ts) use the real app.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { IpcEventName, IpcEvents, IpcMethodName } from '../../src-shared/ipc/index.ts';
import type { StudioApp } from '../app/studio-app.ts';
import { FolderPrompt } from './folder-prompt.ts';
import { resolveMethodName, startHarnessServer, type HarnessServer } from './harness-server.ts';
import { HarnessShell } from './harness-shell.ts';

class FakeApp implements StudioApp {
  readonly calls: Array<{ method: IpcMethodName; input: unknown }> = [];
  readonly files = new Map<string, string>();
  private readonly listeners = new Map<string, Set<(payload: unknown) => void>>();
  invoke(method: IpcMethodName, input: unknown) {
    this.calls.push({ method, input });
    return Promise.resolve({ ok: true as const, value: { echoed: method } });
  }
  on<E extends IpcEventName>(event: E, listener: (payload: IpcEvents[E]) => void): () => void {
    const set = this.listeners.get(event) ?? new Set();
    this.listeners.set(event, set);
    set.add(listener as (payload: unknown) => void);
    return () => set.delete(listener as (payload: unknown) => void);
  }
  emit<E extends IpcEventName>(event: E, payload: IpcEvents[E]): void {
    for (const l of this.listeners.get(event) ?? []) l(payload);
  }
  listenerCount(): number {
    return [...this.listeners.values()].reduce((n, s) => n + s.size, 0);
  }
  imageFile(kind: 'thumb' | 'full', id: string) {
    return Promise.resolve(this.files.get(`${kind}/${id}`) ?? null);
  }
  readonly sheets: string[][] = [];
  imageSheet(ids: readonly string[]) {
    this.sheets.push([...ids]);
    return Promise.resolve({ bytes: Buffer.from(`sheet:${ids.join(',')}`), complete: !ids.includes('img_pending') });
  }
  close() {
    return Promise.resolve();
  }
}

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function send(port: number, path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: init.method ?? 'GET', headers: init.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    if (init.body !== undefined) req.write(init.body);
    req.end();
  });
}

function openSocket(url: string, headers: Record<string, string> = {}): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.once('error', reject);
  });
}

let dir: string;
let app: FakeApp;
let harness: HarnessServer;
let focused: boolean | null;
let answers: unknown[];
let shell: HarnessShell;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'harness-test-'));
  mkdirSync(join(dir, 'renderer', 'assets'), { recursive: true });
  mkdirSync(join(dir, 'data', 'thumbs'), { recursive: true });
  writeFileSync(
    join(dir, 'renderer', 'index.html'),
    '<!doctype html><html><head><title>t</title><script type="module" src="./assets/app.js"></script></head><body></body></html>',
  );
  writeFileSync(join(dir, 'renderer', 'assets', 'app.js'), 'console.log(1);');
  writeFileSync(join(dir, 'secret.txt'), 'outside');
  app = new FakeApp();
  focused = null;
  answers = [];
  // The folder prompt's roots: the data folder and a stand-in for the user's home.
  const prompt = new FolderPrompt([join(dir, 'data'), join(dir, 'home')]);
  shell = new HarnessShell(() => null, prompt);
  harness = await startHarnessServer({
    app,
    rendererDir: join(dir, 'renderer'),
    imageRoot: join(dir, 'data'),
    shellCalls: () => [{ kind: 'notify', title: 'Done', body: 'x' }],
    setWindowFocused: (f) => {
      focused = f;
    },
    setShellAnswers: (a) => {
      answers.push(a);
      shell.setScriptedAnswers(a);
    },
    folderPrompt: prompt,
  });
});

afterEach(async () => {
  await harness.close();
  rmSync(dir, { recursive: true, force: true });
});

const tokenHeader = () => ({ 'x-studio-token': harness.token });

describe('browser harness transport', () => {
  it('prints a loopback URL that carries a long random token', () => {
    expect(harness.url).toBe(`http://127.0.0.1:${harness.port}/?token=${harness.token}`);
    expect(harness.token).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses the page without the token (401) and with a wrong one (403)', async () => {
    expect((await send(harness.port, '/')).status).toBe(401);
    expect((await send(harness.port, '/?token=' + 'a'.repeat(64))).status).toBe(403);
    expect((await send(harness.port, '/assets/app.js')).status).toBe(401);
  });

  it('serves index.html with the client script injected before the bundle, a CSP header and a token cookie', async () => {
    const page = await send(harness.port, `/?token=${harness.token}`);
    expect(page.status).toBe(200);
    expect(page.body.indexOf('<script src="/harness/api.js"></script>')).toBeGreaterThan(0);
    expect(page.body.indexOf('/harness/api.js')).toBeLessThan(page.body.indexOf('./assets/app.js'));
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    const cookie = String(page.headers['set-cookie']);
    expect(cookie).toContain(`studio_harness_${harness.port}=${harness.token}`);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    // Assets the page loads carry the cookie instead of the query token.
    const asset = await send(harness.port, '/assets/app.js', { headers: { cookie: `studio_harness_${harness.port}=${harness.token}` } });
    expect(asset.status).toBe(200);
    expect(asset.body).toBe('console.log(1);');
  });

  it("serves its client script only to its own page, and the script names the harness's own origin", async () => {
    const own = `http://127.0.0.1:${harness.port}`;
    const cookie = { cookie: `studio_harness_${harness.port}=${harness.token}` };
    const asPage = { ...cookie, 'sec-fetch-site': 'same-origin', 'sec-fetch-dest': 'script', referer: `${own}/?token=${harness.token}` };
    const script = await send(harness.port, '/harness/api.js', { headers: asPage });
    expect(script.status).toBe(200);
    expect(script.body).toContain(`const origin = ${JSON.stringify(own)};`);
    expect(script.body).toContain("fetch(origin + '/ipc/'");
    expect(script.body).not.toContain('location.host');
    // Opened as localhost, it names localhost (the page's own origin, so its CSP 'self' holds).
    const local = await send(harness.port, '/harness/api.js', { headers: { ...asPage, host: `localhost:${harness.port}`, referer: `http://localhost:${harness.port}/` } });
    expect(local.body).toContain(`const origin = "http://localhost:${harness.port}";`);
    // A page on another loopback port gets the cookie sent along (cookies ignore ports), but not the script.
    const other = `http://127.0.0.1:${harness.port + 1}`;
    const included = [
      { ...cookie, 'sec-fetch-site': 'same-site', 'sec-fetch-dest': 'script', referer: `${other}/` },
      { ...cookie, 'sec-fetch-site': 'same-site', 'sec-fetch-dest': 'script' },
      { ...cookie, 'sec-fetch-site': 'cross-site', 'sec-fetch-dest': 'script' },
      { ...cookie, referer: `${other}/page.html` },
      { ...cookie, referer: 'not a url' },
    ];
    for (const headers of included) {
      const reply = await send(harness.port, '/harness/api.js', { headers });
      expect(reply.status, JSON.stringify(headers)).toBe(403);
      expect(reply.body).not.toContain(harness.token);
    }
  });

  it('refuses a foreign Host even with the token (DNS rebinding)', async () => {
    const reply = await send(harness.port, `/?token=${harness.token}`, { headers: { host: `evil.example:${harness.port}` } });
    expect(reply.status).toBe(403);
    const otherPort = await send(harness.port, `/?token=${harness.token}`, { headers: { host: `127.0.0.1:${harness.port + 1}` } });
    expect(otherPort.status).toBe(403);
    expect((await send(harness.port, `/?token=${harness.token}`, { headers: { host: `localhost:${harness.port}` } })).status).toBe(200);
  });

  it('refuses a foreign Origin on an IPC call and never reaches the app', async () => {
    const reply = await send(harness.port, '/ipc/settings:get', {
      method: 'POST',
      headers: { ...tokenHeader(), origin: 'https://evil.example', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(reply.status).toBe(403);
    expect(app.calls).toEqual([]);
  });

  it('routes POST /ipc/<channel> and /ipc/<name> to the app with the parsed input', async () => {
    const byChannel = await send(harness.port, '/ipc/library:star', {
      method: 'POST',
      headers: { ...tokenHeader(), origin: harness.origin },
      body: JSON.stringify({ imageId: 'img_abcdefgh', starred: true }),
    });
    expect(byChannel.status).toBe(200);
    expect(JSON.parse(byChannel.body)).toEqual({ ok: true, value: { echoed: 'libraryStar' } });
    const byName = await send(harness.port, '/ipc/settingsGet', { method: 'POST', headers: tokenHeader(), body: '' });
    expect(JSON.parse(byName.body)).toEqual({ ok: true, value: { echoed: 'settingsGet' } });
    expect(app.calls).toEqual([
      { method: 'libraryStar', input: { imageId: 'img_abcdefgh', starred: true } },
      { method: 'settingsGet', input: {} },
    ]);
  });

  it('answers an unknown method 404 and a body that is not JSON 400, without calling the app', async () => {
    const unknown = await send(harness.port, '/ipc/admin:drop-everything', { method: 'POST', headers: tokenHeader(), body: '{}' });
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body).error.code).toBe('unknown_method');
    const prototypeName = await send(harness.port, '/ipc/constructor', { method: 'POST', headers: tokenHeader(), body: '{}' });
    expect(prototypeName.status).toBe(404);
    const notJson = await send(harness.port, '/ipc/settings:get', { method: 'POST', headers: tokenHeader(), body: '{nope' });
    expect(notJson.status).toBe(400);
    expect(JSON.parse(notJson.body).error.code).toBe('invalid_input');
    expect((await send(harness.port, '/ipc/settings:get', { headers: tokenHeader() })).status).toBe(405);
    expect(app.calls).toEqual([]);
  });

  it('resolves method names and channels from the contract only', () => {
    expect(resolveMethodName('generateStart')).toBe('generateStart');
    expect(resolveMethodName('generate:start')).toBe('generateStart');
    expect(resolveMethodName('toString')).toBeNull();
    expect(resolveMethodName('__proto__')).toBeNull();
  });

  it('forwards app events to WebSocket clients that present the token and their own origin', async () => {
    const wsUrl = `ws://127.0.0.1:${harness.port}/events`;
    await expect(openSocket(wsUrl)).rejects.toThrow('HTTP 401');
    await expect(openSocket(`${wsUrl}?token=${harness.token}`, { origin: 'https://evil.example' })).rejects.toThrow('HTTP 403');
    await expect(openSocket(`ws://127.0.0.1:${harness.port}/other?token=${harness.token}`)).rejects.toThrow('HTTP 404');
    const ws = await openSocket(`${wsUrl}?token=${harness.token}`, { origin: harness.origin });
    const received = new Promise<unknown>((resolve) => ws.once('message', (data) => resolve(JSON.parse(String(data)))));
    app.emit('library:changed', { kind: 'turn', id: 'lt_1' });
    expect(await received).toEqual({ event: 'library:changed', payload: { kind: 'turn', id: 'lt_1' } });
    ws.close();
  });

  it('serves image files only from inside the data folder and only for well-formed requests', async () => {
    writeFileSync(join(dir, 'data', 'thumbs', 'img_aaaa1111.webp'), 'webp-bytes');
    app.files.set('thumb/img_aaaa1111', join(dir, 'data', 'thumbs', 'img_aaaa1111.webp'));
    app.files.set('full/img_bbbb2222', join(dir, 'secret.txt'));
    const ok = await send(harness.port, `/studio-image/thumb/img_aaaa1111?token=${harness.token}`);
    expect(ok.status).toBe(200);
    expect(ok.headers['content-type']).toBe('image/webp');
    expect(ok.body).toBe('webp-bytes');
    expect((await send(harness.port, `/studio-image/full/img_bbbb2222?token=${harness.token}`)).status).toBe(404);
    expect((await send(harness.port, `/studio-image/full/img_none?token=${harness.token}`)).status).toBe(404);
    expect((await send(harness.port, `/studio-image/secret/img_aaaa1111?token=${harness.token}`)).status).toBe(400);
    expect((await send(harness.port, `/studio-image/thumb/..%2Fsecret?token=${harness.token}`)).status).toBe(400);
    expect((await send(harness.port, `/studio-image/thumb/img_aaaa1111`)).status).toBe(401);
  });

  it('serves a thumbnail sheet for 1 to 40 well-formed image ids, kept by the page only when every tile is there', async () => {
    const sheet = await send(harness.port, `/studio-image/sheet/img_aaaa1111.img_bbbb2222?token=${harness.token}`);
    expect(sheet.status).toBe(200);
    expect(sheet.headers['content-type']).toBe('image/webp');
    expect(sheet.headers['cache-control']).toBe('private, max-age=86400, immutable');
    expect(sheet.body).toBe('sheet:img_aaaa1111,img_bbbb2222');
    expect((await send(harness.port, `/studio-image/sheet/img_aaaa1111.img_pending?token=${harness.token}`)).headers['cache-control']).toBe('no-store');
    const tooMany = Array.from({ length: 41 }, (_, i) => `img_${String(i).padStart(8, '0')}`).join('.');
    for (const bad of ['img_aaaa1111..img_b', '..%2Fsecret', 'img_a%2Fb', tooMany]) {
      expect((await send(harness.port, `/studio-image/sheet/${bad}?token=${harness.token}`)).status, bad).toBe(400);
    }
    expect((await send(harness.port, `/studio-image/sheet/img_aaaa1111`)).status).toBe(401);
    expect(app.sheets).toEqual([['img_aaaa1111', 'img_bbbb2222'], ['img_aaaa1111', 'img_pending']]);
  });

  it('never serves files outside the renderer folder', async () => {
    expect((await send(harness.port, `/%2e%2e/secret.txt?token=${harness.token}`)).status).toBe(404);
    expect((await send(harness.port, `/..%2fsecret.txt?token=${harness.token}`)).status).toBe(404);
    expect((await send(harness.port, `/assets?token=${harness.token}`)).status).toBe(404);
    expect((await send(harness.port, `/missing.js?token=${harness.token}`)).status).toBe(404);
    expect((await send(harness.port, `/favicon.ico?token=${harness.token}`)).status).toBe(204);
  });

  it('reports the recording shell calls and sets window focus for tests', async () => {
    const calls = await send(harness.port, '/harness/shell-calls', { headers: tokenHeader() });
    expect(JSON.parse(calls.body)).toEqual([{ kind: 'notify', title: 'Done', body: 'x' }]);
    expect((await send(harness.port, '/harness/window-focus', { method: 'POST', headers: tokenHeader(), body: '{"focused":"no"}' })).status).toBe(400);
    expect(focused).toBeNull();
    await send(harness.port, '/harness/window-focus', { method: 'POST', headers: tokenHeader(), body: '{"focused":false}' });
    expect(focused).toBe(false);
  });

  it('sets the recording shell\'s folder answer through POST /harness/shell-answers, token-checked and validated', async () => {
    const folder = join(dir, 'exports');
    const body = JSON.stringify({ chooseFolder: folder });
    // The same token and origin rules as every other harness request.
    expect((await send(harness.port, '/harness/shell-answers', { method: 'POST', body })).status).toBe(401);
    expect((await send(harness.port, '/harness/shell-answers', { method: 'POST', headers: { 'x-studio-token': 'f'.repeat(64) }, body })).status).toBe(403);
    expect((await send(harness.port, '/harness/shell-answers', { method: 'POST', headers: { ...tokenHeader(), origin: 'http://evil.example' }, body })).status).toBe(403);
    expect((await send(harness.port, '/harness/shell-answers', { headers: tokenHeader() })).status).toBe(405);
    for (const bad of ['not json', '{}', '{"chooseFolder":"relative/dir"}', '{"chooseFolder":42}', `{"chooseFolder":"${folder}","extra":1}`, '{"chooseFolder":""}']) {
      const reply = await send(harness.port, '/harness/shell-answers', { method: 'POST', headers: tokenHeader(), body: bad });
      expect(reply.status, bad).toBe(400);
      expect(reply.body, bad).toMatch(/chooseFolder/);
    }
    expect(answers).toEqual([]);
    const ok = await send(harness.port, '/harness/shell-answers', { method: 'POST', headers: tokenHeader(), body });
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body)).toEqual({ chooseFolder: folder });
    await send(harness.port, '/harness/shell-answers', { method: 'POST', headers: tokenHeader(), body: '{"chooseFolder":null}' });
    expect(answers).toEqual([{ chooseFolder: folder }, { chooseFolder: null }]);
  });

  it('lets a person answer a folder chooser that has no scripted answer, through the prompt the page is told of; a folder outside the data folder and home is refused', async () => {
    const home = join(dir, 'home');
    for (const folder of ['Pictures/Shoots 2', 'Pictures/Shoots 10', '.cache', 'outside']) mkdirSync(join(folder === 'outside' ? dir : home, folder), { recursive: true });
    symlinkSync(join(dir, 'outside'), join(home, 'escape'));
    symlinkSync(join(dir, 'data', 'thumbs'), join(home, 'thumbs'));
    const real = (path: string) => realpathSync(path);
    const get = async (path: string) => {
      const reply = await send(harness.port, path, { headers: tokenHeader() });
      return { status: reply.status, body: JSON.parse(reply.body) as Record<string, unknown> };
    };
    const answer = async (body: unknown) => {
      const reply = await send(harness.port, '/harness/folder-prompt/answer', { method: 'POST', headers: tokenHeader(), body: JSON.stringify(body) });
      return { status: reply.status, body: JSON.parse(reply.body) as Record<string, unknown> };
    };

    // No page open: nobody can answer, so the chooser is cancelled at once, as before.
    await expect(shell.chooseFolder({ title: 'Export to' })).resolves.toBeNull();

    const page = await openSocket(`ws://127.0.0.1:${harness.port}/events?token=${harness.token}`);
    const told: unknown[] = [];
    page.on('message', (data: Buffer) => told.push(JSON.parse(data.toString('utf8'))));
    const chosen = shell.chooseFolder({ title: 'Export to', defaultPath: join(home, 'Pictures') });
    await expect.poll(() => told.length).toBe(1);
    const prompt = { title: 'Export to', start: real(join(home, 'Pictures')), roots: [real(join(dir, 'data')), real(home)] };
    expect(told[0]).toMatchObject({ event: 'harness:folder-prompt', payload: prompt });
    const open = await get('/harness/folder-prompt');
    expect(open.body.prompt).toMatchObject(prompt);
    const id = (open.body.prompt as { id: string }).id;

    // Listing: folders only, hidden ones left out, numbers sorted as people read them, links that lead inside the roots.
    const pictures = await get(`/harness/folder-prompt/folders?path=${encodeURIComponent(join(home, 'Pictures'))}`);
    expect(pictures).toEqual({ status: 200, body: { path: real(join(home, 'Pictures')), parent: real(home), folders: [{ name: 'Shoots 2', path: real(join(home, 'Pictures', 'Shoots 2')) }, { name: 'Shoots 10', path: real(join(home, 'Pictures', 'Shoots 10')) }] } });
    const atHome = await get(`/harness/folder-prompt/folders?path=${encodeURIComponent(home)}`);
    expect(atHome.body).toMatchObject({ parent: null, folders: [{ name: 'Pictures' }, { name: 'thumbs' }] });

    // Outside the roots: refused, also through a link inside home, and the prompt stays open.
    for (const outside of [join(dir, 'outside'), join(home, 'escape'), join(home, '..'), '/']) {
      const refused = await get(`/harness/folder-prompt/folders?path=${encodeURIComponent(outside)}`);
      expect(refused.status, outside).toBe(403);
      expect(refused.body.error, outside).toMatch(/outside the folders the harness may choose/);
      expect((await answer({ id, folder: outside })).status, outside).toBe(403);
    }
    expect((await get(`/harness/folder-prompt/folders?path=${encodeURIComponent(join(home, 'missing'))}`)).status).toBe(404);
    expect((await get('/harness/folder-prompt/folders?path=relative')).status).toBe(400);
    expect((await answer({ id: 'not-the-prompt', folder: home })).status).toBe(409);
    expect((await answer({ folder: home })).status).toBe(400);
    expect((await send(harness.port, '/harness/folder-prompt')).status).toBe(401);

    // The person chooses: the chooser answers that folder (its real path) and the page is told the prompt closed.
    expect(await answer({ id, folder: join(home, 'Pictures', 'Shoots 10') })).toEqual({ status: 200, body: { folder: real(join(home, 'Pictures', 'Shoots 10')) } });
    await expect(chosen).resolves.toBe(real(join(home, 'Pictures', 'Shoots 10')));
    await expect.poll(() => told.at(-1)).toEqual({ event: 'harness:folder-prompt', payload: null });
    expect((await get('/harness/folder-prompt')).body).toEqual({ prompt: null });
    expect((await answer({ id, folder: home })).status).toBe(409);

    // Cancel answers null; a link into the data folder is chosen by where it leads.
    const cancelled = shell.chooseFolder({ title: 'Export to' });
    await expect.poll(() => told.length).toBe(3);
    const second = (told[2] as { payload: { id: string; start: string } }).payload;
    expect(second.start).toBe(real(join(dir, 'data')));
    expect((await answer({ id: second.id, folder: null })).status).toBe(200);
    await expect(cancelled).resolves.toBeNull();
    const viaLink = shell.chooseFolder({ title: 'Export to' });
    await expect.poll(() => told.length).toBe(5);
    await answer({ id: (told[4] as { payload: { id: string } }).payload.id, folder: join(home, 'thumbs') });
    await expect(viaLink).resolves.toBe(real(join(dir, 'data', 'thumbs')));

    // A script's answer (POST /harness/shell-answers) takes over: no prompt, the scripted folder.
    await send(harness.port, '/harness/shell-answers', { method: 'POST', headers: tokenHeader(), body: JSON.stringify({ chooseFolder: join(dir, 'outside') }) });
    await expect(shell.chooseFolder({ title: 'Export to' })).resolves.toBe(join(dir, 'outside'));
    expect(told).toHaveLength(6);
    expect(shell.calls.filter((c) => c.kind === 'chooseFolder')).toHaveLength(5);
    page.close();
  });

  it('unsubscribes from the app when closed', async () => {
    expect(app.listenerCount()).toBeGreaterThan(0);
    await harness.close();
    expect(app.listenerCount()).toBe(0);
    harness = { ...harness, close: () => Promise.resolve() };
  });
});
