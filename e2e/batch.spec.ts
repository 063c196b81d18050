// The Catalog tab through the harness, against a real local service (docs/catalog.md): import products from a
// CSV (Chinese text, a quoted comma), pick a built-in shot list, read the plan's total, run the batch with
// concurrency 2 and watch it finish (every job succeeded, spent = the plan's total), export it with a marketplace
// preset into the folder the recording shell's chooser answers, read the report; a CSV with a bad row is refused
// by line and imports nothing. Pause, resume and cancel from the run's controls. Screenshots at 1440×900 and
// 960×600 in both themes and languages, and axe on the screen with a finished batch.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import type { ShotList } from '../src-shared/ipc/index.ts';
import { expect, test, type Harness } from './fixtures/harness.ts';
import { seriousViolations } from './support/axe.ts';
import { ipc } from './support/ipc.ts';
import { chooseLook, frames, LANGUAGES, openStudio, screenshot, SIZES, THEMES } from './support/studio.ts';


// Three products: Chinese names and prompts, a name with a quoted comma, a prompt with doubled quotes.
const GOOD_CSV = [
  'sku,name,prompt,notes',
  'MUG-001,白瓷马克杯,"白瓷马克杯，金色细边，胡桃木桌面，晨光",新品',
  'TEA-002,"Jasmine tea tin, 100 g","A round tin of jasmine tea on linen, soft daylight",',
  'BAG-003,帆布托特包,"canvas tote bag, ""weekend"" edition, studio light",',
].join('\r\n');

// Line 3 repeats line 2's SKU; line 4 has a field too many. All or nothing: the good line 2 is not imported either.
const BAD_CSV = ['sku,name,prompt', 'NEW-001,New product,a glass vase', 'NEW-001,Same SKU again,a mug', 'NEW-002,Too many,a,b'].join('\n');

async function openCatalog(page: Page): Promise<void> {
  await page.getByTestId('open-batch').click();
  await expect(page.getByTestId('batch-page')).toBeVisible();
}

async function importCsv(page: Page, name: string, text: string): Promise<void> {
  await page.getByTestId('product-import').setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(text, 'utf8') });
}

/** The number in the plan's total (its text holds exactly one), once the plan is priced and stable. */
async function planTotal(page: Page): Promise<number> {
  const total = page.getByTestId('batch-plan-total');
  await expect(total).toHaveText(/\d/);
  // The plan is debounced: wait for the start button, which is enabled only for a settled plan.
  await expect(page.getByTestId('batch-start')).toBeEnabled();
  const text = (await total.textContent()) ?? '';
  const numbers = text.match(/\d+/g) ?? [];
  expect(numbers, `one number in "${text}"`).toHaveLength(1);
  return Number(numbers[0]);
}

/** Every job of the virtualised list (scrolled through from the top): id → status. */
async function jobStatuses(page: Page): Promise<Map<string, string>> {
  const list = page.getByTestId('batch-jobs');
  const seen = new Map<string, string>();
  await list.evaluate((el) => {
    (el as unknown as { scrollTop: number }).scrollTop = 0;
  });
  for (let i = 0; i < 500; i++) {
    // The rows scrolled in are rendered before they are read.
    await frames(page, 2);
    const rows = await page.getByTestId('batch-job').evaluateAll((els) =>
      els.map((el) => [(el as unknown as { getAttribute(n: string): string }).getAttribute('data-job-id'), (el as unknown as { getAttribute(n: string): string }).getAttribute('data-status')]),
    );
    for (const [id, status] of rows) seen.set(id as string, status as string);
    const atEnd = await list.evaluate((el) => {
      const e = el as unknown as { scrollTop: number; clientHeight: number; scrollHeight: number };
      if (e.scrollTop + e.clientHeight >= e.scrollHeight - 1) return true;
      e.scrollTop += e.clientHeight;
      return false;
    });
    if (atEnd) break;
  }
  return seen;
}

/** Drops library images on `target` the way a drag from the gallery does (its own data type, ids as JSON). */
async function dropImageIds(page: Page, target: Locator, ids: string[]): Promise<void> {
  const dataTransfer = await page.evaluateHandle((json) => {
    const w = globalThis as unknown as { DataTransfer: new () => { setData(type: string, value: string): void } };
    const dt = new w.DataTransfer();
    dt.setData('application/x-studio-image-ids', json);
    return dt;
  }, JSON.stringify(ids));
  await target.dispatchEvent('dragover', { dataTransfer });
  await target.dispatchEvent('drop', { dataTransfer });
}

/** The built-in preset with the fewest shots (the quickest batch). */
async function smallestPreset(harness: Harness): Promise<ShotList> {
  const lists = await ipc<ShotList[]>(harness, 'shotlist:list');
  const presets = lists.filter((l) => l.preset !== null);
  expect(presets.length).toBeGreaterThan(0);
  return presets.reduce((a, b) => (b.shots.length < a.shots.length ? b : a));
}

async function axeProblems(page: Page, look: string): Promise<string[]> {
  return (await seriousViolations(page)).map((v) => `${look}: ${v}`);
}

async function screenshots(page: Page, name: string, show?: Locator): Promise<void> {
  for (const size of SIZES) {
    await page.setViewportSize(size);
    // Each from the top: the columns (wide window) or the columns' box (narrow) may have been scrolled by earlier steps.
    await page.locator('.batch-columns, .batch-column').evaluateAll((els) => {
      for (const el of els) (el as unknown as { scrollTop: number }).scrollTop = 0;
    });
    for (const img of await page.locator('img:visible').all()) await expect(img).toHaveJSProperty('complete', true);
    await screenshot(page, `${name}-${size.width}x${size.height}`);
    if (show && size.width < 1200) {
      await show.scrollIntoViewIfNeeded();
      await screenshot(page, `${name}-run-${size.width}x${size.height}`);
    }
  }
  await page.setViewportSize(SIZES[0]);
}

/**
 * Presses Tab from `start` until every control in `targets` (data-testids) has had the focus; one line per target
 * that Tab never reached or that showed no focus indicator (computed outline or box-shadow, on :focus-visible).
 */
async function focusProblems(page: Page, start: Locator, targets: string[], max = 150): Promise<string[]> {
  await start.focus();
  const seen = new Map<string, { visible: boolean; indicator: boolean }>();
  for (let i = 0; i < max && targets.some((t) => !seen.has(t)); i++) {
    await page.keyboard.press('Tab');
    const f = await page.evaluate(() => {
      type El = { matches(s: string): boolean; getAttribute(n: string): string | null };
      const g = globalThis as unknown as { document: { activeElement: El | null }; getComputedStyle(e: unknown): { outlineStyle: string; outlineWidth: string; boxShadow: string } };
      const el = g.document.activeElement;
      if (!el) return null;
      const style = g.getComputedStyle(el);
      return { testId: el.getAttribute('data-testid'), visible: el.matches(':focus-visible'), indicator: (style.outlineStyle !== 'none' && style.outlineWidth !== '0px') || style.boxShadow !== 'none' };
    });
    if (f?.testId && targets.includes(f.testId) && !seen.has(f.testId)) seen.set(f.testId, f);
  }
  return targets.flatMap((t) => {
    const f = seen.get(t);
    if (!f) return [`${t}: not reached by Tab within ${max} presses`];
    if (!f.visible) return [`${t}: focused by Tab but not :focus-visible`];
    return f.indicator ? [] : [`${t}: no focus indicator`];
  });
}

/** Nothing sticks out of the page sideways at this size (tables scroll inside their own regions). */
async function horizontalOverflow(page: Page): Promise<number> {
  return page.getByTestId('batch-page').evaluate((el) => {
    const e = el as unknown as { scrollWidth: number; clientWidth: number };
    return e.scrollWidth - e.clientWidth;
  });
}

test('catalog: import a CSV, plan a preset, run it at concurrency 2, export for a marketplace, report; a bad CSV imports nothing; both themes and languages', async ({ page, harness }) => {
  test.setTimeout(360_000);
  await page.setViewportSize(SIZES[0]);
  await openStudio(page, harness.url);
  await chooseLook(page, 'en', 'light');
  await openCatalog(page);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Catalog');

  // Import: three products, Chinese and a quoted comma kept exactly.
  await importCsv(page, 'products.csv', GOOD_CSV);
  const imported = page.getByTestId('product-import-result');
  await expect(imported).toHaveAttribute('data-created', '3');
  await expect(imported).toHaveAttribute('data-updated', '0');
  await expect(imported).toContainText('3 added, 0 updated');
  const rows = page.getByTestId('product-row');
  await expect(rows).toHaveCount(3);
  await expect(rows.filter({ hasText: 'TEA-002' })).toContainText('Jasmine tea tin, 100 g');
  await expect(rows.filter({ hasText: 'MUG-001' })).toContainText('白瓷马克杯');
  await expect(rows.filter({ hasText: 'BAG-003' })).toContainText('"weekend" edition');
  // Every product is in the batch by default.
  await expect(page.getByTestId('product-count')).toHaveAttribute('data-selected', '3');

  // A shot list: the built-in preset with the fewest shots, by its given name.
  const preset = await smallestPreset(harness);
  await page.getByTestId('shot-list-select').selectOption({ label: preset.name });
  await expect(page.getByTestId('shot-row')).toHaveCount(preset.shots.length);
  // The reference count shows the list's tightest model limit ("0 / 10").
  await expect(rows.first().getByTestId('product-refs')).toHaveText(/^0 \/ \d+/);

  // The plan: three products × the preset's shots, no problems.
  const total = await planTotal(page);
  const jobCount = 3 * preset.shots.length;
  await expect(page.getByTestId('batch-plan-total')).toHaveAttribute('data-jobs', String(jobCount));
  await expect(page.getByTestId('batch-plan-problems')).toHaveCount(0);
  await expect(page.getByTestId('batch-plan-balance')).toHaveAttribute('data-after', /^\d+$/);
  expect(total).toBeGreaterThan(0);

  // A budget shows how many jobs fit; empty again = no cap.
  await page.getByTestId('batch-budget').fill('1');
  await expect(page.getByTestId('batch-budget-fit')).toContainText(`0 of ${jobCount} jobs fit`);
  await page.getByTestId('batch-budget').fill('');
  await expect(page.getByTestId('batch-budget-fit')).toHaveText('Empty = no cap.');

  // Run at concurrency 2 until nothing remains.
  await page.getByTestId('batch-concurrency').fill('2');
  expect(await planTotal(page)).toBe(total);
  await page.getByTestId('batch-start').click();
  const progress = page.getByTestId('batch-progress');
  await expect(progress).toBeVisible();
  await expect(progress).toHaveAttribute('data-remaining', '0', { timeout: 240_000 });
  await expect(progress).toHaveAttribute('data-state', 'done');
  const done = Number(await progress.getAttribute('data-done'));
  const failed = Number(await progress.getAttribute('data-failed'));
  expect(done + failed).toBe(jobCount);
  // The local service charges exactly the estimate for full runs.
  await expect(progress).toHaveAttribute('data-spent', String(total));
  const statuses = await jobStatuses(page);
  expect(statuses.size).toBe(jobCount);
  expect([...statuses.values()].every((s) => s === 'succeeded'), JSON.stringify([...statuses.values()])).toBe(true);
  // A result's thumbnail opens it in the viewer.
  const firstResult = page.getByTestId('batch-job').first().getByRole('button', { name: /Open result 1/ });
  await firstResult.click();
  await expect(page.getByTestId('viewer')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('viewer')).toHaveCount(0);

  // Marketplace export into a chosen folder: one folder per product with its files, and manifest.csv.
  const out = join(harness.dataDir, 'marketplace-export');
  await harness.setShellAnswers({ chooseFolder: out });
  await page.getByTestId('batch-export').click();
  const dialog = page.getByTestId('batch-export-dialog');
  await expect(dialog).toBeVisible();
  await expect(page.getByTestId('batch-export-template')).toHaveValue('{sku}_{shot}_{index}');
  const presetIds = await page.getByTestId('batch-export-preset').locator('option').evaluateAll((els) => els.map((o) => (o as unknown as { value: string }).value));
  expect(presetIds.length).toBeGreaterThan(0);
  await page.getByTestId('batch-export-preset').selectOption(presetIds.find((id) => /amazon/i.test(id)) ?? presetIds[0]!);
  // The dialog starts on the picks; this run has none, so it exports every result that is not rejected.
  await expect(page.getByTestId('export-picks-mode')).toHaveValue('picks');
  await page.getByTestId('export-picks-mode').selectOption('not_rejected');
  await page.getByTestId('batch-export-run').click();
  const result = page.getByTestId('batch-export-result');
  await expect(result).toHaveAttribute('data-outcome', /done|partial/, { timeout: 120_000 });
  await expect(page.getByTestId('batch-export-folder')).toHaveText(out);
  const written = Number(await result.getAttribute('data-written'));
  expect(written).toBeGreaterThan(0);
  expect(existsSync(join(out, 'manifest.csv'))).toBe(true);
  await expect(page.getByTestId('batch-export-manifest')).toContainText('manifest.csv');
  const folders = readdirSync(out).filter((f) => statSync(join(out, f)).isDirectory());
  for (const sku of ['MUG-001', 'TEA-002', 'BAG-003']) {
    const folder = folders.find((f) => f.includes(sku));
    expect(folder, `a folder for ${sku} in ${folders.join(', ')}`).toBeTruthy();
    expect(readdirSync(join(out, folder!)).length).toBeGreaterThan(0);
  }
  const manifest = readFileSync(join(out, 'manifest.csv'), 'utf8');
  for (const sku of ['MUG-001', 'TEA-002', 'BAG-003']) expect(manifest).toContain(sku);
  await screenshot(page, 'batch-export-dialog');
  expect(await axeProblems(page, 'export dialog')).toEqual([]);
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);

  // The report: per product and total.
  await page.getByTestId('batch-report-toggle').click();
  const totalRow = page.getByTestId('batch-report-total');
  await expect(totalRow).toHaveAttribute('data-charged', String(total));
  await expect(totalRow).toHaveAttribute('data-estimated', String(total));
  await expect(totalRow).toHaveAttribute('data-jobs', String(jobCount));
  await expect(totalRow).toHaveAttribute('data-failures', '0');
  await expect(page.getByTestId('batch-report-row')).toHaveCount(3);
  await expect(totalRow).toContainText('Total');
  // The report and the product list as CSV, into the folder the chooser answers.
  const csvDir = join(harness.dataDir, 'csv-out');
  mkdirSync(csvDir);
  await harness.setShellAnswers({ chooseFolder: csvDir });
  await page.getByTestId('batch-report-csv').click();
  await expect(page.getByTestId('batch-report-csv-result')).toContainText(csvDir);
  expect(readdirSync(csvDir).some((f) => /^batch-report-.+\.csv$/.test(f))).toBe(true);
  await page.getByTestId('product-export').click();
  await expect(page.getByTestId('product-export-result')).toContainText('3 products written');
  expect(readFileSync(join(csvDir, 'products.csv'), 'utf8')).toContain('"Jasmine tea tin, 100 g"');

  // A CSV with bad rows: each problem by line and column, nothing imported (not even the good line).
  await importCsv(page, 'bad.csv', BAD_CSV);
  const problems = page.getByTestId('product-import-problems');
  await expect(problems).toContainText('line 3');
  await expect(problems).toContainText('line 4');
  await expect(problems.locator('li[data-line="3"]')).toContainText('line 2');
  await expect(page.getByTestId('product-import-error')).toHaveAttribute('data-code', 'product_csv_invalid');
  await expect(rows).toHaveCount(3);
  await expect(rows.filter({ hasText: 'NEW-001' })).toHaveCount(0);

  // A product by hand, with a reference dragged from the library pane (the gallery's own drag type).
  await page.getByTestId('product-add').click();
  const editor = page.getByTestId('product-editor');
  await expect(editor).toBeVisible();
  await page.getByTestId('product-sku').fill('CUP-004');
  await page.getByTestId('product-name').fill('青瓷茶杯 Celadon cup');
  await page.getByTestId('product-prompt').fill('a celadon tea cup on a bamboo mat');
  const tile = editor.getByTestId('gallery-image').first();
  await expect(tile).toBeVisible();
  const imageId = (await tile.getAttribute('data-image-id')) as string;
  await dropImageIds(page, page.getByTestId('product-references'), [imageId]);
  await expect(page.getByTestId('product-reference')).toHaveCount(1);
  await expect(page.getByTestId('product-refs-limit')).toContainText('1 /');
  await screenshot(page, 'batch-product-editor');
  expect(await axeProblems(page, 'product editor')).toEqual([]);
  await page.getByTestId('product-save').click();
  await expect(editor).toHaveCount(0);
  await expect(rows).toHaveCount(4);
  await expect(rows.filter({ hasText: 'CUP-004' }).getByTestId('product-refs')).toHaveText(/^1 \/ \d+/);
  // A SKU another product has is refused with main's message, in the form.
  await page.getByTestId('product-add').click();
  await page.getByTestId('product-sku').fill('MUG-001');
  await page.getByTestId('product-name').fill('Another mug');
  await page.getByTestId('product-save').click();
  await expect(page.getByTestId('product-save-error')).toHaveAttribute('data-code', 'product_sku_taken');
  await expect(page.getByTestId('product-save-error')).toContainText('MUG-001');
  await page.keyboard.press('Escape');
  await expect(editor).toHaveCount(0);
  // Delete asks first.
  await rows.filter({ hasText: 'CUP-004' }).getByTestId('product-delete').click();
  await rows.filter({ hasText: 'CUP-004' }).getByTestId('product-delete-confirm').click();
  await expect(rows).toHaveCount(3);

  // The shot list editor: a shot its model cannot honour is refused inline with main's message; a valid copy
  // saved as a new list becomes the selected list, and can be deleted again.
  const firstShot = page.getByTestId('shot-row').first();
  await firstShot.getByTestId('shot-model').selectOption('seedream-5-0-pro');
  await firstShot.getByTestId('shot-ratio').selectOption('4:5');
  await expect(page.getByTestId('shot-list-unsaved')).toBeVisible();
  await page.getByTestId('shot-list-save').click();
  await expect(page.getByTestId('shot-list-error')).toHaveAttribute('data-code', 'shot_not_supported');
  await expect(page.getByTestId('shot-list-error')).toContainText('4:5');
  await firstShot.getByTestId('shot-ratio').selectOption('1:1');
  await firstShot.getByTestId('shot-resolution').selectOption('1K');
  await page.getByTestId('shot-list-save-as').click();
  await page.getByTestId('shot-list-new-name').fill('My white set');
  await page.getByTestId('shot-list-create').click();
  await expect(page.getByTestId('shot-list-name')).toHaveValue('My white set');
  await expect(page.getByTestId('shot-list-select').locator('option:checked')).toHaveText('My white set');
  await expect(page.getByTestId('shot-row').first().getByTestId('shot-model')).toHaveValue('seedream-5-0-pro');
  await page.getByTestId('shot-list-delete').click();
  await page.getByTestId('shot-list-delete-confirm').click();
  await expect(page.getByTestId('shot-list-select').locator('option', { hasText: 'My white set' })).toHaveCount(0);

  // The keyboard reaches the screen's primary controls, each with a visible focus indicator.
  expect(
    await focusProblems(page, page.getByTestId('open-batch'), [
      'product-import',
      'product-add',
      'product-include',
      'shot-list-select',
      'shot-add',
      'batch-budget',
      'batch-concurrency',
      'batch-start',
      'batch-select',
      'batch-export',
      'batch-jobs',
      'batch-report-toggle',
      'batch-report-csv',
    ]),
  ).toEqual([]);
  // The file picker's focus shows on the button-like label around it.
  await page.getByTestId('product-import').focus();
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Tab');
  const labelShadow = await page.locator('label.batch-file').evaluate((el) => (globalThis as unknown as { getComputedStyle(e: unknown): { boxShadow: string } }).getComputedStyle(el).boxShadow);
  expect(labelShadow).not.toBe('none');

  // Looks: every language and theme; axe with the finished batch (report open) in each.
  const violations: string[] = [];
  for (const language of LANGUAGES) {
    for (const theme of THEMES) {
      await chooseLook(page, language, theme);
      await openCatalog(page);
      await expect(progress).toHaveAttribute('data-state', 'done');
      await page.getByTestId('batch-report-toggle').click();
      await expect(totalRow).toBeVisible();
      violations.push(...(await axeProblems(page, `${language} ${theme}`)));
      for (const size of SIZES) {
        await page.setViewportSize(size);
        expect(await horizontalOverflow(page), `${language} ${theme} ${size.width}x${size.height}: sideways overflow`).toBeLessThanOrEqual(0);
      }
      await page.setViewportSize(SIZES[0]);
      await screenshots(page, `batch-${language}-${theme}`, page.getByTestId('batch-run'));
    }
  }
  expect(violations).toEqual([]);
});

test('catalog: pause, resume and cancel a running batch from its controls', async ({ page, harness }) => {
  test.setTimeout(240_000);
  await page.setViewportSize(SIZES[0]);
  await openStudio(page, harness.url);
  await chooseLook(page, 'en', 'dark');
  // Slow runs, so the batch is still going while the controls are used.
  await ipc(harness, 'local:set-faults', { generate: { latency_ms: 1500 } });
  await openCatalog(page);
  await importCsv(page, 'products.csv', GOOD_CSV);
  await expect(page.getByTestId('product-row')).toHaveCount(3);
  const preset = await smallestPreset(harness);
  await page.getByTestId('shot-list-select').selectOption({ label: preset.name });
  await planTotal(page);
  await page.getByTestId('batch-concurrency').fill('1');
  await page.getByTestId('batch-start').click();
  const progress = page.getByTestId('batch-progress');
  await expect(progress).toHaveAttribute('data-state', 'running');

  await page.getByTestId('batch-pause').click();
  await expect(progress).toHaveAttribute('data-state', 'paused');
  await expect(page.getByTestId('batch-paused')).toHaveAttribute('data-reason', 'user');
  await expect(page.getByTestId('batch-pause')).toHaveCount(0);
  const resume = page.getByTestId('batch-resume');
  await expect(resume).toBeEnabled();
  await screenshot(page, 'batch-paused-1440x900-dark');
  await resume.click();
  await expect(progress).toHaveAttribute('data-state', 'running');

  // The concurrency can change while it runs.
  await page.getByTestId('batch-run-concurrency').selectOption('2');
  await expect(page.getByTestId('batch-run-concurrency')).toHaveValue('2');

  // Cancel asks first: nothing more is sent, running jobs finish.
  await page.getByTestId('batch-cancel').click();
  await expect(page.getByTestId('batch-cancel-confirm-box')).toContainText('running jobs finish');
  await page.getByTestId('batch-cancel-confirm').click();
  await expect(progress).toHaveAttribute('data-state', 'cancelled', { timeout: 60_000 });
  await expect(progress).toHaveAttribute('data-remaining', '0', { timeout: 60_000 });
  const statuses = [...(await jobStatuses(page)).values()];
  expect(statuses).toContain('cancelled');
  expect(statuses.every((s) => s === 'succeeded' || s === 'cancelled'), statuses.join(',')).toBe(true);
  await expect(page.getByTestId('batch-pause')).toHaveCount(0);
  await expect(page.getByTestId('batch-resume')).toHaveCount(0);
  await ipc(harness, 'local:set-faults', { generate: { latency_ms: 0 } });
});

test('catalog: a short balance is warned in the plan and pauses the batch until a top-up; a rate limit pauses it with a live countdown', async ({ page, harness }) => {
  test.setTimeout(240_000);
  await page.setViewportSize(SIZES[0]);
  await openStudio(page, harness.url);
  await chooseLook(page, 'en', 'light');
  await ipc(harness, 'local:update-account', { credits: 40 });
  await openCatalog(page);
  await importCsv(page, 'products.csv', GOOD_CSV);
  await expect(page.getByTestId('product-row')).toHaveCount(3);
  const preset = await smallestPreset(harness);
  await page.getByTestId('shot-list-select').selectOption({ label: preset.name });
  const total = await planTotal(page);
  expect(total).toBeGreaterThan(40);
  const balance = page.getByTestId('batch-plan-balance');
  await expect(balance).toHaveAttribute('data-after', String(40 - total));
  await expect(balance).toContainText(`Short by ${total - 40} credits`);

  // The batch pauses before a job the balance cannot cover, and says what the next job needs.
  await page.getByTestId('batch-concurrency').fill('1');
  await page.getByTestId('batch-start').click();
  const progress = page.getByTestId('batch-progress');
  const paused = page.getByTestId('batch-paused');
  await expect(paused).toHaveAttribute('data-reason', 'insufficient_credits', { timeout: 60_000 });
  await expect(progress).toHaveAttribute('data-state', 'paused');
  await expect(paused).toContainText('Not enough credits');
  await expect(page.getByTestId('batch-resume')).toBeEnabled();
  await screenshot(page, 'batch-paused-credits-1440x900-light');
  await ipc(harness, 'local:top-up', { credits: 1000 });
  await page.getByTestId('batch-resume').click();
  await expect(progress).toHaveAttribute('data-remaining', '0', { timeout: 120_000 });
  await expect(progress).toHaveAttribute('data-state', 'done');
  await expect(progress).toHaveAttribute('data-spent', String(total));

  // A rate limit (the app's key allows one request a day now): the batch waits, with the time it goes on by itself
  // and a countdown; Resume waits for that time (main refuses an earlier one).
  const status = await ipc<{ keys: Array<{ id: string; usedByApp: boolean }> }>(harness, 'local:status');
  const appKey = status.keys.find((k) => k.usedByApp);
  expect(appKey).toBeTruthy();
  await ipc(harness, 'local:set-key-rate-limit', { keyId: appKey!.id, ratePer24h: 1 });
  const firstBatch = await progress.getAttribute('data-planned');
  await page.getByTestId('batch-start').click();
  // The same products × shots were just made: Start asks first; this run pays for all of them again.
  await expect(page.getByTestId('start-warning')).toBeVisible();
  await page.getByTestId('start-run-all').click();
  await expect(paused).toHaveAttribute('data-reason', 'rate_limited', { timeout: 60_000 });
  expect(await progress.getAttribute('data-planned')).toBe(firstBatch);
  const countdown = page.getByTestId('batch-resumes-at');
  await expect(countdown).toHaveText(/Resumes at .+ \(in [\d:]+\)/);
  const before = await countdown.textContent();
  await expect(countdown).not.toHaveText(before ?? '', { timeout: 5_000 });
  await expect(page.getByTestId('batch-resume')).toBeDisabled();
  await screenshot(page, 'batch-paused-rate-limited-1440x900-light');
  await page.getByTestId('batch-cancel').click();
  await page.getByTestId('batch-cancel-confirm').click();
  await expect(progress).toHaveAttribute('data-state', 'cancelled');
  await ipc(harness, 'local:set-key-rate-limit', { keyId: appKey!.id, ratePer24h: 1000 });
});
