// The Local service tab's request list: the request id a generation showed is searched, and its entry opens with
// what the service charged for it (issue 27 Deliver 1).
import { expect, test } from './fixtures/harness.ts';
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
