// One product's row of the Catalog's product × shot board (CatalogBoard.tsx): the product's head (name, SKU,
// master reference) and a cell per shot (BoardCell.tsx). A row is memoised and hears of its own cells being drawn
// (board-staging.ts), so a scroll step or a frame's cells render only the rows concerned; it is as tall as its
// contents need at most (rowHeight), which is also the virtualiser's estimate, so a row drawn after it came in does
// not move the rows below it.
import { memo, useCallback, useSyncExternalStore } from 'react';
import type { BatchDetail } from '../../../src-shared/ipc/batch.ts';
import type { BoardCell } from '../../../src-shared/ipc/batch-board.ts';
import type { BoardT } from './board-i18n.ts';
import type { BoardFocus, BoardRow } from './board-model.ts';
import type { CellStager } from './board-staging.ts';
import { BoardCellView, type CellHandlers } from './BoardCell.tsx';
import { rowSheet, rowSheetStyle, tileOf, type RowSheet } from './board-sheet.ts';
import { jobOf } from './Reruns.tsx';

export const THUMB = 96;
/** A row of one line of candidates (board.css): the cell's padding 6 + status 2 lines 34 + gap 4 + thumbnails 96 +
 *  gap 4 + actions 24 + padding 6, the border 1, and 1 to spare for fractions of a line. */
const ROW_ONE_LINE = 176;
/** Each further line of candidates (a re-shot cell of 3 or 4), and a cell's error line (code and request id). */
const CANDIDATE_LINE = THUMB + 6;
const ERROR_LINES = 36;
export const ROW_ESTIMATE = ROW_ONE_LINE;

/** How tall a row is drawn at least: what its cells hold at the board's widths (two candidates a line). As tall as
 *  its drawn contents, so a row drawn after it came in (staged) or measured does not move the rows below it. */
export function rowHeight(row: BoardRow): number {
  let tallest = ROW_ONE_LINE;
  for (const cell of row.cells) {
    const lines = Math.max(1, Math.ceil(cell.candidates.length / 2));
    tallest = Math.max(tallest, ROW_ONE_LINE + (lines - 1) * CANDIDATE_LINE + (cell.code ? ERROR_LINES : 0));
  }
  return tallest;
}

/** What a row asks of the grid (and its cells, CellHandlers); one object for the whole board that never changes. */
export interface RowHandlers extends CellHandlers {
  openProduct: (row: BoardRow) => void;
  /** Makes the row's focused candidate the product's master reference. */
  setMaster: (row: BoardRow) => void;
}

/** The row head: the product's name, SKU and master reference, and the choice of a master from its candidates (its
 *  buttons come with the row's first drawn cell: a row at a glance has nothing to press). */
const ProductHead = memo(function ProductHead({ row, focused, t, on, sheet, actions }: { row: BoardRow; focused: string | null; t: BoardT; on: RowHandlers; sheet: RowSheet | null; actions: boolean }) {
  const { product } = row;
  const count = row.cells.reduce((n, cell) => n + cell.candidates.length, 0);
  const chosen = product.masterChosen === true;
  return (
    <div role="rowheader" className="catalog-board-product">
      {product.masterImageId ? (
        <img className="catalog-board-master" {...tileOf(sheet, product.masterImageId)} alt={t('masterAlt', { sku: product.sku })} width={56} height={56} decoding="async" draggable={false} />
      ) : (
        <span className="catalog-board-master catalog-board-master-none">{t('noMaster')}</span>
      )}
      <span className="catalog-board-product-text">
        <span className="catalog-board-product-name">{product.name}</span>
        <span className="mono small muted">{product.sku}</span>
        {chosen ? <span className="small catalog-board-picked-note">{t('masterChosen')}</span> : null}
        {actions && count > 0 ? (
          <span className="row-gap wrap">
            <button type="button" className="btn btn-ghost btn-sm" data-testid="product-open-viewer" onClick={() => on.openProduct(row)}>
              {t('viewProduct', { count })}
            </button>
            <button
              type="button"
              className="btn btn-ghost btn-sm"
              data-testid="product-master"
              data-master-image-id={chosen ? (product.masterImageId ?? '') : ''}
              title={focused ? t('masterSetLabel', { name: focused, sku: product.sku }) : t('masterSetNone', { sku: product.sku })}
              aria-disabled={focused === null}
              // The grid keeps its focus on the candidate the master is taken from.
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => on.setMaster(row)}
            >
              {t('masterSet')}
            </button>
          </span>
        ) : null}
      </span>
    </div>
  );
});

/** How the designer names a cell: its product's SKU and the shot. */
export function cellLabel(cell: BoardCell): string {
  return `${cell.sku} · ${cell.shotName}`;
}

/** One product's row: memoised, so scrolling renders only the rows that enter. */
interface RowProps {
  row: BoardRow;
  index: number;
  start: number;
  template: string;
  gridId: string;
  /** The grid's Tab stop when it is in this row, else null. */
  tab: BoardFocus | null;
  focused: string | null;
  t: BoardT;
  on: RowHandlers;
  batchId: string;
  /** The batch detail the page holds: each cell's latest job for its Retry and Re-shoot. */
  detail: BatchDetail | undefined;
  /** Which of the row's cells have their contents drawn so far (board-staging.ts; the row hears of more itself). */
  stager: CellStager;
  measure: (el: HTMLElement | null) => void;
}

export const BoardRowView = memo(function BoardRowView({ row, index, start, template, gridId, tab, focused, t, on, batchId, detail, stager, measure }: RowProps) {
  const key = row.product.productId;
  const drawn = useSyncExternalStore(
    useCallback((heard: () => void) => stager.subscribe(key, heard), [stager, key]),
    () => stager.drawnOf(key),
  );
  // Asked for with the row's frame: the master and the cells at a glance show from it, and it is in when they are drawn.
  const sheet = rowSheet(row);
  return (
    <div ref={measure} role="row" aria-busy={drawn < row.cells.length} data-index={index} aria-rowindex={index + 2} className="catalog-board-row" data-testid="board-row" data-sku={row.product.sku} style={{ gridTemplateColumns: template, top: start, minHeight: rowHeight(row), ...rowSheetStyle(sheet) }}>
      <ProductHead row={row} focused={focused} t={t} on={on} sheet={sheet} actions={drawn > 0} />
      {row.cells.map((cell, s) => (
        <BoardCellView key={cell.shotName} cell={cell} row={index} shot={s} gridId={gridId} tabStop={tab && tab.row === index && tab.shot === s ? tab.candidate : -1} t={t} on={on} batchId={batchId} job={latestJobOf(detail, cell.jobIds)} drawn={s < drawn} sheet={sheet} />
      ))}
    </div>
  );
});

/**
 * The cell's newest job the batch detail holds. The board can name a job the page's detail has not read yet (a
 * re-shoot just sent): the cell keeps its previous job meanwhile, so its actions (and a re-shoot dialog open in them)
 * stay mounted until the detail catches up.
 */
function latestJobOf(detail: BatchDetail | undefined, jobIds: readonly string[]) {
  for (let i = jobIds.length - 1; i >= 0; i--) {
    const job = jobOf(detail, jobIds[i] ?? null);
    if (job) return job;
  }
  return null;
}
