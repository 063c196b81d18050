// An idle window does nothing: on every screen, at every window height from 480 to 1440 px (1440 wide), nothing
// lays out or restyles while the designer looks. A layout feedback loop (measure → set a size → a scrollbar comes
// or goes → measure) showed only at some heights: the stage with a finished n=1 turn flipped its image's size every
// frame around 1044–1056 px. One page is resized through all heights (no reload), in the harness against the real
// local service, with real scrollbars (playwright.config.ts).
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures/harness.ts';
import { compose, frames, generateAndWait, openStudio, openTab } from './support/studio.ts';

const WIDTH = 1440;
/** Every 8 px from 480 to 1440, and each pixel of 1044–1056 where the stage's loop was seen. */
const HEIGHTS = [...new Set([...Array.from({ length: (1440 - 480) / 8 + 1 }, (_, i) => 480 + i * 8), ...Array.from({ length: 13 }, (_, i) => 1044 + i)])].sort((a, b) => a - b);
/** Frames a resize may take to settle (the resize, its observers' renders, their layout). */
const SETTLE_FRAMES = 6;
/** The idle window: a loop lays out every frame or every other one, so a few frames show it. */
const IDLE_FRAMES = 12;

interface IdleWork {
  height: number;
  layouts: number;
  /** Style attributes the page rewrote (a React size set from a measure), with the elements' test ids. */
  styleChanges: number;
  restyled: string[];
}

/** Counts style-attribute writes in the page from now on (window.__styleWrites), naming the elements written. */
async function watchStyleWrites(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = globalThis as unknown as {
      __styleWrites: string[];
      MutationObserver: new (cb: (records: Array<{ target: { getAttribute?(n: string): string | null; className?: unknown } }>) => void) => { observe(node: unknown, o: object): void };
      document: { documentElement: unknown };
    };
    w.__styleWrites = [];
    new w.MutationObserver((records) => {
      for (const r of records) w.__styleWrites.push(r.target.getAttribute?.('data-testid') ?? String(r.target.className ?? '?'));
    }).observe(w.document.documentElement, { attributes: true, attributeFilter: ['style'], subtree: true });
  });
}

/** Resizes the page through every height and measures each idle window: layouts (Chromium's count) and style writes. */
async function idleAtEveryHeight(page: Page): Promise<IdleWork[]> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const layoutCount = async () => (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'LayoutCount')?.value ?? 0;
  const styleWrites = () => page.evaluate(() => (globalThis as unknown as { __styleWrites: string[] }).__styleWrites.splice(0));
  const busy: IdleWork[] = [];
  try {
    for (const height of HEIGHTS) {
      await page.setViewportSize({ width: WIDTH, height });
      await frames(page, SETTLE_FRAMES);
      await styleWrites();
      const before = await layoutCount();
      await frames(page, IDLE_FRAMES);
      const layouts = (await layoutCount()) - before;
      const restyled = await styleWrites();
      // A single late layout (a caret, a tooltip's timer) is not a loop; a loop is one every frame or two.
      if (layouts > 2 || restyled.length > 0) busy.push({ height, layouts, styleChanges: restyled.length, restyled: [...new Set(restyled)] });
    }
  } finally {
    await cdp.detach();
  }
  return busy;
}

test('every screen is idle at every window height from 480 to 1440 px: no layout or style change while nothing happens', async ({ page, harness }) => {
  test.setTimeout(900_000);
  await openStudio(page, harness.url);
  // The stage with a finished n=1 turn (3:4, the default ratio): the screen where the loop was found.
  await compose(page, { prompt: 'A ceramic mug on a walnut table', n: '1' });
  await generateAndWait(page, 'succeeded');
  await expect(page.getByTestId('stage-image')).toHaveJSProperty('complete', true);
  await watchStyleWrites(page);
  // Nothing else is on its way (the gallery's thumbnails, the balance) before the first window.
  await expect(page.getByTestId('gallery-image')).toHaveCount(1);

  const screens: Array<{ name: string; open: () => Promise<void> }> = [
    { name: 'studio: stage with a finished n=1 turn, and the gallery', open: async () => undefined },
    {
      name: 'library (full window)',
      open: async () => {
        await page.getByTestId('open-library').click();
        await expect(page.getByTestId('library-view').getByTestId('gallery-image')).toHaveCount(1);
      },
    },
    {
      name: 'catalog',
      open: async () => {
        await page.getByTestId('close-library').click();
        await page.getByTestId('open-batch').click();
        await expect(page.getByTestId('batch-page')).toBeVisible();
      },
    },
    {
      name: 'local service',
      open: async () => {
        await openTab(page, 'local');
        await expect(page.getByTestId('local-balance')).toBeVisible();
      },
    },
    {
      name: 'settings',
      open: async () => {
        await openTab(page, 'settings');
        await expect(page.getByTestId('theme-select')).toBeVisible();
      },
    },
    {
      name: 'webhooks',
      open: async () => {
        await openTab(page, 'webhooks');
        await expect(page.getByTestId('inspector-connect-local')).toBeVisible();
      },
    },
  ];
  const found: Record<string, IdleWork[]> = {};
  for (const screen of screens) {
    await screen.open();
    await frames(page, 30);
    const busy = await idleAtEveryHeight(page);
    if (busy.length > 0) found[screen.name] = busy;
  }
  expect(found, 'screens and heights where an idle page kept laying out or restyling').toEqual({});
});
