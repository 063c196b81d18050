// The pick where the designer judges images full size (issue 26 Deliver 2), through the harness against a real
// local service. Opened from a board cell (Enter), the viewer picks with P and with its Pick button for the cell: the
// board's cell and main agree, the filmstrip and the image carry the pick's mark, Ctrl+Z takes it back; X on the
// picked image rejects it and clears the pick in one step; a rejected image cannot be picked. Compare opened from
// the cell picks its active pane. Opened from a job-list thumbnail, the viewer is in the job's cell exactly as from
// the board ("1 / 2 in SKU · shot", arrows stay inside), and picks there too. Screenshots of the viewer with a pick
// and of compare, at both sizes, both themes and both languages go to .tmp/shots-viewer-pick/ to be looked at.
import type { Locator, Page } from '@playwright/test';
import type { BatchSummary, CatalogBoard } from '../src-shared/ipc/index.ts';
import { expect, test, type Harness } from './fixtures/harness.ts';
import { boardCell, candidateIds, focusCandidate, marksOf, runBoard } from './support/catalog.ts';
import { ipc } from './support/ipc.ts';
import { chooseLook, LANGUAGES, SIZES, THEMES } from './support/studio.ts';

/** A cell's pick as main has it. */
async function storedPick(harness: Harness, sku: string, shot: string): Promise<string | null> {
  const [batch] = await ipc<BatchSummary[]>(harness, 'batch:list');
  const board = await ipc<CatalogBoard>(harness, 'catalog:get-board', { batchId: batch?.id });
  return board.cells.find((c) => c.sku === sku && c.shotName === shot)?.pick ?? null;
}

const stripItem = (viewer: Locator, id: string) => viewer.locator(`[data-testid="viewer-filmstrip-item"][data-image-id="${id}"]`);

/** Opens the viewer on a cell's candidate the way the designer does on the board: focus it, Enter. */
async function openFromCell(page: Page, cell: Locator, imageId: string): Promise<Locator> {
  await focusCandidate(page, cell, imageId);
  await page.keyboard.press('Enter');
  const viewer = page.getByTestId('viewer');
  await expect(viewer).toHaveAttribute('data-image-id', imageId);
  return viewer;
}

test('P in the viewer opened from a cell picks for the cell; Ctrl+Z and X on the pick as on the board', async ({ page, harness }) => {
  test.setTimeout(180_000);
  const board = await runBoard(page, harness, ['VPK-1'], [{ name: 'main', n: 2 }]);
  const cell = boardCell(board, 'VPK-1', 'main');
  await expect(cell.locator('[data-testid="cell-candidate"] img')).toHaveCount(2, { timeout: 60_000 });
  const [first, second] = (await candidateIds(cell)) as [string, string];
  const note = page.getByTestId('mark-note');

  const viewer = await openFromCell(page, cell, first);
  await expect(viewer.getByTestId('viewer-position')).toHaveText('1 / 2 in VPK-1 · main');
  const pickButton = viewer.getByTestId('viewer-pick');
  await expect(pickButton).toHaveAttribute('aria-pressed', 'false');
  await expect(stripItem(viewer, first)).toHaveAttribute('data-picked', 'false');

  // P on the second candidate: the board's cell, main, the filmstrip, the button and the image all say so.
  await page.keyboard.press('ArrowRight');
  await expect(viewer).toHaveAttribute('data-image-id', second);
  await page.keyboard.press('p');
  await expect(cell).toHaveAttribute('data-picked-image-id', second);
  await expect.poll(() => storedPick(harness, 'VPK-1', 'main')).toBe(second);
  await expect(stripItem(viewer, second)).toHaveAttribute('data-picked', 'true');
  await expect(stripItem(viewer, first)).toHaveAttribute('data-picked', 'false');
  await expect(pickButton).toHaveAttribute('aria-pressed', 'true');
  await expect(viewer.getByTestId('viewer-picked')).toBeVisible();
  await expect(note).toHaveText('Picked: VPK-1 · main 2/2');

  // Ctrl+Z: no pick again, everywhere.
  await page.keyboard.press('Control+z');
  await expect(cell).toHaveAttribute('data-picked-image-id', '');
  await expect.poll(() => storedPick(harness, 'VPK-1', 'main')).toBeNull();
  await expect(stripItem(viewer, second)).toHaveAttribute('data-picked', 'false');
  await expect(pickButton).toHaveAttribute('aria-pressed', 'false');
  await expect(viewer.getByTestId('viewer-picked')).toHaveCount(0);

  // The button picks too; X on the picked image rejects it and clears the pick; one Ctrl+Z puts both back.
  await pickButton.click();
  await expect(cell).toHaveAttribute('data-picked-image-id', second);
  await viewer.getByTestId('viewer-stage').focus();
  await page.keyboard.press('x');
  await expect.poll(() => marksOf(harness, second)).toMatchObject({ rejected: true });
  await expect(cell).toHaveAttribute('data-picked-image-id', '');
  await expect.poll(() => storedPick(harness, 'VPK-1', 'main')).toBeNull();
  await expect(stripItem(viewer, second)).toHaveAttribute('data-picked', 'false');
  // A rejected image cannot be picked: its button is off, and P gets main's refusal in words, nothing changed.
  await expect(pickButton).toBeDisabled();
  await page.keyboard.press('p');
  await expect(viewer.locator('.loupe-pick-row [role="alert"]')).toBeVisible();
  await expect(cell).toHaveAttribute('data-picked-image-id', '');
  expect(await storedPick(harness, 'VPK-1', 'main')).toBeNull();
  await page.keyboard.press('Control+z');
  await expect.poll(() => marksOf(harness, second)).toMatchObject({ rejected: false });
  await expect.poll(() => storedPick(harness, 'VPK-1', 'main')).toBe(second);
  await expect(cell).toHaveAttribute('data-picked-image-id', second);
  await expect(stripItem(viewer, second)).toHaveAttribute('data-picked', 'true');
  await expect(pickButton).toBeEnabled();

  // Compare from the cell: P picks the active pane's image for the cell.
  await viewer.getByTestId('viewer-compare-scope').click();
  const compare = page.getByTestId('compare-view');
  await expect(compare).toHaveAttribute('data-count', '2');
  const firstPane = compare.locator(`[data-testid="compare-pane"][data-image-id="${first}"]`);
  await expect(compare.locator(`[data-testid="compare-pane"][data-image-id="${second}"]`).getByTestId('viewer-pick')).toHaveAttribute('aria-pressed', 'true');
  await firstPane.getByTestId('compare-stage').click();
  await page.keyboard.press('p');
  await expect(cell).toHaveAttribute('data-picked-image-id', first);
  await expect.poll(() => storedPick(harness, 'VPK-1', 'main')).toBe(first);
  await expect(firstPane.getByTestId('viewer-pick')).toHaveAttribute('aria-pressed', 'true');
  await expect(firstPane.getByTestId('viewer-picked')).toBeVisible();
  await expect(note).toHaveText('Picked: VPK-1 · main 1/2');
  await page.keyboard.press('Control+z');
  await expect(cell).toHaveAttribute('data-picked-image-id', second);
});

test('a job-list thumbnail opens the viewer in the job’s cell, as Enter on the board does, and picks there', async ({ page, harness }) => {
  test.setTimeout(180_000);
  const board = await runBoard(page, harness, ['VPJ-1', 'VPJ-2'], [{ name: 'main', n: 1 }, { name: 'detail', n: 2 }]);
  const cell = boardCell(board, 'VPJ-2', 'detail');
  await expect(cell.locator('[data-testid="cell-candidate"] img')).toHaveCount(2, { timeout: 60_000 });
  const [first, second] = (await candidateIds(cell)) as [string, string];

  const job = page.locator('[data-testid="batch-job"][data-sku="VPJ-2"][data-shot="detail"]');
  await job.locator('.batch-job-thumb').first().click();
  const viewer = page.getByTestId('viewer');
  await expect(viewer).toHaveAttribute('data-image-id', first);
  const position = viewer.getByTestId('viewer-position');
  await expect(position).toHaveText('1 / 2 in VPJ-2 · detail');
  await expect(viewer.getByTestId('viewer-filmstrip-item')).toHaveCount(2);
  // The arrows walk the cell and stop at its ends (← on the first, → on the last stay put).
  const walk = [['ArrowLeft', first, 1], ['ArrowRight', second, 2], ['ArrowRight', second, 2]] as const;
  for (const [key, id, place] of walk) {
    await page.keyboard.press(key);
    await expect(viewer).toHaveAttribute('data-image-id', id);
    await expect(position).toHaveText(`${place} / 2 in VPJ-2 · detail`);
  }
  await expect(viewer.getByTestId('viewer-next')).toBeDisabled();

  await page.keyboard.press('p');
  await expect(cell).toHaveAttribute('data-picked-image-id', second);
  await expect.poll(() => storedPick(harness, 'VPJ-2', 'detail')).toBe(second);
  await expect(stripItem(viewer, second)).toHaveAttribute('data-picked', 'true');
});

test('screenshots: the viewer and compare with a pick, both sizes, themes and languages', async ({ page, harness }) => {
  test.setTimeout(300_000);
  const board = await runBoard(page, harness, ['VPS-1'], [{ name: 'main', n: 4 }]);
  const cell = boardCell(board, 'VPS-1', 'main');
  await expect(cell.locator('[data-testid="cell-candidate"] img')).toHaveCount(4, { timeout: 60_000 });
  const ids = await candidateIds(cell);
  await ipc(harness, 'library:mark', { imageIds: [ids[2]], rejected: true });
  await ipc(harness, 'library:mark', { imageIds: [ids[0]], rating: 4 });
  for (const size of SIZES) {
    await page.setViewportSize(size);
    for (const language of LANGUAGES) {
      for (const theme of THEMES) {
        await chooseLook(page, language, theme);
        await page.getByTestId('open-batch').click();
        const viewer = await openFromCell(page, boardCell(page.getByTestId('catalog-board'), 'VPS-1', 'main'), ids[1] as string);
        if ((await viewer.getByTestId('viewer-pick').getAttribute('aria-pressed')) !== 'true') await page.keyboard.press('p');
        await expect(stripItem(viewer, ids[1] as string)).toHaveAttribute('data-picked', 'true');
        await expect(viewer.getByTestId('viewer-image')).toHaveAttribute('data-loaded', 'true');
        // The page's own scroll areas show with real scrollbars (playwright.config keeps them).
        await page.screenshot({ path: `.tmp/shots-viewer-pick/viewer-${size.width}-${language}-${theme}.png` });
        // Compare from the cell: the picked pane says so.
        await viewer.getByTestId('viewer-compare-scope').click();
        const compare = page.getByTestId('compare-view');
        await expect(compare.locator(`[data-testid="compare-pane"][data-image-id="${ids[1]}"]`).getByTestId('viewer-picked')).toBeVisible();
        await expect(compare.getByTestId('compare-image')).toHaveCount(4);
        await page.screenshot({ path: `.tmp/shots-viewer-pick/compare-${size.width}-${language}-${theme}.png` });
        await page.keyboard.press('Escape');
        await expect(compare).toHaveCount(0);
      }
    }
  }
});
