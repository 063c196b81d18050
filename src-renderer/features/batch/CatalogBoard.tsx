// The Catalog's product × shot board (issue 26): one row per product (name, SKU, master reference), one column per
// shot, each cell its status, cost and candidates; filters "needs attention", one shot, one product. Rows are
// virtualised (@tanstack/react-virtual, as the gallery and the job list) so 500 products × 8 shots stay smooth.
// Keys on a focused candidate: arrows move (board-model.ts), P toggles the pick, M makes it the product's master
// reference, X / S / 0–5 mark it (the gallery's culling keys), Enter opens the cell's candidates in the viewer.
// Rows are memoised and their handlers one object that never changes, so a scroll step renders only the rows that
// enter; the board opens with its first rows and fills in the rest (board-queries.ts). The board scrolls with its
// column (one scroll area per column, column-scroll.ts): the header row sticks to the column's top, and a board wider
// than the column moves sideways under a scrollbar that sticks to the column's bottom (sideways.ts). A row that
// enters during a scroll shows its cells at a glance and draws them once the column rests (board-staging.ts); each
// row is as tall as its contents need at most (rowHeight), so rows seldom change the board's height once drawn.
import { defaultRangeExtractor, useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type FocusEvent, type KeyboardEvent } from 'react';
import type { BoardCell, CatalogBoard } from '../../../src-shared/ipc/batch-board.ts';
import { useTemplatedText } from '../../i18n/text.ts';
import { ErrorLine } from '../../ui/ErrorLine.tsx';
import { marksForKey } from '../../lib/library-state/marks.ts';
import { placeName, useGalleryStore } from '../../lib/library-state/store.ts';
import { cellImages, productImages } from '../../lib/library-state/cell-scope.ts';
import { boardText, type BoardT } from './board-i18n.ts';
import { boardView, clampFocus, moveFocus, NO_FILTER, STATUS_FILTERS, type BoardFilter, type BoardFocus, type BoardRow, type BoardView, type StatusFilter } from './board-model.ts';
import { useBoard, useBoardEvents, useBoardMark, useSetPick, useSetProductMaster } from './board-queries.ts';
import { stopId } from './BoardCell.tsx';
import { BoardRowView, cellLabel, ROW_ESTIMATE, rowHeight, THUMB, type RowHandlers } from './BoardRow.tsx';
import { PickOnlyCandidates } from './PickOnlyCandidates.tsx';
import { CellStager, type StagedRow } from './board-staging.ts';
import { useHeldBatchDetail } from './queries.ts';
import { overscanFor, scrollParentOf, useColumnScroll } from './column-scroll.ts';
import { BatchCard } from './parts.tsx';
import { revealSideways, useSideways } from './sideways.ts';
import './board.css';

/** Rows drawn beyond the visible ones on a long board: one each way keeps keyboard moves and a wheel step ready, and
 *  the DOM small. A board of up to WHOLE_UP_TO products is drawn whole (each row holds up to 8 shots' candidates). */
const OVERSCAN = 1;
const WHOLE_UP_TO = 40;
/** The sticky header row's height and the sideways bar's (board.css), kept clear when a row is scrolled to. */
const HEAD_HEIGHT = 40;
const BAR_HEIGHT = 16;

/** The drawn rows' indexes with `row` among them (in order), when there is one. */
function withRow(indexes: number[], row: number | undefined): number[] {
  if (row === undefined || indexes.includes(row)) return indexes;
  return [...indexes, row].sort((a, b) => a - b);
}
const PRODUCT_MIN = 200;

/** Column widths: the product, then each shot as wide as its most candidates (up to 2 side by side); and the least
 *  width of them all, below which the board moves sideways. */
function columns(board: CatalogBoard, view: BoardView): { template: string; minWidth: number } {
  const widest = new Map<string, number>();
  // Two side by side at most: a re-shot cell of 4 wraps to two lines instead of widening its shot for every row.
  for (const cell of board.cells) widest.set(cell.shotName, Math.max(widest.get(cell.shotName) ?? 1, Math.min(2, cell.candidates.length)));
  const shots = view.shots.map((s) => Math.max(176, (widest.get(s.name) ?? 1) * (THUMB + 6) + 16));
  return { template: [`minmax(${PRODUCT_MIN}px, 240px)`, ...shots.map((px) => `minmax(${px}px, 1fr)`)].join(' '), minWidth: shots.reduce((a, b) => a + b, PRODUCT_MIN) };
}

function Filters({ board, filter, setFilter, shown, t }: { board: CatalogBoard; filter: BoardFilter; setFilter: (f: BoardFilter) => void; shown: number; t: BoardT }) {
  const id = useId();
  return (
    <div className="row-gap wrap catalog-board-filters">
      <label className="catalog-board-check" title={t('attentionTitle')}>
        <input type="checkbox" data-testid="board-filter-attention" checked={filter.attention} onChange={(e) => setFilter({ ...filter, attention: e.target.checked })} />
        {t('attention')}
      </label>
      <label className="field-label" htmlFor={`${id}-status`}>
        {t('statusFilter')}
      </label>
      <select id={`${id}-status`} data-testid="board-filter-status" title={t('statusFilterTitle')} value={filter.status} onChange={(e) => setFilter({ ...filter, status: e.target.value as StatusFilter })}>
        {STATUS_FILTERS.map((s) => (
          <option key={s} value={s}>
            {t(`statusFilters.${s}`)}
          </option>
        ))}
      </select>
      <label className="field-label" htmlFor={`${id}-shot`}>
        {t('shot')}
      </label>
      <select id={`${id}-shot`} data-testid="board-filter-shot" value={filter.shot ?? ''} onChange={(e) => setFilter({ ...filter, shot: e.target.value || null })}>
        <option value="">{t('allShots')}</option>
        {board.shots.map((s) => (
          <option key={s.name} value={s.name}>
            {s.name}
          </option>
        ))}
      </select>
      <label className="field-label" htmlFor={`${id}-product`}>
        {t('productFilter')}
      </label>
      <select id={`${id}-product`} data-testid="board-filter-product" value={filter.productId ?? ''} onChange={(e) => setFilter({ ...filter, productId: e.target.value || null })}>
        <option value="">{t('allProducts')}</option>
        {board.products.map((p) => (
          <option key={p.productId} value={p.productId}>
            {p.sku} · {p.name}
          </option>
        ))}
      </select>
      <span className="muted small" data-testid="board-shown" data-shown={shown}>
        {t('shown', { shown, total: board.productCount ?? board.products.length })}
      </span>
    </div>
  );
}

/** The drawn rows' cells in the order they are drawn in: those in view top to bottom, then those below, then above. */
function stagingOrder(items: ReadonlyArray<{ index: number }>, view: BoardView, first: number, last: number): StagedRow[] {
  const rank = (i: number) => (i >= first && i <= last ? i - first : i > last ? i : 2 * view.rows.length - i);
  return [...items]
    .sort((a, b) => rank(a.index) - rank(b.index))
    .flatMap((item) => {
      const row = view.rows[item.index];
      return row ? [{ key: row.product.productId, cells: row.cells.length }] : [];
    });
}

/** What the keys do on a focused candidate: pick, master, marks, open; the arrows are the grid's. */
function useCandidateKeys(batchId: string, view: BoardView) {
  const setPick = useSetPick(batchId);
  const setMaster = useSetProductMaster(batchId);
  const mark = useBoardMark(batchId);
  const openViewer = useGalleryStore((s) => s.openViewer);
  const pick = setPick.mutate;
  const master = setMaster.mutate;
  const togglePick = useCallback(
    (cell: BoardCell, imageId: string) => pick({ batchId, productId: cell.productId, shot: cell.shotName, imageId: cell.pick === imageId ? null : imageId }),
    [pick, batchId],
  );
  // The viewer stays inside the cell: "2 / 4 in SKU-001 · main", auto-advance never leaves it.
  const open = useCallback(
    (cell: BoardCell, index: number) => {
      const { ids, scope } = cellImages(batchId, cell);
      openViewer(ids, index, scope);
    },
    [openViewer, batchId],
  );
  // A product's images, shot by shot: "3 / 8 in SKU-001", each named by its cell in the notes.
  const openProduct = useCallback(
    (row: BoardRow) => {
      const { ids, scope } = productImages(batchId, row.product.sku, row.cells);
      openViewer(ids, 0, scope);
    },
    [openViewer, batchId],
  );
  const chooseMaster = useCallback((row: BoardRow, imageId: string) => master({ batchId, productId: row.product.productId, imageId }), [master, batchId]);
  const act = (at: BoardFocus, key: string): boolean => {
    const cell = view.rows[at.row]?.cells[at.shot];
    const candidate = cell?.candidates[at.candidate];
    if (!cell || !candidate) return false;
    if (key === 'p' || key === 'P') togglePick(cell, candidate.imageId);
    else if (key === 'm' || key === 'M') chooseMaster(view.rows[at.row] as BoardRow, candidate.imageId);
    else if (key === 'Enter') open(cell, at.candidate);
    else {
      const marks = marksForKey(key, [candidate]);
      if (!marks) return false;
      mark([candidate.imageId], marks, placeName(cellLabel(cell), at.candidate, cell.candidates.length));
      // A rejected image never goes to the marketplace: it stops being the pick.
      if (marks.rejected && cell.pick === candidate.imageId) pick({ batchId, productId: cell.productId, shot: cell.shotName, imageId: null, withReject: true });
    }
    return true;
  };
  return { togglePick, open, openProduct, chooseMaster, act, error: setPick.error ?? setMaster.error };
}

/** The focused candidate of a row, named as the designer reads it ("main 1/2"), or null when the focus is elsewhere. */
function focusedName(view: BoardView, at: BoardFocus | null, row: number): string | null {
  if (!at || at.row !== row) return null;
  const cell = view.rows[row]?.cells[at.shot];
  return cell && cell.candidates[at.candidate] ? placeName(cell.shotName, at.candidate, cell.candidates.length) : null;
}

/** Rows a PageUp/PageDown moves: as many as the column shows between the sticky header row and the sideways bar, at
 *  the rows' average height so far (measured and estimated), one at least. */
function rowsInView(viewHeight: number, boardHeight: number, rows: number): number {
  const row = rows > 0 && boardHeight > 0 ? boardHeight / rows : ROW_ESTIMATE;
  return Math.max(1, Math.floor((viewHeight - HEAD_HEIGHT - BAR_HEIGHT) / row));
}

/** The board's cell stager, for as long as the board is mounted; it looks for waiting cells after each render. */
function useStager(): CellStager {
  const [stager] = useState(() => new CellStager());
  useLayoutEffect(() => stager.schedule());
  useEffect(() => {
    stager.start();
    return () => stager.stop();
  }, [stager]);
  return stager;
}

/** Each row's key and estimated height for the virtualiser. Both change with the view only: the virtualiser works out
 *  every row's place again when they change (1,000 rows). */
function useRowSizes(view: BoardView) {
  const getItemKey = useCallback((i: number) => view.rows[i]?.product.productId ?? i, [view]);
  const estimateSize = useCallback((i: number) => {
    const row = view.rows[i];
    return row ? rowHeight(row) : ROW_ESTIMATE;
  }, [view]);
  return { getItemKey, estimateSize };
}

function BoardGrid({ board, view, t }: { board: CatalogBoard; view: BoardView; t: BoardT }) {
  const gridId = useId().replace(/:/g, '');
  const rowsRef = useRef<HTMLDivElement>(null);
  const { scrollElement, start } = useColumnScroll(rowsRef);
  const sideways = useSideways();
  const [focus, setFocus] = useState<BoardFocus | null>(null);
  const moved = useRef(false);
  const keys = useCandidateKeys(board.batchId, view);
  const detail = useHeldBatchDetail(board.batchId).data;
  const at = focus ? clampFocus(view, focus) : null;
  const stager = useStager();
  // Rows get one handlers object for good; it reads the latest focus and view through a ref.
  const latest = useRef({ at, view, keys });
  useLayoutEffect(() => {
    latest.current = { at, view, keys };
  });
  const on = useMemo<RowHandlers>(
    () => ({
      focusStop: (stop) => setFocus((now) => (now && now.row === stop.row && now.shot === stop.shot && now.candidate === stop.candidate ? now : stop)),
      // The focus row is drawn whole (below), and the focus follows into it once it is, as after an arrow key.
      reach: (stop) => {
        moved.current = true;
        setFocus(stop);
      },
      togglePick: (cell, imageId) => latest.current.keys.togglePick(cell, imageId),
      open: (cell, index) => latest.current.keys.open(cell, index),
      openProduct: (row) => latest.current.keys.openProduct(row),
      setMaster: (row) => {
        const { at: now, view: shown } = latest.current;
        const index = shown.rows.indexOf(row);
        const candidate = now && now.row === index ? row.cells[now.shot]?.candidates[now.candidate] : undefined;
        if (candidate) latest.current.keys.chooseMaster(row, candidate.imageId);
      },
    }),
    [],
  );
  const { getItemKey, estimateSize } = useRowSizes(view);
  // While only the first rows of a long board are in, it is judged by the whole board's length.
  const drawable = board.productCount !== undefined && board.productCount > board.products.length ? board.productCount : view.rows.length;
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: view.rows.length,
    getScrollElement: scrollElement,
    estimateSize,
    overscan: overscanFor(drawable, WHOLE_UP_TO, OVERSCAN),
    scrollMargin: start,
    // A row moved to by the keys stops clear of the header row stuck on top and of the sideways bar at the bottom.
    scrollPaddingStart: HEAD_HEIGHT,
    scrollPaddingEnd: BAR_HEIGHT,
    getItemKey,
    // Rows coming into range render in a task after the scroll event, not inside it: rendered in it, the product
    // table's virtualiser (listening to the same column) read the scroll position next and forced a layout of them.
    useFlushSync: false,
    // The stager hears at once when the column rests, even from a change that renders nothing (its cells are drawn then).
    onChange: (instance) => stager.scrolling(instance.isScrolling),
    // The row holding the focus stays drawn however far the column scrolls, so the focus (and the keys) stay.
    rangeExtractor: (range) => withRow(defaultRangeExtractor(range), at?.row),
  });
  // After an arrow key the focus follows into the row, once the virtualiser has rendered it.
  useEffect(() => {
    if (!moved.current || !at) return;
    let tries = 0;
    const place = () => {
      const el = document.getElementById(stopId(gridId, at));
      if (el) {
        moved.current = false;
        // Up and down are the virtualiser's (scrollToIndex, clear of the sticky header row); sideways is the grid's
        // focus handler's (revealSideways), for every way a stop gets the focus.
        el.focus({ preventScroll: true });
      } else if (tries++ < 5) requestAnimationFrame(place);
    };
    place();
  });
  // The focus stays in the grid when its candidate goes away (a filter hid its row, a re-read redrew it): it moves to
  // the stop the focus was clamped to, unless the designer had taken it elsewhere.
  const holding = useRef(false);
  useEffect(() => {
    if (!holding.current || !at || (document.activeElement && document.activeElement !== document.body)) return;
    document.getElementById(stopId(gridId, at))?.focus({ preventScroll: true });
  });
  const onGridFocus = (e: FocusEvent) => {
    holding.current = true;
    if (e.target instanceof HTMLElement && e.target.id.startsWith(gridId)) revealSideways(sideways.content.current, e.target);
  };
  const onGridBlur = (e: FocusEvent) => {
    const to = e.relatedTarget as Node | null;
    // Focus leaving for another element, or the window, lets go; a focused candidate taken out of the page does not.
    if ((to && !e.currentTarget.contains(to)) || (!to && (e.target as Node).isConnected)) holding.current = false;
  };
  const onKeyDown = (e: KeyboardEvent) => {
    // Ctrl and ⌘ are the app's (Ctrl+Z undoes a mark), but for the board's ends: Ctrl+Home, Ctrl+End.
    const ctrl = e.ctrlKey || e.metaKey;
    if (!at || e.altKey || (ctrl && e.key !== 'Home' && e.key !== 'End')) return;
    const viewHeight = virtualizer.scrollRect?.height ?? 0;
    const next = moveFocus(view, at, e.key, { ctrl, pageRows: rowsInView(viewHeight, virtualizer.getTotalSize(), view.rows.length) });
    if (next) {
      e.preventDefault();
      moved.current = true;
      setFocus(next);
      // Down to the last row the virtualiser's 'end' is the column's end (it takes its list for all the column holds;
      // the products and the shot list come below): that row is centred instead, re-aimed as rows get measured.
      const toEnd = next.row === view.rows.length - 1 && virtualizer.getOffsetForIndex(next.row, 'auto')?.[1] === 'end';
      virtualizer.scrollToIndex(next.row, { align: toEnd ? 'center' : 'auto' });
    } else if (keys.act(at, e.key)) e.preventDefault();
  };
  const { template, minWidth } = useMemo(() => columns(board, view), [board, view]);
  const items = virtualizer.getVirtualItems();
  const inView = virtualizer.range;
  // Before the grid is entered, its first stop takes the Tab.
  const tab = at ?? { row: 0, shot: 0, candidate: 0 };
  // The row with the grid's Tab stop (the focus's row once the grid was entered) is drawn whole: its stops are always there.
  const wholeKey = view.rows[tab.row]?.product.productId;
  stager.plan(stagingOrder(items, view, inView?.startIndex ?? 0, inView?.endIndex ?? -1), virtualizer.isScrolling, (key) => key === wholeKey);
  return (
    <>
      <div role="grid" aria-label={t('gridLabel')} aria-rowcount={view.rows.length + 1} className="catalog-board-grid" onKeyDown={onKeyDown} onFocus={onGridFocus} onBlur={onGridBlur}>
        <div className="catalog-board-head-wrap" ref={sideways.head} onWheel={sideways.onHeadWheel}>
          <div role="row" className="catalog-board-row catalog-board-head" style={{ gridTemplateColumns: template, minWidth }} aria-rowindex={1}>
            <span role="columnheader">{t('product')}</span>
            {view.shots.map((s) => (
              <span role="columnheader" key={s.name} className="catalog-board-shot-head">
                {s.name}
              </span>
            ))}
          </div>
        </div>
        <div className="catalog-board-x" ref={sideways.content} onScroll={sideways.fromContent} onWheel={sideways.onContentWheel}>
          <div className="catalog-board-rows" ref={rowsRef} style={{ height: virtualizer.getTotalSize(), minWidth }}>
            {/* The rows' own box, never replaced: a row coming or going lays out the board's rows alone (board.css). */}
            <div className="catalog-board-rows-in">
              {items.map((item) => {
                const row = view.rows[item.index];
                if (!row) return null;
                return (
                  <BoardRowView key={item.key} row={row} index={item.index} start={item.start - start} template={template} gridId={gridId} tab={tab.row === item.index ? tab : null} focused={focusedName(view, at, item.index)} t={t} on={on} batchId={board.batchId} detail={detail} stager={stager} measure={virtualizer.measureElement} />
                );
              })}
            </div>
          </div>
        </div>
        {/* The board's own sideways scrollbar, kept in sight at the column's bottom (the rows' own one is hidden). */}
        <div className="catalog-board-hbar" ref={sideways.bar} onScroll={sideways.fromBar} aria-hidden="true">
          <div style={{ minWidth }} />
        </div>
      </div>
      <p className="muted small catalog-board-keys">{t('keysHint')}</p>
      <ErrorLine error={keys.error} testId="board-pick-error" showCode />
    </>
  );
}

/** The board of the batch on show; null while there is none. */
export function BoardSection({ batchId }: { batchId: string }) {
  // The board's texts are filled in from templates: its cells ask for the same texts thousands of times.
  const t = useTemplatedText(boardText);
  useBoardEvents(batchId);
  const board = useBoard(batchId);
  const [filter, setFilter] = useState<BoardFilter>(NO_FILTER);
  const topRef = useRef<HTMLDivElement>(null);
  // A filter changed deep in a long board brings the board's top into view: its rows are there, not below.
  const filtered = useRef(false);
  const filterBy = useCallback((next: BoardFilter) => {
    filtered.current = true;
    setFilter(next);
  }, []);
  useLayoutEffect(() => {
    if (!filtered.current) return;
    filtered.current = false;
    // Only the column moves: scrollIntoView would move the app's boxes above it too (they hide their overflow).
    const top = topRef.current;
    const column = scrollParentOf(top);
    if (top && column) {
      const above = top.getBoundingClientRect().top - column.getBoundingClientRect().top;
      if (above < 0) column.scrollTop += above;
    }
  }, [filter]);
  const data = board.data;
  const view = useMemo(() => (data ? boardView(data, filter) : null), [data, filter]);
  return (
    <BatchCard title={t('title')} testId="catalog-board" className="catalog-board-card">
      <div ref={topRef} />
      <ErrorLine error={board.error} testId="board-error" showCode />
      {data && view ? (
        <>
          <Filters board={data} filter={filter} setFilter={filterBy} shown={view.rows.length} t={t} />
          <PickOnlyCandidates board={data} whole={board.whole} t={t} />
          {data.products.length === 0 ? <p className="muted small">{t('noProducts')}</p> : null}
          {data.products.length > 0 && view.rows.length === 0 ? <p className="muted small">{t(filter.status === 'all' ? 'nothingShown' : 'nothingOfStatus')}</p> : null}
          {view.rows.length > 0 ? <BoardGrid board={data} view={view} t={t} /> : null}
        </>
      ) : null}
    </BatchCard>
  );
}
