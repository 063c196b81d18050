// Accessibility of the screens the other specs do not check with axe, in both themes (Settings' theme-select)
// and both languages (Settings' language-select): the local console and its one-time key, the webhook
// inspector with a delivery selected, the export dialog, the studio with the over-budget confirm, a run
// waited for (stop waiting), one in the background and error banners (500 and 402), and the startup notice
// of a damaged library. On each: no serious or critical axe-core violation (one line per violation), Tab
// reaches every primary control with a visible focus indicator, and screenshots at 1440×900 and 960×600 in
// both themes (e2e/screenshots/a11y-*.png). One harness for all the studio screens, one for the notice.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { expect, startHarness, test } from './fixtures/harness.ts';
import { contrastOf, seriousViolations } from './support/axe.ts';
import { chooseLook, compose, generateAndWait, LANGUAGES, monthFirstDates, openStudio, openTab, screenshot, SIZES, THEMES } from './support/studio.ts';
import { ipc } from './support/ipc.ts';



/** Sets the Local balance through the local console (the studio's balance follows it), back on the studio. */
async function setCredits(page: Page, credits: number): Promise<void> {
  await openTab(page, 'local');
  await page.getByTestId('local-set-credits').fill(String(credits));
  await page.getByTestId('local-set-credits-apply').click();
  await expect(page.getByTestId('local-balance')).toHaveText(String(credits));
  await openTab(page, 'studio');
  await expect(page.getByTestId('balance')).toHaveAttribute('data-credits', String(credits));
}

interface Focused {
  testId: string | null;
  focusVisible: boolean;
  outline: string;
  boxShadow: string;
}

/**
 * Focuses `start`, then presses Tab until every control in `targets` (data-testids) has had the focus or
 * `max` presses have gone by. Returns one line per target that Tab never reached or that showed no focus
 * indicator (computed outline or box-shadow, on :focus-visible).
 */
async function focusProblems(page: Page, start: Locator, targets: string[], max = 120): Promise<string[]> {
  await start.focus();
  const seen = new Map<string, Focused>();
  for (let i = 0; i < max && targets.some((t) => !seen.has(t)); i++) {
    await page.keyboard.press('Tab');
    const f = await page.evaluate(() => {
      const el = (globalThis as unknown as { document: { activeElement: { matches(s: string): boolean; getAttribute(n: string): string | null } | null } }).document.activeElement;
      if (!el) return null;
      const style = (globalThis as unknown as { getComputedStyle(e: unknown): { outlineStyle: string; outlineWidth: string; boxShadow: string } }).getComputedStyle(el);
      return {
        testId: el.getAttribute('data-testid'),
        focusVisible: el.matches(':focus-visible'),
        outline: style.outlineStyle === 'none' || style.outlineWidth === '0px' ? 'none' : `${style.outlineStyle} ${style.outlineWidth}`,
        boxShadow: style.boxShadow,
      };
    });
    if (f?.testId && targets.includes(f.testId) && !seen.has(f.testId)) seen.set(f.testId, f);
  }
  const problems: string[] = [];
  for (const t of targets) {
    const f = seen.get(t);
    if (!f) problems.push(`${t}: not reached by Tab within ${max} presses`);
    else if (!f.focusVisible) problems.push(`${t}: focused by Tab but not :focus-visible`);
    else if (f.outline === 'none' && f.boxShadow === 'none') problems.push(`${t}: no focus indicator (outline and box-shadow none)`);
  }
  return problems;
}

/** Every visible, enabled coloured button in `scope` keeps 4.5:1 between its text and its fill when hovered. */
async function hoverContrastProblems(page: Page, scope: Locator): Promise<string[]> {
  const problems: string[] = [];
  const buttons = scope.locator('.btn-primary, .btn-danger, .btn-accent-soft').filter({ visible: true });
  for (const button of await buttons.all()) {
    if (await button.isDisabled()) continue;
    await button.hover();
    const ratio = await contrastOf(button);
    if (ratio < 4.5) problems.push(`${(await button.getAttribute('data-testid')) ?? (await button.textContent())}: hover contrast ${ratio.toFixed(2)}:1`);
  }
  await page.mouse.move(0, 0);
  return problems;
}

/** Screenshots at both sizes with `show` scrolled into view; the window goes back to 1440×900. */
async function screenshots(page: Page, name: string, theme: string, show?: Locator): Promise<void> {
  for (const size of SIZES) {
    await page.setViewportSize(size);
    if (show) await show.scrollIntoViewIfNeeded();
    for (const img of await page.locator('img:visible').all()) await expect(img).toHaveJSProperty('complete', true);
    await screenshot(page, `a11y-${name}-${size.width}x${size.height}-${theme}`);
  }
  await page.setViewportSize(SIZES[0]);
}

test('axe, keyboard focus and screenshots: local console, one-time key, webhook inspector, export dialog, over-budget confirm, stop waiting, error banners; both themes and languages', async ({ page, harness }) => {
  test.setTimeout(240_000);
  await openStudio(page, harness.url);

  // Two images for the export dialog.
  await compose(page, { prompt: 'A white porcelain vase on white', model: 'nano-banana-2', ratio: '1:1', resolution: '1K', n: '2' });
  await generateAndWait(page, 'succeeded');
  // A run that fails on the service (500, refunded): its banner offers a retry.
  await ipc(harness, 'local:set-faults', { generate: { fail: 1 } });
  await compose(page, { prompt: 'A vase that fails', n: '1' });
  await generateAndWait(page, 'failed');
  // Over budget, sent anyway: the 402 banner offers a top-up.
  await setCredits(page, 1);
  await compose(page, { prompt: 'A vase nobody can pay for' });
  await page.getByTestId('generate').click();
  await page.getByTestId('over-budget-send').click();
  await expect(page.getByTestId('turn').first()).toHaveAttribute('data-status', 'failed', { timeout: 30_000 });
  await expect(page.getByTestId('turn').first().getByTestId('error-banner')).toHaveAttribute('data-code', 'insufficient_credits');
  // Two slow runs: one sent to the background, one waited for (stop waiting and abort on its card).
  await setCredits(page, 10_000);
  await ipc(harness, 'local:set-faults', { generate: { latency_ms: 600_000 } });
  await compose(page, { prompt: 'A vase waited for in the background' });
  await page.getByTestId('generate').click();
  await expect(page.getByTestId('turn').first().getByTestId('run-phase')).toHaveAttribute('data-phase', 'waiting');
  await page.getByTestId('turn').first().getByTestId('stop-waiting').click();
  await expect(page.getByTestId('turn').first()).toHaveAttribute('data-background', 'true');
  await compose(page, { prompt: 'A vase still being made' });
  await page.getByTestId('generate').click();
  await expect(page.getByTestId('turn')).toHaveCount(5);
  const waited = page.getByTestId('turn').first();
  await expect(waited.getByTestId('run-phase')).toHaveAttribute('data-phase', 'waiting');
  // A balance the next run cannot pay, so the over-budget confirm can be on screen.
  await setCredits(page, 1);
  // A delivery in the inspector.
  await page.getByTestId('nav-webhooks').click();
  await page.getByTestId('inspector-connect-local').click();
  await expect(page.getByTestId('inspector-secret-masked')).toBeVisible();
  await page.evaluate(async () => (globalThis as unknown as { api: Record<string, (i: unknown) => Promise<unknown>> }).api.localWebhookPing!({}));
  await expect(page.getByTestId('inspector-attempt')).toHaveCount(1);

  const found: string[] = [];
  const axe = async (where: string) => found.push(...(await seriousViolations(page)).map((v) => `${where}: ${v}`));
  const focus = async (where: string, start: Locator, targets: string[]) => found.push(...(await focusProblems(page, start, targets)).map((p) => `${where}: focus: ${p}`));
  const hover = async (where: string, scope: Locator) => found.push(...(await hoverContrastProblems(page, scope)).map((p) => `${where}: ${p}`));

  for (const language of LANGUAGES) {
    for (const theme of THEMES) {
      await chooseLook(page, language, theme);
      const look = `${language} ${theme}`;
      // Focus and screenshots once per theme (in the default language); axe in every combination.
      const full = language === 'zh';

      // The local console.
      await openTab(page, 'local');
      await expect(page.getByTestId('local-balance')).toBeVisible();
      // Dates in the UI language (i18n/format.ts): year first in Chinese, and never month/day/year.
      await expect(page.getByTestId('local-clock')).toContainText(language === 'zh' ? /\d{4}\/\d{1,2}\/\d{1,2} \d{1,2}:\d{2}:\d{2}/ : /\d{1,2}\/\d{1,2}\/\d{4}, \d{1,2}:\d{2}:\d{2} [AP]M/);
      if (language === 'zh') expect(await monthFirstDates(page)).toEqual([]);
      await axe(`local console ${look}`);
      if (full) {
        await focus(`local console ${look}`, page.getByTestId('nav-local'), ['local-topup-amount', 'local-topup', 'local-set-credits', 'local-ban', 'local-key-rate', 'fault-fail', 'fault-latency']);
        await hover(`local console ${look}`, page.locator('body'));
        await screenshots(page, 'local-console', theme);
      }

      // The one-time key, shown once after creating a key.
      const keys = page.getByTestId('local-keys');
      await keys.locator('form.stack input:not([type])').first().fill(`a11y ${language} ${theme}`);
      await keys.locator('form.stack button[type="submit"]').click();
      const oneTime = page.getByTestId('one-time-key');
      await expect(oneTime).toBeVisible();
      await axe(`one-time key ${look}`);
      if (full) {
        await focus(`one-time key ${look}`, keys.locator('form.stack input:not([type])').first(), ['one-time-key-value', 'one-time-key-copy', 'one-time-key-done']);
        await screenshots(page, 'one-time-key', theme, oneTime);
      }
      await page.getByTestId('one-time-key-done').click();
      await expect(oneTime).toHaveCount(0);

      // The webhook inspector, its delivery selected.
      await openTab(page, 'webhooks');
      await page.getByTestId('inspector-attempt').first().click();
      await expect(page.getByTestId('inspector-detail').getByTestId('inspector-verdict')).toHaveAttribute('data-valid', 'true');
      // Something pasted, so Verify can be used.
      await page.getByTestId('paste-raw').fill('POST /webhooks HTTP/1.1\r\ncontent-type: application/json\r\n\r\n{"event":"ping"}');
      await axe(`webhook inspector ${look}`);
      if (full) {
        await focus(`webhook inspector ${look}`, page.getByTestId('nav-webhooks'), ['inspector-regenerate', 'inspector-attempt', 'inspector-export-curl', 'paste-raw', 'paste-verify', 'send-submit']);
        await hover(`webhook inspector ${look}`, page.locator('body'));
        await screenshots(page, 'inspector', theme);
      }

      // The export dialog, on a selection of two images.
      await openTab(page, 'studio');
      const tiles = page.getByTestId('gallery').getByTestId('gallery-image');
      await tiles.nth(0).click();
      await tiles.nth(1).click({ modifiers: ['Control'] });
      await page.getByTestId('export-selection').click();
      const dialog = page.getByTestId('export-dialog');
      await expect(dialog).toBeVisible();
      await axe(`export dialog ${look}`);
      if (full) {
        await focus(`export dialog ${look}`, page.getByTestId('export-template'), ['export-format', 'export-csv', 'export-run', 'export-close', 'export-template']);
        await hover(`export dialog ${look}`, dialog);
        await screenshots(page, 'export-dialog', theme);
      }
      await page.keyboard.press('Escape');
      await expect(dialog).toHaveCount(0);

      // The gallery's date filter writes a typed day in the UI's pattern, and session headers show dates the same way.
      if (!(await page.getByTestId('filter-from').isVisible())) await page.getByTestId('more-filters').click();
      await page.getByTestId('filter-from').fill('2026-01-02');
      await page.getByTestId('filter-from').press('Enter');
      await expect(page.getByTestId('filter-from')).toHaveValue(language === 'zh' ? '2026/1/2' : '1/2/2026');
      await expect(page.locator('.session-meta').first()).toContainText(language === 'zh' ? /\d{4}\/\d{1,2}\/\d{1,2} \d{1,2}:\d{2}/ : /\d{1,2}\/\d{1,2}\/\d{4}, /);
      if (language === 'zh') expect(await monthFirstDates(page)).toEqual([]);
      await page.getByTestId('filters-clear').click();
      await expect(page.getByTestId('filter-from')).toHaveValue('');

      // The studio: the over-budget confirm, the waited-for run (stop waiting), the background run, the banners.
      if ((await page.getByTestId('over-budget-confirm').count()) === 0) await page.getByTestId('generate').click();
      await expect(page.getByTestId('over-budget-confirm')).toBeVisible();
      await expect(waited.getByTestId('stop-waiting')).toBeVisible();
      await expect(page.getByTestId('error-banner')).toHaveCount(2);
      await axe(`studio (over budget, stop waiting, error banners) ${look}`);
      if (full) {
        await focus(`studio ${look}`, page.getByTestId('prompt'), ['over-budget-send', 'over-budget-cancel', 'stop-waiting', 'cancel', 'retry']);
        await hover(`studio ${look}`, page.locator('body'));
        await screenshots(page, 'over-budget', theme, page.getByTestId('over-budget-confirm'));
        await screenshots(page, 'stop-waiting', theme, waited);
        await screenshots(page, 'error-banners', theme, page.getByTestId('error-banner').last());
      }
    }
  }
  expect(found).toEqual([]);
  await ipc(harness, 'local:set-faults', { generate: { latency_ms: 0 } });
});

test('axe, keyboard focus and screenshots: the startup notice of a damaged library, both themes and languages', async ({ page }) => {
  test.setTimeout(120_000);
  const dataDir = mkdtempSync(join(tmpdir(), 'studio-e2e-a11y-damaged-'));
  writeFileSync(join(dataDir, 'library.db'), randomBytes(32 * 1024));
  const started = await startHarness({ dataDir });
  try {
    await page.goto(started.harness.url);
    const notice = page.getByTestId('startup-notice');
    await expect(notice).toHaveAttribute('data-code', 'library_reset');
    const found: string[] = [];
    for (const language of LANGUAGES) {
      for (const theme of THEMES) {
        await chooseLook(page, language, theme);
        await openTab(page, 'studio');
        await expect(notice).toBeVisible();
        const look = `${language} ${theme}`;
        found.push(...(await seriousViolations(page)).map((v) => `startup notice ${look}: ${v}`));
        if (language === 'zh') {
          found.push(...(await focusProblems(page, page.locator('body'), ['startup-notice-copy', 'startup-notice-dismiss'])).map((p) => `startup notice ${look}: focus: ${p}`));
          await screenshots(page, 'startup-notice', theme);
        }
      }
    }
    expect(found).toEqual([]);
  } finally {
    await started.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
