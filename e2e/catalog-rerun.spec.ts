// Re-runs inside a batch through the harness against a real local service (docs/catalog.md "Re-runs"): on the
// Catalog's job list, Retry a job failed after a 500 twice (the old job then shows why it cannot be retried again),
// raise the budget to finish an over-budget job, re-shoot a done cell with a prompt tweak (the price shown before
// it is sent), and "only what is missing" finds nothing left; the plan total plus re-runs is what was charged and
// what left the balance. Screenshots of the re-shoot dialog in both themes and languages. Then kill -9 of the app
// while a re-shoot is on the service, and a restart on the same data folder: nothing is sent twice.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import type { BatchDetail, FinishAnswer, Product, RerunAnswer, ShotList } from '../src-shared/ipc/index.ts';
import { expect, test, type Harness } from './fixtures/harness.ts';
import { startHarness } from './fixtures/harness.ts';
import { account, batchDone, charges, sends, settledCredits } from './support/catalog.ts';
import { ipc, until } from './support/ipc.ts';
import { chooseLook, LANGUAGES, openStudio, screenshot, THEMES } from './support/studio.ts';

const shot = (name: string) => ({ name, purpose: 'free', model: 'seedream-5-0-pro', ratio: '1:1', resolution: '1K', n: 1, promptAddition: name });

async function makeBatch(h: Harness, prefix: string, shots: string[], extra: Record<string, unknown> = {}): Promise<BatchDetail> {
  const products: Product[] = [];
  for (let i = 1; i <= 2; i++) products.push(await ipc<Product>(h, 'product:save', { sku: `${prefix}-${i}`, name: `${prefix} product ${i}`, prompt: `a stoneware bowl ${i}` }));
  const list = await ipc<ShotList>(h, 'shotlist:save', { name: `${prefix} list`, shots: shots.map(shot) });
  return ipc<BatchDetail>(h, 'batch:create', { productIds: products.map((p) => p.id), shotListId: list.id, concurrency: 1, ...extra });
}

/** The re-shoot dialog is modal (it covers the tabs): closed with Escape before the test leaves the Catalog. */
async function closeRerunDialog(page: Page): Promise<void> {
  if (!(await page.getByTestId('cell-rerun-dialog').isVisible())) return;
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('cell-rerun-dialog')).toHaveCount(0);
}

function jobRow(page: Page, jobId: string) {
  return page.locator(`[data-testid="batch-job"][data-job-id="${jobId}"]`);
}

test('retry, raise the budget, re-shoot with a tweak and finish in the same batch: the books balance', async ({ page, harness }) => {
  test.setTimeout(180_000);
  const before = await settledCredits(harness);
  // 2 products × 2 shots, a budget of 12: the first job gets a 500 twice (failed, refunded), two succeed, the last is over budget.
  await ipc(harness, 'local:set-faults', { generate: { fail: 2 } });
  const created = await makeBatch(harness, 'RR', ['main', 'detail'], { budget: 12 });
  const done = await batchDone(harness, created.id);
  expect(done.jobs.map((j) => j.status)).toEqual(['failed', 'succeeded', 'succeeded', 'over_budget']);

  await openStudio(page, harness.url);
  await chooseLook(page, 'en', 'light');
  await page.getByTestId('open-batch').click();
  await expect(page.getByTestId('batch-progress')).toHaveAttribute('data-done', '2');

  // Raise the budget: the over-budget job is sent in the same batch.
  await page.getByTestId('budget-raise-input').fill('30');
  await page.getByTestId('budget-raise').click();
  await expect(page.getByTestId('batch-progress')).toHaveAttribute('data-done', '3', { timeout: 30_000 });

  // Retry the failed job from its cell on the board: a new job of the batch; the old one keeps its record and
  // says (in the job list) why it cannot go again.
  const failed = done.jobs[0]!;
  const failedCell = page.locator(`[data-testid="catalog-cell"][data-sku="${failed.sku}"][data-shot="${failed.shotName}"]`);
  await expect(failedCell).toHaveAttribute('data-status', 'failed');
  await expect(jobRow(page, failed.id).getByTestId('job-retry')).toBeEnabled();
  await failedCell.getByTestId('job-retry').click();
  await expect(failedCell).toHaveAttribute('data-status', 'done', { timeout: 30_000 });
  await expect(failedCell.getByTestId('job-retry')).toHaveCount(0);
  await expect(failedCell.getByTestId('cell-rerun')).toBeVisible();
  await expect(page.getByTestId('batch-progress')).toHaveAttribute('data-done', '4', { timeout: 30_000 });
  await expect(jobRow(page, failed.id).getByTestId('job-retry')).toBeDisabled();
  await expect(jobRow(page, failed.id).getByTestId('job-retry-reason')).toHaveText(/already retried/);

  // Re-shoot a done cell with a tweak: the price is shown before anything is sent.
  const hero = done.jobs[1]!;
  await jobRow(page, hero.id).getByTestId('cell-rerun').click();
  await expect(page.getByTestId('cell-rerun-price')).toHaveAttribute('data-price', String(hero.estimate));
  await expect(page.getByTestId('cell-rerun-price')).toContainText(String(hero.estimate));
  // Another setting has its own price, asked of main before anything is sent: two images do not fit what is left.
  await page.getByTestId('cell-rerun-n').selectOption('2');
  await expect(page.getByTestId('cell-rerun-error')).toHaveAttribute('data-code', 'batch_over_budget');
  await expect(page.getByTestId('cell-rerun-error')).toContainText(`costs ${2 * hero.estimate} credits and the budget has ${hero.estimate} left`);
  await expect(page.getByTestId('cell-rerun-send')).toBeDisabled();
  await page.getByTestId('cell-rerun-n').selectOption('');
  await expect(page.getByTestId('cell-rerun-price')).toHaveAttribute('data-price', String(hero.estimate));
  await page.getByTestId('cell-rerun-tweak').fill('softer light');
  for (const language of LANGUAGES) {
    for (const theme of THEMES) {
      await closeRerunDialog(page);
      await chooseLook(page, language, theme);
      await page.getByTestId('open-batch').click();
      if (!(await page.getByTestId('cell-rerun-dialog').isVisible())) {
        await jobRow(page, hero.id).getByTestId('cell-rerun').click();
        await page.getByTestId('cell-rerun-tweak').fill('softer light');
      }
      await expect(page.getByTestId('cell-rerun-price')).toHaveAttribute('data-price', String(hero.estimate));
      await page.getByTestId('cell-rerun-send').scrollIntoViewIfNeeded();
      await screenshot(page, `catalog-rerun-${language}-${theme}`);
    }
  }
  await closeRerunDialog(page);
  await chooseLook(page, 'en', 'light');
  await page.getByTestId('open-batch').click();
  if (!(await page.getByTestId('cell-rerun-dialog').isVisible())) await jobRow(page, hero.id).getByTestId('cell-rerun').click();
  await page.getByTestId('cell-rerun-tweak').fill('softer light');
  await page.getByTestId('cell-rerun-send').click();
  await expect(page.getByTestId('cell-rerun-done')).toBeVisible();
  await closeRerunDialog(page);
  await expect(page.getByTestId('batch-progress')).toHaveAttribute('data-done', '5', { timeout: 30_000 });

  // Only what is missing: nothing is, so nothing is asked or sent.
  await page.getByTestId('batch-finish').click();
  await expect(page.getByTestId('batch-finish-answer')).toHaveAttribute('data-jobs', '0');

  const after = await batchDone(harness, created.id);
  expect(after.jobs).toHaveLength(6);
  const reshoot = after.jobs.find((j) => j.origin === 'rerun')!;
  expect(reshoot.request.prompt).toBe(`${hero.request.prompt}\nsofter light`);
  expect(reshoot.sessionId).toBe(hero.sessionId);
  expect(after.reruns).toMatchObject({ jobs: 2, retried: 1, reshot: 1 });
  // Plan total + re-shoots = charges = the balance delta (the failed job's retry took its place in the plan).
  expect(after.planned + reshoot.estimate).toBe(charges(after));
  expect(after.spent).toBe(charges(after));
  expect(before - (await settledCredits(harness))).toBe(charges(after));
});

test('kill -9 mid re-shoot, restart: nothing is sent twice and the books balance', async () => {
  test.setTimeout(240_000);
  const dataDir = mkdtempSync(join(tmpdir(), 'studio-rerun-crash-'));
  try {
    const { harness: h1, child: firstApp } = await startHarness({ dataDir });
    const before = await settledCredits(h1);
    const created = await makeBatch(h1, 'KR', ['main']);
    const done = await batchDone(h1, created.id);
    expect(done.counts.succeeded).toBe(2);
    await ipc(h1, 'local:set-faults', { generate: { latency_ms: 4000 } });
    const answer = await ipc<RerunAnswer>(h1, 'batch:rerun-cell', { batchId: created.id, productId: done.jobs[0]!.productId, shotName: 'main', promptTweak: 'closer crop' });
    // Kill once the re-shoot is in the service's hands.
    const atKill = await until('the re-shoot in flight on the service', async () => {
      const [b, a] = await Promise.all([ipc<BatchDetail>(h1, 'batch:get', { batchId: created.id }), account(h1)]);
      return b.jobs.find((j) => j.id === answer.jobId)?.status === 'running' && a.reserved > 0 ? b : null;
    }, 60_000);
    firstApp.kill('SIGKILL');
    const sentAtKill = sends(atKill);
    expect(sentAtKill).toBe(3);

    const second = await startHarness({ dataDir });
    try {
      const h = second.harness;
      const restarted = await ipc<BatchDetail>(h, 'batch:get', { batchId: created.id });
      const reshoot = restarted.jobs.find((j) => j.id === answer.jobId)!;
      expect(['succeeded', 'failed', 'unknown']).toContain(reshoot.status);
      expect(reshoot.turnIds).toHaveLength(1);
      expect(sends(restarted)).toBe(sentAtKill);
      await ipc(h, 'local:set-faults', { generate: { latency_ms: 0 } });
      // Resume and "only what is missing" send nothing: every cell has a result, the re-shoot is never resent.
      if (restarted.state === 'paused') await ipc(h, 'batch:resume', { batchId: created.id });
      const finish = await ipc<FinishAnswer>(h, 'batch:finish', { batchId: created.id });
      expect(finish.jobs).toBe(0);
      await new Promise((r) => setTimeout(r, 2000));
      const after = await batchDone(h, created.id);
      expect(sends(after)).toBe(sentAtKill);
      expect(after.jobs).toHaveLength(3);
      // The books: what left the balance is what the batch's jobs were charged (the re-shoot's run, reconciled, included).
      const credits = await settledCredits(h);
      expect(before - credits).toBe(charges(await ipc<BatchDetail>(h, 'batch:get', { batchId: created.id })));
    } finally {
      await second.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
