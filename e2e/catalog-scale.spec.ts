// The Catalog at scale (issue 26: the board virtualised for hundreds of products; one scroll area per column): 250
// products × a 6-shot list, run with a budget no job fits, so all 1,500 jobs are over budget and nothing is sent (fast
// to make, every list long). Each long list draws only the rows near the view and scrolls with its column: the board
// (its header row sticks to the column's top; wider than the column, it moves sideways under a bar kept at the
// column's bottom), the product table and the job list. The last of each is reachable by scrolling the column, at the
// full and the minimum window (where the columns scroll as one, below the page's head). The board's keys move the focus
// as a grid's (Home, End, Ctrl+Home, Ctrl+End, PageUp, PageDown) and keep it in sight; the page's head and its section
// buttons stay in view however far the page is scrolled. Screenshots in .tmp/shots-scale/.
import type { Page } from '@playwright/test';
import type { BatchDetail, Product, ShotList } from '../src-shared/ipc/index.ts';
import { expect, test, type Harness } from './fixtures/harness.ts';
import { columnOf } from './support/catalog.ts';
import { ipc, until } from './support/ipc.ts';
import { chooseLook, LANGUAGES, openStudio, SIZES, THEMES } from './support/studio.ts';

const COUNT = 250;
const SHOTS = ['main', 'side', 'back', 'top', 'detail', 'scale'];
const sku = (i: number) => `SCL-${String(i + 1).padStart(3, '0')}`;

type El = { scrollTop: number; scrollLeft: number; scrollHeight: number; scrollWidth: number; clientHeight: number; clientWidth: number; getBoundingClientRect(): { top: number; bottom: number; left: number; right: number } };
type Doc = { document: { querySelector(s: string): El | null; querySelectorAll(s: string): ArrayLike<El> } };

/** How many rows of each list are in the document. */
function drawn(page: Page) {
  return page.evaluate(() => {
    const d = (globalThis as unknown as Doc).document;
    const n = (s: string) => d.querySelectorAll(s).length;
    return { board: n('[data-testid="board-row"]'), products: n('[data-testid="product-row"]'), jobs: n('[data-testid="batch-job"]') };
  });
}

/**
 * Scrolls what scrolls `selector`'s element (its column, or the columns' box) so that its bottom meets the view's bottom, again
 * until it stays there: rows measured as they come into view (taller or shorter than estimated) move what is below.
 */
async function scrollToEndOf(page: Page, selector: string): Promise<void> {
  let moved = Infinity;
  for (let i = 0; i < 10 && Math.abs(moved) > 1; i++) {
    moved = await scrollBy(page, selector);
    await page.waitForTimeout(150);
  }
}

/** Scrolls what scrolls `selector`'s element (its column, or the columns' box) by `by` px, or, without `by`, so that the
 *  element's bottom meets the view's bottom; answers how far it meant to move. */
async function scrollBy(page: Page, selector: string, by?: number): Promise<number> {
  const column = (await columnOf(page, selector)) as unknown as El;
  return page.evaluate(([sel, by, at]) => {
    const el = (globalThis as unknown as Doc).document.querySelector(sel);
    if (!el) throw new Error(`no ${sel}`);
    const move = by ?? el.getBoundingClientRect().bottom - at.getBoundingClientRect().bottom;
    at.scrollTop += move;
    return move;
  }, [selector, by, column] as const);
}

/** Where the focused candidate is: 'in sight', or how it is out of sight (sideways, under the board's header row, or
 *  under its sideways bar at the bottom). */
function focusedInSight(page: Page): Promise<string> {
  return page.evaluate(() => {
    const d = (globalThis as unknown as { document: { activeElement: (El & { closest(s: string): (El & { querySelector(s: string): El | null }) | null }) | null; querySelector(s: string): El | null } }).document;
    const el = d.activeElement;
    const row = el?.closest('[role="row"]');
    if (!el || !row) return 'the focus left the board';
    const at = el.getBoundingClientRect();
    const x = d.querySelector('.catalog-board-x')!.getBoundingClientRect();
    const head = d.querySelector('.catalog-board-head-wrap')!.getBoundingClientRect();
    const product = row.querySelector('[role="rowheader"]')!.getBoundingClientRect();
    if (at.left < product.right || at.right > x.right) return `sideways out of sight: ${at.left}–${at.right}, product ends ${product.right}, board ${x.left}–${x.right}`;
    if (at.top < head.bottom) return `under the header row: ${at.top} < ${head.bottom}`;
    const bar = d.querySelector('.catalog-board-hbar')!.getBoundingClientRect();
    if (at.bottom > bar.top + 1) return `under the sideways bar: ${at.bottom} > ${bar.top}`;
    return 'in sight';
  });
}

/** 250 products × the 6-shot list, run with a budget no job fits: every job over budget, nothing sent. */
async function seedLongBoard(harness: Harness): Promise<BatchDetail> {
  const products: Product[] = [];
  for (let i = 0; i < COUNT; i++) products.push(await ipc<Product>(harness, 'product:save', { sku: sku(i), name: `玻璃花瓶 vase ${i + 1}`, prompt: `a glass vase ${i + 1}` }));
  const list = await ipc<ShotList>(harness, 'shotlist:save', { name: 'scale list', shots: SHOTS.map((name) => ({ name, purpose: 'free', model: 'seedream-5-0-pro', ratio: '1:1', resolution: '1K', n: 1, promptAddition: name })) });
  const created = await ipc<BatchDetail>(harness, 'batch:create', { productIds: products.map((p) => p.id), shotListId: list.id, concurrency: 1, budget: 1 });
  return until('the batch at rest', async () => {
    const b = await ipc<BatchDetail>(harness, 'batch:get', { batchId: created.id });
    return b.jobs.every((j) => j.status === 'over_budget') ? b : null;
  });
}

/** Opens the Catalog on the seeded board in this look; the board, once its first row is in. */
async function openBoard(page: Page, url: string, language: (typeof LANGUAGES)[number], theme: (typeof THEMES)[number]) {
  await openStudio(page, url);
  await chooseLook(page, language, theme);
  await page.getByTestId('open-batch').click();
  const board = page.getByTestId('catalog-board');
  await expect(board.getByTestId('board-row').first()).toBeVisible();
  return board;
}

test('at 250 products × 6 shots every list draws only what is near the view, scrolls with its column, and reaches its end', async ({ page, harness }) => {
  test.setTimeout(300_000);
  const rested = await seedLongBoard(harness);
  const lastJob = rested.jobs.at(-1)!;
  const last = sku(COUNT - 1);

  for (const size of SIZES) {
    await page.setViewportSize(size);
    const board = await openBoard(page, harness.url, 'zh', 'light');
    await expect(page.getByTestId('product-row').first()).toBeAttached();
    await expect(page.getByTestId('batch-job').first()).toBeAttached();
    const tag = `${size.width}x${size.height}`;
    // The batch's whole detail is read after the board's first rows are in, never beside them (it held them back).
    const order = await page.evaluate(() => {
      const calls = performance.getEntriesByType('resource') as unknown as Array<{ name: string; startTime: number; responseEnd: number }>;
      const first = (channel: string) => calls.find((e) => decodeURIComponent(e.name).includes(`/ipc/${channel}`));
      return { firstRowsEnd: first('catalog:get-board')?.responseEnd ?? NaN, detailStart: first('batch:get')?.startTime ?? NaN };
    });
    expect(order.detailStart, `${tag}: batch:get starts after the first rows came`).toBeGreaterThanOrEqual(order.firstRowsEnd);
    await page.screenshot({ path: `.tmp/shots-scale/top-${tag}.png` });

    // Only the rows near the view are drawn (all of them were: 1,500 jobs made 33,000 elements).
    const atTop = await drawn(page);
    expect(atTop.board, tag).toBeLessThan(20);
    expect(atTop.products, tag).toBeLessThan(60);
    expect(atTop.jobs, tag).toBeLessThan(40);

    // Keys move the focus in sight: sideways clear of the product cell stuck on the left and of the right edge, down
    // and up clear of the header row stuck on top; the focused row stays drawn however far the column scrolls away.
    await board.locator(`[data-testid="catalog-cell"][data-sku="${sku(0)}"][data-shot="main"] .catalog-board-empty`).click();
    for (const key of ['ArrowRight', 'ArrowRight', 'ArrowRight', 'ArrowRight', 'ArrowRight', 'ArrowDown', 'ArrowDown', 'ArrowLeft', 'ArrowLeft', 'ArrowLeft', 'ArrowLeft', 'ArrowLeft', 'ArrowUp']) {
      await page.keyboard.press(key);
      await expect.poll(() => focusedInSight(page), `${tag} after ${key}`).toBe('in sight');
    }
    await page.evaluate(() => {
      (globalThis as unknown as Doc).document.querySelector('.batch-columns')!.scrollTop += 20_000;
      (globalThis as unknown as Doc).document.querySelector('.batch-setup')!.scrollTop += 20_000;
    });
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => (globalThis as unknown as { document: { activeElement: { closest(s: string): unknown } | null } }).document.activeElement?.closest('[data-testid="catalog-board"]') != null), tag).toBe(true);
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => focusedInSight(page), `${tag} back to the focused row`).toBe('in sight');

    // Rows that come in during a scroll come with their cells at a glance and draw the cells' contents once the
    // scroll rests (board-staging.ts; e2e/catalog-glance.spec.ts looks at a glance's images); then every drawn row is
    // whole and the rows in view show their candidates' stops.
    const staged = await page.evaluate(async (column) => {
      const w = globalThis as unknown as Doc & { requestAnimationFrame(cb: () => void): void };
      let seenAtGlance = 0;
      for (let frame = 0; frame < 30; frame++) {
        column.scrollTop += 400;
        await new Promise<void>((done) => w.requestAnimationFrame(() => done()));
        seenAtGlance = Math.max(seenAtGlance, w.document.querySelectorAll('[data-testid="catalog-cell"][data-drawn="false"]').length);
      }
      return seenAtGlance;
    }, (await columnOf(page, '.catalog-board-rows')) as unknown as El);
    expect(staged, `${tag}: rows entering during a fast scroll come with their cells at a glance first`).toBeGreaterThan(0);
    await expect.poll(() => page.locator('[data-testid="catalog-cell"][data-drawn="false"]').count(), `${tag}: the cells are drawn once the scroll stops`).toBe(0);
    const inViewRow = board.getByTestId('board-row').filter({ has: page.locator('[data-testid="catalog-cell"]') }).nth(2);
    await expect(inViewRow.locator('.catalog-board-empty, [data-testid="cell-candidate"]').first()).toBeAttached();

    // The page's head brings each section to the top of its column, however long the board above it.
    await page.locator('[data-testid="catalog-jump"][data-target="batch-shot-list"]').click();
    await expect(page.getByTestId('batch-shot-list')).toBeInViewport();
    await page.locator('[data-testid="catalog-jump"][data-target="catalog-board"]').click();
    await expect(board.getByTestId('board-filter-product')).toBeInViewport();

    // The board's last row, reached by scrolling its column; its header row stays on top meanwhile. Rows entering
    // never read the whole batch again, however old the page's copy (it was read again once 5 s old: 6 MiB at 8,000
    // jobs, again and again while scrolling).
    const detailReads = () => page.evaluate(() => performance.getEntriesByType('resource').filter((e) => decodeURIComponent(e.name).includes('/ipc/batch:get')).length);
    await expect.poll(detailReads).toBeGreaterThan(0);
    const readsBefore = await detailReads();
    await page.waitForTimeout(5_500);
    await scrollToEndOf(page, '[data-testid="catalog-board"] .catalog-board-rows');
    await expect(board.locator(`[data-testid="board-row"][data-sku="${last}"]`)).toBeInViewport();
    const stuck = await page.evaluate(() => {
      const d = (globalThis as unknown as Doc).document;
      const head = d.querySelector('.catalog-board-head-wrap')!.getBoundingClientRect();
      const rows = d.querySelector('.catalog-board-rows')!.getBoundingClientRect();
      const scroller = d.querySelector('.batch-columns')!.scrollTop > 0 ? d.querySelector('.batch-columns')! : d.querySelector('.batch-setup')!;
      return { headTop: head.top, rowsTop: rows.top, scrollerTop: scroller.getBoundingClientRect().top };
    });
    expect(stuck.rowsTop, tag).toBeLessThan(stuck.headTop - 1_000);
    expect(Math.abs(stuck.headTop - stuck.scrollerTop), tag).toBeLessThan(4);
    expect(await detailReads(), tag).toBe(readsBefore);

    // Wider than its column, the board moves sideways as one under its own bar, which is in sight mid-board.
    const sideways = await page.evaluate(() => {
      const d = (globalThis as unknown as Doc).document;
      const bar = d.querySelector('.catalog-board-hbar')!;
      const wide = bar.scrollWidth > bar.clientWidth;
      bar.scrollLeft = 300;
      return { wide, barBottom: bar.getBoundingClientRect().bottom };
    });
    expect(sideways.wide, tag).toBe(true);
    expect(sideways.barBottom, tag).toBeLessThanOrEqual(size.height);
    await until('the rows and the header row to follow the bar', async () =>
      page.evaluate(() => {
        const d = (globalThis as unknown as Doc).document;
        return d.querySelector('.catalog-board-x')!.scrollLeft === 300 && d.querySelector('.catalog-board-head-wrap')!.scrollLeft === 300 ? true : null;
      }),
    );
    // Each drawn row's product cell stays at the board's left edge, whichever way the board was moved: by the bar,
    // or by a sideways swipe over the rows (the rows' box moves only so, with the header row and the bar alongside).
    const productsAtLeft = () =>
      page.evaluate(() => {
        const d = (globalThis as unknown as { document: { querySelector(s: string): El; querySelectorAll(s: string): ArrayLike<El> } }).document;
        const left = d.querySelector('.catalog-board-x').getBoundingClientRect().left;
        return Array.from(d.querySelectorAll('.catalog-board-product')).map((p) => Math.round(p.getBoundingClientRect().left - left));
      });
    expect(new Set(await productsAtLeft()), tag).toEqual(new Set([1]));
    const head = (await board.locator('.catalog-board-head-wrap').boundingBox())!;
    const bar = (await board.locator('.catalog-board-hbar').boundingBox())!;
    await page.mouse.move(head.x + head.width / 2, (head.y + head.height + bar.y) / 2);
    await page.mouse.wheel(120, 0);
    await until('the board, its header row and its bar to move with a sideways swipe over the rows', async () =>
      page.evaluate(() => {
        const d = (globalThis as unknown as Doc).document;
        // 120 px further, or as far as the board goes.
        const x = d.querySelector('.catalog-board-x')!;
        const lefts = ['.catalog-board-x', '.catalog-board-head-wrap', '.catalog-board-hbar'].map((s) => d.querySelector(s)!.scrollLeft);
        const to = Math.min(420, x.scrollWidth - x.clientWidth);
        // (The last few pixels of scrollWidth − clientWidth are the border's: compared with a little room.)
        return lefts.every((left) => Math.abs(left - (lefts[0] ?? 0)) <= 1) && (lefts[0] ?? 0) >= to - 3 && to > 300 ? true : null;
      }),
    );
    expect(new Set(await productsAtLeft()), tag).toEqual(new Set([1]));
    await page.screenshot({ path: `.tmp/shots-scale/board-end-${tag}.png` });

    // The product table's and the job list's last rows, each reached by scrolling its column.
    await scrollToEndOf(page, '[data-testid="batch-products"] table');
    await expect(page.locator(`[data-testid="product-row"][data-sku="${last}"]`)).toBeInViewport();
    await scrollToEndOf(page, '[data-testid="batch-jobs"]');
    await expect(page.locator(`[data-testid="batch-job"][data-job-id="${lastJob.id}"]`)).toBeInViewport();
    await page.screenshot({ path: `.tmp/shots-scale/lists-end-${tag}.png` });

    // A filter chosen deep in the column shrinks the board to one row: its top comes into view, and the product table
    // below (now just under it) still draws the rows in view when scrolled to.
    await page.getByTestId('board-filter-product').selectOption({ index: 5 });
    await expect(board.getByTestId('board-filter-product')).toBeInViewport();
    await expect(board.getByTestId('board-row')).toHaveCount(1);
    await scrollToEndOf(page, '[data-testid="batch-products"] table');
    await expect(page.locator(`[data-testid="product-row"][data-sku="${last}"]`)).toBeInViewport();
    await page.getByTestId('board-filter-product').selectOption({ index: 0 });
    const atEnd = await drawn(page);
    expect(atEnd.products + atEnd.jobs + atEnd.board, tag).toBeLessThan(120);
  }
});

type TraceEvent = { name: string; ph: string; args?: { endData?: { layoutRoots?: Array<{ nodeName: string }> } } };

test('rows coming into the board and leaving it as its column scrolls lay out the board\'s rows alone, never the page', async ({ page, harness, browser }) => {
  test.setTimeout(120_000);
  await seedLongBoard(harness);
  await page.setViewportSize({ width: 1440, height: 900 });
  const board = await openBoard(page, harness.url, 'en', 'light');
  const skus = () => board.getByTestId('board-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-sku')));
  const before = await skus();
  await page.waitForTimeout(500);
  await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'] });
  // A steady scroll, a step a frame, over a dozen rows: rows come in below and leave above, their cells drawn meanwhile.
  await page.evaluate(async (column) => {
    const w = globalThis as unknown as { requestAnimationFrame(cb: () => void): void };
    for (let frame = 0; frame < 90; frame++) {
      column.scrollTop += 25;
      await new Promise<void>((done) => w.requestAnimationFrame(() => done()));
    }
  }, (await columnOf(page, '.catalog-board-rows')) as unknown as El);
  await page.waitForTimeout(500);
  const trace = JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: TraceEvent[] };
  const after = await skus();
  expect(after.filter((s) => !before.includes(s)).length, 'rows came in').toBeGreaterThan(5);
  expect(before.filter((s) => !after.includes(s)).length, 'rows left').toBeGreaterThan(3);
  const roots = trace.traceEvents.filter((e) => e.name === 'Layout' && e.ph === 'X').flatMap((e) => (e.args?.endData?.layoutRoots ?? []).map((r) => r.nodeName));
  expect(roots.length, 'the rows were laid out').toBeGreaterThan(10);
  // A row is absolutely placed; placed in the rows' box itself, each one that came or went laid out the whole page.
  expect(roots.filter((name) => !name.includes('catalog-board-rows')), 'layout roots outside the board\'s rows').toEqual([]);
});

/** The focused stop's product and shot ("SCL-001 main"), or what holds the focus instead. */
function focusedCell(page: Page): Promise<string> {
  return page.evaluate(() => {
    type Cell = { getAttribute(name: string): string | null };
    const d = (globalThis as unknown as { document: { activeElement: { tagName: string; closest(s: string): Cell | null } | null } }).document;
    const cell = d.activeElement?.closest('[data-testid="catalog-cell"]');
    return cell ? `${cell.getAttribute('data-sku')} ${cell.getAttribute('data-shot')}` : `not a cell: ${d.activeElement?.tagName ?? 'nothing'}`;
  });
}

test('Home, End, Ctrl+Home, Ctrl+End, PageDown and PageUp move the board focus as in a grid, and keep it in sight', async ({ page, harness }) => {
  test.setTimeout(240_000);
  await seedLongBoard(harness);
  const first = SHOTS[0]!;
  const lastShot = SHOTS.at(-1)!;
  /** The row of a focused cell ("SCL-012 main" is row 11). */
  const rowOf = (at: string) => Number(at.slice(4, 7)) - 1;

  for (const size of SIZES) {
    await page.setViewportSize(size);
    const board = await openBoard(page, harness.url, 'en', 'light');
    await expect(board.getByTestId('board-shown'), 'the whole board in').toHaveAttribute('data-shown', String(COUNT));
    const tag = `${size.width}x${size.height}`;
    await board.locator(`[data-testid="catalog-cell"][data-sku="${sku(0)}"][data-shot="${first}"] .catalog-board-empty`).click();
    /** Presses `key`, then waits for the focus on `cell` ("SKU shot"), in sight and wholly in the window. */
    const press = async (key: string, cell: string | ((at: string) => boolean)) => {
      await page.keyboard.press(key);
      if (typeof cell === 'string') await expect.poll(() => focusedCell(page), `${tag} ${key}`).toBe(cell);
      else await expect.poll(async () => cell(await focusedCell(page)), `${tag} ${key}: ${await focusedCell(page)}`).toBe(true);
      await expect.poll(() => focusedInSight(page), `${tag} ${key}`).toBe('in sight');
      await expect(page.locator(':focus'), `${tag} ${key}`).toBeInViewport({ ratio: 1 });
    };

    // End: the row's last shot; PageDown: a screen of rows down (more than one row, no more than fit in the window),
    // in the same shot; Ctrl+End: the board's last stop; PageUp: a screen back up; Home: that row's first shot;
    // Ctrl+Home: the board's first stop.
    await press('End', `${sku(0)} ${lastShot}`);
    // A row is 72 px at least (its master reference and padding): no more rows than that fit in the window.
    const most = Math.floor(size.height / 72);
    await press('PageDown', (at) => at.endsWith(` ${lastShot}`) && rowOf(at) >= 2 && rowOf(at) <= most);
    await press('Control+End', `${sku(COUNT - 1)} ${lastShot}`);
    await press('PageUp', (at) => at.endsWith(` ${lastShot}`) && COUNT - 1 - rowOf(at) >= 2 && COUNT - 1 - rowOf(at) <= most);
    const up = rowOf(await focusedCell(page));
    await press('Home', `${sku(up)} ${first}`);
    await press('PageDown', (at) => at.endsWith(` ${first}`) && rowOf(at) >= Math.min(up + 2, COUNT - 1));
    await press('Control+Home', `${sku(0)} ${first}`);
    await page.screenshot({ path: `.tmp/shots-scale/keys-${tag}.png` });
    // Ctrl is still the app's for anything else: Ctrl+ArrowDown does not move the focus.
    await page.keyboard.press('Control+ArrowDown');
    expect(await focusedCell(page), tag).toBe(`${sku(0)} ${first}`);
  }
});

/** Where the page's head, the board's header row and `testId`'s section are, and whether the columns' box scrolls. */
function layout(page: Page, testId: string) {
  return page.evaluate((id) => {
    const d = (globalThis as unknown as Doc).document;
    const box = (s: string) => d.querySelector(s)!.getBoundingClientRect();
    const columns = d.querySelector('.batch-columns')!;
    return {
      head: box('.batch-page-head'),
      boardHead: box('.catalog-board-head-wrap'),
      section: box(`[data-testid="${id}"]`),
      columnsScroll: columns.scrollHeight > columns.clientHeight + 1,
      columnsAtEnd: columns.scrollTop + columns.clientHeight >= columns.scrollHeight - 1,
      setupScrolls: d.querySelector('.batch-setup')!.scrollHeight > d.querySelector('.batch-setup')!.clientHeight + 1,
    };
  }, testId);
}

test('the page head stays in view on a narrow window: its section buttons land each section just below it, and the board header row sticks under it', async ({ page, harness }) => {
  test.setTimeout(240_000);
  await seedLongBoard(harness);
  const sections = ['catalog-board', 'batch-products', 'batch-shot-list', 'batch-plan', 'batch-run', 'batch-report'];
  for (const size of SIZES) {
    await page.setViewportSize(size);
    const narrow = size.width < 1200;
    for (const theme of THEMES) {
      for (const language of LANGUAGES) {
        const tag = `${size.width}x${size.height}-${theme}-${language}`;
        const board = await openBoard(page, harness.url, language, theme);
        await expect(board.getByTestId('board-shown'), 'the whole board in').toHaveAttribute('data-shown', String(COUNT));
        await expect(page.getByTestId('batch-report')).toBeAttached();

        // Deep in the board: the head and every section button in view, the board's header row wholly below the
        // head and stuck (the rows far above it).
        await scrollBy(page, '[data-testid="catalog-board"] .catalog-board-rows', 6_000);
        await page.waitForTimeout(200);
        for (const jump of await page.getByTestId('catalog-jump').all()) await expect(jump, tag).toBeInViewport({ ratio: 1 });
        const deep = await layout(page, 'catalog-board');
        expect(deep.head.top, tag).toBeGreaterThanOrEqual(0);
        expect(deep.boardHead.top, tag).toBeGreaterThanOrEqual(deep.head.bottom - 1);
        expect(deep.boardHead.top, tag).toBeLessThan(deep.head.bottom + 4);
        expect(deep.section.top, tag).toBeLessThan(deep.head.bottom - 3_000);
        // Narrow: both columns scroll as one below the head; wide: each column on its own.
        expect(deep.columnsScroll, tag).toBe(narrow);
        expect(deep.setupScrolls, tag).toBe(!narrow);
        await page.screenshot({ path: `.tmp/shots-scale/head-deep-${tag}.png` });

        // Each section button brings its section's top just below the head (or as near as the end of what scrolls).
        for (const id of sections) {
          await page.locator(`[data-testid="catalog-jump"][data-target="${id}"]`).click();
          await expect
            .poll(async () => {
              const at = await layout(page, id);
              const below = at.section.top - at.head.bottom;
              return below >= -1 && (below < 24 || at.columnsAtEnd || !narrow) ? 'just below the head' : `${Math.round(below)} px below the head`;
            }, `${tag} ${id}`)
            .toBe('just below the head');
          await expect(page.getByTestId(id), `${tag} ${id}`).toBeInViewport();
          // Nothing but the section's column moved: the head and the app's bar are where they were.
          expect((await layout(page, id)).head.top, `${tag} ${id}`).toBe(deep.head.top);
          await expect(page.getByTestId('open-batch'), `${tag} ${id}`).toBeInViewport({ ratio: 1 });
        }
        await page.screenshot({ path: `.tmp/shots-scale/head-jump-${tag}.png` });
      }
    }
  }
});
