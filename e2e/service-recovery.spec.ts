// A damaged service.db at start (docs/local-service.md "A damaged service.db"): Local keeps its account and balance,
// the damaged file is kept on disk, and the designer is told so in the UI language, with the path to copy.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { startHarness } from './fixtures/harness.ts';

test('an emptied service.db is rebuilt with the same account, and a dismissable notice says what was kept and where', async ({ page }) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'studio-e2e-service-db-'));
  try {
    // A first run provisions Local's account; its clean stop backs service.db up.
    const first = await startHarness({ dataDir });
    await first.stop();
    const serviceDb = join(dataDir, 'local-service', 'service.db');
    writeFileSync(serviceDb, '');
    const started = await startHarness({ dataDir });
    try {
      await page.goto(started.harness.url);
      const notice = page.locator('[data-testid="startup-notice"][data-code="service_restored"]');
      await expect(notice).toContainText('本地服务的数据库已损坏或丢失'); // zh is the default UI language
      await expect(notice).toContainText('accounts 1, api_keys 1');
      const path = notice.getByTestId('startup-notice-path');
      await expect(path).toHaveText(/service\.db\.damaged-\d{4}-\d{2}-\d{2}T\d{9}Z$/);
      expect(readFileSync((await path.textContent()) ?? '')).toHaveLength(0);
      // The same account, not a new one with 10,000 credits and no images: no "new account" notice either.
      await expect(page.locator('[data-testid="startup-notice"][data-code="service_reset"]')).toHaveCount(0);
      await notice.getByTestId('startup-notice-dismiss').click();
      await expect(notice).toHaveCount(0);
    } finally {
      await started.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
