// The Local service tab's clock: moving it forward shows how far it is ahead of real time, says what it moves, and
// "Back to real time" brings it back (issue 27 Deliver 3).
import { expect, test } from './fixtures/harness.ts';
import { openStudio, openTab } from './support/studio.ts';

test('local console: the clock shows its offset after "Move clock forward" and goes back to real time', async ({ page, harness }) => {
  await openStudio(page, harness.url);
  await openTab(page, 'local');
  const card = page.getByTestId('local-clock');
  const offset = card.getByTestId('clock-offset');
  await expect(offset).toHaveText(/At real time|与真实时间一致/);
  await expect(card.getByTestId('clock-reset')).toBeDisabled();
  await expect(card.getByTestId('clock-effect')).toContainText(/Webhook/);

  await card.locator('#clock-advance-hours').fill('1');
  await card.getByRole('button', { name: /Move clock forward|拨快时钟/ }).click();
  await expect(offset).toHaveText(/\+3600 s ahead of real time|比真实时间快 3600 秒/);

  await card.getByTestId('clock-reset').click();
  await expect(offset).toHaveText(/At real time|与真实时间一致/);
  await expect(card.getByTestId('clock-reset')).toBeDisabled();
});
