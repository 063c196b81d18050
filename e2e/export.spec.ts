// Export through the harness, against a real local service: generate, select, export with the dialog into the
// folder the recording shell's chooser answers (POST /harness/shell-answers), check the files on disk and the
// result; then drop an exported PNG on the compose panel and see its settings (and references) recalled.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { readGenerationData } from '../src-shared/generation-data.ts';
import { expect, test } from './fixtures/harness.ts';
import { compose, dropFile, generateAndWait, openStudio, screenshot } from './support/studio.ts';

test('export a selection with the dialog (PNG + CSV, then JPEG), and drop an exported PNG to recall its settings', async ({ page, harness }) => {
  const out = join(harness.dataDir, 'chosen-folder');
  await page.setViewportSize({ width: 1440, height: 900 });
  await openStudio(page, harness.url);
  const prompt = 'Export me: a white porcelain cup on walnut, 晨光, "soft" shadows';
  await compose(page, { prompt, model: 'nano-banana-2', ratio: '4:5', resolution: '1K', n: '2' });
  await generateAndWait(page, 'succeeded');
  const images = page.getByTestId('gallery').getByTestId('gallery-image');
  await expect(images).toHaveCount(2);
  const ids = [(await images.nth(0).getAttribute('data-image-id')) as string, (await images.nth(1).getAttribute('data-image-id')) as string];

  await images.nth(0).click();
  await images.nth(1).click({ modifiers: ['Control'] });
  await harness.setShellAnswers({ chooseFolder: out });
  await page.getByTestId('export-selection').click();
  const dialog = page.getByTestId('export-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog).toHaveAttribute('aria-modal', 'true');
  const preview = page.getByTestId('export-preview');
  // The default template ({session}_{date}_{model}_{index}), previewed with the first image's own facts.
  await expect(preview).toHaveText(/^[^_]+_\d{8}_nano-banana-2_1\.png$/);

  // An unknown field is named with the allowed ones, and nothing can run.
  const template = page.getByTestId('export-template');
  await template.fill('{session}_{camera}');
  await expect(page.getByTestId('export-template-problem')).toContainText('{camera}');
  await expect(page.getByTestId('export-template-problem')).toContainText('{index}');
  await expect(page.getByTestId('export-run')).toBeDisabled();
  await template.fill('shoot_{model}_{ratio}_{index}');
  await expect(preview).toHaveText('shoot_nano-banana-2_4x5_1.png');
  await expect(page.getByTestId('export-format')).toHaveValue('png');
  await expect(page.getByTestId('export-quality')).toHaveCount(0);
  await expect(page.getByTestId('export-csv')).toBeChecked();
  await screenshot(page, 'export-dialog');

  await page.getByTestId('export-run').click();
  const result = page.getByTestId('export-result');
  await expect(result).toHaveAttribute('data-outcome', 'done', { timeout: 30_000 });
  await expect(result).toHaveAttribute('data-written', '2');
  await expect(page.getByTestId('export-folder')).toHaveText(out);
  // The chooser was asked (the shell recorded it) and answered with the folder the test set.
  expect((await harness.shellCalls()).filter((c) => c.kind === 'chooseFolder')).toHaveLength(1);

  const files = readdirSync(out).sort();
  const pngs = ['shoot_nano-banana-2_4x5_1.png', 'shoot_nano-banana-2_4x5_2.png'];
  expect(files.filter((f) => f.endsWith('.png'))).toEqual(pngs);
  expect(files.filter((f) => f.endsWith('.csv'))).toHaveLength(1);
  for (const [i, file] of pngs.entries()) {
    const bytes = readFileSync(join(out, file));
    const meta = await sharp(bytes).metadata();
    expect(meta.format).toBe('png');
    const read = readGenerationData(bytes);
    expect(read.ok && read.data).toMatchObject({ imageId: ids[i], request: { prompt, model: 'nano-banana-2', ratio: '4:5', resolution: '1K', n: 2 }, width: meta.width, height: meta.height });
  }
  const csv = readFileSync(join(out, files.find((f) => f.endsWith('.csv'))!), 'utf8');
  expect(csv.charCodeAt(0)).toBe(0xfeff);
  expect(csv).toContain('"Export me: a white porcelain cup on walnut, 晨光, ""soft"" shadows"');

  // JPEG at a chosen quality, into the same folder: new files, nothing replaced.
  await page.getByTestId('export-format').selectOption('jpeg');
  await page.getByTestId('export-quality').fill('80');
  await expect(preview).toHaveText('shoot_nano-banana-2_4x5_1.jpg');
  await page.getByTestId('export-csv').uncheck();
  await page.getByTestId('export-run').click();
  await expect.poll(() => readdirSync(out).filter((f) => f.endsWith('.jpg')).length, { timeout: 30_000 }).toBe(2);
  await expect(result).toHaveAttribute('data-written', '2');
  expect(readdirSync(out).filter((f) => f.endsWith('.png'))).toEqual(pngs);
  const jpeg = await sharp(readFileSync(join(out, 'shoot_nano-banana-2_4x5_1.jpg'))).metadata();
  expect(jpeg.format).toBe('jpeg');

  // Esc closes; focus is back in the studio.
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);

  // Drop an exported PNG on the compose panel: its settings come back, and (with a new session next) the offer to
  // continue the image's session or start a new one.
  await compose(page, { prompt: 'something else entirely', model: 'seedream-5-0-pro', n: '1' });
  const sessionTitle = await page.getByTestId('compose-session-title').textContent();
  await page.getByTestId('new-session').click();
  await dropFile(page, page.getByTestId('prompt'), readFileSync(join(out, pngs[1]!)), pngs[1]!);
  await expect(page.getByTestId('recall-session-offer')).toBeVisible();
  await expect(page.getByTestId('compose-session')).not.toContainText(sessionTitle ?? '');
  await page.getByTestId('recall-continue-session').click();
  await expect(page.getByTestId('compose-session-title')).toHaveText(sessionTitle ?? '');
  await expect(page.getByTestId('prompt')).toHaveValue(prompt);
  await expect(page.getByTestId('model')).toHaveValue('nano-banana-2');
  await expect(page.getByTestId('ratio')).toHaveValue('4:5');
  await expect(page.getByTestId('resolution')).toHaveValue('1K');
  await expect(page.getByTestId('n')).toHaveValue('2');
  await expect(page.getByTestId('tray-notice')).toHaveAttribute('data-kind', 'recalled');
  await expect(page.getByTestId('tray-notice')).toContainText(pngs[1]!);

  // A PNG without the app's data (the cached original) changes nothing and says so.
  await compose(page, { prompt: 'kept as it is' });
  await dropFile(page, page.getByTestId('prompt'), readFileSync(join(harness.dataDir, 'cache', 'full', `${ids[0]}.png`)), 'plain.png');
  await expect(page.getByTestId('tray-notice')).toHaveAttribute('data-kind', 'no_generation_data');
  await expect(page.getByTestId('tray-notice')).toContainText('plain.png');
  await expect(page.getByTestId('prompt')).toHaveValue('kept as it is');
});

test('export a session from its header; a dropped export brings back the references that are in the library', async ({ page, harness }) => {
  const out = join(harness.dataDir, 'session-export');
  await page.setViewportSize({ width: 960, height: 600 });
  await openStudio(page, harness.url);
  await compose(page, { prompt: 'A linen tote bag, front', model: 'nano-banana-2', resolution: '1K', n: '1' });
  await generateAndWait(page, 'succeeded');
  const gallery = page.getByTestId('gallery');
  const refId = (await gallery.getByTestId('gallery-image').first().getAttribute('data-image-id')) as string;
  await gallery.getByTestId('gallery-image').first().dragTo(page.getByTestId('reference-tray'));
  await expect(page.getByTestId('reference-item')).toHaveCount(1);
  const withRef = 'The same tote bag, from the side';
  await compose(page, { prompt: withRef, model: 'gpt-image-2', quality: 'low' });
  const turn = await generateAndWait(page, 'succeeded');
  const newId = (await turn.getByTestId('turn-image').first().getAttribute('data-image-id')) as string;

  await harness.setShellAnswers({ chooseFolder: out });
  await gallery.getByTestId('export-session').first().click();
  const dialog = page.getByTestId('export-dialog');
  await expect(dialog).toBeVisible();
  await page.getByTestId('export-template').fill('{id}');
  await page.getByTestId('export-format').selectOption('png');
  // Fits the small window: every control and the run button are on screen.
  for (const id of ['export-template', 'export-format', 'export-csv', 'export-run']) await expect(page.getByTestId(id)).toBeInViewport();
  await screenshot(page, 'export-dialog-960');
  await page.emulateMedia({ colorScheme: 'dark' });
  await screenshot(page, 'export-dialog-960-dark');
  await page.getByTestId('export-run').click();
  await expect(page.getByTestId('export-result')).toHaveAttribute('data-written', '2', { timeout: 30_000 });
  await screenshot(page, 'export-result-960-dark');
  await page.emulateMedia({ colorScheme: 'light' });
  expect(readdirSync(out).filter((f) => f.endsWith('.png')).sort()).toEqual([`${newId}.png`, `${refId}.png`].sort());
  await page.getByTestId('export-close').click();
  await expect(dialog).toHaveCount(0);

  // Recall by drop: the prompt, gpt-image-2 with its quality, and the reference from the library in the tray.
  await page.getByTestId('reference-tray').getByRole('button', { name: /清空|Clear/ }).click();
  await expect(page.getByTestId('reference-item')).toHaveCount(0);
  await compose(page, { prompt: 'unrelated', model: 'nano-banana-2' });
  await dropFile(page, page.getByTestId('reference-tray'), readFileSync(join(out, `${newId}.png`)), `${newId}.png`);
  await expect(page.getByTestId('prompt')).toHaveValue(withRef);
  await expect(page.getByTestId('model')).toHaveValue('gpt-image-2');
  await expect(page.getByTestId('quality')).toHaveValue('low');
  await expect(page.getByTestId('reference-item')).toHaveCount(1);
  await expect(page.getByTestId('reference-item')).toHaveAttribute('data-image-id', refId);
  await expect(page.getByTestId('tray-notice')).toHaveAttribute('data-kind', 'recalled');

  // A board, exported from its row in the library view's side bar.
  await page.evaluate(
    async ({ ids }) => {
      type Reply = { ok: boolean; value: { id: string } };
      const api = (globalThis as unknown as { api: Record<string, (input: unknown) => Promise<Reply>> }).api;
      const board = await api.boardCreate!({ name: 'Totes for export' });
      await api.boardAdd!({ boardId: board.value.id, imageIds: ids });
    },
    { ids: [refId, newId] },
  );
  const boardOut = join(harness.dataDir, 'board-export');
  await harness.setShellAnswers({ chooseFolder: boardOut });
  await page.getByTestId('open-library').click();
  await page.getByTestId('board').filter({ hasText: 'Totes for export' }).getByTestId('board-export').click();
  await expect(dialog).toContainText('Totes for export');
  await page.getByTestId('export-format').selectOption('webp');
  await page.getByTestId('export-run').click();
  await expect(page.getByTestId('export-result')).toHaveAttribute('data-written', '2', { timeout: 30_000 });
  expect(readdirSync(boardOut).filter((f) => f.endsWith('.webp')).sort()).toEqual([`${newId}.webp`, `${refId}.webp`].sort());
});
