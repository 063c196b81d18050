// The Catalog looks like a creative tool (issue 26 "Looks like a creative tool"), in every state a designer meets
// it (empty, products in, a batch done, the re-shoot dialog open, a batch running), at the full and the minimum
// window, both themes and both languages, with real scrollbars: no scroll area inside another and at most one per
// column; no label cut off at 1440 × 900; the Chinese UI shows no Latin-only label beyond SKUs, product names,
// model ids and codes; no serious axe violation. Screenshots of each go to .tmp/shots-look/ to be looked at.
import type { Page } from '@playwright/test';
import type { BatchDetail, Product, ShotList } from '../src-shared/ipc/index.ts';
import { expect, test } from './fixtures/harness.ts';
import { seriousViolations } from './support/axe.ts';
import { batchDone } from './support/catalog.ts';
import { cutLabels } from './support/look.ts';
import { ipc, until } from './support/ipc.ts';
import { chooseLook, LANGUAGES, openStudio, problemsInEveryLook, SIZES, THEMES } from './support/studio.ts';

const NAMES = ['陶瓷马克杯 白色 350ml', '不锈钢保温杯 深蓝 500ml 户外款', '亚麻餐垫 米色', '竹制砧板 大号', '玻璃花瓶 手工吹制 高 30cm', '羊毛围巾 灰色', '帆布托特包', '香薰蜡烛 雪松'];

const shot = (name: string, ratio: string, n: number) => ({ name, purpose: 'free', model: 'seedream-5-0-pro', ratio, resolution: '1K', n, promptAddition: `${name} view` });

// The probes run in the page (the e2e project has no DOM types, so they are written as page scripts).

/** Scroll areas that scroll (vertically): where each sits, and which of them lie inside another. */
const SCROLL_AREAS = `(() => {
  const name = (el) => el.tagName.toLowerCase() + (el.getAttribute('data-testid') ? '[' + el.getAttribute('data-testid') + ']' : '') + '.' + [...el.classList].join('.');
  const scrolls = (el) => /auto|scroll/.test(getComputedStyle(el).overflowY) && el.scrollHeight > el.clientHeight + 1 && el.getClientRects().length > 0;
  const page = document.querySelector('[data-testid="batch-page"]');
  if (!page) return { areas: [], nested: [], perColumn: {} };
  const all = [page, ...page.querySelectorAll('*')].filter((el) => scrolls(el));
  const nested = all.filter((el) => all.some((other) => other !== el && other.contains(el))).map(name);
  const perColumn = {};
  for (const el of all) {
    const column = el.closest('.batch-column') ?? page;
    const key = column.getAttribute('aria-label') ?? 'page';
    perColumn[key] = (perColumn[key] ?? 0) + 1;
  }
  return { areas: all.map(name), nested, perColumn };
})()`;

/** Visible text of the Catalog written only in Latin letters, less what is data: SKUs, product names, model ids, codes, numbers. */
const latinOnlyLabels = (allowed: string[], root = 'batch-page') => `(() => {
  const allowed = ${JSON.stringify(allowed)};
  const root = document.querySelector('[data-testid="${root}"]');
  if (!root) return [];
  const found = new Set();
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const data = (w) => allowed.some((a) => a.includes(w) || w.includes(a)) || /^(?:SKU|CSV|ID|auto|UTF-8|req_\\w+|[a-z]+(?:_[a-z]+)+|\\w+\\.(?:csv|png|jpg))$/.test(w);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || el.closest('code, .mono, [aria-hidden="true"], option, [hidden]') || el.getClientRects().length === 0) continue;
    const text = (node.textContent ?? '').trim();
    if (!/[A-Za-z]{2,}/.test(text) || /\\p{Script=Han}/u.test(text)) continue;
    const words = text.split(/[\\s·,:;()/→]+/).filter((w) => /[A-Za-z]{2,}/.test(w));
    if (words.every(data)) continue;
    found.add(text.slice(0, 60));
  }
  // What fields show: a text field's value, a select's chosen option (shot names, prompt additions, quality).
  for (const el of root.querySelectorAll('input:not([type]), input[type="text"], select')) {
    if (el.getClientRects().length === 0) continue;
    const text = (el.tagName === 'SELECT' ? el.selectedOptions[0]?.textContent ?? '' : el.value).trim();
    if (!/[A-Za-z]{2,}/.test(text) || /\\p{Script=Han}/u.test(text)) continue;
    const words = text.split(/[\\s·,:;()/→]+/).filter((w) => /[A-Za-z]{2,}/.test(w));
    if (!words.every(data)) found.add('field: ' + text.slice(0, 60));
  }
  return [...found];
})()`;

type Scrolls = { areas: string[]; nested: string[]; perColumn: Record<string, number> };

/** Every look at one state: screenshots at both sizes, both themes, both languages; the checks on each. */
async function lookAt(page: Page, state: string, open: () => Promise<void>, allowed: string[]): Promise<string[]> {
  return problemsInEveryLook(page, async ({ size, language, tag: look }) => {
    const problems: string[] = [];
    await page.getByTestId('open-batch').click();
    await open();
    await page.waitForTimeout(300);
    const tag = `${state}-${look}`;
    await page.screenshot({ path: `.tmp/shots-look/${tag}.png` });
    const scroll = (await page.evaluate(SCROLL_AREAS)) as Scrolls;
    if (scroll.nested.length > 0) problems.push(`${tag}: nested scroll areas ${scroll.nested.join(', ')}`);
    for (const [column, count] of Object.entries(scroll.perColumn)) if (count > 1) problems.push(`${tag}: ${count} scroll areas in ${column}: ${scroll.areas.join(', ')}`);
    if (size.width === 1440) {
      for (const label of (await page.evaluate(cutLabels('[data-testid="batch-page"]'))) as string[]) problems.push(`${tag}: cut label ${label}`);
      if (language === 'zh') for (const label of (await page.evaluate(latinOnlyLabels(allowed))) as string[]) problems.push(`${tag}: Latin-only label "${label}"`);
      for (const v of await seriousViolations(page)) problems.push(`${tag}: axe ${v.slice(0, 300)}`);
    }
    return problems;
  });
}

async function closeRerunDialog(page: Page): Promise<void> {
  if (!(await page.getByTestId('cell-rerun-dialog').isVisible())) return;
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('cell-rerun-dialog')).toHaveCount(0);
}

test('the Catalog in every state: one scroll area per column, no cut label, Chinese throughout, no axe violation', async ({ page, harness }) => {
  test.setTimeout(600_000);
  const problems: string[] = [];
  await openStudio(page, harness.url);
  const allowed = ['seedream-5-0-pro', 'nano-banana-2', 'gpt-image-2', 'look list'];
  problems.push(...(await lookAt(page, 'empty', async () => {}, allowed)));

  const products: Product[] = [];
  for (const [i, name] of NAMES.entries()) products.push(await ipc<Product>(harness, 'product:save', { sku: `SKU-${String(i + 1).padStart(3, '0')}`, name, prompt: `a product photo of ${name}, on a wooden table` }));
  allowed.push(...products.map((p) => p.sku), ...products.map((p) => p.prompt));
  const list = await ipc<ShotList>(harness, 'shotlist:save', { name: 'look list', shots: [shot('main', '1:1', 2), shot('detail', '3:4', 1), shot('lifestyle', '16:9', 1)] });
  allowed.push('main', 'detail', 'lifestyle', 'main view', 'detail view', 'lifestyle view');
  // The products left out of this run are dimmed, never struck through.
  await openStudio(page, harness.url);
  await page.getByTestId('open-batch').click();
  await page.getByTestId('shot-list-select').selectOption(list.id);
  for (const sku of ['SKU-007', 'SKU-008']) await page.locator(`[data-testid="product-row"][data-sku="${sku}"]`).getByTestId('product-include').uncheck();
  const off = page.locator('[data-testid="product-row"][data-sku="SKU-008"]');
  await expect(off.getByTestId('product-not-in-run')).toBeVisible();
  const decorations = await off.locator('td').evaluateAll((tds) => tds.map((td) => (globalThis as unknown as { getComputedStyle(e: unknown): { textDecorationLine: string } }).getComputedStyle(td).textDecorationLine));
  expect(decorations).not.toContain('line-through');
  problems.push(...(await lookAt(page, 'products', async () => {}, allowed)));

  const batch = await ipc<BatchDetail>(harness, 'batch:create', { productIds: products.slice(0, 6).map((p) => p.id), shotListId: list.id, concurrency: 2 });
  const done = await batchDone(harness, batch.id);
  await openStudio(page, harness.url);
  const openDone = async () => {
    await expect(page.getByTestId('batch-progress')).toHaveAttribute('data-done', String(done.jobs.length), { timeout: 30_000 });
    // The report open, with each product's results as thumbnails.
    const toggle = page.getByTestId('batch-report-toggle');
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
    await expect(page.getByTestId('batch-report-row').first()).toBeVisible();
  };
  problems.push(...(await lookAt(page, 'done', openDone, allowed)));

  const job = done.jobs[0]!;
  const openDialog = async () => {
    await openDone();
    await page.locator(`[data-testid="batch-job"][data-job-id="${job.id}"]`).getByTestId('cell-rerun').click();
    await expect(page.getByTestId('cell-rerun-price')).toHaveAttribute('data-price', String(job.estimate));
  };
  for (const language of LANGUAGES) {
    for (const theme of THEMES) {
      for (const size of SIZES) {
        await closeRerunDialog(page);
        await page.setViewportSize(size);
        await chooseLook(page, language, theme);
        await page.getByTestId('open-batch').click();
        await openDialog();
        // Keys typed in the dialog stay in it; Tab stays in it.
        await page.getByTestId('cell-rerun-tweak').press('x');
        await expect(page.getByTestId('cell-rerun-tweak')).toHaveValue('x');
        const tag = `dialog-${size.width}x${size.height}-${theme}-${language}`;
        await page.screenshot({ path: `.tmp/shots-look/${tag}.png` });
        if (size.width === 1440) for (const v of await seriousViolations(page, '[data-testid="cell-rerun-dialog"]')) problems.push(`${tag}: axe ${v.slice(0, 300)}`);
        if (size.width === 1440 && language === 'zh') for (const label of (await page.evaluate(latinOnlyLabels([...allowed, job.request.prompt ?? ''], 'cell-rerun-dialog'))) as string[]) problems.push(`${tag}: Latin-only label "${label}"`);
      }
    }
  }
  // The dialog is portalled into <body>, outside the job list; Escape closes it and the focus comes back.
  expect(await page.getByTestId('cell-rerun-dialog').evaluate((el) => (el as unknown as { closest(s: string): unknown }).closest('[data-testid="batch-jobs"]') === null)).toBe(true);
  await closeRerunDialog(page);

  await ipc(harness, 'local:set-faults', { generate: { latency_ms: 120_000 } });
  const running = await ipc<BatchDetail>(harness, 'batch:create', { productIds: products.slice(0, 6).map((p) => p.id), shotListId: list.id, concurrency: 2 });
  await until('a job running', async () => ((await ipc<BatchDetail>(harness, 'batch:get', { batchId: running.id })).counts.running > 0 ? true : null));
  await openStudio(page, harness.url);
  problems.push(...(await lookAt(page, 'running', async () => {
    await expect(page.getByTestId('batch-progress')).toBeVisible();
  }, allowed)));
  await ipc(harness, 'batch:cancel', { batchId: running.id }).catch(() => null);
  await ipc(harness, 'local:set-faults', {});

  expect(problems).toEqual([]);
});
