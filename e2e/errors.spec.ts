// Every error the designer can meet shows the human message and what to do (spec §7), never a bare code.
// Each is provoked for real on the local service: through its console (balance, rate limit, faults, image
// clean-up) or with a request the service refuses.
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures/harness.ts';
import { compose, generateAndWait, openStudio, openTab, screenshot } from './support/studio.ts';
import { ipc } from './support/ipc.ts';

async function generateOnce(page: Page, prompt = 'A bamboo toothbrush on white', n = '1') {
  await compose(page, { prompt, model: 'nano-banana-2', resolution: '1K', n });
  return generateAndWait(page, 'succeeded');
}

test('402: not enough credits says how much is needed and to top up; topping up fixes it', async ({ page, harness }) => {
  await openStudio(page, harness.url);
  await openTab(page, 'local');
  await page.getByTestId('local-set-credits').fill('5');
  await page.getByTestId('local-set-credits-apply').click();
  await expect(page.getByTestId('local-balance')).toHaveText('5');
  await openTab(page, 'studio');
  await compose(page, { prompt: 'A bamboo toothbrush on white', model: 'nano-banana-2', resolution: '1K', n: '1' });
  // The studio knows the Local balance: it says the run will be refused (402, nothing charged) before sending.
  await page.getByTestId('generate').click();
  await expect(page.getByTestId('over-budget-confirm')).toContainText('402');
  await expect(page.getByTestId('turn')).toHaveCount(0);
  await page.getByTestId('over-budget-send').click();
  await expect(page.getByTestId('turn')).toHaveCount(1);
  const turn = page.getByTestId('turn').first();
  await expect(turn).toHaveAttribute('data-status', 'failed', { timeout: 60_000 });
  const banner = turn.getByTestId('error-banner');
  await expect(banner).toHaveAttribute('data-code', 'insufficient_credits');
  await expect(banner).toContainText('12'); // the credits needed
  await expect(banner).toContainText('充值'); // the client action, in the UI language
  await expect(banner.getByTestId('request-id')).toHaveText(/^req_/);
  await screenshot(page, 'error-402');
  await banner.getByRole('button', { name: '在本地控制台充值' }).click();
  await page.getByTestId('local-topup-amount').fill('100');
  await page.getByTestId('local-topup').click();
  await expect(page.getByTestId('local-balance')).toHaveText('105');
  await openTab(page, 'studio');
  await generateAndWait(page, 'succeeded');
});

test('429: over the key limit shows a live countdown and allows no immediate retry', async ({ page, harness }) => {
  await openStudio(page, harness.url);
  await generateOnce(page);
  await openTab(page, 'local');
  const appKey = page.getByTestId('local-key-row').filter({ hasText: /应用正在使用|used by the app/ });
  await appKey.getByTestId('local-key-rate').fill('1');
  await appKey.getByTestId('local-key-rate-apply').click();
  await openTab(page, 'studio');
  const turn = await generateAndWait(page, 'failed');
  const banner = turn.getByTestId('error-banner');
  await expect(banner).toHaveAttribute('data-code', 'rate_limited');
  await expect(banner).toContainText('指数退避');
  const countdown = banner.locator('.error-countdown');
  await expect(countdown).toContainText(/\d/);
  const first = await countdown.textContent();
  await expect.poll(() => countdown.textContent(), { timeout: 5_000 }).not.toBe(first);
  await expect(banner.getByTestId('retry')).toBeDisabled();
  await screenshot(page, 'error-429');
});

test('500: the run failed and was refunded; retry once is offered, works, and then stays disabled saying so; failed cards can be dismissed', async ({ page, harness }) => {
  await openStudio(page, harness.url);
  await openTab(page, 'local');
  await page.getByTestId('fault-fail').click();
  await expect(page.getByTestId('local-faults')).toContainText(/失败 1|fail 1/);
  await openTab(page, 'studio');
  await compose(page, { prompt: 'A wool scarf', model: 'nano-banana-2', resolution: '1K', n: '1' });
  const turn = await generateAndWait(page, 'failed');
  const banner = turn.getByTestId('error-banner');
  await expect(banner).toHaveAttribute('data-code', 'internal_error');
  await expect(banner).toContainText('退回');
  await expect(turn.getByTestId('turn-credits')).toHaveAttribute('data-charged', /^(0|)$/);
  await screenshot(page, 'error-500');
  await banner.getByTestId('retry').click();
  await expect(page.getByTestId('turn')).toHaveCount(2);
  await expect(page.getByTestId('turn').first()).toHaveAttribute('data-status', 'succeeded', { timeout: 60_000 });
  // The retry once is used: its button stays, disabled, and says where the retry went (it stayed enabled and did nothing).
  const retried = page.getByTestId('turn').nth(1).getByTestId('error-banner');
  await expect(retried.getByTestId('retry')).toBeDisabled();
  await expect(retried.getByTestId('retry-used')).toBeVisible();
  await screenshot(page, 'error-500-retried');

  // Failed cards do not pile up: each can be dismissed, or all at once; the successful card stays.
  await ipc(harness, 'local:set-faults', { generate: { fail: 2 } });
  await generateAndWait(page, 'failed');
  await generateAndWait(page, 'failed');
  const failed = page.locator('[data-testid="turn"][data-status="failed"]');
  await expect(failed).toHaveCount(3);
  await failed.first().getByTestId('turn-dismiss').click();
  await expect(failed).toHaveCount(2);
  await expect(page.getByTestId('dismiss-failed-all')).toContainText('2');
  await page.getByTestId('dismiss-failed-all').click();
  await expect(failed).toHaveCount(0);
  await expect(page.getByTestId('turn')).toHaveCount(1);
  await expect(page.getByTestId('turn').first()).toHaveAttribute('data-status', 'succeeded');
  await expect(page.getByTestId('dismiss-failed-all')).toHaveCount(0);
});

test('session_not_found: a session id that is not yours is refused and a new session is offered', async ({ page, harness }) => {
  await openStudio(page, harness.url);
  await page.getByTestId('session-by-id').click();
  await page.getByTestId('service-session-id').fill('s_NotMine0001');
  await page.getByTestId('service-session-apply').click();
  await compose(page, { prompt: 'A silk tie', model: 'nano-banana-2', resolution: '1K' });
  const turn = await generateAndWait(page, 'failed');
  const banner = turn.getByTestId('error-banner');
  await expect(banner).toHaveAttribute('data-code', 'session_not_found');
  await expect(banner).toContainText('s_NotMine0001');
  await expect(banner.getByRole('button', { name: '开始新会话' })).toBeVisible();
  await screenshot(page, 'error-session');
});

test('reference_image_missing: a deleted reference is marked in the tray, not sent, and can be removed', async ({ page, harness }) => {
  await openStudio(page, harness.url);
  await generateOnce(page, 'A ceramic vase', '2');
  const gallery = page.getByTestId('gallery');
  const doomed = gallery.getByTestId('gallery-image').first();
  const doomedId = await doomed.getAttribute('data-image-id');
  await doomed.dblclick();
  await page.getByTestId('delete-on-service').click();
  // Nothing is deleted before the designer confirms what goes away.
  await expect(page.getByTestId('delete-confirm')).toContainText('无法撤销');
  await page.getByTestId('confirm-delete').click();
  await expect(page.getByTestId('delete-done')).toBeVisible();
  await page.keyboard.press('Escape');
  await gallery.getByTestId('gallery-image').nth(0).dragTo(page.getByTestId('reference-tray'));
  await gallery.getByTestId('gallery-image').nth(1).dragTo(page.getByTestId('reference-tray'));
  await expect(page.getByTestId('reference-item')).toHaveCount(2);
  const missing = page.locator(`[data-testid="reference-item"][data-image-id="${doomedId}"]`);
  await expect(missing).toHaveAttribute('data-missing', 'true');
  // The tray knows it is deleted, so it is not sent (the service would refuse it): Generate is disabled, the
  // reason is beside it in plain words, with the offer to remove it from the tray.
  const turnsBefore = await page.getByTestId('turn').count();
  await expect(page.getByTestId('generate')).toBeDisabled();
  const blocked = page.getByTestId('generate-blocked');
  await expect(blocked).toHaveAttribute('data-reason', 'missing_references');
  await expect(blocked).toContainText('已在服务端删除');
  await expect(blocked).not.toContainText('reference_image_missing');
  await page.getByTestId('prompt').press('Control+Enter');
  await expect(page.getByTestId('turn')).toHaveCount(turnsBefore);
  await screenshot(page, 'error-reference-missing');
  await page.getByTestId('remove-missing-references').click();
  await expect(page.getByTestId('reference-item')).toHaveCount(1);
  await expect(missing).toHaveCount(0);
  await expect(page.getByTestId('generate-blocked')).toHaveCount(0);
  await generateAndWait(page, 'succeeded');
});

test('too_many_reference_images: refused before sending with the model limit', async ({ page, harness }) => {
  await openStudio(page, harness.url);
  await generateOnce(page, 'Four mugs', '4');
  const images = page.getByTestId('gallery').getByTestId('gallery-image');
  await images.nth(0).click();
  await images.nth(3).click({ modifiers: ['Shift'] });
  await page.getByTestId('use-as-references').click();
  await expect(page.getByTestId('reference-item')).toHaveCount(4);
  await compose(page, { model: 'qwen-image-3.0-pro' });
  const turnsBefore = await page.getByTestId('turn').count();
  await page.getByTestId('generate').click();
  const banner = page.getByTestId('error-banner');
  await expect(banner).toHaveAttribute('data-code', 'too_many_reference_images');
  await expect(banner).toContainText('3');
  await expect(page.getByTestId('turn')).toHaveCount(turnsBefore);
  await screenshot(page, 'error-too-many-references');
});

test('warnings are shown prominently and a partial run is charged only for what it produced', async ({ page, harness }) => {
  await openStudio(page, harness.url);
  await openTab(page, 'local');
  await page.getByTestId('local-faults').getByRole('spinbutton').nth(1).fill('1');
  await page.getByTestId('fault-partial').click();
  await page.getByTestId('fault-downgrade').click();
  await expect(page.getByTestId('local-faults')).toContainText(/部分成功 1|partial 1/);
  await openTab(page, 'studio');
  await compose(page, { prompt: 'A pair of socks', model: 'nano-banana-2', resolution: '2K', n: '2' });
  await expect(page.getByTestId('estimate')).toContainText('32');
  const turn = await generateAndWait(page, 'succeeded');
  await expect(turn.locator('[data-testid="turn-warning"][data-feature="n"]')).toBeVisible();
  await expect(turn.locator('[data-testid="turn-warning"][data-feature="resolution"]')).toBeVisible();
  await expect(turn.getByTestId('turn-image')).toHaveCount(1);
  await expect(turn.getByTestId('turn-credits')).toHaveAttribute('data-charged', '16');
  await expect(turn.getByTestId('turn-credits')).toContainText('16');
  await screenshot(page, 'warnings');
});

test('cancel explains that the run may still finish and be charged', async ({ page, harness }) => {
  await openStudio(page, harness.url);
  await openTab(page, 'local');
  await page.getByTestId('local-faults').getByRole('spinbutton').nth(2).fill('8000');
  await page.getByTestId('fault-latency').click();
  await expect(page.getByTestId('local-faults')).toContainText(/8000/);
  await openTab(page, 'studio');
  await compose(page, { prompt: 'A slow candle', model: 'nano-banana-2', resolution: '1K' });
  await page.getByTestId('generate').click();
  const turn = page.getByTestId('turn').first();
  await expect(turn).toHaveAttribute('data-status', 'running');
  await expect(turn.getByTestId('elapsed')).toContainText(/\d/);
  // The request is out and the service is working: the card says so (phase 'waiting' from main).
  await expect(turn.getByTestId('run-phase')).toHaveAttribute('data-phase', 'waiting');
  await expect(turn.getByTestId('run-phase')).toHaveText('已发送，等待服务生成…');
  await turn.getByTestId('cancel').click();
  await expect(turn.getByRole('alertdialog')).toContainText('扣费');
  await screenshot(page, 'cancel');
  await turn.getByTestId('confirm-cancel').click();
  await expect(turn).toHaveAttribute('data-status', 'cancelled');
});
