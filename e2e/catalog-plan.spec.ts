// The Catalog's plan and shot-list editing through the harness against a real local service (docs/catalog.md "Plan
// and editing"): an unsaved edit (n 1 → 4) changes the plan's total at once and Start says it saves it first;
// switching tab or choosing another list with the edit unsaved asks (Escape and Stay keep it, Discard drops it,
// Save saves it); Start runs exactly what the plan showed; after a reload the batch's own list is selected; a second
// Start on the same products × shots warns how many are made and "only what is missing" sends only the rest: the
// balance and the service's generate requests move by exactly those jobs. Screenshots of the new states.
import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import type { BatchDetail, BatchSummary, Product, ShotList } from '../src-shared/ipc/index.ts';
import { expect, test, type Harness } from './fixtures/harness.ts';
import { seriousViolations } from './support/axe.ts';
import { ipc, until } from './support/ipc.ts';
import { LANGUAGES, openStudio, openTab, SIZES, THEMES } from './support/studio.ts';

const shot = (name: string) => ({ name, purpose: 'free', model: 'seedream-5-0-pro', ratio: '1:1', resolution: '1K', n: 1, promptAddition: name });
const SHOTS_DIR = '.tmp/shots-plan';

async function settledCredits(h: Harness): Promise<number> {
  return (await until('reservations settled', async () => {
    const { account } = await ipc<{ account: { credits: number; reserved: number } }>(h, 'local:status');
    return account.reserved === 0 ? account : null;
  }, 60_000)).credits;
}

/** How many generate requests the service's ledger holds (each send of a job is one). */
async function generateRequests(h: Harness): Promise<number> {
  return (await ipc<{ requests: unknown[] }>(h, 'local:requests', { route: 'generate', limit: 200 })).requests.length;
}

async function batchDone(h: Harness, batchId: string): Promise<BatchDetail> {
  return until(`batch ${batchId} done`, async () => {
    const b = await ipc<BatchDetail>(h, 'batch:get', { batchId });
    return b.state === 'done' && b.counts.running === 0 && b.counts.queued === 0 ? b : null;
  }, 90_000);
}

async function newestBatch(h: Harness, before: number): Promise<BatchSummary> {
  return until('a new batch', async () => {
    const list = await ipc<BatchSummary[]>(h, 'batch:list');
    return list.length > before ? (list[0] as BatchSummary) : null;
  });
}

const total = (page: Page) => page.getByTestId('batch-plan-total');
const firstN = (page: Page) => page.getByTestId('shot-row').first().getByTestId('shot-n');
const sideN = (page: Page) => page.getByTestId('shot-row').nth(1).getByTestId('shot-n');

/** Focus is inside the dialog, and stays there after Tab goes round it. */
async function expectFocusHeld(page: Page, testId: string): Promise<void> {
  type Doc = { document: { activeElement: { closest(s: string): unknown } | null } };
  const inside = () => page.evaluate((id) => ((globalThis as unknown as Doc).document.activeElement?.closest(`[data-testid="${id}"]`) ?? null) !== null, testId);
  expect(await inside()).toBe(true);
  for (let i = 0; i < 6; i++) {
    await page.keyboard.press('Tab');
    expect(await inside(), `focus after ${i + 1} Tab`).toBe(true);
  }
}

test('the plan shows unsaved edits, leaving asks, the batch list stays selected, a second Start sends only what is missing', async ({ page, harness }) => {
  test.setTimeout(240_000);
  const products: Product[] = [];
  for (const sku of ['PLN-1', 'PLN-2']) products.push(await ipc<Product>(harness, 'product:save', { sku, name: `青瓷杯 ${sku}`, prompt: `a celadon cup ${sku}` }));
  const list = await ipc<ShotList>(harness, 'shotlist:save', { name: 'plan list', shots: [shot('main'), shot('side')] });
  // Listed before "plan list": what a reload selected before the batch's own list was kept.
  await ipc<ShotList>(harness, 'shotlist:save', { name: 'another list', shots: [shot('main')] });

  await page.setViewportSize(SIZES[0]);
  await openStudio(page, harness.url);
  await page.getByTestId('open-batch').click();
  await page.getByTestId('shot-list-select').selectOption(list.id);
  await expect(total(page)).toHaveAttribute('data-total', '24');
  await expect(page.getByTestId('batch-start')).toHaveAttribute('data-unsaved', 'false');

  // An unsaved edit is in the plan at once; Start says it saves the edit first.
  await firstN(page).selectOption('4');
  await expect(page.getByTestId('shot-list-unsaved')).toBeVisible();
  await expect(total(page)).toHaveAttribute('data-total', '60');
  await expect(page.getByTestId('batch-start')).toHaveAttribute('data-unsaved', 'true');
  await expect(page.getByTestId('batch-start-unsaved')).toBeVisible();

  // Another tab asks; Escape stays with the edit kept; focus is held in the dialog.
  await openTab(page, 'settings');
  const leave = page.getByTestId('leave-unsaved');
  await expect(leave).toBeVisible();
  await expectFocusHeld(page, 'leave-unsaved');
  await page.keyboard.press('Escape');
  await expect(leave).toHaveCount(0);
  await expect(page.getByTestId('batch-page')).toBeVisible();
  await expect(firstN(page)).toHaveValue('4');
  // Another list asks too; Stay keeps this one.
  await page.getByTestId('shot-list-select').selectOption({ label: 'another list' });
  await expect(leave).toBeVisible();
  await page.getByTestId('leave-stay').click();
  await expect(page.getByTestId('shot-list-select')).toHaveValue(list.id);
  await expect(firstN(page)).toHaveValue('4');
  // Discard drops the edit and goes.
  await openTab(page, 'settings');
  await page.getByTestId('leave-discard').click();
  await expect(page.getByTestId('batch-page')).toHaveCount(0);
  await page.getByTestId('open-batch').click();
  await expect(firstN(page)).toHaveValue('1');
  await expect(total(page)).toHaveAttribute('data-total', '24');
  // Save saves it and goes.
  await firstN(page).selectOption('4');
  await expect(total(page)).toHaveAttribute('data-total', '60');
  await openTab(page, 'settings');
  await page.getByTestId('leave-save').click();
  await expect(page.getByTestId('batch-page')).toHaveCount(0);
  const saved = (await ipc<ShotList[]>(harness, 'shotlist:list')).find((l) => l.id === list.id)!;
  expect(saved.shots.map((s) => s.n)).toEqual([4, 1]);
  await page.getByTestId('open-batch').click();
  await expect(page.getByTestId('shot-list-unsaved')).toHaveCount(0);

  // Start runs what the plan shows: another unsaved edit (side n 1 → 2) is saved first, and the batch costs 72.
  await sideN(page).selectOption('2');
  await expect(total(page)).toHaveAttribute('data-total', '72');
  const creditsBefore = await settledCredits(harness);
  const requestsBefore = await generateRequests(harness);
  await page.getByTestId('batch-start').click();
  const first = await newestBatch(harness, 0);
  expect(first).toMatchObject({ planned: 72, shotListId: list.id, jobCount: 4 });
  expect((await ipc<ShotList[]>(harness, 'shotlist:list')).find((l) => l.id === list.id)!.shots.map((s) => s.n)).toEqual([4, 2]);
  const firstDone = await batchDone(harness, first.id);
  expect(firstDone.spent).toBe(72);
  expect(creditsBefore - (await settledCredits(harness))).toBe(72);
  expect((await generateRequests(harness)) - requestsBefore).toBe(4);

  // After a reload the batch's own list is selected (not the first in the select).
  await ipc<Product>(harness, 'product:save', { sku: 'PLN-3', name: '青瓷杯 PLN-3', prompt: 'a celadon cup PLN-3' });
  await page.reload();
  await page.getByTestId('open-batch').click();
  await expect(page.getByTestId('shot-list-select')).toHaveValue(list.id);

  // A second Start on the same products × shots (and one more product) warns: 4 of 6 made; Escape sends nothing.
  await expect(total(page)).toHaveAttribute('data-total', '108');
  await expect(page.getByTestId('batch-plan-made')).toHaveAttribute('data-cells', '4');
  await page.getByTestId('batch-start').click();
  const warning = page.getByTestId('start-warning');
  await expect(warning).toBeVisible();
  await expect(page.getByTestId('start-warning-made')).toHaveAttribute('data-cells', '4');
  await expect(page.getByTestId('start-run-all')).toHaveAttribute('data-total', '108');
  await expect(page.getByTestId('start-only-missing')).toHaveAttribute('data-total', '36');
  await expectFocusHeld(page, 'start-warning');
  await page.keyboard.press('Escape');
  await expect(warning).toHaveCount(0);
  expect(await ipc<BatchSummary[]>(harness, 'batch:list')).toHaveLength(1);

  // Only what is missing: PLN-3's two shots, nothing done sent again; the balance and the ledger move by them alone.
  const credits2 = await settledCredits(harness);
  const requests2 = await generateRequests(harness);
  await page.getByTestId('batch-start').click();
  await page.getByTestId('start-only-missing').click();
  const second = await newestBatch(harness, 1);
  const secondDone = await batchDone(harness, second.id);
  expect(secondDone.jobs.map((j) => `${j.sku}/${j.shotName}`)).toEqual(['PLN-3/main', 'PLN-3/side']);
  expect(secondDone.planned).toBe(36);
  expect(credits2 - (await settledCredits(harness))).toBe(36);
  expect((await generateRequests(harness)) - requests2).toBe(2);
  await expect(page.getByTestId('batch-plan-made')).toHaveAttribute('data-cells', '6');
});

test('screens of the new states: unsaved edit and the Start warning, both sizes, languages and themes', async ({ page, harness }) => {
  test.setTimeout(240_000);
  mkdirSync(SHOTS_DIR, { recursive: true });
  const products: Product[] = [];
  for (const sku of ['SCR-1', 'SCR-2']) products.push(await ipc<Product>(harness, 'product:save', { sku, name: `青瓷杯 ${sku}`, prompt: `a celadon cup ${sku}` }));
  const list = await ipc<ShotList>(harness, 'shotlist:save', { name: 'screens list', shots: [shot('main'), shot('side')] });
  const made = await ipc<BatchDetail>(harness, 'batch:create', { productIds: [products[0]!.id], shotListId: list.id, concurrency: 2 });
  await batchDone(harness, made.id);

  await page.setViewportSize(SIZES[0]);
  await openStudio(page, harness.url);
  await page.getByTestId('open-batch').click();
  await expect(page.getByTestId('shot-list-select')).toHaveValue(list.id);
  await firstN(page).selectOption('4');
  await expect(total(page)).toHaveAttribute('data-total', '60');
  for (const language of LANGUAGES) {
    for (const theme of THEMES) {
      await ipc(harness, 'settings:set-language', { language });
      await ipc(harness, 'settings:set-theme', { theme });
      await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
      await expect(page.locator('html')).toHaveAttribute('lang', language === 'zh' ? 'zh-CN' : 'en');
      for (const size of SIZES) {
        await page.setViewportSize(size);
        const name = `${language}-${theme}-${size.width}x${size.height}`;
        await page.getByTestId('batch-start').scrollIntoViewIfNeeded();
        await page.screenshot({ path: `${SHOTS_DIR}/unsaved-${name}.png` });
        await page.getByTestId('batch-start').click();
        await expect(page.getByTestId('start-warning')).toBeVisible();
        await page.screenshot({ path: `${SHOTS_DIR}/warning-${name}.png` });
        expect(await seriousViolations(page), name).toEqual([]);
        await page.getByTestId('start-warning-cancel').click();
      }
      await page.setViewportSize(SIZES[0]);
      await openTab(page, 'settings');
      await expect(page.getByTestId('leave-unsaved')).toBeVisible();
      await page.screenshot({ path: `${SHOTS_DIR}/leave-${language}-${theme}.png` });
      await page.keyboard.press('Escape');
    }
  }
});
