// The Run section tells the whole truth about a batch, through the harness against a real local service (issue 26
// after a designer's review): the progress line accounts for every job (over budget included) and says "Finished"
// only with what was never sent and how to send it, in both languages; a Retry refused over budget is not shown
// once the budget is raised; a board cell's cost counts what its shot is expected to cost, never refunded failures;
// "only what is missing" says when shots lack a result that cannot be sent (per cell, why), and its answer is asked
// again once a re-shoot has made that cell.
import type { Locator, Page } from '@playwright/test';
import type { BatchDetail, Product, ShotList } from '../src-shared/ipc/index.ts';
import { expect, test, type Harness } from './fixtures/harness.ts';
import { batchDone, boardCell } from './support/catalog.ts';
import { ipc } from './support/ipc.ts';
import { chooseLook, openStudio } from './support/studio.ts';

const shot = (name: string) => ({ name, purpose: 'free', model: 'seedream-5-0-pro', ratio: '1:1', resolution: '1K', n: 1, promptAddition: name });

async function makeBatch(h: Harness, budget: number): Promise<BatchDetail> {
  const products: Product[] = [];
  for (let i = 1; i <= 2; i++) products.push(await ipc<Product>(h, 'product:save', { sku: `RT-${i}`, name: `RT product ${i}`, prompt: `a linen napkin ${i}` }));
  const list = await ipc<ShotList>(h, 'shotlist:save', { name: 'RT list', shots: [shot('main'), shot('detail')] });
  return ipc<BatchDetail>(h, 'batch:create', { productIds: products.map((p) => p.id), shotListId: list.id, concurrency: 1, budget });
}

async function openCatalog(page: Page, language: 'en' | 'zh'): Promise<void> {
  await chooseLook(page, language, 'light');
  await page.getByTestId('open-batch').click();
  await expect(page.getByTestId('batch-progress')).toBeVisible();
}

/** The Run section's progress and re-runs, for a person to look at (.tmp/shots-run/). */
async function runShot(page: Page, language: string): Promise<void> {
  const run = page.getByTestId('batch-run');
  await run.scrollIntoViewIfNeeded();
  await run.screenshot({ path: `.tmp/shots-run/run-over-budget-${language}.png` });
}

/** The re-shoot dialog of a cell: opened, sent as it was (the cell leaves its failure), closed. */
async function reshoot(page: Page, cell: Locator): Promise<void> {
  await cell.getByTestId('cell-rerun').click();
  await expect(page.getByTestId('cell-rerun-price')).toHaveAttribute('data-price', /\d+/);
  await page.getByTestId('cell-rerun-send').click();
  // The dialog's own "added" note is catalog-rerun.spec's; here the cell's new job is what counts.
  await expect(cell).not.toHaveAttribute('data-status', 'failed', { timeout: 30_000 });
  if (await page.getByTestId('cell-rerun-dialog').isVisible()) await page.keyboard.press('Escape');
  await expect(page.getByTestId('cell-rerun-dialog')).toHaveCount(0);
}

test('the run section accounts for every job; stale answers go when the batch changes; a cell costs its shot', async ({ page, harness }) => {
  test.setTimeout(180_000);
  // 2 products × 2 shots at 6 credits, a budget of 12: the first job gets a 500 twice (failed, refunded), two
  // succeed, the last is set aside over budget.
  await ipc(harness, 'local:set-faults', { generate: { fail: 2 } });
  const created = await makeBatch(harness, 12);
  const done = await batchDone(harness, created.id);
  expect(done.jobs.map((j) => j.status)).toEqual(['failed', 'succeeded', 'succeeded', 'over_budget']);
  const failed = done.jobs[0]!;

  await openStudio(page, harness.url);
  const progress = page.getByTestId('batch-progress');
  const line = page.getByTestId('batch-progress-text');
  const state = page.getByTestId('batch-progress-state');

  // Every job is said, the over-budget one too, and "Finished" comes with what is left and how to send it.
  await openCatalog(page, 'zh');
  await expect(line).toHaveText('完成 2 · 失败 1 · 超出预算 1 · 剩余 0，共 4');
  await expect(state).toContainText('已完成 · 1 个任务超出预算：提高预算即可发送');
  await runShot(page, 'zh');
  await openCatalog(page, 'en');
  await expect(progress).toHaveAttribute('data-over-budget', '1');
  await expect(line).toHaveText('2 done · 1 failed · 1 over budget · 0 remaining of 4');
  await expect(state).toContainText('Finished · 1 job over budget: raise the budget to send it');
  await runShot(page, 'en');
  // The batch picker says it too.
  const chosen = page.getByTestId('batch-select').locator('option:checked');
  await expect(chosen).toContainText('Finished · 1 over budget');
  // The hint points at the budget: it takes the focus there.
  await page.getByTestId('batch-raise-hint').click();
  await expect(page.getByTestId('budget-raise-input')).toBeFocused();

  // The failed cell: nothing charged (refunded); its shot is expected to cost one send, not the two refunded sends.
  const cell = boardCell(page.getByTestId('catalog-board'), failed.sku, failed.shotName);
  await expect(cell).toHaveAttribute('data-status', 'failed');
  await expect(cell).toContainText('0 charged · 6 expected (credits)');

  // Its Retry does not fit what the budget leaves (12 of 12 spent): refused, saying so.
  await cell.getByTestId('job-retry').click();
  const retryError = cell.getByTestId('job-retry-error');
  await expect(retryError).toHaveAttribute('data-code', 'batch_over_budget');
  await expect(retryError).toContainText('the budget has 0 left (budget 12)');
  // The budget raised: the refusal is no longer true and goes; the over-budget job is sent in the same batch.
  await page.getByTestId('budget-raise-input').fill('30');
  await page.getByTestId('budget-raise').click();
  await expect(progress).toHaveAttribute('data-done', '3', { timeout: 30_000 });
  await expect(retryError).toHaveCount(0);
  await expect(cell.getByTestId('job-retry')).toBeEnabled();
  await expect(line).toHaveText('3 done · 1 failed · 0 remaining of 4');
  await expect(state).toHaveText('Finished');
  await expect(page.getByTestId('batch-raise-hint')).toHaveCount(0);
  await expect(chosen).not.toContainText('over budget');

  // The retry by hand gets a 500 too: the cell has no result and its retry is used up.
  await ipc(harness, 'local:set-faults', { generate: { fail: 2 } });
  await cell.getByTestId('job-retry').click();
  await expect(cell.getByTestId('job-retry')).toHaveAttribute('data-reason', 'limit_reached', { timeout: 30_000 });
  await batchDone(harness, created.id);
  await ipc(harness, 'local:set-faults', { generate: { fail: 0 } });

  // "Only what is missing": a shot lacks a result and cannot be sent; it says so and why, never "nothing is missing".
  await page.getByTestId('batch-finish').click();
  const answer = page.getByTestId('batch-finish-answer');
  await expect(answer).toHaveAttribute('data-missing', '1');
  await expect(answer).toHaveAttribute('data-jobs', '0');
  await expect(answer).toContainText('1 shot has no result, and it cannot be sent:');
  await expect(answer.locator(`li[data-sku="${failed.sku}"][data-shot="${failed.shotName}"]`)).toHaveAttribute('data-reason', 'limit_reached');
  await expect(answer).not.toContainText('Nothing is missing');

  // A re-shoot makes the cell: the answer on show is of the batch as it was, so it is asked again.
  await reshoot(page, cell);
  await expect(cell).toHaveAttribute('data-status', 'done', { timeout: 30_000 });
  await expect(answer).toHaveAttribute('data-missing', '0', { timeout: 15_000 });
  await expect(answer).toContainText('Nothing is missing');

  // Three jobs made the cell (a failure, a failed retry, the re-shoot): one charged send, and that is what it costs.
  await expect(cell).toContainText('6 charged · 6 expected (credits)');
  const after = await batchDone(harness, created.id);
  const made = after.jobs.filter((j) => j.sku === failed.sku && j.shotName === failed.shotName);
  expect(made.map((j) => j.status)).toEqual(['failed', 'failed', 'succeeded']);
  expect(made.reduce((s, j) => s + (j.creditsCharged ?? 0), 0)).toBe(6);
});
