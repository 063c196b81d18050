// A damaged library.db at start (docs/main-process.md "Recovery of local data"): the app still opens, the
// damaged file is kept on disk, and the designer is told so in the UI language, with the path to copy.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { startHarness } from './fixtures/harness.ts';

test('a damaged library.db is kept aside and a dismissable notice says where', async ({ page }) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'studio-e2e-damaged-'));
  const garbage = randomBytes(32 * 1024);
  writeFileSync(join(dataDir, 'library.db'), garbage);
  const started = await startHarness({ dataDir });
  try {
    await page.goto(started.harness.url);
    const notice = page.getByTestId('startup-notice');
    await expect(notice).toHaveAttribute('data-code', 'library_reset');
    await expect(notice).toContainText('图库文件已损坏'); // zh is the default UI language
    // What could not be saved is said too: random bytes hold nothing readable.
    await expect(notice.getByTestId('startup-notice-detail')).toHaveText('损坏的文件本身无法读取任何内容。');
    const path = notice.getByTestId('startup-notice-path');
    await expect(path).toHaveText(/library\.db\.damaged-\d{4}-\d{2}-\d{2}T\d{6}Z$/);
    const damagedPath = (await path.textContent()) ?? '';
    expect(readFileSync(damagedPath)).toEqual(garbage);
    expect(existsSync(join(dataDir, 'library.db'))).toBe(true);
    await notice.getByTestId('startup-notice-dismiss').click();
    await expect(page.getByTestId('startup-notice')).toHaveCount(0);
    // Dismissed for this start: a reload does not bring it back.
    await page.reload();
    await expect(page.getByTestId('nav-studio')).toBeVisible();
    await expect(page.getByTestId('startup-notice')).toHaveCount(0);
  } finally {
    await started.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('a backup that fails is told with its reason and the backups folder, not only logged', async ({ page }) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'studio-e2e-backup-fails-'));
  // A file where the backups folder goes: every backup fails, and the app still opens.
  writeFileSync(join(dataDir, 'backups'), 'not a folder');
  const started = await startHarness({ dataDir });
  try {
    await page.goto(started.harness.url);
    const notice = page.locator('[data-testid="startup-notice"][data-code="library_backup_failed"]');
    await expect(notice).toContainText('图库备份失败');
    await expect(notice).toContainText(/EEXIST|ENOTDIR/);
    await expect(notice.getByTestId('startup-notice-path')).toHaveText(join(dataDir, 'backups'));
  } finally {
    await started.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
