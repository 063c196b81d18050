// What the board shows and where the keyboard goes, as plain functions of main's board (catalog:get-board): rows
// after the filters ("needs attention", a status, one shot, one product), and focus moving between candidates and cells.
import type { BoardCell, BoardProduct, BoardShot, CatalogBoard } from '../../../src-shared/ipc/batch-board.ts';
import { onlyCandidate } from '../../../src-shared/only-candidate.ts';

/** The status filter's choices: every status, failed or unknown, over budget or not sent (cancelled too: never
 *  sent either), done without a pick, picked. */
export const STATUS_FILTERS = ['all', 'failed', 'unsent', 'no_pick', 'picked'] as const;
export type StatusFilter = (typeof STATUS_FILTERS)[number];

export interface BoardFilter {
  attention: boolean;
  /** Rows with a shown cell of this kind (with "needs attention" too, a row must have both). */
  status: StatusFilter;
  /** One shot's name, or null for every shot. */
  shot: string | null;
  productId: string | null;
}

export const NO_FILTER: BoardFilter = { attention: false, status: 'all', shot: null, productId: null };

export interface BoardRow {
  product: BoardProduct;
  /** The row's cells in the order of the shots shown. */
  cells: BoardCell[];
}

export interface BoardView {
  shots: BoardShot[];
  rows: BoardRow[];
}

/** A cell the designer still has to act on: no result for a reason, or results and no pick yet. */
export function needsAttention(cell: BoardCell): boolean {
  if (cell.status === 'failed' || cell.status === 'unknown' || cell.status === 'over_budget') return true;
  return cell.pick === null && cell.status !== 'queued' && cell.status !== 'running';
}

/** Whether a cell is of the kind the status filter asks for. */
export function hasStatus(cell: BoardCell, status: StatusFilter): boolean {
  switch (status) {
    case 'all':
      return true;
    case 'failed':
      return cell.status === 'failed' || cell.status === 'unknown';
    case 'unsent':
      return cell.status === 'over_budget' || cell.status === 'not_sent' || cell.status === 'cancelled';
    case 'no_pick':
      return cell.status === 'done' && cell.pick === null;
    case 'picked':
      return cell.pick !== null;
  }
}

/** How many cells "pick the only candidate" would pick (src-shared/only-candidate.ts says which). */
export function onlyCandidateCount(board: CatalogBoard): number {
  return board.cells.reduce((n, cell) => n + (onlyCandidate(cell) ? 1 : 0), 0);
}

/** The board's rows and columns under the filters (main answers cells row by row, in the order of products × shots). */
export function boardView(board: CatalogBoard, filter: BoardFilter): BoardView {
  const width = board.shots.length;
  const shown = board.shots.flatMap((shot, i) => (filter.shot === null || shot.name === filter.shot ? [i] : []));
  const rows: BoardRow[] = [];
  board.products.forEach((product, p) => {
    if (filter.productId !== null && product.productId !== filter.productId) return;
    const cells = shown.map((s) => board.cells[p * width + s]).filter((c): c is BoardCell => c !== undefined);
    if (filter.attention && !cells.some(needsAttention)) return;
    if (filter.status !== 'all' && !cells.some((c) => hasStatus(c, filter.status))) return;
    rows.push({ product, cells });
  });
  return { shots: shown.map((s) => board.shots[s]).filter((s): s is BoardShot => s !== undefined), rows };
}

/** Where the keyboard focus is: a row, a shot column, a candidate of that cell (0 for an empty cell). */
export interface BoardFocus {
  row: number;
  shot: number;
  candidate: number;
}

/** Focus stops in a cell: one per candidate, one for a cell without any. */
function stops(view: BoardView, row: number, shot: number): number {
  return Math.max(1, view.rows[row]?.cells[shot]?.candidates.length ?? 0);
}

/** What the grid's keys carry besides their name: Ctrl (or ⌘) held, and how many rows a page is (the rows in view). */
export interface MoveKeys {
  ctrl?: boolean;
  pageRows?: number;
}

/** The same shot and candidate (as near as the cell has) in another row, kept inside the board. */
function toRow(view: BoardView, at: BoardFocus, row: number): BoardFocus {
  const to = Math.max(0, Math.min(row, view.rows.length - 1));
  return { row: to, shot: at.shot, candidate: Math.min(at.candidate, stops(view, to, at.shot) - 1) };
}

/**
 * The focus after a key of the grid (the WAI-ARIA grid pattern's, as Lightroom's grid has them): arrows left/right
 * through candidates and on into the next cell, up/down to the same shot; Home/End to the row's first/last candidate,
 * with Ctrl the board's first/last; PageUp/PageDown a page of rows up/down (at least one), keeping shot and candidate.
 * Null for any other key: it is not the grid's to move on.
 */
export function moveFocus(view: BoardView, at: BoardFocus, key: string, keys: MoveKeys = {}): BoardFocus | null {
  const last = (row: number, shot: number) => stops(view, row, shot) - 1;
  const lastShot = Math.max(0, view.shots.length - 1);
  const page = Math.max(1, Math.floor(keys.pageRows ?? 1));
  switch (key) {
    case 'ArrowRight':
      if (at.candidate < last(at.row, at.shot)) return { ...at, candidate: at.candidate + 1 };
      return at.shot + 1 < view.shots.length ? { ...at, shot: at.shot + 1, candidate: 0 } : at;
    case 'ArrowLeft':
      if (at.candidate > 0) return { ...at, candidate: at.candidate - 1 };
      return at.shot > 0 ? { ...at, shot: at.shot - 1, candidate: last(at.row, at.shot - 1) } : at;
    case 'ArrowDown':
      return toRow(view, at, at.row + 1);
    case 'ArrowUp':
      return toRow(view, at, at.row - 1);
    case 'PageDown':
      return toRow(view, at, at.row + page);
    case 'PageUp':
      return toRow(view, at, at.row - page);
    case 'Home':
      return { row: keys.ctrl ? 0 : at.row, shot: 0, candidate: 0 };
    case 'End': {
      const row = keys.ctrl ? view.rows.length - 1 : at.row;
      return { row, shot: lastShot, candidate: last(row, lastShot) };
    }
    default:
      return null;
  }
}

/** The focus kept inside the board after it changed (a filter, a refresh): clamped to what is shown. */
export function clampFocus(view: BoardView, at: BoardFocus): BoardFocus {
  const row = Math.max(0, Math.min(at.row, view.rows.length - 1));
  const shot = Math.max(0, Math.min(at.shot, view.shots.length - 1));
  return { row, shot, candidate: Math.max(0, Math.min(at.candidate, stops(view, row, shot) - 1)) };
}
