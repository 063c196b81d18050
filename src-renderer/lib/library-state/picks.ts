// A Catalog cell's pick (catalog:set-pick), the one pick action of the renderer: the board (features/batch,
// board-queries.ts) and the viewer and compare opened from a cell, a product or a job (features/viewer) both set it
// here, so a pick made anywhere shows at once on every cached board of the batch, goes on the one undo stack with
// the marks (undo.ts: Ctrl+Z puts the cell's earlier pick back) and names the image in the note. It lives in this
// shared layer because the viewer may not import the batch feature (docs/architecture.md).
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { BoardCell, CatalogBoard, SetPickInput } from '../../../src-shared/ipc/batch-board.ts';
import { call } from '../desktop.ts';
import { cellName, placeName } from './store.ts';
import { joinNewest, oneAfterAnother, remember, say, type UndoEntry } from './undo.ts';

/** Every cached read of a batch's board (its first rows and the whole of it) lives under this key. */
export const boardKey = (batchId: string) => ['batch', 'board', batchId] as const;

/** The cached boards of a batch (first rows and whole). */
export function boardsOf(client: QueryClient, batchId: string): CatalogBoard[] {
  return client.getQueriesData<CatalogBoard>({ queryKey: boardKey(batchId) }).flatMap(([, data]) => (data ? [data] : []));
}

/** Changes cells on every cached board of the batch. */
export function patchCells(client: QueryClient, batchId: string, patch: (cell: BoardCell) => BoardCell): void {
  client.setQueriesData<CatalogBoard>({ queryKey: boardKey(batchId) }, (board) => (board ? { ...board, cells: board.cells.map(patch) } : board));
}

/** An image by its place on the board, as the notes name it ("SKU-001 · main 2/2"); null when no cell holds it. */
export function placeOf(cells: readonly BoardCell[], imageId: string): string | null {
  for (const cell of cells) {
    const at = cell.candidates.findIndex((c) => c.imageId === imageId);
    if (at >= 0) return placeName(cellName(cell.sku, cell.shotName), at, cell.candidates.length);
  }
  return null;
}

/** A cell as a pick names it: its product (by id, or by SKU) and its shot. */
export type CellAt = Pick<SetPickInput, 'productId' | 'sku' | 'shot'>;

const isCell = (at: CellAt) => (c: BoardCell) => c.shotName === at.shot && (at.productId !== undefined ? c.productId === at.productId : c.sku === at.sku);

/** Shows a pick on every cached board of the batch: at once as asked, then as main stored it. */
function showPick(client: QueryClient, batchId: string, at: CellAt, pick: string | null): void {
  const here = isCell(at);
  patchCells(client, batchId, (c) => (here(c) ? { ...c, pick } : c));
}

/** Each cached board's picks by product and shot, made once per board object (a change makes a new one): an open
 *  viewer reads its cells' picks on every cache event, and a board holds up to 8,000 cells. */
const pickIndexes = new WeakMap<CatalogBoard, Map<string, string | null>>();
const pickIndexKey = (productId: string, shot: string) => `${productId}\n${shot}`;

function picksOf(board: CatalogBoard): Map<string, string | null> {
  let index = pickIndexes.get(board);
  if (!index) {
    index = new Map(board.cells.map((c) => [pickIndexKey(c.productId, c.shotName), c.pick]));
    pickIndexes.set(board, index);
  }
  return index;
}

/** The cell's pick as the boards show it; undefined when no cached board holds the cell. */
export function shownPick(client: QueryClient, batchId: string, at: CellAt): string | null | undefined {
  for (const board of boardsOf(client, batchId)) {
    if (at.productId !== undefined) {
      const index = picksOf(board);
      const key = pickIndexKey(at.productId, at.shot);
      if (index.has(key)) return index.get(key);
      continue;
    }
    const cell = board.cells.find(isCell(at));
    if (cell) return cell.pick;
  }
  return undefined;
}

/** Sets a pick in main and the boards; main refusing leaves the boards to read it again. */
async function putPick(client: QueryClient, batchId: string, input: SetPickInput): Promise<BoardCell> {
  showPick(client, batchId, input, input.imageId);
  try {
    const stored = await call('catalogSetPick', input);
    showPick(client, batchId, { productId: stored.productId, shot: stored.shotName }, stored.pick);
    return stored;
  } catch (error) {
    void client.invalidateQueries({ queryKey: boardKey(batchId) });
    throw error;
  }
}

/** A pick as a view asks for it: `withReject` when the same key press rejected the image (X on the pick). */
export type PickAsked = SetPickInput & { withReject?: boolean };

/** Whether a change is the reject of exactly this image: the pick it clears is part of that one key press. */
const rejectOf = (imageId: string) => (newest: UndoEntry) => newest.done === 'marked' && newest.marks.rejected === true && newest.imageIds.length === 1 && newest.imageIds[0] === imageId;

/**
 * Picks asked for and not yet written, by cell: a pick replaces what those before it will have set (the board may
 * show main's older answer meanwhile). Each pick is its own token, so only the last of a cell clears the entry.
 */
const pendingPicks = new Map<string, { pick: string | null; token: object }>();
const cellKey = (batchId: string, at: CellAt) => JSON.stringify([batchId, at.productId ?? null, at.sku ?? null, at.shot]);

/**
 * Sets a pick, remembering the cell's earlier pick (none or another candidate) so Ctrl+Z puts it back (undo.ts).
 * The earlier pick is a pick of this window still on its way, else the one the board shows (a pick made elsewhere
 * reaches it with main's event): one call to main per pick, so main has it as soon as the designer sees it.
 */
function pickAndRemember(client: QueryClient, batchId: string, { withReject, ...input }: PickAsked): Promise<BoardCell> {
  const key = cellKey(batchId, input);
  const before = pendingPicks.has(key) ? pendingPicks.get(key)?.pick : shownPick(client, batchId, input);
  const token = {};
  pendingPicks.set(key, { pick: input.imageId, token });
  showPick(client, batchId, input, input.imageId);
  return oneAfterAnother(async () => {
    try {
      const stored = await call('catalogSetPick', input);
      rememberPick(batchId, stored, before, withReject === true);
      return stored;
    } finally {
      if (pendingPicks.get(key)?.token === token) pendingPicks.delete(key);
    }
  });
}

/** Puts a pick on the undo stack (or, after X on the pick, with that reject) and names it in the note. */
function rememberPick(batchId: string, stored: BoardCell, before: string | null | undefined, withReject: boolean): void {
  const imageId = stored.pick ?? before;
  if (before === stored.pick || !imageId) return;
  const done = stored.pick ? 'picked' : 'unpicked';
  const name = placeOf([stored], imageId) ?? cellName(stored.sku, stored.shotName);
  if (before === undefined) {
    say({ kind: done, marks: {}, name });
    return;
  }
  const back = { batchId, productId: stored.productId, shot: stored.shotName, imageId: before };
  const step = { what: 'pick' as const, putBack: (c: QueryClient) => putPick(c, batchId, back).then(() => undefined) };
  // X on the picked candidate rejects it and clears the pick: one change, one Ctrl+Z.
  if (done === 'unpicked' && joinNewest([step], rejectOf(imageId), withReject)) return;
  remember({ done, marks: {}, name, imageIds: [imageId], steps: [step] });
}

/**
 * The pick mutation's steps on a cache (the hook's body, apart so a test can run it on a real QueryClient). The
 * board passes its batch; the viewer's picks name theirs in each input.
 */
export function pickMutation(client: QueryClient, boardBatchId?: string) {
  const batchOf = (input: PickAsked) => boardBatchId ?? input.batchId;
  return {
    // Shows the pick at once (the board's cell), then sends it in turn.
    mutationFn: (input: PickAsked) => pickAndRemember(client, batchOf(input), input),
    onError: (_error: unknown, input: PickAsked) => void client.invalidateQueries({ queryKey: boardKey(batchOf(input)) }),
    // The answer is the cell as main stored it.
    onSuccess: (stored: BoardCell, input: PickAsked) => showPick(client, batchOf(input), { productId: stored.productId, shot: stored.shotName }, stored.pick),
  };
}

/** Sets or clears a cell's pick (of `batchId`'s board, else of the batch each input names); the boards show it at
 *  once; Ctrl+Z puts the earlier pick back. */
export function useSetPick(batchId?: string) {
  return useMutation(pickMutation(useQueryClient(), batchId));
}
