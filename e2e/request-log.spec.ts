// The Local service tab's request list: the request id a generation showed is searched, and its entry opens with
// what the service charged for it; a failed run's error card opens its entry (issue 27 Deliver 1).
import { expect, test } from './fixtures/harness.ts';
import { ipc } from './support/ipc.ts';
import { compose, generateAndWait, openStudio, openTab, screenshot } from './support/studio.ts';

test('local console: a generation’s request id finds its ledger entry with the credits it was charged', async ({ page, harness }) => {
  await openStudio(page, harness.url);
  await compose(page, { prompt: 'A glass jar of honey', model: 'nano-banana-2', resolution: '1K', n: '1' });
  const turn = await generateAndWait(page, 'succeeded');
  const requestId = (await turn.getByTestId('request-id').textContent())!.trim();
  const charged = await turn.getByTestId('turn-credits').getAttribute('data-charged');

  await openTab(page, 'local');
  const list = page.getByTestId('local-requests');
  await expect(list.getByTestId('request-row').first()).toBeVisible();
  await list.getByTestId('request-search').fill(requestId);
  const row = list.getByTestId('request-row');
  await expect(row).toHaveCount(1);
  await expect(row).toHaveAttribute('data-request-id', requestId);
  await expect(row).toContainText('POST /api/v1/generate');
  await expect(row).toContainText('200');
  // The one match opens by itself: its credits are the charge the turn showed.
  await expect(row.getByTestId('request-credits')).toContainText(new RegExp(`(charged|扣除) ${charged}\\b`));
  await screenshot(page, 'local-console-requests');

  await list.getByTestId('request-search').fill('not a filter!');
  await expect(list.getByTestId('request-row')).toHaveCount(0);
});

test('local console: a failed run’s error card opens its request entry, refunded in full', async ({ page, harness }) => {
  await openStudio(page, harness.url);
  await ipc(harness, 'local:set-faults', { generate: { fail: 1 } });
  await compose(page, { prompt: 'A vase that fails', model: 'nano-banana-2', resolution: '1K', n: '1' });
  const turn = await generateAndWait(page, 'failed');
  const requestId = (await turn.getByTestId('request-id').textContent())!.trim();
  await turn.getByTestId('look-up-request').click();

  const list = page.getByTestId('local-requests');
  await expect(list.getByTestId('request-search')).toHaveValue(requestId);
  const row = list.getByTestId('request-row');
  await expect(row).toHaveCount(1);
  await expect(row).toHaveAttribute('data-request-id', requestId);
  await expect(row).toContainText('500');
  await expect(row).toContainText('internal_error');
  await expect(row.getByTestId('request-credits')).toContainText(/(charged|扣除) 0\b/);
  await expect(row.getByTestId('request-credits')).not.toContainText(/(refunded|退还) 0\b/);
});
