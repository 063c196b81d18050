// "Pick the only candidate" (catalog:pick-only-candidates): which cells it picks, and what. One rule for main, which
// picks them, and the board, which counts them on its button.
import type { BoardCell, PickedCell } from './ipc/batch-board.ts';

/** The cell's pick-to-be when it is done, has no pick and exactly one candidate not rejected; else null. */
export function onlyCandidate(cell: BoardCell): PickedCell | null {
  if (cell.status !== 'done' || cell.pick !== null) return null;
  const usable = cell.candidates.filter((c) => !c.rejected);
  const only = usable.length === 1 ? usable[0] : undefined;
  return only ? { productId: cell.productId, shot: cell.shotName, imageId: only.imageId } : null;
}
