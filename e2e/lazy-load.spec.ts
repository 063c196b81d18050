// The parts of the renderer loaded on demand (docs/decisions.md "Start-up"): the tabs other than the studio and
// the reader of dropped files. When one cannot be loaded (a renderer rebuilt or upgraded under a running window
// asks for chunk names that are gone), the app says so and keeps working; nothing unmounts.
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures/harness.ts';
import { seriousViolations } from './support/axe.ts';
import { chooseLook, dropFile, LANGUAGES, openStudio, openTab, screenshot, SIZES, THEMES } from './support/studio.ts';

// The PNG signature and nothing else: enough to be a dropped file the reader would be asked to read.
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** axe finds nothing serious, and screenshots at both window sizes; the window goes back to 1440×900. */
async function checkScreen(page: Page, name: string): Promise<void> {
  expect(await seriousViolations(page)).toEqual([]);
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await screenshot(page, `${name}-${size.width}x${size.height}`);
  }
  await page.setViewportSize(SIZES[0]);
}

test('a tab whose code cannot be loaded says so and offers a reload; the studio and the other tabs go on working', async ({ page, harness }) => {
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  // Every request for the batch tab's chunk fails (the idle preload's too).
  await page.route(/\/assets\/BatchPage-[^/]*\.js$/, (route) => route.abort());
  await openStudio(page, harness.url);

  for (const language of LANGUAGES) {
    for (const theme of THEMES) {
      await chooseLook(page, language, theme);
      await page.getByTestId('open-batch').click();
      const failed = page.getByTestId('tab-load-error');
      await expect(failed).toBeVisible();
      await expect(failed).toHaveAttribute('role', 'alert');
      await expect(failed.getByRole('button')).toBeVisible();
      await checkScreen(page, `lazy-tab-load-error-${language}-${theme}`);
    }
  }
  // The header and its tabs are still there, and the other lazy tabs load.
  await openTab(page, 'settings');
  await expect(page.getByTestId('tab-load-error')).toHaveCount(0);
  await expect(page.getByTestId('theme-select')).toBeVisible();
  await openTab(page, 'studio');
  await expect(page.getByTestId('prompt')).toBeVisible();
  expect(pageErrors).toEqual([]);

  // The reload button reloads: with the chunk reachable again, the batch tab opens.
  await page.unroute(/\/assets\/BatchPage-[^/]*\.js$/);
  await page.getByTestId('open-batch').click();
  await expect(page.getByTestId('tab-load-error')).toBeVisible();
  await page.getByTestId('tab-load-error').getByRole('button').click();
  await page.waitForLoadState('load');
  await page.getByTestId('open-batch').click();
  await expect(page.getByTestId('tab-load-error')).toHaveCount(0);
  await expect(page.getByTestId('batch-page')).toBeVisible();
});

test('a dropped file whose reader cannot be loaded leaves a notice saying so and changes nothing', async ({ page, harness }) => {
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.route(/\/assets\/generation-data-reader-[^/]*\.js$/, (route) => route.abort());
  await openStudio(page, harness.url);

  for (const language of LANGUAGES) {
    for (const theme of THEMES) {
      await chooseLook(page, language, theme);
      await openTab(page, 'studio');
      await page.getByTestId('prompt').fill('kept as it is');
      await dropFile(page, page.getByTestId('prompt'), PNG_SIGNATURE, 'export.png');
      await expect(page.getByTestId('tray-notice')).toHaveAttribute('data-kind', 'reader_unavailable');
      await expect(page.getByTestId('tray-notice')).toContainText('export.png');
      await expect(page.getByTestId('prompt')).toHaveValue('kept as it is');
      await checkScreen(page, `lazy-reader-unavailable-${language}-${theme}`);
    }
  }
  expect(pageErrors).toEqual([]);
});

test('a tab whose code the idle preload fetched opens at once: never through a loading state', async ({ page, harness }) => {
  await openStudio(page, harness.url);
  // The idle preload has fetched every tab's chunk once the page is idle with them loaded.
  await page.waitForLoadState('networkidle');
  await expect
    .poll(() => page.evaluate(() => ['BatchPage', 'InspectorPanel', 'LocalConsole', 'SettingsPage'].filter((name) => performance.getEntriesByType('resource').some((e) => e.name.includes(`/assets/${name}-`))).length))
    .toBe(4);
  await page.evaluate(() => {
    // Any loading state a tab shows, however briefly, is counted as it enters the page.
    const w = globalThis as unknown as { __loadingSeen: number; MutationObserver: new (cb: () => void) => { observe(n: unknown, o: unknown): void }; document: { body: unknown; querySelector(s: string): unknown } };
    w.__loadingSeen = 0;
    new w.MutationObserver(() => {
      if (w.document.querySelector('[data-testid="tab-loading"]')) w.__loadingSeen++;
    }).observe(w.document.body, { childList: true, subtree: true });
  });
  for (const tab of ['batch', 'local', 'settings', 'studio'] as const) {
    if (tab === 'batch') await page.getByTestId('open-batch').click();
    else await openTab(page, tab);
  }
  await expect(page.getByTestId('prompt')).toBeVisible();
  expect(await page.evaluate(() => (globalThis as unknown as { __loadingSeen: number }).__loadingSeen)).toBe(0);
});
