// The designer's studio through the harness, against a real local service: results large on the stage with
// their aspect kept (n=1/2/4), matte or checkerboard behind them, the Local balance at a glance and the
// over-budget confirm, stop waiting (the run lands in the background) against abort, the theme choice, the
// minimum window (960×600), axe on the studio and settings in both themes and languages, and screenshots.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { expect, test, type Harness } from './fixtures/harness.ts';
import { compose, estimateTotal, generateAndWait, openStudio, openTab, screenshot, SIZES, THEMES } from './support/studio.ts';
import { contrastOf, seriousViolations } from './support/axe.ts';
import { ipc } from './support/ipc.ts';

async function localCredits(harness: Harness): Promise<number> {
  return (await ipc<{ account: { credits: number } }>(harness, 'local:status')).account.credits;
}

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}
async function box(locator: Locator): Promise<Box> {
  const b = await locator.boundingBox();
  if (!b) throw new Error('no bounding box');
  return b;
}

/** The image boxes of the newest turn once every image has loaded, with each file's own aspect. */
async function stageImages(page: Page, count: number): Promise<Array<Box & { natural: number; kind: string }>> {
  const images = page.getByTestId('turn').first().getByTestId('stage-image');
  await expect(images).toHaveCount(count, { timeout: 30_000 });
  for (let i = 0; i < count; i++) await expect(images.nth(i)).toHaveJSProperty('complete', true);
  const out = [];
  for (let i = 0; i < count; i++) {
    const image = images.nth(i);
    const natural = await image.evaluate((el) => {
      const img = el as unknown as { naturalWidth: number; naturalHeight: number };
      return img.naturalWidth / img.naturalHeight;
    });
    out.push({ ...(await box(image)), natural, kind: (await image.getAttribute('data-kind')) ?? '' });
  }
  return out;
}

function expectAspectKept(b: { width: number; height: number; natural: number }): void {
  expect(b.natural).toBeGreaterThan(0);
  expect(Math.abs(b.width / b.height - b.natural) / b.natural).toBeLessThan(0.01);
}

async function bodyBackground(page: Page): Promise<string> {
  return page.locator('body').evaluate((b) => (globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string } }).getComputedStyle(b).backgroundColor);
}

async function chooseTheme(page: Page, theme: 'system' | 'light' | 'dark'): Promise<void> {
  await openTab(page, 'settings');
  await page.getByTestId('theme-select').selectOption(theme);
  await expect(page.getByTestId('theme-select')).toHaveValue(theme);
}

test('results fill the stage with their aspect kept: n=1 wide, n=2 side by side, n=4 a 2×2 grid; matte or checkerboard (remembered); hover actions', async ({ page, harness }) => {
  test.setTimeout(240_000);
  await openStudio(page, harness.url);
  const stage = page.getByTestId('stage');

  // n=1, 16:9: as wide as the stage's column allows, the full PNG (the 512 px thumbnail would be upscaled).
  await compose(page, { prompt: 'A white ceramic mug on a pure white background', model: 'nano-banana-2', ratio: '16:9', resolution: '1K', n: '1', purpose: 'main_white' });
  await generateAndWait(page, 'succeeded');
  const [one] = await stageImages(page, 1);
  if (!one) throw new Error('no image');
  const results = await box(page.getByTestId('turn').first().getByTestId('stage-results'));
  expectAspectKept(one);
  expect(one.width).toBeGreaterThan(results.width - 2 * 10 - 2);
  expect(one.width).toBeGreaterThan(500); // the 143 px, now the whole column
  expect(one.kind).toBe('full');
  await screenshot(page, 'stage-n1');

  // Matte with a hairline: a white shot shows where it ends.
  const cell = page.getByTestId('turn').first().getByTestId('turn-image').first();
  const matte = await cell.evaluate((el) => (globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string } }).getComputedStyle(el).backgroundColor);
  expect(matte).not.toBe('rgb(255, 255, 255)');
  expect(matte).not.toBe('rgba(0, 0, 0, 0)');
  const outline = await page.getByTestId('stage-image').first().evaluate((el) => (globalThis as unknown as { getComputedStyle(e: unknown): { outlineWidth: string; outlineStyle: string } }).getComputedStyle(el));
  expect(outline).toMatchObject({ outlineWidth: '1px', outlineStyle: 'solid' });
  await expect(stage).toHaveAttribute('data-background', 'matte');
  await page.getByTestId('stage-background-checker').click();
  await expect(stage).toHaveAttribute('data-background', 'checker');
  await expect(page.getByTestId('stage-background-checker')).toHaveAttribute('aria-pressed', 'true');
  const checker = () => cell.evaluate((el) => (globalThis as unknown as { getComputedStyle(e: unknown): { backgroundImage: string } }).getComputedStyle(el).backgroundImage);
  expect(await checker()).toMatch(/conic-gradient/);
  await screenshot(page, 'stage-checker');
  // Remembered across a reload (the stage shows the session again once it is continued).
  await page.reload();
  await page.getByTestId('gallery').getByTestId('continue-session').first().click();
  await expect(page.getByTestId('stage')).toHaveAttribute('data-background', 'checker');
  await page.getByTestId('stage-background-matte').click();
  await expect(page.getByTestId('stage')).toHaveAttribute('data-background', 'matte');

  // Hover actions: star, use as reference, open in the viewer.
  const first = page.getByTestId('turn').first().getByTestId('turn-image').first();
  await first.hover();
  await expect(first.locator('.stage-actions')).toHaveCSS('opacity', '1');
  await first.getByTestId('stage-star').click();
  await expect(first.getByTestId('stage-star')).toHaveAttribute('aria-pressed', 'true');
  await first.getByTestId('stage-use-reference').click();
  await expect(page.getByTestId('reference-item')).toHaveCount(1);
  await first.getByTestId('stage-open').click();
  await expect(page.getByTestId('viewer')).toBeVisible();
  await expect(page.getByTestId('viewer').getByTestId('star')).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.press('Escape');
  await page.getByTestId('reference-item').first().getByRole('button').click();
  // Export opens the export dialog for this one image.
  await first.hover();
  await first.getByTestId('stage-export').click();
  await expect(page.getByTestId('export-dialog')).toBeVisible();
  await expect(page.getByTestId('export-dialog')).toContainText(/1/);
  await page.getByTestId('export-close').click();
  await expect(page.getByTestId('export-dialog')).toHaveCount(0);

  // n=2: side by side, same size, same row.
  await compose(page, { prompt: 'Two angles of a linen tote bag', ratio: '16:9', n: '2', purpose: 'free' });
  await generateAndWait(page, 'succeeded');
  const two = await stageImages(page, 2);
  const [a, b] = two;
  if (!a || !b) throw new Error('two images expected');
  for (const im of two) expectAspectKept(im);
  expect(Math.abs(a.y - b.y)).toBeLessThan(1);
  expect(b.x).toBeGreaterThanOrEqual(a.x + a.width);
  expect(Math.abs(a.width - b.width)).toBeLessThan(1);
  await screenshot(page, 'stage-n2');

  // n=4, 1:1: a 2×2 grid that fits the stage's height.
  await compose(page, { prompt: 'Four colours of a wool beanie', ratio: '1:1', n: '4' });
  await generateAndWait(page, 'succeeded');
  const four = await stageImages(page, 4);
  for (const im of four) expectAspectKept(im);
  const rows = new Set(four.map((im) => Math.round(im.y)));
  const cols = new Set(four.map((im) => Math.round(im.x)));
  expect([rows.size, cols.size]).toEqual([2, 2]);
  const stageBox = await box(stage);
  const bottom = Math.max(...four.map((im) => im.y + im.height));
  const top = Math.min(...four.map((im) => im.y));
  expect(bottom - top).toBeLessThan(stageBox.height);
  await screenshot(page, 'stage-n4');

  // n=1 portrait: limited by the stage's height instead, still its own aspect.
  await compose(page, { prompt: 'A tall bottle of shampoo', ratio: '3:4', n: '1' });
  await generateAndWait(page, 'succeeded');
  const [tall] = await stageImages(page, 1);
  if (!tall) throw new Error('no image');
  expectAspectKept(tall);
  expect(tall.height).toBeLessThan(stageBox.height);
  expect(tall.height).toBeGreaterThan(stageBox.height * 0.6);
});

test('money at a glance: the Local balance in the header, after this run beside the estimate, a confirm before a run the balance cannot pay; nothing made up on Remote', async ({ page, harness }) => {
  await openStudio(page, harness.url);
  const balance = page.getByTestId('balance');
  await expect(balance).toHaveAttribute('data-credits', String(await localCredits(harness)));
  await expect(balance).toContainText('10,000');
  await compose(page, { prompt: 'A bamboo toothbrush on white', model: 'nano-banana-2', resolution: '1K', n: '1' });
  expect(await estimateTotal(page)).toBe(12);
  await expect(page.getByTestId('balance-after')).toHaveAttribute('data-after', '9988');
  await expect(page.getByTestId('balance-after')).toContainText('9,988');
  await screenshot(page, 'balance');

  // Live: after the run settles the header shows what the service now says.
  await generateAndWait(page, 'succeeded');
  await expect(balance).toHaveAttribute('data-credits', '9988');
  expect(await localCredits(harness)).toBe(9988);

  // A low balance (set through the local console's admin): the studio warns before sending.
  await openTab(page, 'local');
  await page.getByTestId('local-set-credits').fill('5');
  await page.getByTestId('local-set-credits-apply').click();
  await expect(page.getByTestId('local-balance')).toHaveText('5');
  await openTab(page, 'studio');
  await expect(balance).toHaveAttribute('data-credits', '5');
  await expect(page.getByTestId('balance-after')).toHaveAttribute('data-after', '-7');
  await expect(page.getByTestId('balance-after')).toHaveClass(/balance-short/);
  const turns = await page.getByTestId('turn').count();
  await page.getByTestId('generate').click();
  const confirm = page.getByTestId('over-budget-confirm');
  await expect(confirm).toBeVisible();
  await expect(confirm).toContainText('402');
  await expect(confirm).toContainText('12');
  await expect(confirm).toContainText('不会扣费');
  await screenshot(page, 'over-budget');
  // Nothing was sent.
  expect(await page.getByTestId('turn').count()).toBe(turns);
  await page.getByTestId('over-budget-cancel').click();
  await expect(confirm).toHaveCount(0);
  // Sent anyway: the service refuses with 402 and charges nothing, as the confirm said.
  await page.getByTestId('generate').click();
  await page.getByTestId('over-budget-send').click();
  await expect(page.getByTestId('turn')).toHaveCount(turns + 1);
  await expect(page.getByTestId('turn').first()).toHaveAttribute('data-status', 'failed', { timeout: 30_000 });
  await expect(page.getByTestId('turn').first().getByTestId('error-banner')).toHaveAttribute('data-code', 'insufficient_credits');
  expect(await localCredits(harness)).toBe(5);
  await expect(balance).toHaveAttribute('data-credits', '5');

  // Remote has no balance API: no number in the header, "unknown" beside the estimate.
  await openTab(page, 'settings');
  await page.getByTestId('remote-url').fill('https://images.example.com');
  await page.getByRole('button', { name: '保存', exact: true }).click();
  await page.getByTestId('env-remote').click();
  await expect(page.getByTestId('environment-badge')).toHaveAttribute('data-environment', 'remote');
  await openTab(page, 'studio');
  await compose(page, { prompt: 'A bamboo toothbrush on white', model: 'nano-banana-2', resolution: '1K', n: '1' });
  await expect(page.getByTestId('balance')).toHaveCount(0);
  await expect(page.getByTestId('balance-after')).toHaveAttribute('data-known', 'false');
  await expect(page.getByTestId('balance-after')).not.toContainText(/\d/);
  await page.getByTestId('generate').click();
  await expect(page.getByTestId('over-budget-confirm')).toHaveCount(0);
});

test('stop waiting: the run goes on in the background and its images land (and notify); abort via cancel/confirm-cancel still aborts and says what it costs', async ({ page, harness }) => {
  test.setTimeout(180_000);
  await openStudio(page, harness.url);
  await ipc(harness, 'local:set-faults', { generate: { latency_ms: 4000 } });
  const start = await localCredits(harness);
  await compose(page, { prompt: 'A slow candle in a glass jar', model: 'nano-banana-2', resolution: '1K', n: '2' });
  await page.getByTestId('generate').click();
  const turn = page.getByTestId('turn').first();
  await expect(turn).toHaveAttribute('data-status', 'running');
  await expect(turn.getByTestId('run-phase')).toHaveAttribute('data-phase', 'waiting');
  // Stop waiting is the default; abort is the separate action beside it.
  await expect(turn.getByTestId('stop-waiting')).toBeVisible();
  await expect(turn.getByTestId('cancel')).toBeVisible();
  await turn.getByTestId('stop-waiting').click();
  // No longer shown as running in the foreground: no progress, a line saying it goes on.
  await expect(turn).toHaveAttribute('data-background', 'true');
  await expect(turn.getByTestId('run-progress')).toHaveCount(0);
  await expect(turn.getByTestId('run-background')).toBeVisible();
  await screenshot(page, 'stop-waiting');
  // …and it lands: succeeded, both images in the stage and the gallery, charged once, notified.
  await expect(turn).toHaveAttribute('data-status', 'succeeded', { timeout: 30_000 });
  await expect(turn.getByTestId('stage-image')).toHaveCount(2, { timeout: 30_000 });
  await expect(page.getByTestId('gallery').getByTestId('gallery-image')).toHaveCount(2);
  await expect.poll(() => localCredits(harness)).toBe(start - 24);
  await expect.poll(async () => (await harness.shellCalls()).filter((c) => c.kind === 'notify').length).toBe(1);

  // Abort: confirmed, and the confirm names what it may cost.
  await compose(page, { prompt: 'A candle that never arrives', n: '1' });
  await page.getByTestId('generate').click();
  const aborted = page.getByTestId('turn').first();
  await expect(aborted).toHaveAttribute('data-status', 'running');
  await expect(aborted.getByTestId('run-phase')).toHaveAttribute('data-phase', 'waiting');
  await aborted.getByTestId('cancel').click();
  const dialog = aborted.getByRole('alertdialog');
  await expect(dialog).toContainText('扣费 12 积分');
  await expect(dialog).toContainText('图片不会送达');
  await aborted.getByTestId('confirm-cancel').click();
  await expect(aborted).toHaveAttribute('data-status', 'cancelled');
  // The service still finishes and charges; the images never reach the library.
  await expect.poll(() => localCredits(harness), { timeout: 15_000 }).toBe(start - 36);
  await expect(aborted.getByTestId('turn-image')).toHaveCount(0);
  await expect(page.getByTestId('gallery').getByTestId('gallery-image')).toHaveCount(2);
  expect((await harness.shellCalls()).filter((c) => c.kind === 'notify')).toHaveLength(1);
  await ipc(harness, 'local:set-faults', { generate: { latency_ms: 0 } });
});

test('a run started just before switching tabs keeps its session: back in the studio, its results are on the stage and the next run continues it', async ({ page, harness }) => {
  await openStudio(page, harness.url);
  // A new session is next.
  await expect(page.getByTestId('session-by-id')).toBeVisible();
  // Main answers generate:start only after the designer has left the studio (the panel that asked is gone): the
  // answer is held until the settings tab is open.
  let answered = false;
  let leftStudio = () => {};
  const studioLeft = new Promise<void>((resolve) => (leftStudio = resolve));
  const startUrl = /\/ipc\/generate(%3A|:)start$/;
  await page.route(startUrl, async (route) => {
    const response = await route.fetch();
    await studioLeft;
    await route.fulfill({ response });
    answered = true;
  });
  await compose(page, { prompt: 'A linen tote on a chair', model: 'nano-banana-2', resolution: '1K', n: '1' });
  await page.getByTestId('generate').click();
  await openTab(page, 'settings');
  await expect(page.getByTestId('theme-select')).toBeVisible();
  leftStudio();
  await expect.poll(() => answered).toBe(true);
  await openTab(page, 'studio');
  const turn = page.getByTestId('turn').first();
  await expect(turn).toHaveAttribute('data-status', 'succeeded', { timeout: 30_000 });
  await expect(turn.getByTestId('stage-image')).toHaveCount(1);
  // The compose panel continues that session.
  await expect(page.getByTestId('compose-session-title')).toBeVisible();
  await expect(page.getByTestId('new-session')).toBeVisible();
  // The next run goes into the same session.
  await page.unroute(startUrl);
  await compose(page, { prompt: 'The same tote, closer' });
  await page.getByTestId('generate').click();
  await expect(page.getByTestId('turn')).toHaveCount(2);
  await expect(page.getByTestId('turn').first()).toHaveAttribute('data-status', 'succeeded', { timeout: 30_000 });
  await expect(page.getByTestId('gallery').getByTestId('session-group')).toHaveCount(1);
});

test('theme: system, light or dark from Settings, applied at once and kept across a reload; coloured buttons keep their contrast on hover; focus is visible', async ({ page, harness }) => {
  test.setTimeout(180_000);
  await openStudio(page, harness.url);
  await page.emulateMedia({ colorScheme: 'light' });
  await openTab(page, 'settings');
  await expect(page.getByTestId('theme-select')).toHaveValue('system');
  expect(await bodyBackground(page)).toBe('rgb(245, 245, 244)');
  await chooseTheme(page, 'dark');
  expect(await bodyBackground(page)).toBe('rgb(20, 20, 20)');
  expect(JSON.parse(readFileSync(join(harness.dataDir, 'settings.json'), 'utf8')).theme).toBe('dark');
  await page.reload();
  await expect(page.getByTestId('nav-settings')).toBeVisible();
  // Before main answers, the remembered theme is already on <html> (no flash of the light one).
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  expect(await bodyBackground(page)).toBe('rgb(20, 20, 20)');
  await openTab(page, 'settings');
  await expect(page.getByTestId('theme-select')).toHaveValue('dark');
  // Light wins over a dark system; system follows it again.
  await page.emulateMedia({ colorScheme: 'dark' });
  await chooseTheme(page, 'light');
  expect(await bodyBackground(page)).toBe('rgb(245, 245, 244)');
  await chooseTheme(page, 'system');
  expect(await bodyBackground(page)).toBe('rgb(20, 20, 20)');
  await page.emulateMedia({ colorScheme: 'light' });
  expect(await bodyBackground(page)).toBe('rgb(245, 245, 244)');

  // The danger button (abort) keeps its contrast when hovered, in both themes; keyboard focus shows.
  // Long enough to stay running through both themes on a loaded machine (it is aborted at the end).
  await ipc(harness, 'local:set-faults', { generate: { latency_ms: 30_000 } });
  await openTab(page, 'studio');
  await compose(page, { prompt: 'A slow lamp', model: 'nano-banana-2', resolution: '1K', n: '1' });
  await page.getByTestId('generate').click();
  await expect(page.getByTestId('turn').first()).toHaveAttribute('data-status', 'running');
  for (const theme of ['light', 'dark'] as const) {
    await chooseTheme(page, theme);
    await openTab(page, 'studio');
    const turn = page.getByTestId('turn').first();
    await expect(turn).toHaveAttribute('data-status', 'running');
    await turn.getByTestId('cancel').click();
    const danger = turn.getByTestId('confirm-cancel');
    expect(await contrastOf(danger)).toBeGreaterThanOrEqual(4.5);
    await danger.hover();
    expect(await contrastOf(danger)).toBeGreaterThanOrEqual(4.5);
    await page.getByTestId('prompt').focus();
    await page.keyboard.press('Shift+Tab');
    const focused = page.locator(':focus-visible');
    await expect(focused).toHaveCount(1);
    expect(await focused.evaluate((el) => (globalThis as unknown as { getComputedStyle(e: unknown): { boxShadow: string } }).getComputedStyle(el).boxShadow)).not.toBe('none');
  }
  await page.getByTestId('turn').first().getByTestId('confirm-cancel').click();
  await ipc(harness, 'local:set-faults', { generate: { latency_ms: 0 } });
});

test('the minimum window (960×600) shows the whole studio with no horizontal overflow; at 1440×900 the tray clears the estimate footer; screenshots in both themes', async ({ page, harness }) => {
  test.setTimeout(180_000);
  await openStudio(page, harness.url);
  await compose(page, { prompt: 'A pair of white sneakers on white', model: 'nano-banana-2', ratio: '16:9', resolution: '1K', n: '2', purpose: 'pure_white' });
  await generateAndWait(page, 'succeeded');
  await page.getByTestId('turn').first().getByTestId('stage-use-reference').first().click();
  await expect(page.getByTestId('reference-item')).toHaveCount(1);

  const inView = async (locator: Locator, viewport: { width: number; height: number }) => {
    const b = await box(locator);
    expect(b.x).toBeGreaterThanOrEqual(0);
    expect(b.y).toBeGreaterThanOrEqual(0);
    expect(b.x + b.width).toBeLessThanOrEqual(viewport.width + 0.5);
    expect(b.y + b.height).toBeLessThanOrEqual(viewport.height + 0.5);
    return b;
  };
  const noHorizontalOverflow = async () => {
    const overflow = () => page.evaluate(() => {
      const d = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number }; querySelectorAll(s: string): ArrayLike<{ scrollWidth: number; clientWidth: number; className: string }> } }).document;
      const wide = Array.from(d.querySelectorAll('.studio, .compose-panel, .panel-scroll, .compose-tray, .compose-foot, .run-stage, .gallery-panel, .app-header'))
        .filter((el) => el.scrollWidth > el.clientWidth + 1)
        .map((el) => el.className);
      return { page: d.documentElement.scrollWidth - d.documentElement.clientWidth, wide };
    });
    // Once the layout has followed the new window size (the stage measures its column).
    await expect.poll(overflow).toEqual({ page: 0, wide: [] });
  };
  const check = async (viewport: { width: number; height: number }) => {
    await page.setViewportSize(viewport);
    await noHorizontalOverflow();
    const tray = await inView(page.getByTestId('reference-tray'), viewport);
    const foot = await box(page.locator('.compose-foot'));
    expect(tray.y + tray.height).toBeLessThanOrEqual(foot.y + 0.5);
    await inView(page.getByTestId('generate'), viewport);
    await inView(page.getByTestId('estimate'), viewport);
    await inView(page.getByTestId('prompt'), viewport);
    const gallery = await inView(page.locator('.gallery-panel'), viewport);
    expect(gallery.width).toBeGreaterThanOrEqual(250);
    await inView(page.getByTestId('gallery').getByTestId('gallery-image').first(), viewport);
    await inView(page.getByTestId('stage-image').first(), viewport);
    await inView(page.getByTestId('balance'), viewport);
    await inView(page.getByTestId('environment-badge'), viewport);
  };

  for (const theme of THEMES) {
    await chooseTheme(page, theme);
    await openTab(page, 'studio');
    for (const viewport of SIZES) {
      await check(viewport);
      for (const img of await page.locator('img').all()) await expect(img).toHaveJSProperty('complete', true);
      await screenshot(page, `studio-${viewport.width}x${viewport.height}-${theme}`);
    }
    await page.setViewportSize({ width: 1440, height: 900 });
  }
  // English labels are longer: the minimum window still holds them.
  await openTab(page, 'settings');
  await page.getByTestId('language-select').selectOption('en');
  await openTab(page, 'studio');
  await check({ width: 960, height: 600 });
  await screenshot(page, 'studio-960x600-dark-en');
  await page.setViewportSize({ width: 1440, height: 900 });
});

test('axe: no serious or critical violation on the studio (with results, a running and a background run) and settings, in both themes and languages', async ({ page, harness }) => {
  test.setTimeout(240_000);
  await openStudio(page, harness.url);
  await compose(page, { prompt: 'A white porcelain vase on white', model: 'nano-banana-2', ratio: '1:1', resolution: '1K', n: '2' });
  await generateAndWait(page, 'succeeded');
  await page.getByTestId('turn').first().getByTestId('stage-use-reference').first().click();
  await ipc(harness, 'local:set-faults', { generate: { latency_ms: 60_000 } });
  await compose(page, { prompt: 'A vase still being made', n: '1' });
  await page.getByTestId('generate').click();
  await expect(page.getByTestId('turn').first().getByTestId('run-phase')).toHaveAttribute('data-phase', 'waiting');
  await compose(page, { prompt: 'Another vase, waited for in the background' });
  await page.getByTestId('generate').click();
  await expect(page.getByTestId('turn')).toHaveCount(3);
  await page.getByTestId('turn').first().getByTestId('stop-waiting').click();
  await expect(page.getByTestId('turn').first()).toHaveAttribute('data-background', 'true');
  // A balance the next run cannot pay, so the over-budget confirm can be on screen too.
  await openTab(page, 'local');
  await page.getByTestId('local-set-credits').fill('1');
  await page.getByTestId('local-set-credits-apply').click();
  await expect(page.getByTestId('local-balance')).toHaveText('1');

  const found: string[] = [];
  for (const language of ['zh', 'en'] as const) {
    for (const theme of ['light', 'dark'] as const) {
      await openTab(page, 'settings');
      await page.getByTestId('language-select').selectOption(language);
      await chooseTheme(page, theme);
      for (const stageBackground of ['matte', 'checker'] as const) {
        await openTab(page, 'studio');
        await page.getByTestId(`stage-background-${stageBackground}`).click();
        // The abort confirm of the foreground run, the over-budget confirm, and a result's hover actions.
        const abort = page.getByTestId('turn').nth(1).getByRole('alertdialog');
        if ((await abort.count()) === 0) await page.getByTestId('turn').nth(1).getByTestId('cancel').click();
        await expect(abort).toBeVisible();
        if ((await page.getByTestId('over-budget-confirm').count()) === 0) await page.getByTestId('generate').click();
        await expect(page.getByTestId('over-budget-confirm')).toBeVisible();
        await page.getByTestId('turn').nth(2).getByTestId('turn-image').first().hover();
        found.push(...(await seriousViolations(page)).map((v) => `studio ${language} ${theme} ${stageBackground}: ${v}`));
      }
      await openTab(page, 'settings');
      found.push(...(await seriousViolations(page)).map((v) => `settings ${language} ${theme}: ${v}`));
    }
  }
  expect(found).toEqual([]);
  await ipc(harness, 'local:set-faults', { generate: { latency_ms: 0 } });
});
