// Secrets in the window, as a user meets them through the harness (real main-process handlers, real local
// service, real Chromium): http:// only for this computer and said so, a key bound to its origin with both
// origins named before a change removes it, a new console key shown once (the harness has no system
// clipboard), and key-shaped text in a prompt or a webhook path redacted instead of blanking the screen.
import { request } from 'node:http';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures/harness.ts';
import { compose, generateAndWait, openStudio, openTab } from './support/studio.ts';

const SHAPED = `sk_${'Z'.repeat(28)}leak`;

async function pageText(page: Page): Promise<string> {
  return page.content();
}

test('Remote: https:// only, http:// for this computer with a warning, and a key bound to its origin', async ({ page, harness }) => {
  await openStudio(page, harness.url);
  await openTab(page, 'settings');
  const url = page.getByTestId('remote-url');
  const save = page.getByRole('button', { name: '保存', exact: true });
  await url.fill('http://images.example.com');
  await save.click();
  await expect(page.getByRole('alert').filter({ hasText: 'https://' })).toContainText('http://images.example.com');
  await expect(page.getByTestId('remote-insecure-warning')).toHaveCount(0);

  await url.fill('http://127.0.0.1:9');
  await save.click();
  await expect(page.getByTestId('remote-insecure-warning')).toBeVisible();
  await expect(page.getByTestId('key-needs-url-remote')).toHaveCount(0);
  await page.getByTestId('key-input-remote').fill(`sk_${'K'.repeat(28)}bind`);
  await page.getByTestId('key-input-remote').press('Enter');
  await expect(page.getByTestId('key-state-remote')).toContainText('bind');
  await expect(page.getByTestId('key-origin-remote')).toContainText('http://127.0.0.1:9');

  // Another origin: both are named, and nothing changes until the user agrees.
  await url.fill('https://images.example.com/v1');
  await save.click();
  const confirm = page.getByTestId('remote-origin-confirm');
  await expect(confirm).toContainText('http://127.0.0.1:9');
  await expect(confirm).toContainText('https://images.example.com');
  await expect(page.getByTestId('key-state-remote')).toContainText('bind');
  await page.getByTestId('remote-origin-confirm-yes').click();
  await expect(confirm).toHaveCount(0);
  await expect(page.getByTestId('key-state-remote')).not.toContainText('bind');
  await expect(page.getByTestId('remote-insecure-warning')).toHaveCount(0);
});

test('a new console key is shown once in the harness, and gone after', async ({ page, harness }) => {
  await openStudio(page, harness.url);
  await openTab(page, 'local');
  await page.getByLabel('名称', { exact: true }).fill('ci script');
  await page.getByRole('button', { name: '创建密钥' }).click();
  const shown = page.getByTestId('one-time-key');
  await expect(shown).toBeVisible();
  const key = await page.getByTestId('one-time-key-value').inputValue();
  expect(key).toMatch(/^sk_[A-Za-z0-9]{32}$/);
  // It does not claim a clipboard it cannot reach.
  await expect(page.getByText('复制到剪贴板')).toHaveCount(0);
  await page.getByTestId('one-time-key-done').click();
  await expect(shown).toHaveCount(0);
  await page.reload();
  await openTab(page, 'local');
  await expect(page.getByTestId('local-keys')).toContainText('ci script');
  expect(await pageText(page)).not.toContain(key);
});

test('a key-shaped prompt and a key-shaped webhook path are redacted, not blanking the gallery or the list', async ({ page, harness }) => {
  await openStudio(page, harness.url);
  await compose(page, { prompt: `A bottle labelled ${SHAPED}`, model: 'nano-banana-2', resolution: '1K', n: '1' });
  const turn = await generateAndWait(page, 'succeeded');
  await expect(turn).toContainText('sk_[redacted]');
  await expect(page.getByTestId('gallery').getByTestId('gallery-image')).toHaveCount(1);

  await openTab(page, 'webhooks');
  const receiver = (await page.getByTestId('inspector-url').textContent()) ?? '';
  expect(receiver).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/webhooks$/);
  // A local process (curl-like: no Origin, no Sec-Fetch-* headers, which a browser page would send) posts to a key-shaped path.
  const status = await new Promise<number>((resolve, reject) => {
    const req = request(receiver.replace(/\/webhooks$/, `/${SHAPED}`), { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end('{"event":"ping"}');
  });
  expect(status).toBeLessThan(500);
  const group = page.getByTestId('inspector-delivery-group').first();
  await expect(group).toBeVisible();
  await group.getByTestId('inspector-attempt').first().click();
  await expect(page.getByTestId('inspector-detail')).toContainText('sk_[redacted]');
  expect(await pageText(page)).not.toContain(SHAPED);
});
