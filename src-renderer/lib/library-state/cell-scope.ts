// The viewer's scope for Catalog images: a board cell's candidates ("2 / 4 in SKU-001 · main") or a product's, shot
// by shot, each image with its cell (ScopeCell), so the viewer and compare can pick (P) as the board does. The board
// and the job list open it the same way; the cell's pick is read from the cached boards while the viewer is open,
// so a pick made on the board, in the viewer or by Ctrl+Z shows at once in both.
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useSyncExternalStore } from 'react';
import type { BoardCell } from '../../../src-shared/ipc/batch-board.ts';
import type { Marks } from './marks.ts';
import { boardsOf, shownPick, useSetPick } from './picks.ts';
import { cellName, placeName, type ScopeCell, type ViewerScope } from './store.ts';

/** What the viewer opens on: the images and the scope naming them. */
export interface ScopedImages {
  ids: string[];
  scope: ViewerScope;
}

function scopeCell(batchId: string, cell: BoardCell): ScopeCell {
  return { batchId, productId: cell.productId, sku: cell.sku, shot: cell.shotName, pick: cell.pick };
}

/** A board cell's candidates, named by the cell ("SKU-001 · main"). */
export function cellImages(batchId: string, cell: BoardCell): ScopedImages {
  const ids = cell.candidates.map((c) => c.imageId);
  const at = scopeCell(batchId, cell);
  return { ids, scope: { label: cellName(cell.sku, cell.shotName), cells: ids.map(() => at) } };
}

/** A product's candidates, shot by shot, named by the SKU ("3 / 8 in SKU-001"), each image by its cell. */
export function productImages(batchId: string, sku: string, cells: readonly BoardCell[]): ScopedImages {
  const images = cells.flatMap((cell) => {
    const at = scopeCell(batchId, cell);
    return cell.candidates.map((c, i) => ({ id: c.imageId, name: placeName(cellName(cell.sku, cell.shotName), i, cell.candidates.length), cell: at }));
  });
  return { ids: images.map((x) => x.id), scope: { label: sku, names: images.map((x) => x.name), cells: images.map((x) => x.cell) } };
}

/** A job's cell as a job names it. */
export interface JobCell {
  batchId: string;
  productId: string;
  sku: string;
  shot: string;
  /** The job's own images: the cell's when no cached board holds it. */
  imageIds: string[];
}

/**
 * A job's cell opened on one of its images, as Enter on the board opens it: every candidate of the cell (a
 * re-shoot's too) as the cached board holds them; without a board holding the image, the job's own images.
 */
export function jobCellImages(client: QueryClient, job: JobCell, imageId: string): ScopedImages & { index: number } {
  for (const board of boardsOf(client, job.batchId)) {
    const cell = board.cells.find((c) => c.productId === job.productId && c.shotName === job.shot);
    const index = cell ? cell.candidates.findIndex((c) => c.imageId === imageId) : -1;
    if (cell && index >= 0) return { ...cellImages(job.batchId, cell), index };
  }
  const at: ScopeCell = { batchId: job.batchId, productId: job.productId, sku: job.sku, shot: job.shot, pick: null };
  return { ids: job.imageIds, index: Math.max(0, job.imageIds.indexOf(imageId)), scope: { label: cellName(job.sku, job.shot), cells: job.imageIds.map(() => at) } };
}

/**
 * A product's results opened on one of them (the report's thumbnails): the product's candidates shot by shot as the
 * cached board holds them, as the board's product button opens them; without a board holding the image, the results
 * given, named by the SKU.
 */
export function productResultImages(client: QueryClient, batchId: string, product: { productId: string; sku: string }, imageIds: string[], imageId: string): ScopedImages & { index: number } {
  for (const board of boardsOf(client, batchId)) {
    const scoped = productImages(batchId, product.sku, board.cells.filter((c) => c.productId === product.productId));
    const index = scoped.ids.indexOf(imageId);
    if (index >= 0) return { ...scoped, index };
  }
  return { ids: imageIds, index: Math.max(0, imageIds.indexOf(imageId)), scope: { label: product.sku } };
}

/** A cell's pick now: the cached board's, else the one it had when the scope was opened. */
function pickNow(client: QueryClient, cell: ScopeCell): string | null {
  const shown = shownPick(client, cell.batchId, { productId: cell.productId, shot: cell.shot });
  return shown === undefined ? cell.pick : shown;
}

/** Each scope image's cell's pick, kept current from the cached boards (null for an image without a cell). */
export function useScopePicks(cells: readonly ScopeCell[] | undefined): ReadonlyArray<string | null> {
  const client = useQueryClient();
  const subscribe = useCallback((heard: () => void) => client.getQueryCache().subscribe(heard), [client]);
  // A string, so an unchanged answer is the same snapshot; a product's images share a few cells: each read once.
  const snapshot = () => {
    const byCell = new Map<ScopeCell, string | null>();
    return JSON.stringify((cells ?? []).map((cell) => (byCell.has(cell) ? byCell.get(cell) : byCell.set(cell, pickNow(client, cell)).get(cell)) ?? null));
  };
  const text = useSyncExternalStore(subscribe, snapshot);
  return useMemo(() => JSON.parse(text) as Array<string | null>, [text]);
}

/** The pick as the viewer and compare make it, with the board's rules: P toggles; X on the pick also clears it. */
export function usePickInScope() {
  const setPick = useSetPick();
  const { mutate } = setPick;
  const toggle = useCallback(
    (cell: ScopeCell, imageId: string, picked: boolean) => mutate({ batchId: cell.batchId, productId: cell.productId, shot: cell.shot, imageId: picked ? null : imageId }),
    [mutate],
  );
  // A rejected image never goes to the marketplace: rejecting the pick clears it, one step for Ctrl+Z.
  const afterMark = useCallback(
    (cell: ScopeCell | undefined, marks: Marks, picked: boolean) => {
      if (cell && picked && marks.rejected) mutate({ batchId: cell.batchId, productId: cell.productId, shot: cell.shot, imageId: null, withReject: true });
    },
    [mutate],
  );
  // A refusal (a rejected image) is shown with the cell it was about, not on the next cell walked to.
  const asked = setPick.variables;
  const errorIn = (cell: ScopeCell | undefined): Error | null =>
    cell && asked && asked.batchId === cell.batchId && asked.productId === cell.productId && asked.shot === cell.shot ? (setPick.error as Error | null) : null;
  return { toggle, afterMark, errorIn };
}
