// The harness's folder chooser for a person (README "the browser harness"): with no scripted answer, choosing a
// folder opens the harness's in-page prompt, limited to the data folder and home; a script's answer
// (POST /harness/shell-answers) still takes over. Driven through the product list's export, which asks for a folder.
import { existsSync, mkdirSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { utf8Csv } from '../src-main/batch/product-files.test-support.ts';
import { expect, test } from './fixtures/harness.ts';
import { chooseLook, openStudio, screenshot } from './support/studio.ts';

async function openCatalogWithProducts(page: Page): Promise<void> {
  await page.getByTestId('open-batch').click();
  await expect(page.getByTestId('batch-page')).toBeVisible();
  await page.getByTestId('product-import').setInputFiles({ name: 'products.csv', mimeType: 'text/csv', buffer: utf8Csv() });
  await expect(page.getByTestId('product-row')).toHaveCount(2);
}

test('harness: a person chooses a folder in the in-page prompt (into, up, choose; Escape cancels); a scripted answer still wins', async ({ page, harness }) => {
  const data = realpathSync(harness.dataDir);
  mkdirSync(join(data, 'picked', 'Shoots 10'), { recursive: true });
  mkdirSync(join(data, 'picked', 'Shoots 2'), { recursive: true });
  await openStudio(page, harness.url);
  await chooseLook(page, 'en', 'light');
  await openCatalogWithProducts(page);

  await page.getByTestId('product-export').click();
  const prompt = page.getByTestId('harness-folder-prompt');
  await expect(prompt).toBeVisible();
  await expect(prompt.getByTestId('harness-folder-choose')).toHaveText('Choose this folder');
  const path = prompt.getByTestId('harness-folder-path');
  await expect(path).toHaveText(data);
  // The data folder is a root (the temp folder above it is neither it nor home): no way up from here.
  await expect(prompt.getByTestId('harness-folder-up')).toBeDisabled();
  await prompt.getByTestId('harness-folder-item').filter({ hasText: /^picked$/ }).click();
  await expect(path).toHaveText(join(data, 'picked'));
  await expect(prompt.getByTestId('harness-folder-item')).toHaveText(['Shoots 2', 'Shoots 10']);
  await screenshot(page, 'harness-folder-prompt-light');
  // The dark theme, as Settings sets it (the modal prompt keeps the page's controls out of reach meanwhile).
  const theme = (name: string) => page.locator('html').evaluate((html, value) => (html as unknown as { setAttribute(n: string, v: string): void }).setAttribute('data-theme', value), name);
  await theme('dark');
  await screenshot(page, 'harness-folder-prompt-dark');
  await theme('light');
  await prompt.getByTestId('harness-folder-item').filter({ hasText: 'Shoots 10' }).click();
  await expect(path).toHaveText(join(data, 'picked', 'Shoots 10'));
  await prompt.getByTestId('harness-folder-up').click();
  await expect(path).toHaveText(join(data, 'picked'));
  await prompt.getByTestId('harness-folder-item').filter({ hasText: 'Shoots 2' }).click();
  await prompt.getByTestId('harness-folder-choose').click();
  await expect(prompt).toHaveCount(0);
  const chosen = join(data, 'picked', 'Shoots 2');
  await expect(page.getByTestId('product-export-result')).toContainText(`2 products written to ${join(chosen, 'products.csv')}`);
  expect(readFileSync(join(chosen, 'products.csv'), 'utf8')).toContain('青花瓷茶杯');

  // Escape cancels, as the OS chooser does: nothing is written.
  await page.getByTestId('product-export').click();
  await expect(prompt).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(prompt).toHaveCount(0);
  await expect(page.getByTestId('product-export-result')).toHaveText('No folder chosen; nothing was written.');

  // A script's answer takes over: no prompt.
  const scripted = join(data, 'scripted');
  mkdirSync(scripted);
  await harness.setShellAnswers({ chooseFolder: scripted });
  await page.getByTestId('product-export').click();
  await expect(page.getByTestId('product-export-result')).toContainText(scripted);
  await expect(prompt).toHaveCount(0);
  expect(existsSync(join(scripted, 'products.csv'))).toBe(true);
  expect((await harness.shellCalls()).filter((c) => c.kind === 'chooseFolder')).toHaveLength(3);
});
