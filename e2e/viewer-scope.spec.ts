// The viewer opened from a Catalog board cell stays in that cell, and marks can be undone (issue 26 Deliver 2),
// through the harness against a real local service: 2 products × a 1-shot list with n=2. Opened on a cell's first
// candidate, the viewer says "1 / 2 in SKU · shot", shows the cell's filmstrip, walks only its two candidates (→
// past the last one stays put, auto-advance after a mark too) and never shows another product's image. X rejects,
// and the note names the image; Ctrl+Z puts the earlier marks back exactly (a 3-star image rejected is 3 stars and
// not rejected again); the undo-mark button does the same, and on the board X and Ctrl+Z work alike. Opened from a
// product row, the viewer walks that product's images shot by shot, and compares them named by their cells.
import { expect, test } from './fixtures/harness.ts';
import { boardCell, candidateIds, marksOf, runBoard } from './support/catalog.ts';
import { ipc } from './support/ipc.ts';

const SKUS = ['VWS-1', 'VWS-2'];

test('the viewer from a cell walks only that cell, and Ctrl+Z undoes a reject', async ({ page, harness }) => {
  test.setTimeout(180_000);
  const board = await runBoard(page, harness, SKUS, [{ name: 'main', n: 2 }]);
  const cell = boardCell(board, 'VWS-1', 'main');
  await expect(cell.locator('[data-testid="cell-candidate"] img')).toHaveCount(2, { timeout: 60_000 });
  const [first, second] = (await candidateIds(cell)) as [string, string];

  // Rate the second 3 stars through main first, so the undo has something to put back besides "not rejected".
  await ipc(harness, 'library:mark', { imageIds: [second], rating: 3 });

  // Open the viewer on the cell's first candidate (focus, Enter).
  await cell.getByTestId('cell-candidate').first().click({ position: { x: 30, y: 30 } });
  await page.keyboard.press('Enter');
  const viewer = page.getByTestId('viewer');
  await expect(viewer).toHaveAttribute('data-image-id', first);
  const position = viewer.getByTestId('viewer-position');
  await expect(position).toHaveText('1 / 2 in VWS-1 · main');
  await expect(viewer.getByTestId('viewer-filmstrip-item')).toHaveCount(2);
  await expect(viewer.locator('[data-testid="viewer-filmstrip-item"][aria-current="true"]')).toHaveAttribute('data-image-id', first);

  await page.keyboard.press('ArrowRight');
  await expect(viewer).toHaveAttribute('data-image-id', second);
  await expect(position).toHaveText('2 / 2 in VWS-1 · main');
  // Past the last candidate: it stays in the cell (never the other product's images).
  await page.keyboard.press('ArrowRight');
  await expect(viewer).toHaveAttribute('data-image-id', second);
  await expect(viewer.getByTestId('viewer-next')).toBeDisabled();
  await expect(viewer.getByTestId('viewer-scope-end')).toHaveText('Last image in VWS-1 · main');

  // Auto-advance on: a reject on the last candidate stays on it.
  await viewer.getByTestId('viewer-advance').check();
  await page.keyboard.press('x');
  await expect.poll(() => marksOf(harness, second)).toMatchObject({ rejected: true });
  await expect(viewer).toHaveAttribute('data-image-id', second);
  const note = page.getByTestId('mark-note');
  await expect(note).toHaveText('Rejected: VWS-1 · main 2/2');
  await expect(note).toHaveAttribute('data-kind', 'marked');
  const secondInStrip = viewer.locator(`[data-testid="viewer-filmstrip-item"][data-image-id="${second}"]`);
  await expect(secondInStrip).toHaveClass(/is-rejected/);

  // Ctrl+Z: back exactly as before (3 stars, not rejected).
  await page.keyboard.press('Control+z');
  await expect.poll(() => marksOf(harness, second)).toEqual({ rating: 3, rejected: false, starred: false });
  await expect(note).toHaveAttribute('data-kind', 'undone');
  await expect(secondInStrip).not.toHaveClass(/is-rejected/);

  // The filmstrip goes to the first; S stars it; the Undo button takes it back.
  await viewer.locator(`[data-testid="viewer-filmstrip-item"][data-image-id="${first}"]`).click();
  await expect(viewer).toHaveAttribute('data-image-id', first);
  await viewer.getByTestId('viewer-advance').uncheck();
  await viewer.getByTestId('viewer-stage').focus();
  await page.keyboard.press('s');
  await expect.poll(() => marksOf(harness, first)).toMatchObject({ starred: true });
  await page.getByTestId('undo-mark').click();
  await expect.poll(() => marksOf(harness, first)).toMatchObject({ starred: false });
  await expect(note).toHaveText('Undone: VWS-1 · main 1/2');

  // On the board itself: X on a focused candidate, the note names it, Ctrl+Z takes it back.
  await viewer.getByTestId('viewer-close').click();
  await expect(viewer).toHaveCount(0);
  await cell.getByTestId('cell-candidate').first().focus();
  await page.keyboard.press('x');
  await expect.poll(() => marksOf(harness, first)).toMatchObject({ rejected: true });
  await expect(note).toHaveText('Rejected: VWS-1 · main 1/2');
  await page.keyboard.press('Control+z');
  await expect.poll(() => marksOf(harness, first)).toEqual({ rating: 0, rejected: false, starred: false });
});

test('the viewer from a product row walks only its images, and compares them named by their cells', async ({ page, harness }) => {
  test.setTimeout(180_000);
  const board = await runBoard(page, harness, ['VWP-1', 'VWP-2'], [{ name: 'main', n: 1 }, { name: 'detail', n: 2 }]);
  const row = board.locator('[data-testid="board-row"][data-sku="VWP-2"]');
  await expect(row.locator('[data-testid="cell-candidate"] img')).toHaveCount(3, { timeout: 60_000 });
  const ids = await candidateIds(row);

  await row.getByTestId('product-open-viewer').click();
  const viewer = page.getByTestId('viewer');
  await expect(viewer).toHaveAttribute('data-image-id', ids[0] as string);
  const position = viewer.getByTestId('viewer-position');
  await expect(position).toHaveText('1 / 3 in VWP-2');
  await expect(viewer.getByTestId('viewer-filmstrip-item')).toHaveCount(3);
  // ← at the first stays; → walks the product's shots in order, and stops at its last image.
  await page.keyboard.press('ArrowLeft');
  await expect(viewer).toHaveAttribute('data-image-id', ids[0] as string);
  for (const [i, id] of ids.entries()) {
    if (i > 0) await page.keyboard.press('ArrowRight');
    await expect(viewer).toHaveAttribute('data-image-id', id);
    await expect(position).toHaveText(`${i + 1} / 3 in VWP-2`);
  }
  await page.keyboard.press('ArrowRight');
  await expect(viewer).toHaveAttribute('data-image-id', ids[2] as string);
  // A mark names the image by its cell, not by the product's order.
  await page.keyboard.press('3');
  await expect(page.getByTestId('mark-note')).toHaveText('3 stars: VWP-2 · detail 2/2');
  await page.keyboard.press('Control+z');
  await expect.poll(() => marksOf(harness, ids[2] as string)).toEqual({ rating: 0, rejected: false, starred: false });

  // Compare the product's images: the compare says where they come from, and its marks name the cell.
  await viewer.getByTestId('viewer-compare-scope').click();
  const compare = page.getByTestId('compare-view');
  await expect(compare).toHaveAttribute('data-count', '3');
  await expect(compare.getByRole('heading')).toHaveText('Compare 3 images in VWP-2');
  await compare.getByTestId('compare-pane').nth(1).getByTestId('compare-stage').click();
  await page.keyboard.press('x');
  await expect.poll(() => marksOf(harness, ids[1] as string)).toMatchObject({ rejected: true });
  await expect(page.getByTestId('mark-note')).toHaveText('Rejected: VWP-2 · detail 1/2');
  await page.getByTestId('undo-mark').click();
  await expect.poll(() => marksOf(harness, ids[1] as string)).toMatchObject({ rejected: false });
});
