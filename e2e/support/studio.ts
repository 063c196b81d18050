// Helpers for the renderer specs: drive the studio through its data-testids like a designer would.
import type { Locator, Page } from '@playwright/test';
import { expect } from '../fixtures/harness.ts';

/** Every screen is checked in both themes and both languages, at the full and the minimum window. */
export const THEMES = ['light', 'dark'] as const;
export const LANGUAGES = ['zh', 'en'] as const;
export const SIZES = [
  { width: 1440, height: 900 },
  { width: 960, height: 600 },
] as const;

export interface ComposeOptions {
  prompt?: string;
  model?: string;
  ratio?: string;
  resolution?: string;
  quality?: string;
  n?: string;
  purpose?: string;
}

export async function openStudio(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await expect(page.getByTestId('environment-badge')).toHaveAttribute('data-environment', 'local');
  await expect(page.getByTestId('prompt')).toBeVisible();
}

export async function compose(page: Page, o: ComposeOptions): Promise<void> {
  if (o.prompt !== undefined) await page.getByTestId('prompt').fill(o.prompt);
  if (o.model !== undefined) await page.getByTestId('model').selectOption(o.model);
  if (o.ratio !== undefined) await page.getByTestId('ratio').selectOption(o.ratio);
  if (o.resolution !== undefined) await page.getByTestId('resolution').selectOption(o.resolution);
  if (o.quality !== undefined) await page.getByTestId('quality').selectOption(o.quality);
  if (o.n !== undefined) await page.getByTestId('n').selectOption(o.n);
  if (o.purpose !== undefined) await page.getByTestId('purpose').selectOption(o.purpose);
}

/** The total credits the estimate shows (its text holds the number). */
export async function estimateTotal(page: Page): Promise<number> {
  const text = (await page.getByTestId('estimate').textContent()) ?? '';
  const match = /\d+/.exec(text);
  if (!match) throw new Error(`no number in the estimate: "${text}"`);
  return Number(match[0]);
}

/** Clicks Generate and waits for the new turn (the newest, first in the stage) to leave "running". */
export async function generateAndWait(page: Page, status: string | RegExp = /succeeded|failed|outcome_unknown|cancelled/): Promise<Locator> {
  const before = await page.getByTestId('turn').count();
  await page.getByTestId('generate').click();
  await expect(page.getByTestId('turn')).toHaveCount(before + 1);
  const turn = page.getByTestId('turn').first();
  await expect(turn).toHaveAttribute('data-status', status, { timeout: 60_000 });
  return turn;
}

export async function openTab(page: Page, tab: 'studio' | 'local' | 'settings' | 'webhooks'): Promise<void> {
  await page.getByTestId(`nav-${tab}`).click();
}

/** Sets the UI language and theme in Settings and waits until <html> carries both. */
export async function chooseLook(page: Page, language: (typeof LANGUAGES)[number], theme: (typeof THEMES)[number]): Promise<void> {
  await openTab(page, 'settings');
  await page.getByTestId('language-select').selectOption(language);
  await page.getByTestId('theme-select').selectOption(theme);
  await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
  await expect(page.locator('html')).toHaveAttribute('lang', language === 'zh' ? 'zh-CN' : 'en');
}

/** One look of the app: a window size, a theme and a language, and their name for screenshots and problems. */
export interface Look {
  size: (typeof SIZES)[number];
  theme: (typeof THEMES)[number];
  language: (typeof LANGUAGES)[number];
  tag: string;
}

/**
 * Runs `check` in every look (each language, theme and size, chosen in the app first) and gathers the problems it
 * answers, each look's tagged "1440x900-light-zh".
 */
export async function problemsInEveryLook(page: Page, check: (look: Look) => Promise<string[]>): Promise<string[]> {
  const problems: string[] = [];
  for (const language of LANGUAGES) {
    for (const theme of THEMES) {
      for (const size of SIZES) {
        await page.setViewportSize(size);
        await chooseLook(page, language, theme);
        problems.push(...(await check({ size, theme, language, tag: `${size.width}x${size.height}-${theme}-${language}` })));
      }
    }
  }
  return problems;
}

/** Every month-first date (11/23/2026) the page shows, in its text and in its fields' values. */
export async function monthFirstDates(page: Page): Promise<string[]> {
  const text = await page.locator('body').innerText();
  const values = await page.locator('input').evaluateAll((inputs) => inputs.map((input) => (input as unknown as { value: string }).value));
  return [text, ...values].flatMap((shown) => shown.match(/\b\d{1,2}\/\d{1,2}\/\d{4}\b/g) ?? []);
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `e2e/screenshots/${name}.png` });
}

/** Titles of the cards on the current page whose content is cut off (taller than the card shows). */
export async function clippedCards(page: Page): Promise<string[]> {
  return page.locator('.card').evaluateAll((cards) =>
    cards
      .filter((c) => c.scrollHeight > c.clientHeight + 1 || c.scrollWidth > c.clientWidth + 1)
      .map((c) => c.querySelector('h2, h3')?.textContent ?? c.textContent?.slice(0, 40) ?? '?'),
  );
}

/** Drops one file (its bytes) on `target` the way a drag from the desktop does: dragover, then drop. */
export async function dropFile(page: Page, target: Locator, bytes: Buffer, name: string, type = 'image/png'): Promise<void> {
  // Browser-side code names its DOM globals through globalThis: the e2e tsconfig has no DOM lib.
  const dataTransfer = await page.evaluateHandle(
    ({ b64, name, type }) => {
      const w = globalThis as unknown as {
        atob(s: string): string;
        DataTransfer: new () => { items: { add(f: unknown): void } };
        File: new (parts: unknown[], name: string, o: object) => unknown;
      };
      const binary = w.atob(b64);
      const data = new Uint8Array(binary.length);
      for (let i = 0; i < binary.length; i++) data[i] = binary.charCodeAt(i);
      const dt = new w.DataTransfer();
      dt.items.add(new w.File([data], name, { type }));
      return dt;
    },
    { b64: bytes.toString('base64'), name, type },
  );
  await target.dispatchEvent('dragover', { dataTransfer });
  await target.dispatchEvent('drop', { dataTransfer });
}

/** Lets the page paint `count` frames: a measure of idleness in the page's own time, not the test machine's clock. */
export async function frames(page: Page, count: number): Promise<void> {
  await page.evaluate(
    (n) =>
      new Promise<void>((done) => {
        // The e2e files are typed without the DOM; the page has requestAnimationFrame.
        const win = globalThis as unknown as { requestAnimationFrame(step: () => void): number };
        let left = n;
        const next = () => (--left <= 0 ? done() : win.requestAnimationFrame(next));
        win.requestAnimationFrame(next);
      }),
    count,
  );
}
