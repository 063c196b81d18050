// Steps the Catalog specs share: the books of a batch (what its jobs were charged, what left the account), waiting
// for a batch to settle, running a small batch to its board, reaching a board cell, and culling a cell by keyboard
// (P to pick, X to reject).
import type { ElementHandle, Locator, Page } from '@playwright/test';
import type { BatchDetail, ImageRecord, Product, ShotList } from '../../src-shared/ipc/index.ts';
import { expect, type Harness } from '../fixtures/harness.ts';
import { ipc, until } from './ipc.ts';
import { chooseLook, openStudio, SIZES } from './studio.ts';

/** How many times the batch sent a generate request (a resend after a 429 counts). */
export const sends = (b: BatchDetail): number => b.jobs.reduce((s, j) => s + j.turnIds.length, 0);
/** What the batch's jobs were charged, re-runs included. */
export const charges = (b: BatchDetail): number => b.jobs.reduce((s, j) => s + (j.creditsCharged ?? 0), 0);

export async function account(h: Harness): Promise<{ credits: number; reserved: number }> {
  return (await ipc<{ account: { credits: number; reserved: number } }>(h, 'local:status')).account;
}

/** The local account's balance once nothing is reserved any more. */
export async function settledCredits(h: Harness): Promise<number> {
  return (await until('reservations settled', async () => {
    const a = await account(h);
    return a.reserved === 0 ? a : null;
  }, 60_000)).credits;
}

/** The batch once it is done and nothing of it is queued or running. */
export async function batchDone(h: Harness, batchId: string): Promise<BatchDetail> {
  return until(`batch ${batchId} done`, async () => {
    const b = await ipc<BatchDetail>(h, 'batch:get', { batchId });
    return b.state === 'done' && b.counts.running === 0 && b.counts.queued === 0 ? b : null;
  }, 90_000);
}

/**
 * What scrolls `selector`'s element with its column: its nearest ancestor the page marks `data-column-scroll` that
 * scrolls (as column-scroll.ts finds it; a card that scrolls sideways computes overflow-y auto too).
 */
export async function columnOf(page: Page, selector: string): Promise<ElementHandle> {
  const found = await page.evaluateHandle((sel) => {
    type Box = { parentElement: Box | null; hasAttribute(name: string): boolean };
    const w = globalThis as unknown as { document: { querySelector(s: string): Box | null }; getComputedStyle(e: Box): { overflowY: string } };
    let at = w.document.querySelector(sel)?.parentElement ?? null;
    while (at && !(at.hasAttribute('data-column-scroll') && /auto|scroll/.test(w.getComputedStyle(at).overflowY))) at = at.parentElement;
    return at;
  }, selector);
  const column = found.asElement();
  if (!column) throw new Error(`nothing scrolls ${selector}`);
  return column as ElementHandle;
}

/** The board cell of a product (by SKU) and a shot. */
export function boardCell(board: Locator, sku: string, shot: string): Locator {
  return board.locator(`[data-testid="catalog-cell"][data-sku="${sku}"][data-shot="${shot}"]`);
}

/** The image ids of a cell's candidates, in the order the cell shows them. */
export async function candidateIds(cell: Locator): Promise<string[]> {
  return cell.getByTestId('cell-candidate').evaluateAll((els) => els.map((e) => e.getAttribute('data-image-id') as string));
}

/** Moves the keyboard focus to one candidate of a cell (as Tab and the arrows would) and waits until it has it. */
export async function focusCandidate(page: Page, cell: Locator, imageId: string): Promise<void> {
  await cell.locator(`[data-testid="cell-candidate"][data-image-id="${imageId}"]`).focus();
  await expect(page.locator(':focus')).toHaveAttribute('data-image-id', imageId);
}

/**
 * Culls one cell by keyboard: the candidate at `pick` gets the focus and P picks it; the one at `reject` gets it
 * and X rejects it. Answers the two image ids once the cell shows both marks.
 */
export async function pickAndRejectByKeys(page: Page, cell: Locator, pick: number, reject: number): Promise<{ picked: string; rejected: string }> {
  const ids = await candidateIds(cell);
  const picked = ids[pick] as string;
  const rejected = ids[reject] as string;
  await focusCandidate(page, cell, picked);
  await page.keyboard.press('p');
  await expect(cell).toHaveAttribute('data-picked-image-id', picked);
  await focusCandidate(page, cell, rejected);
  await page.keyboard.press('x');
  await expect(cell.locator(`[data-image-id="${rejected}"]`)).toHaveAttribute('data-rejected', 'true');
  return { picked, rejected };
}

/** Products of these SKUs × these shots (n each), run on the local service; the board once every cell is done. */
export async function runBoard(page: Page, harness: Harness, skus: string[], shots: Array<{ name: string; n: number }>): Promise<Locator> {
  const products: Product[] = [];
  for (const [i, sku] of skus.entries()) products.push(await ipc<Product>(harness, 'product:save', { sku, name: `mug ${i + 1}`, prompt: `a ceramic mug ${i + 1}` }));
  const list = await ipc<ShotList>(harness, 'shotlist:save', {
    name: `${skus[0]} list`,
    shots: shots.map(({ name, n }) => ({ name, purpose: 'free', model: 'seedream-5-0-pro', ratio: '1:1', resolution: '1K', n, promptAddition: name })),
  });
  await ipc<BatchDetail>(harness, 'batch:create', { productIds: products.map((p) => p.id), shotListId: list.id, concurrency: 2 });
  await page.setViewportSize(SIZES[0]);
  await openStudio(page, harness.url);
  await chooseLook(page, 'en', 'light');
  await page.getByTestId('open-batch').click();
  const board = page.getByTestId('catalog-board');
  await expect(board.locator('[data-testid="catalog-cell"][data-status="done"]')).toHaveCount(skus.length * shots.length, { timeout: 120_000 });
  return board;
}

/** An image's culling marks as main has them. */
export async function marksOf(harness: Harness, id: string): Promise<Pick<ImageRecord, 'rating' | 'rejected' | 'starred'>> {
  const { images } = await ipc<{ images: ImageRecord[] }>(harness, 'library:get-images', { imageIds: [id] });
  const { rating, rejected, starred } = images[0] as ImageRecord;
  return { rating, rejected, starred };
}
