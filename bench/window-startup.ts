// Start-up as the app's window has it, for benches that time a page's load in Chromium (docs/decisions.md
// "Start-up"): one renderer process, started by the window's navigation, and nothing else starting beside it.
// Playwright's new page starts two renderers at once (its about:blank and one kept ready for a navigation), and
// Chromium keeps a *spare* renderer started ahead for the next navigation (Electron turns that off:
// shell/browser/feature_list.cc). So Chromium runs without the spare renderer, and each start-up first opens its
// page on another site (a blank page on `localhost`; the harness is on `127.0.0.1`, a different site, so the app
// cannot load in that page's process) and waits SETTLE_MS for those processes to finish starting; the navigation to
// the app then starts the app's renderer, and the start-up checks that it did.
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export const SETTLE_MS = 1_500;
// Chromium reads only the last --disable-features, so this list carries the entries of Playwright's own list that
// bear on a page on loopback, plus the spare renderer.
const DISABLED_FEATURES = ['SpareRendererForSitePerProcess', 'PaintHolding', 'OptimizationHints', 'NetworkTimeServiceQuerying', 'MediaRouter', 'AimEnabled', 'PreconnectToSearch', 'LensOverlay', 'HttpsUpgrades'];

/** The Chromium argument that runs it as Electron runs its windows here. */
export const WINDOW_LIKE_ARG = `--disable-features=${DISABLED_FEATURES.join(',')}`;

/** A blank page on a site other than `appUrl`'s, to open each page on before navigating to the app. */
export async function startSettlePage(appUrl: string): Promise<{ url: string; close(): void }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><title>settle</title>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://localhost:${(server.address() as AddressInfo).port}/`;
  if (new URL(url).hostname === new URL(appUrl).hostname) throw new Error('the settle page must be on another site than the app');
  return { url, close: () => server.close() };
}

/** Renderer process ids and their CPU seconds (CDP SystemInfo.getProcessInfo). */
async function rendererCpu(browser: Browser): Promise<Map<number, number>> {
  const session = await browser.newBrowserCDPSession();
  try {
    const { processInfo } = await session.send('SystemInfo.getProcessInfo');
    return new Map(processInfo.filter((p) => p.type === 'renderer').map((p) => [p.id, p.cpuTime]));
  } finally {
    await session.detach();
  }
}

/**
 * Fails unless the page's document runs in a renderer process that was not running before its navigation: the
 * page's process is the one whose CPU time grows by most of a 400 ms busy loop run in the page.
 */
async function checkStartedByNavigation(browser: Browser, page: Page, before: Set<number>): Promise<void> {
  const a = await rendererCpu(browser);
  await page.evaluate(() => {
    const clock = (globalThis as unknown as { performance: { now(): number } }).performance;
    const end = clock.now() + 400;
    while (clock.now() < end);
  });
  const b = await rendererCpu(browser);
  const grown = [...b].map(([id, cpu]) => ({ id, by: cpu - (a.get(id) ?? 0) })).sort((x, y) => y.by - x.by);
  const [busiest, next] = grown;
  // The page's process took most of the loop's CPU (the machine is shared: not necessarily all of it).
  if (!busiest || busiest.by < 0.1 || (next && next.by > busiest.by / 2)) throw new Error(`could not tell the app's renderer process (CPU grown: ${JSON.stringify(grown)})`);
  if (before.has(busiest.id)) {
    throw new Error(`the app loaded in renderer ${busiest.id}, which was running before its navigation: the measure would leave its start-up out`);
  }
}

/**
 * One start-up in a fresh 1440×900 browser context: settle on another site, navigate to `url`, wait for `ready`
 * (times from the navigation's start, performance.now() = 0 of the new document), check the renderer.
 */
export async function startUp<T>(browser: Browser, url: string, settleUrl: string, ready: (page: Page) => Promise<T>): Promise<{ context: BrowserContext; page: Page; first: T }> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  try {
    const page = await context.newPage();
    await page.goto(settleUrl);
    await page.waitForTimeout(SETTLE_MS);
    const before = new Set((await rendererCpu(browser)).keys());
    await page.goto(url);
    const first = await ready(page);
    await checkStartedByNavigation(browser, page, before);
    return { context, page, first };
  } catch (error) {
    await context.close();
    throw error;
  }
}
