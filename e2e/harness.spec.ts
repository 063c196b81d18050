// The browser harness end to end: the real main-process core behind it, the built renderer in Debian
// Chromium, and DESIGN.md §2 rule 6 (token, own Host and Origin only) over real HTTP.
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
  expect(await rawRequest(`${harness.origin}/harness/shell-calls`, { origin: 'http://127.0.0.1:1' })).toBe(401);
});
