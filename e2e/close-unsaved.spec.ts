// Closing or reloading the window with unsaved shot-list edits asks (docs/main-process.md "Closing the window"),
// in real Chromium through the harness: while the Catalog's leave guard holds an edit the page holds the unload with
// `beforeunload`, so the browser asks; staying keeps the page and the edit, leaving reloads without it; once the
// edit is saved, closing asks nothing. (In the app Electron's shell asks the same question natively; e2e/electron.spec.ts.)
import type { Page } from '@playwright/test';
import type { ShotList } from '../src-shared/ipc/index.ts';
import { expect, test } from './fixtures/harness.ts';
import { ipc } from './support/ipc.ts';
import { openStudio } from './support/studio.ts';

const shot = { name: 'main', purpose: 'free', model: 'seedream-5-0-pro', ratio: '1:1', resolution: '1K', n: 1, promptAddition: '' };
const firstN = (page: Page) => page.getByTestId('shot-row').first().getByTestId('shot-n');

/** Opens the Catalog on the list (the click is the user gesture a browser wants before it asks on unload). */
async function openList(page: Page, list: ShotList): Promise<void> {
  await page.getByTestId('open-batch').click();
  await page.getByTestId('shot-list-select').selectOption(list.id);
  await expect(firstN(page)).toHaveValue('1');
}

test('closing or reloading with an unsaved shot-list edit asks; stay keeps the edit; nothing unsaved closes at once', async ({ page, harness }) => {
  const list = await ipc<ShotList>(harness, 'shotlist:save', { name: 'close list', shots: [shot] });
  await openStudio(page, harness.url);
  await openList(page, list);

  const asked: string[] = [];
  let answer: 'stay' | 'leave' = 'stay';
  page.on('dialog', (dialog) => {
    asked.push(dialog.type());
    void (answer === 'stay' ? dialog.dismiss() : dialog.accept());
  });

  // An unsaved edit: closing the window asks; staying keeps the page and the edit.
  await firstN(page).selectOption('4');
  await expect(page.getByTestId('shot-list-unsaved')).toBeVisible();
  await page.close({ runBeforeUnload: true });
  await expect.poll(() => asked).toEqual(['beforeunload']);
  await expect(page.getByTestId('shot-list-unsaved')).toBeVisible();
  await expect(firstN(page)).toHaveValue('4');
  expect(page.isClosed()).toBe(false);

  // A reload asks too; leaving reloads, and the edit is gone.
  answer = 'leave';
  await page.reload();
  expect(asked).toEqual(['beforeunload', 'beforeunload']);
  await openList(page, list);
  await expect(page.getByTestId('shot-list-unsaved')).toHaveCount(0);

  // Edited and saved: nothing is unsaved, so the window closes without a question.
  await firstN(page).selectOption('2');
  await page.getByTestId('shot-list-save').click();
  await expect(page.getByTestId('shot-list-unsaved')).toHaveCount(0);
  answer = 'stay';
  await page.close({ runBeforeUnload: true });
  await expect.poll(() => page.isClosed()).toBe(true);
  expect(asked).toHaveLength(2);
});
