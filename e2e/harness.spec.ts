// The browser harness end to end: the real main-process core behind it, the built renderer in Debian
// Chromium, and DESIGN.md §2 rule 6 (token, own Host and Origin only) over real HTTP.
import { statSync } from 'node:fs';
import { request } from 'node:http';
import { IPC_EVENT_NAMES, IPC_METHODS } from '../src-shared/ipc/index.ts';
import { expect, test } from './fixtures/harness.ts';

function rawRequest(url: string, headers: Record<string, string>, method = 'GET', body?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const req = request({ host: u.hostname, port: u.port, path: u.pathname + u.search, method, headers }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

test('the page loads and window.api has exactly the contract functions', async ({ page, harness }) => {
  expect(harness.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]{64}$/);
  const response = await page.goto(harness.url);
  expect(response?.status()).toBe(200);
  await expect(page).toHaveTitle('Image Studio');
  const shape = await page.evaluate(() => {
    const api = (globalThis as unknown as { api: Record<string, unknown> }).api;
    return { keys: Object.keys(api).sort(), types: [...new Set(Object.values(api).map((v) => typeof v))], frozen: Object.isFrozen(api) };
  });
  expect(shape.keys).toEqual([...Object.keys(IPC_METHODS), 'on', 'imageUrl'].sort());
  expect(shape.types).toEqual(['function']);
  expect(shape.frozen).toBe(true);
  // The renderer mounted something into #root.
  await expect(page.locator('#root > *').first()).toBeAttached();
});

test('calls reach the real handlers and unknown events are refused', async ({ page, harness }) => {
  await page.goto(harness.url);
  const result = await page.evaluate(async (events) => {
    const api = (globalThis as unknown as { api: { settingsGet(i: object): Promise<{ ok: boolean; value?: { environment?: string } }>; on(e: string, l: () => void): () => void } }).api;
    const settings = await api.settingsGet({});
    let unknownEvent = '';
    try {
      api.on('keys:leak', () => undefined);
    } catch (err) {
      unknownEvent = String(err);
    }
    const offs = events.map((e) => api.on(e, () => undefined));
    offs.forEach((off) => off());
    const bad = await (api as unknown as { libraryStar(i: unknown): Promise<{ ok: boolean; error?: { code: string } }> }).libraryStar({ imageId: 5 });
    return { settingsOk: settings.ok, environment: settings.value?.environment, unknownEvent, bad };
  }, [...IPC_EVENT_NAMES]);
  expect(result.settingsOk).toBe(true);
  expect(result.environment).toBe('local');
  expect(result.unknownEvent).toContain('Unknown event');
  // Main parses every input against the contract: a wrong type is refused, not passed on.
  expect(result.bad.ok).toBe(false);
});

test('the harness refuses requests without its token or from another Host or Origin', async ({ page, harness }) => {
  const noToken = await page.goto(`${harness.origin}/`);
  expect(noToken?.status()).toBe(401);
  expect(await rawRequest(`${harness.origin}/?token=${'0'.repeat(64)}`, {})).toBe(403);
  const ipc = `${harness.origin}/ipc/settings:get`;
  expect(await rawRequest(ipc, { 'content-type': 'application/json' }, 'POST', '{}')).toBe(401);
  expect(await rawRequest(ipc, { 'x-studio-token': harness.token }, 'POST', '{}')).toBe(200);
  expect(await rawRequest(ipc, { 'x-studio-token': harness.token, origin: 'https://evil.example' }, 'POST', '{}')).toBe(403);
  expect(await rawRequest(ipc, { 'x-studio-token': harness.token, host: `evil.example:${new URL(harness.origin).port}` }, 'POST', '{}')).toBe(403);
  // Another port on loopback is another origin too.
  expect(await rawRequest(`${harness.origin}/harness/shell-calls`, { 'x-studio-token': harness.token, origin: 'http://127.0.0.1:1' })).toBe(403);
  expect(await rawRequest(`${harness.origin}/harness/shell-calls`, {})).toBe(401);
  expect(await rawRequest(`${harness.origin}/harness/shell-calls`, { 'x-studio-token': harness.token })).toBe(200);
});

test('a generation runs through the real core: events over the socket, images, drag-out, export, notification', async ({ page, harness }) => {
  await page.goto(harness.url);
  // The "window" is in the background, so the finished generation must notify.
  await harness.setWindowFocused(false);
  const outcome = await page.evaluate(async () => {
    type R = { ok: boolean; value?: unknown; error?: { code: string; message: string } };
    const api = (globalThis as unknown as { api: Record<string, (i: unknown) => Promise<R>> & { on(e: string, l: (p: unknown) => void): () => void; imageUrl(k: string, id: string): string } }).api;
    const progress: Array<{ turnId: string; status: string }> = [];
    api.on('generation:progress', (p) => progress.push(p as { turnId: string; status: string }));
    const started = await api.generateStart!({ request: { prompt: 'a ceramic mug on a wooden table', model: 'seedream-5-0-pro', n: 1 } });
    if (!started.ok) return { error: started.error };
    const { turnId } = started.value as { turnId: string };
    for (let i = 0; i < 400; i++) {
      const turn = (await api.libraryGetTurn!({ turnId })).value as { status: string; images: Array<{ id: string; download: string }> } | undefined;
      if (turn && turn.status !== 'running' && turn.images.length > 0 && turn.images.every((img) => img.download === 'done')) {
        const id = turn.images[0]!.id;
        const full = await fetch(api.imageUrl('full', id));
        const thumb = await fetch(api.imageUrl('thumb', id));
        const drag = await api.filesStartDrag!({ imageIds: [id] });
        const exported = await api.filesExport!({ imageId: id });
        return {
          turnId,
          status: turn.status,
          imageId: id,
          full: { status: full.status, type: full.headers.get('content-type'), bytes: (await full.arrayBuffer()).byteLength },
          thumb: { status: thumb.status, type: thumb.headers.get('content-type') },
          progress: progress.filter((p) => p.turnId === turnId).map((p) => p.status),
          drag,
          exported,
        };
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    return { error: { code: 'timeout', message: 'the turn did not finish' } };
  });
  expect(outcome.error).toBeUndefined();
  expect(outcome.status).toBe('succeeded');
  expect(outcome.full).toEqual({ status: 200, type: 'image/png', bytes: expect.any(Number) });
  expect(outcome.full?.bytes).toBeGreaterThan(1000);
  expect(outcome.thumb).toEqual({ status: 200, type: 'image/webp' });
  // Events reached the page over the harness's WebSocket.
  expect(outcome.progress).toContain('succeeded');
  expect(outcome.drag).toMatchObject({ ok: true });
  expect(outcome.exported).toMatchObject({ ok: true });
  const calls = await harness.shellCalls();
  const drag = calls.find((c) => c.kind === 'startDrag');
  expect(drag?.kind === 'startDrag' && drag.files[0]?.startsWith(harness.dataDir)).toBe(true);
  expect(calls.filter((c) => c.kind === 'notify')).toHaveLength(1);
  const save = calls.find((c) => c.kind === 'showSaveDialog');
  expect(save).toBeDefined();
  const exportedPath = (outcome.exported as { value: { path: string } }).value.path;
  expect(exportedPath.startsWith(harness.exportsDir)).toBe(true);
  expect(statSync(exportedPath).size).toBe(outcome.full?.bytes);
  // The images cannot be fetched without the token.
  expect(await rawRequest(`${harness.origin}/studio-image/full/${outcome.imageId}`, {})).toBe(401);
});
