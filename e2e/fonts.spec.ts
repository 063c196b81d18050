// The UI's font families (docs/decisions.md "Start-up"): <html data-os> names the OS before anything is styled, and
// the stylesheet then names only the families that OS has, so no text asks Chromium to look up a family that is not
// there (on Linux each look-up is a synchronous call to the browser process). Every text and control on the studio
// and the full-window library uses the UI's or the monospace family: none falls to Chromium's own (Arial, Times).
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures/harness.ts';
import { chooseLook, compose, generateAndWait, LANGUAGES, openStudio, openTab } from './support/studio.ts';

const OS = process.platform === 'darwin' ? 'mac' : process.platform === 'win32' ? 'windows' : 'linux';
// What theme.css names per OS (as getComputedStyle serialises it).
const FAMILIES = {
  mac: { ui: 'system-ui, "PingFang SC", sans-serif', mono: 'ui-monospace, Menlo, monospace' },
  windows: { ui: 'system-ui, "Microsoft YaHei", sans-serif', mono: 'Consolas, "Courier New", monospace' },
  linux: { ui: 'system-ui, "Noto Sans CJK SC", sans-serif', mono: 'monospace' },
}[OS];

/** Each font-family in use by a visible element with text of its own, or a visible control, and where. */
async function familiesInUse(page: Page): Promise<Record<string, string[]>> {
  return page.evaluate(() => {
    // The few DOM globals used here, typed locally (the e2e tsconfig has no DOM lib).
    interface El {
      tagName: string;
      className: unknown;
      dataset: Record<string, string | undefined>;
      childNodes: ArrayLike<{ nodeType: number; textContent: string | null }> & Iterable<{ nodeType: number; textContent: string | null }>;
      matches(selector: string): boolean;
      getBoundingClientRect(): { width: number; height: number };
    }
    const w = globalThis as unknown as {
      document: { querySelectorAll(s: string): Iterable<El> };
      getComputedStyle(el: El): { fontFamily: string };
    };
    const TEXT_NODE = 3;
    const used: Record<string, string[]> = {};
    for (const el of w.document.querySelectorAll('body *')) {
      const ownText = [...el.childNodes].some((n) => n.nodeType === TEXT_NODE && n.textContent?.trim());
      const control = el.matches('button, input, select, textarea');
      if (!ownText && !control) continue;
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      const family = w.getComputedStyle(el).fontFamily;
      const where = `${el.tagName.toLowerCase()}${el.dataset.testid ? `[${el.dataset.testid}]` : el.className ? `.${String(el.className).split(' ')[0]}` : ''}`;
      (used[family] ??= []).push(where);
    }
    return used;
  });
}

test('the UI names only its OS’s font families, and no text or control falls to Chromium’s own', async ({ page, harness }) => {
  await openStudio(page, harness.url);
  // A result on the stage and tiles in the gallery (with their marks and reject buttons).
  await compose(page, { prompt: 'A ceramic mug on a white background', n: '2' });
  await generateAndWait(page, 'succeeded');
  await expect(page.getByTestId('gallery-panel').getByTestId('gallery-image')).toHaveCount(2);
  await expect(page.locator('html')).toHaveAttribute('data-os', OS);
  for (const language of LANGUAGES) {
    await chooseLook(page, language, 'light');
    for (const view of ['settings', 'studio', 'library'] as const) {
      if (view === 'studio') await openTab(page, 'studio');
      if (view === 'library') await page.getByTestId('open-library').click();
      await expect(page.getByTestId({ settings: 'theme-select', studio: 'gallery-panel', library: 'library-view' }[view])).toBeVisible();
      if (view !== 'settings') await expect(page.getByTestId(view === 'library' ? 'library-view' : 'gallery-panel').getByTestId('gallery-image')).toHaveCount(2);
      const used = await familiesInUse(page);
      const others = Object.fromEntries(Object.entries(used).filter(([family]) => family !== FAMILIES.ui && family !== FAMILIES.mono));
      expect(others, `${view} (${language})`).toEqual({});
      expect(Object.keys(used), `${view} (${language})`).toContain(FAMILIES.ui);
      // The studio's keys legend is in the monospace family.
      if (view === 'studio') expect(Object.keys(used), `${view} (${language})`).toContain(FAMILIES.mono);
    }
    await page.getByTestId('close-library').click();
  }
});
