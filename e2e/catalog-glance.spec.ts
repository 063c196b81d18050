// The board's rows at a glance (issue 26: the board scrolls with p95 main-thread time per frame under 8 ms). A row that
// comes in while the column scrolls shows each cell's status word and its candidates' tiles of the row's sheet (the
// pick ringed), with no image element, stop or button of its own; once the column rests, the cells are drawn, each
// image where its tile was. On a finished batch of 80 products × 8 shots × 2 candidates seeded into a library
// (test-support/catalog-board-seed.ts): more products than the board draws whole, every cell with its images.
import type { Page as PlaywrightPage } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CatalogBoard } from '../src-shared/ipc/batch-board.ts';
import { BATCH_ID, seed } from '../test-support/catalog-board-seed.ts';
import { expect, startHarness, test, type Harness } from './fixtures/harness.ts';
import { columnOf } from './support/catalog.ts';
import { ipc } from './support/ipc.ts';
import { chooseLook, openStudio } from './support/studio.ts';

const PRODUCTS = 80;
/** The looks the test runs in, each at a window size, with the status word a done cell says at a glance. */
const LOOKS = [
  { language: 'en', theme: 'light', size: { width: 1440, height: 900 }, done: '"Done"' },
  { language: 'zh', theme: 'dark', size: { width: 960, height: 600 }, done: '"已完成"' },
  { language: 'en', theme: 'dark', size: { width: 960, height: 600 }, done: '"Done"' },
  { language: 'zh', theme: 'light', size: { width: 1440, height: 900 }, done: '"已完成"' },
] as const;

/** What the page saw of the first cell at a glance that came into view while its column scrolled. */
interface Glance {
  sku: string;
  shot: string;
  tiles: number;
  /** Which tile is ringed as the pick (-1 for none). */
  pickedTile: number;
  /** Every tile is drawn from the row's sheet. */
  fromSheet: boolean;
  /** Image elements, candidate stops and buttons the cell held at a glance. */
  elements: number;
  word: string;
  tileTop: number;
  /** The row's aria-busy while its cells are at a glance. */
  busy: string | null;
}

/** A frame after a press on a cell at a glance: whether it is drawn, its second candidate has the focus, and how many
 *  cells are still at a glance (the column has not rested yet). */
interface Pressed {
  drawn: boolean;
  focused: boolean;
  othersAtGlance: number;
}

/** The page's elements as these tests read them (the e2e tests are typed without the DOM's library). */
type Box = {
  dataset: Record<string, string | undefined>;
  classList: { contains(name: string): boolean };
  parentElement: Box | null;
  scrollTop: number;
  naturalWidth?: number;
  hasAttribute(name: string): boolean;
  getAttribute(name: string): string | null;
  closest(selector: string): Box | null;
  getBoundingClientRect(): { top: number; bottom: number };
  querySelector(selector: string): Box | null;
  querySelectorAll(selector: string): ArrayLike<Box>;
  dispatchEvent(event: unknown): boolean;
};
type Win = {
  document: { querySelector(selector: string): Box | null; querySelectorAll(selector: string): ArrayLike<Box>; activeElement: unknown };
  getComputedStyle(el: Box, pseudo?: string): { overflowY: string; backgroundImage: string; content: string };
  requestAnimationFrame(callback: () => void): void;
  MouseEvent: new (type: string, init: { bubbles: boolean; cancelable: boolean; button: number }) => unknown;
};

/** Scrolls the board's column 400 px a frame until a cell at a glance is in view (30 frames at most); that cell, and how
 *  many cells were at a glance at most. With `press`, the mouse goes down on the cell's second tile in that frame. */
function scrollFast({ column, press }: { column: Box; press: boolean }): Promise<{ seen: number; glance: Glance | null; pressed: Pressed | null }> {
  const w = globalThis as unknown as Win;
  const view = column.getBoundingClientRect();
  return (async () => {
    let seen = 0;
    let glance: Glance | null = null;
    let pressed: Pressed | null = null;
    for (let frame = 0; frame < 30 && !glance; frame++) {
      column.scrollTop += 400;
      await new Promise<void>((done) => w.requestAnimationFrame(() => done()));
      const undrawn: Box[] = Array.from(w.document.querySelectorAll('[data-testid="catalog-cell"][data-drawn="false"]'));
      seen = Math.max(seen, undrawn.length);
      const cell = undrawn.find((c) => {
        const box = c.getBoundingClientRect();
        return c.querySelector('.catalog-board-glance') && box.top > view.top + 60 && box.bottom < view.bottom;
      });
      if (!cell) continue;
      const tiles: Box[] = Array.from(cell.querySelectorAll('.catalog-board-glance'));
      glance = {
        sku: cell.dataset.sku ?? '',
        shot: cell.dataset.shot ?? '',
        tiles: tiles.length,
        pickedTile: tiles.findIndex((t) => t.classList.contains('catalog-board-candidate-picked')),
        fromSheet: tiles.every((t) => /sheet/.test(w.getComputedStyle(t).backgroundImage)),
        elements: cell.querySelectorAll('img, button, [data-testid="cell-candidate"]').length,
        word: w.getComputedStyle(cell, '::before').content,
        tileTop: (tiles[0]?.getBoundingClientRect().top ?? NaN) - cell.getBoundingClientRect().top,
        busy: cell.closest('[data-testid="board-row"]')?.getAttribute('aria-busy') ?? null,
      };
      // A synthetic press (a real one would come a round trip later, when the column may have rested): this tests
      // what the cell does with it, not the browser's hit testing.
      if (press && tiles[1]) {
        tiles[1].dispatchEvent(new w.MouseEvent('mousedown', { bubbles: true, cancelable: true, button: 0 }));
        await new Promise<void>((done) => w.requestAnimationFrame(() => done()));
        pressed = {
          drawn: cell.dataset.drawn === 'true',
          focused: w.document.activeElement === cell.querySelectorAll('[data-testid="cell-candidate"]')[1],
          othersAtGlance: w.document.querySelectorAll('[data-testid="catalog-cell"][data-drawn="false"]').length,
        };
      }
    }
    return { seen, glance, pressed };
  })();
}

/** Opens the board in a look, scrolls its column fast, and checks a cell at a glance and the same cell drawn once the
 *  column rests (screenshots of both in .tmp/shots-glance/). */
async function glanceIn(page: PlaywrightPage, url: string, look: (typeof LOOKS)[number]): Promise<void> {
  const tag = `${look.language} ${look.theme} ${look.size.width}×${look.size.height}`;
  await page.setViewportSize(look.size);
  await openStudio(page, url);
  await chooseLook(page, look.language, look.theme);
  await openBoard(page);

  const column = (await columnOf(page, '.catalog-board-rows')) as unknown as Box;
  const { seen, glance } = await page.evaluate(scrollFast, { column, press: false });
  expect(seen, `${tag}: cells came in at a glance while the column scrolled`).toBeGreaterThan(0);
  expect(glance, `${tag}: a cell at a glance came into view`).not.toBeNull();
  const g = glance as Glance;
  expect(g.tiles, `${g.sku} · ${g.shot}: a tile for each candidate`).toBe(2);
  expect(g.fromSheet, `${tag}: each tile is drawn from the row sheet`).toBe(true);
  expect(g.elements, `${tag}: no image element, stop or button at a glance`).toBe(0);
  // The word is for the eye: its alternative text is empty (a screen reader hears the row as busy instead).
  expect(g.word, `${tag}: the cell at a glance says its status`).toBe(`${look.done} / ""`);
  expect(g.busy, `${tag}: a row at a glance is busy for a screen reader`).toBe('true');
  if (g.shot === 'main') expect(g.pickedTile, `${tag}: the pick is ringed at a glance`).toBe(1);
  else expect(g.pickedTile).toBe(-1);
  await page.screenshot({ path: `.tmp/shots-glance/scrolling-${tag.replace(/ /g, '-')}.png` });

  // The column rests: every cell is drawn, the same cell with a stop for each tile, its images where the tiles were.
  await expect.poll(() => page.locator('[data-testid="catalog-cell"][data-drawn="false"]').count(), 'the cells are drawn once the column rests').toBe(0);
  const cell = page.locator(`[data-testid="catalog-cell"][data-sku="${g.sku}"][data-shot="${g.shot}"]`);
  await expect(cell.getByTestId('cell-candidate')).toHaveCount(g.tiles);
  await expect(page.locator(`[data-testid="board-row"][data-sku="${g.sku}"]`)).toHaveAttribute('aria-busy', 'false');
  await expect(page.locator(`[data-testid="board-row"][data-sku="${g.sku}"]`).getByTestId('product-master')).toBeVisible();
  await expect(cell.locator('img').first()).toHaveJSProperty('complete', true);
  const drawn = await cell.evaluate((node) => {
    const el = node as unknown as Box;
    return {
      imageTop: (el.querySelector('[data-testid="cell-candidate"]')?.getBoundingClientRect().top ?? NaN) - el.getBoundingClientRect().top,
      picked: Array.from(el.querySelectorAll('[data-testid="cell-candidate"]')).findIndex((c) => c.getAttribute('data-picked') === 'true'),
      naturalWidth: el.querySelector('img')?.naturalWidth ?? 0,
    };
  });
  expect(Math.abs(drawn.imageTop - g.tileTop), `${tag}: the images are drawn where their tiles were`).toBeLessThan(2);
  expect(drawn.picked, `${tag}: the pick drawn is the tile ringed`).toBe(g.pickedTile);
  expect(drawn.naturalWidth).toBeGreaterThan(0);
  await page.screenshot({ path: `.tmp/shots-glance/rested-${tag.replace(/ /g, '-')}.png` });
}

/** Opens the seeded batch's board from the studio, once its first cells are drawn and it has settled. */
async function openBoard(page: PlaywrightPage): Promise<void> {
  await page.getByTestId('open-batch').click();
  await expect(page.getByTestId('catalog-board').getByTestId('board-row').first()).toBeVisible();
  await expect(page.locator('[data-testid="catalog-cell"][data-drawn="true"]').first()).toBeVisible();
  await page.waitForTimeout(1_000);
}

/** A harness on a library seeded with the finished batch of PRODUCTS products, for `body`; both gone after it. */
async function onSeededLibrary(body: (harness: Harness) => Promise<void>): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'studio-glance-'));
  await seed(dataDir, PRODUCTS);
  const started = await startHarness({ dataDir });
  try {
    await body(started.harness);
  } finally {
    await started.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

test('rows that come in while the column scrolls show their cells at a glance, drawn once it rests with each image where its tile was', async ({ page }) => {
  test.setTimeout(120_000);
  await onSeededLibrary(async (harness) => {
    // Each product's main shot has its second candidate picked.
    const board = await ipc<CatalogBoard>(harness, 'catalog:get-board', { batchId: BATCH_ID });
    for (const cell of board.cells.filter((c) => c.shotName === 'main')) {
      await ipc(harness, 'catalog:set-pick', { batchId: BATCH_ID, productId: cell.productId, shot: cell.shotName, imageId: cell.candidates[1]?.imageId });
    }
    for (const look of LOOKS) await glanceIn(page, harness.url, look);
  });
});

test('a press on a cell at a glance draws its row at once and gives the pressed candidate the focus', async ({ page }) => {
  test.setTimeout(90_000);
  await onSeededLibrary(async (harness) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await openStudio(page, harness.url);
    await openBoard(page);
    const column = (await columnOf(page, '.catalog-board-rows')) as unknown as Box;
    const { glance, pressed: after } = await page.evaluate(scrollFast, { column, press: true });
    expect(glance, 'a cell at a glance came into view and was pressed').not.toBeNull();
    const g = glance as Glance;
    expect(g.elements, 'the cell was at a glance when it was pressed').toBe(0);
    expect(g.tiles, 'the pressed cell had a second tile').toBe(2);
    // At once: a frame after the press, before the column rests, the cell is drawn and its candidate has the focus.
    expect(after, 'the page saw the frame after the press').not.toBeNull();
    expect(after?.othersAtGlance, 'the column had not rested: other cells were still at a glance').toBeGreaterThan(0);
    expect(after?.drawn, 'the pressed cell is drawn at once').toBe(true);
    expect(after?.focused, 'the pressed candidate has the focus at once').toBe(true);
    // The pressed tile's candidate, drawn, has the focus: the same stop a press on it drawn would have focused.
    const pressed = page.locator(`[data-testid="catalog-cell"][data-sku="${g.sku}"][data-shot="${g.shot}"]`).getByTestId('cell-candidate').nth(1);
    await expect(pressed, `${g.sku} · ${g.shot}: the pressed candidate takes the focus`).toBeFocused();
    await expect(page.locator(`[data-testid="board-row"][data-sku="${g.sku}"]`)).toHaveAttribute('aria-busy', 'false');
    // And the keys work from there at once: P picks the pressed candidate.
    await page.keyboard.press('p');
    await expect(pressed).toHaveAttribute('data-picked', 'true');
    await expect(pressed.locator('img')).toHaveJSProperty('complete', true);
    await page.screenshot({ path: '.tmp/shots-glance/pressed-and-picked-1440x900.png' });
  });
});
