// Picks and master choices go on the one undo stack with the marks (issue 26 Deliver 2), through the harness
// against a real local service: 1 product × a 1-shot list with n=2. On the board, P picks one candidate, then the
// other; Ctrl+Z twice goes back to the first and then to no pick (the cell and main agree), each note naming the
// image by its cell. X on the picked candidate rejects it and clears the pick; one Ctrl+Z puts both back. M makes a
// candidate the product's master; the Undo button puts the product's own reference back. The Chinese notes say the
// same. Opened in the viewer, a catalog image's details name its product and shot.
import type { Page } from '@playwright/test';
import type { BatchSummary, CatalogBoard } from '../src-shared/ipc/index.ts';
import { expect, test, type Harness } from './fixtures/harness.ts';
import { boardCell, candidateIds, focusCandidate, marksOf, runBoard } from './support/catalog.ts';
import { ipc } from './support/ipc.ts';
import { chooseLook } from './support/studio.ts';

const SKU = 'UNDO-1';

/** The board as main has it: the cell's pick and the product's master. */
async function stored(harness: Harness): Promise<{ pick: string | null; master: string | null }> {
  const [batch] = await ipc<BatchSummary[]>(harness, 'batch:list');
  const board = await ipc<CatalogBoard>(harness, 'catalog:get-board', { batchId: batch?.id });
  const product = board.products[0];
  return { pick: board.cells[0]?.pick ?? null, master: product?.masterChosen ? product.masterImageId : null };
}

const undoKey = (page: Page) => page.keyboard.press('Control+z');

test('Ctrl+Z takes back picks and a master choice in order, and X on the pick as one step', async ({ page, harness }) => {
  test.setTimeout(180_000);
  const board = await runBoard(page, harness, [SKU], [{ name: 'main', n: 2 }]);
  const cell = boardCell(board, SKU, 'main');
  await expect(cell.locator('[data-testid="cell-candidate"] img')).toHaveCount(2, { timeout: 60_000 });
  const [first, second] = (await candidateIds(cell)) as [string, string];
  const note = page.getByTestId('mark-note');

  // P on one candidate, then on the other.
  await focusCandidate(page, cell, first);
  await page.keyboard.press('p');
  await expect(cell).toHaveAttribute('data-picked-image-id', first);
  await expect(note).toHaveText(`Picked: ${SKU} · main 1/2`);
  await focusCandidate(page, cell, second);
  await page.keyboard.press('p');
  await expect(cell).toHaveAttribute('data-picked-image-id', second);
  await expect(note).toHaveText(`Picked: ${SKU} · main 2/2`);
  await expect.poll(() => stored(harness)).toMatchObject({ pick: second });

  // Ctrl+Z: the first again; Ctrl+Z: no pick at all.
  await undoKey(page);
  await expect(cell).toHaveAttribute('data-picked-image-id', first);
  await expect(note).toHaveText(`Pick undone: ${SKU} · main 2/2`);
  await expect.poll(() => stored(harness)).toMatchObject({ pick: first });
  await undoKey(page);
  await expect(cell).toHaveAttribute('data-picked-image-id', '');
  await expect(note).toHaveText(`Pick undone: ${SKU} · main 1/2`);
  await expect.poll(() => stored(harness)).toMatchObject({ pick: null });

  // X on the picked candidate: rejected and no longer the pick; one Ctrl+Z: not rejected, and the pick again.
  await focusCandidate(page, cell, first);
  await page.keyboard.press('p');
  await expect(cell).toHaveAttribute('data-picked-image-id', first);
  await page.keyboard.press('x');
  await expect(cell).toHaveAttribute('data-picked-image-id', '');
  await expect.poll(() => marksOf(harness, first)).toMatchObject({ rejected: true });
  await expect.poll(() => stored(harness)).toMatchObject({ pick: null });
  await undoKey(page);
  await expect.poll(() => marksOf(harness, first)).toMatchObject({ rejected: false });
  await expect.poll(() => stored(harness)).toMatchObject({ pick: first });
  await expect(cell).toHaveAttribute('data-picked-image-id', first);
  await expect(cell.locator(`[data-image-id="${first}"]`)).toHaveAttribute('data-rejected', 'false');

  // M makes the second the product's master; the Undo button takes it back to the product's own reference.
  const masterButton = board.locator(`[data-testid="board-row"][data-sku="${SKU}"]`).getByTestId('product-master');
  await focusCandidate(page, cell, second);
  await page.keyboard.press('m');
  await expect(masterButton).toHaveAttribute('data-master-image-id', second);
  await expect(note).toHaveText(`Master reference: ${SKU} · main 2/2`);
  await expect.poll(() => stored(harness)).toMatchObject({ master: second });
  await page.getByTestId('undo-mark').click();
  await expect(masterButton).toHaveAttribute('data-master-image-id', '');
  await expect(note).toHaveText(`Master reference undone: ${SKU} · main 2/2`);
  await expect.poll(() => stored(harness)).toMatchObject({ master: null, pick: first });

  // In Chinese: the pick left on the stack is taken back, and the note says so.
  await chooseLook(page, 'zh', 'light');
  // Off the language field (a field keeps Ctrl+Z for itself).
  await page.getByTestId('nav-settings').focus();
  await undoKey(page);
  await expect.poll(() => stored(harness)).toMatchObject({ pick: null });
  await expect(note).toHaveText(`已撤销选用：${SKU} · main 1/2`);
});

test("the viewer's details of a catalog image name its product and shot", async ({ page, harness }) => {
  test.setTimeout(180_000);
  const board = await runBoard(page, harness, [SKU], [{ name: 'main', n: 2 }]);
  const cell = boardCell(board, SKU, 'main');
  await expect(cell.locator('[data-testid="cell-candidate"] img')).toHaveCount(2, { timeout: 60_000 });
  const [first] = (await candidateIds(cell)) as [string, string];

  await focusCandidate(page, cell, first);
  await page.keyboard.press('Enter');
  const viewer = page.getByTestId('viewer');
  await expect(viewer).toHaveAttribute('data-image-id', first);
  const place = viewer.getByTestId('viewer-meta').locator('[data-field="catalog"]');
  await expect(place).toHaveAttribute('data-value', `${SKU} · main`);
  await expect(place.getByTestId('viewer-catalog')).toHaveText(`${SKU} · main`);
  // runBoard names the product "mug 1".
  await expect(place).toContainText('mug 1');
  // A mark keeps it (main's answer to a mark does not carry it).
  await page.keyboard.press('3');
  await expect.poll(() => marksOf(harness, first)).toMatchObject({ rating: 3 });
  await expect(place.getByTestId('viewer-catalog')).toHaveText(`${SKU} · main`);
});
