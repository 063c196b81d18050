import { describe, expect, it } from 'vitest';
import type { BoardCell, CatalogBoard, CellStatus } from '../../../src-shared/ipc/batch-board.ts';
import { boardView, clampFocus, hasStatus, moveFocus, needsAttention, NO_FILTER, onlyCandidateCount, STATUS_FILTERS, type BoardFilter, type StatusFilter } from './board-model.ts';

function cell(sku: string, shotName: string, status: CellStatus, candidates = 0, pick: string | null = null): BoardCell {
  return {
    productId: `pr_${sku}`,
    sku,
    shotName,
    status,
    startedAt: null,
    code: null,
    requestId: null,
    candidates: Array.from({ length: candidates }, (_, i) => ({ imageId: `${sku}-${shotName}-${i}`, jobId: 'bj', download: 'done' as const, rating: 0, starred: false, rejected: false })),
    pick,
    charged: 0,
    estimated: 0,
    jobIds: [],
  };
}

/** 3 products × 2 shots: A all picked, B one failed, C running and done without a pick. */
const BOARD: CatalogBoard = {
  batchId: 'bt_1',
  state: 'running',
  products: ['A', 'B', 'C'].map((sku) => ({ productId: `pr_${sku}`, sku, name: sku, masterImageId: null })),
  shots: [{ name: 'main', kind: 'main_white' }, { name: 'detail', kind: 'free' }],
  cells: [
    cell('A', 'main', 'done', 2, 'A-main-0'),
    cell('A', 'detail', 'done', 2, 'A-detail-1'),
    cell('B', 'main', 'failed'),
    cell('B', 'detail', 'done', 2, 'B-detail-0'),
    cell('C', 'main', 'running'),
    cell('C', 'detail', 'done', 3),
  ],
};

describe('the board model', () => {
  it('needs attention: failed, unknown, over budget, or settled without a pick; never queued or running', () => {
    expect(['failed', 'unknown', 'over_budget', 'not_sent', 'cancelled'].map((s) => needsAttention(cell('X', 'm', s as CellStatus)))).toEqual([true, true, true, true, true]);
    expect([needsAttention(cell('X', 'm', 'queued')), needsAttention(cell('X', 'm', 'running')), needsAttention(cell('X', 'm', 'done', 2, 'X-m-0'))]).toEqual([false, false, false]);
    expect(needsAttention(cell('X', 'm', 'done', 2))).toBe(true);
  });

  it('filters rows by attention, shot and product, and columns by shot', () => {
    expect(boardView(BOARD, NO_FILTER).rows.map((r) => r.product.sku)).toEqual(['A', 'B', 'C']);
    expect(boardView(BOARD, { ...NO_FILTER, attention: true }).rows.map((r) => r.product.sku)).toEqual(['B', 'C']);
    const main = boardView(BOARD, { ...NO_FILTER, attention: true, shot: 'main' });
    expect(main.shots.map((s) => s.name)).toEqual(['main']);
    expect(main.rows.map((r) => [r.product.sku, r.cells.map((c) => c.status)])).toEqual([['B', ['failed']]]);
    expect(boardView(BOARD, { ...NO_FILTER, productId: 'pr_C' }).rows.map((r) => r.cells.map((c) => c.shotName))).toEqual([['main', 'detail']]);
  });

  it('filters rows by status apart from attention: failed or unknown, over budget or not sent, no pick yet, picked', () => {
    // D: unknown and over budget; E: not sent and cancelled; F: a done cell with one candidate, one rejected of two.
    const board: CatalogBoard = {
      ...BOARD,
      products: [...BOARD.products, ...['D', 'E', 'F'].map((sku) => ({ productId: `pr_${sku}`, sku, name: sku, masterImageId: null }))],
      cells: [...BOARD.cells, cell('D', 'main', 'unknown'), cell('D', 'detail', 'over_budget'), cell('E', 'main', 'not_sent'), cell('E', 'detail', 'cancelled'), cell('F', 'main', 'done', 1), cell('F', 'detail', 'done', 2)],
    };
    const skus = (status: StatusFilter, more: Partial<BoardFilter> = {}) => boardView(board, { ...NO_FILTER, ...more, status }).rows.map((r) => r.product.sku);
    expect(STATUS_FILTERS.map((s) => [s, skus(s)])).toEqual([
      ['all', ['A', 'B', 'C', 'D', 'E', 'F']],
      ['failed', ['B', 'D']],
      ['unsent', ['D', 'E']],
      ['no_pick', ['C', 'F']],
      ['picked', ['A', 'B']],
    ]);
    // With one shot, only that shot's cells count; with "needs attention" too, a row must have both.
    expect(skus('failed', { shot: 'detail' })).toEqual([]);
    expect(skus('unsent', { shot: 'detail' })).toEqual(['D', 'E']);
    expect(skus('picked', { attention: true })).toEqual(['B']);
    expect(hasStatus(cell('X', 'm', 'done', 2, 'X-m-0'), 'no_pick')).toBe(false);
    expect(hasStatus(cell('X', 'm', 'running'), 'no_pick')).toBe(false);

    // "Pick the only candidate": done, no pick, exactly one candidate not rejected (C · main runs; F · main has one).
    expect(onlyCandidateCount(board)).toBe(1);
    const oneRejected = cell('F', 'detail', 'done', 2);
    oneRejected.candidates[0]!.rejected = true;
    expect(onlyCandidateCount({ ...board, cells: [...board.cells.slice(0, -1), oneRejected] })).toBe(2);
  });

  it('moves focus through candidates, on into the next cell, and up and down in the same shot', () => {
    const view = boardView(BOARD, NO_FILTER);
    let at = moveFocus(view, { row: 0, shot: 0, candidate: 0 }, 'ArrowRight');
    expect(at).toEqual({ row: 0, shot: 0, candidate: 1 });
    at = at && moveFocus(view, at, 'ArrowRight');
    expect(at).toEqual({ row: 0, shot: 1, candidate: 0 });
    expect(moveFocus(view, { row: 0, shot: 1, candidate: 1 }, 'ArrowRight')).toEqual({ row: 0, shot: 1, candidate: 1 });
    expect(moveFocus(view, { row: 0, shot: 1, candidate: 0 }, 'ArrowLeft')).toEqual({ row: 0, shot: 0, candidate: 1 });
    // Down into a failed cell (one stop), then down into a 3-candidate cell keeps the column.
    expect(moveFocus(view, { row: 0, shot: 0, candidate: 1 }, 'ArrowDown')).toEqual({ row: 1, shot: 0, candidate: 0 });
    expect(moveFocus(view, { row: 1, shot: 1, candidate: 1 }, 'ArrowDown')).toEqual({ row: 2, shot: 1, candidate: 1 });
    expect(moveFocus(view, { row: 2, shot: 1, candidate: 2 }, 'ArrowUp')).toEqual({ row: 1, shot: 1, candidate: 1 });
    expect(moveFocus(view, { row: 0, shot: 0, candidate: 0 }, 'ArrowUp')).toEqual({ row: 0, shot: 0, candidate: 0 });
    // Other keys are not the grid's to move on (P picks, X rejects).
    expect(moveFocus(view, { row: 0, shot: 0, candidate: 0 }, 'p')).toBeNull();
  });

  it('moves to the row\'s ends with Home and End, and to the board\'s with Ctrl', () => {
    const view = boardView(BOARD, NO_FILTER);
    // End: the row's last shot, its last candidate (C's detail has 3); Home: the row's first stop.
    expect(moveFocus(view, { row: 2, shot: 0, candidate: 0 }, 'End')).toEqual({ row: 2, shot: 1, candidate: 2 });
    expect(moveFocus(view, { row: 1, shot: 1, candidate: 1 }, 'Home')).toEqual({ row: 1, shot: 0, candidate: 0 });
    expect(moveFocus(view, { row: 1, shot: 0, candidate: 0 }, 'End', { ctrl: true })).toEqual({ row: 2, shot: 1, candidate: 2 });
    expect(moveFocus(view, { row: 2, shot: 1, candidate: 2 }, 'Home', { ctrl: true })).toEqual({ row: 0, shot: 0, candidate: 0 });
    // A filtered board's ends are what it shows.
    const failed = boardView(BOARD, { ...NO_FILTER, attention: true, shot: 'main' });
    expect(moveFocus(failed, { row: 0, shot: 0, candidate: 0 }, 'End', { ctrl: true })).toEqual({ row: 0, shot: 0, candidate: 0 });
  });

  it('moves a page of rows with PageUp and PageDown, clamped, keeping the shot and the candidate as near as the cell has', () => {
    const many: CatalogBoard = {
      ...BOARD,
      products: Array.from({ length: 10 }, (_, i) => ({ productId: `pr_${i}`, sku: `${i}`, name: `${i}`, masterImageId: null })),
      shots: [{ name: 'main', kind: 'main_white' }],
      cells: Array.from({ length: 10 }, (_, i) => cell(`${i}`, 'main', i === 4 ? 'failed' : 'done', i === 4 ? 0 : 2)),
    };
    const view = boardView(many, NO_FILTER);
    expect(moveFocus(view, { row: 0, shot: 0, candidate: 1 }, 'PageDown', { pageRows: 3 })).toEqual({ row: 3, shot: 0, candidate: 1 });
    // Into a cell without candidates (one stop), and past the end to the last row.
    expect(moveFocus(view, { row: 1, shot: 0, candidate: 1 }, 'PageDown', { pageRows: 3 })).toEqual({ row: 4, shot: 0, candidate: 0 });
    expect(moveFocus(view, { row: 8, shot: 0, candidate: 1 }, 'PageDown', { pageRows: 3 })).toEqual({ row: 9, shot: 0, candidate: 1 });
    expect(moveFocus(view, { row: 7, shot: 0, candidate: 1 }, 'PageUp', { pageRows: 3 })).toEqual({ row: 4, shot: 0, candidate: 0 });
    expect(moveFocus(view, { row: 2, shot: 0, candidate: 1 }, 'PageUp', { pageRows: 3 })).toEqual({ row: 0, shot: 0, candidate: 1 });
    // A page is one row at least (a column shorter than a row, or no size known).
    expect(moveFocus(view, { row: 2, shot: 0, candidate: 1 }, 'PageDown', { pageRows: 0.4 })).toEqual({ row: 3, shot: 0, candidate: 1 });
    expect(moveFocus(view, { row: 2, shot: 0, candidate: 1 }, 'PageUp')).toEqual({ row: 1, shot: 0, candidate: 1 });
  });

  it('keeps the focus inside what a filter leaves', () => {
    const view = boardView(BOARD, { ...NO_FILTER, attention: true, shot: 'main' });
    expect(clampFocus(view, { row: 2, shot: 1, candidate: 2 })).toEqual({ row: 0, shot: 0, candidate: 0 });
  });
});
