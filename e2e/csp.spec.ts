// The renderer's Content-Security-Policy in Chromium, through the browser harness (header + index.html's
// <meta>, both from src-main/electron/content-security-policy.ts): the whole app runs with no violation, its
// own-origin fetch and WebSocket pass under connect-src 'self', and what an injected script or markup would
// need (another loopback port, <object>, <base>, a form post, inline script or style) is refused.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONTENT_SECURITY_POLICY, META_CONTENT_SECURITY_POLICY } from '../src-main/electron/content-security-policy.ts';
import { embedGenerationData } from '../src-shared/generation-data.ts';
import { expect, test } from './fixtures/harness.ts';
import { compose, dropFile, generateAndWait, openStudio, openTab } from './support/studio.ts';

// The page-side functions below run in Chromium; e2e is type-checked without the DOM lib, so the browser
// globals they use are declared loosely, for this file only.
/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;
declare const window: any;
declare const location: any;
declare function getComputedStyle(element: unknown): any;
/* eslint-enable @typescript-eslint/no-explicit-any */

interface Violation {
  directive: string;
  blockedURI: string;
  sourceFile: string;
  line: number;
  column: number;
}

/** Records every securitypolicyviolation of the page (installed before any of its scripts run). */
async function recordViolations(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const seen: unknown[] = [];
    Object.defineProperty(window, '__cspViolations', { value: seen });
    document.addEventListener('securitypolicyviolation', (e: Record<string, unknown>) => {
      seen.push({ directive: e.effectiveDirective, blockedURI: e.blockedURI, sourceFile: e.sourceFile, line: e.lineNumber, column: e.columnNumber });
    });
  });
}

async function violations(page: Page): Promise<Violation[]> {
  return page.evaluate(() => (window.__cspViolations as Violation[]).slice());
}

/** A server on another loopback port that counts what reaches it (and would allow any origin, if asked). */
async function otherLoopbackServer(): Promise<{ server: Server; origin: string; hits: string[] }> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'access-control-allow-origin': '*', 'content-type': 'text/plain' }).end('reached');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits };
}

test('the app runs with no CSP violation: page, images, events over the same-origin WebSocket, every tab, a dropped file', async ({ page, harness }) => {
  const consoleErrors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });
  page.on('pageerror', (e) => consoleErrors.push(e.message));
  await recordViolations(page);

  const response = await page.goto(harness.url);
  // Both deliveries, from the one source: the header (with frame-ancestors) and the <meta>.
  expect(response?.headers()['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
  await expect(page.locator('meta[http-equiv="Content-Security-Policy"]')).toHaveAttribute('content', META_CONTENT_SECURITY_POLICY);
  await openStudio(page, harness.url);

  // A generation: IPC over fetch to /ipc/…, progress events over the /events WebSocket, thumbnails over
  // /studio-image/… — all on the page's own origin.
  await compose(page, { prompt: 'A glass bottle on slate, soft light', model: 'nano-banana-2', resolution: '1K', n: '1' });
  const turn = await generateAndWait(page, 'succeeded');
  await expect(turn.locator('img').first()).toHaveJSProperty('complete', true);
  expect(await turn.locator('img').first().evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBeGreaterThan(0);
  await page.getByTestId('gallery').getByTestId('gallery-image').first().dblclick();
  await expect(page.getByTestId('viewer').getByTestId('viewer-image')).toHaveJSProperty('complete', true);
  await page.keyboard.press('Escape');

  // 'self' covers ws:// on the page's own host and port (CSP Level 3): a second socket opens like the client's.
  const sameOriginSocket = await page.evaluate(
    (token) =>
      new Promise<string>((resolve) => {
        const ws = new WebSocket(`ws://${location.host}/events?token=${encodeURIComponent(token)}`);
        ws.onopen = () => {
          ws.close();
          resolve('open');
        };
        ws.onerror = () => resolve('error');
      }),
    harness.token,
  );
  expect(sameOriginSocket).toBe('open');

  // Every tab, each loaded on demand with its own chunk (the batch tab's is opened by its own button).
  await page.getByTestId('open-batch').click();
  await expect(page.getByTestId('batch-page')).toBeVisible();
  for (const tab of ['local', 'settings', 'webhooks', 'studio'] as const) {
    await openTab(page, tab);
    await page.waitForLoadState('networkidle');
  }
  // A dropped PNG with generation data: the code that reads it (and zod, which checks it) is loaded then, and
  // runs jitless under the CSP like the rest.
  const imageId = await page.getByTestId('gallery').getByTestId('gallery-image').first().getAttribute('data-image-id');
  const png = embedGenerationData(readFileSync(join(harness.dataDir, 'cache', 'full', `${imageId}.png`)), {
    schemaVersion: 1,
    app: { name: 'Image Studio', version: '0.1.0' },
    imageId: imageId ?? '',
    turnId: 'lt_csp',
    serviceTurnId: null,
    sessionId: 'ls_csp',
    serviceSessionId: null,
    environment: 'local',
    requestId: null,
    request: { prompt: 'Recalled under the CSP', model: 'nano-banana-2', ratio: '1:1', resolution: '1K', n: 1 },
    referenceImageIds: [],
    model: 'nano-banana-2',
    resolution: '1K',
    quality: null,
    width: 1024,
    height: 1024,
    creditsCharged: null,
    creditsEstimated: 0,
    createdAt: new Date().toISOString(),
  });
  await dropFile(page, page.getByTestId('prompt'), Buffer.from(png), 'recalled.png');
  await expect(page.getByTestId('tray-notice')).toHaveAttribute('data-kind', 'recalled');
  await expect(page.getByTestId('prompt')).toHaveValue('Recalled under the CSP');

  // Styles come from the bundle's stylesheet, not inline: the page is styled.
  expect(await page.evaluate(() => document.styleSheets.length)).toBeGreaterThan(0);
  expect(await page.evaluate(() => document.querySelectorAll('style').length)).toBe(0);

  // None at all: zod runs jitless (src-renderer/lib/zod-jitless.ts, loaded with it), so not even its eval probe
  // is refused.
  expect(await violations(page)).toEqual([]);
  expect(consoleErrors).toEqual([]);
});

test('an injected script cannot reach another loopback port, embed an <object>, move the base URL or post a form', async ({ page, harness }) => {
  const other = await otherLoopbackServer();
  try {
    await recordViolations(page);
    await openStudio(page, harness.url);
    const origin = new URL(harness.url).origin;

    const attempts = await page.evaluate(async (target) => {
      const settle = () => new Promise((r) => setTimeout(r, 300));
      const out: Record<string, string> = {};
      // fetch and WebSocket to another port on the same machine (the local service, say).
      try {
        await fetch(`${target}/fetch`, { mode: 'cors' });
        out.fetch = 'reached';
      } catch (err) {
        out.fetch = String(err);
      }
      try {
        const ws = new WebSocket(`${target.replace('http:', 'ws:')}/ws`);
        out.websocket = await new Promise<string>((resolve) => {
          ws.onopen = () => resolve('open');
          ws.onerror = () => resolve('error');
        });
      } catch (err) {
        out.websocket = String(err);
      }
      // <object> (plugins, documents in the page).
      const object = document.createElement('object');
      object.data = `${target}/object`;
      document.body.append(object);
      // <base>: would make every relative URL of the page point elsewhere.
      const baseBefore = document.baseURI;
      const base = document.createElement('base');
      base.href = `${target}/base/`;
      document.head.prepend(base);
      out.baseMoved = String(document.baseURI !== baseBefore);
      // A form post.
      const form = document.createElement('form');
      form.method = 'post';
      form.action = `${target}/form`;
      form.target = '_self';
      document.body.append(form);
      form.submit();
      // Inline script and inline style.
      const script = document.createElement('script');
      script.textContent = 'window.__inlineRan = true;';
      document.body.append(script);
      out.inlineScriptRan = String(window.__inlineRan === true);
      const style = document.createElement('style');
      style.textContent = 'body { outline: 7px solid rgb(1, 2, 3); }';
      document.head.append(style);
      await settle();
      out.inlineStyleApplied = String(getComputedStyle(document.body).outlineWidth === '7px');
      return out;
    }, other.origin);

    expect(attempts.fetch).toMatch(/TypeError/);
    expect(attempts.websocket).not.toBe('open');
    expect(attempts.baseMoved).toBe('false');
    expect(attempts.inlineScriptRan).toBe('false');
    expect(attempts.inlineStyleApplied).toBe('false');
    // The form did not navigate the page away, and nothing at all reached the other port.
    expect(new URL(page.url()).origin).toBe(origin);
    expect(other.hits).toEqual([]);

    const directives = new Set((await violations(page)).map((v) => v.directive));
    for (const d of ['connect-src', 'object-src', 'base-uri', 'form-action', 'script-src-elem', 'style-src-elem']) {
      expect(directives, `a ${d} violation`).toContain(d);
    }
    const blocked = (await violations(page)).filter((v) => v.directive === 'connect-src').map((v) => v.blockedURI);
    expect(blocked.every((uri) => uri.startsWith(other.origin) || uri.startsWith(other.origin.replace('http:', 'ws:')))).toBe(true);
  } finally {
    other.server.close();
  }
});
