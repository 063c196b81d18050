// The Catalog's product × shot board (issue 26): one row per product (name, SKU, master reference), one column per
// shot, each cell its status, cost and candidates; filters "needs attention", one shot, one product. Rows are
// virtualised (@tanstack/react-virtual, as the gallery and the job list) so 500 products × 8 shots stay smooth.
// Keys on a focused candidate: arrows move (board-model.ts), P toggles the pick, X / S / 0–5 mark it (the gallery's
// culling keys), Enter opens the cell's candidates in the viewer.
import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { BoardCell, CatalogBoard } from '../../../src-shared/ipc/batch-board.ts';
import { useText } from '../../i18n/text.ts';
import { imageUrl } from '../../lib/desktop.ts';
import { ErrorLine } from '../../ui/ErrorLine.tsx';
import { marksForKey } from '../../lib/library-state/marks.ts';
import { useGalleryStore } from '../../lib/library-state/store.ts';
import { boardText, type BoardT } from './board-i18n.ts';
import { boardView, clampFocus, moveFocus, NO_FILTER, type BoardFilter, type BoardFocus, type BoardRow, type BoardView } from './board-model.ts';
import { useBoard, useBoardEvents, useBoardMark, useSetPick } from './board-queries.ts';
import { BoardCellView, stopId } from './BoardCell.tsx';
import { BatchCard } from './parts.tsx';
import './board.css';

const THUMB = 96;
const ROW_ESTIMATE = THUMB + 64;
/** The header row's least height (board.css); a long shot name may wrap it taller, which is measured. */
const HEAD_HEIGHT = 34;

/** Column widths: the product, then each shot as wide as its most candidates (up to 4 side by side). */
function columns(board: CatalogBoard, view: BoardView): string {
  const widest = new Map<string, number>();
  for (const cell of board.cells) widest.set(cell.shotName, Math.max(widest.get(cell.shotName) ?? 1, Math.min(4, cell.candidates.length)));
  return ['minmax(168px, 220px)', ...view.shots.map((s) => `minmax(${Math.max(176, (widest.get(s.name) ?? 1) * (THUMB + 6) + 16)}px, 1fr)`)].join(' ');
}

function Filters({ board, filter, setFilter, shown, t }: { board: CatalogBoard; filter: BoardFilter; setFilter: (f: BoardFilter) => void; shown: number; t: BoardT }) {
  const id = useId();
  return (
    <div className="row-gap wrap board-filters">
      <label className="board-check" title={t('attentionTitle')}>
        <input type="checkbox" data-testid="board-filter-attention" checked={filter.attention} onChange={(e) => setFilter({ ...filter, attention: e.target.checked })} />
        {t('attention')}
      </label>
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
        {t('shown', { shown, total: board.products.length })}
      </span>
    </div>
  );
}

function ProductHead({ row, t, onOpen }: { row: BoardRow; t: BoardT; onOpen: (row: BoardRow) => void }) {
  const { product } = row;
  const count = row.cells.reduce((n, cell) => n + cell.candidates.length, 0);
  return (
    <div role="rowheader" className="board-product">
      {product.masterImageId ? (
        <img className="board-master" src={imageUrl('thumb', product.masterImageId)} alt={t('masterAlt', { sku: product.sku })} draggable={false} />
      ) : (
        <span className="board-master board-master-none">{t('noMaster')}</span>
      )}
      <span className="board-product-text">
        <span className="board-product-name">{product.name}</span>
        <span className="mono small muted">{product.sku}</span>
        {count > 0 ? (
          <button type="button" className="btn btn-ghost btn-sm" data-testid="product-open-viewer" onClick={() => onOpen(row)}>
            {t('viewProduct', { count })}
          </button>
        ) : null}
      </span>
    </div>
  );
}

/** How the designer names a cell: its product's SKU and the shot. */
function cellLabel(cell: BoardCell): string {
  return `${cell.sku} · ${cell.shotName}`;
}

/** What the keys do on a focused candidate: pick, marks, open; the arrows are the grid's. */
function useCandidateKeys(batchId: string, view: BoardView) {
  const setPick = useSetPick(batchId);
  const mark = useBoardMark(batchId);
  const openViewer = useGalleryStore((s) => s.openViewer);
  const togglePick = useCallback(
    (cell: BoardCell, imageId: string) => setPick.mutate({ batchId, productId: cell.productId, shot: cell.shotName, imageId: cell.pick === imageId ? null : imageId }),
    [setPick, batchId],
  );
  // The viewer stays inside the cell: "2 / 4 in SKU-001 · main", auto-advance never leaves it.
  const open = useCallback(
    (cell: BoardCell, index: number) => openViewer(cell.candidates.map((c) => c.imageId), index, { label: cellLabel(cell) }),
    [openViewer],
  );
  // A product's images, shot by shot: "3 / 8 in SKU-001", each named by its cell in the notes.
  const openProduct = useCallback(
    (row: BoardRow) => {
      const candidates = row.cells.flatMap((cell) => cell.candidates.map((c, i) => ({ id: c.imageId, name: `${cellLabel(cell)} ${i + 1}/${cell.candidates.length}` })));
      openViewer(candidates.map((c) => c.id), 0, { label: row.product.sku, names: candidates.map((c) => c.name) });
    },
    [openViewer],
  );
  const act = (at: BoardFocus, key: string): boolean => {
    const cell = view.rows[at.row]?.cells[at.shot];
    const candidate = cell?.candidates[at.candidate];
    if (!cell || !candidate) return false;
    if (key === 'p' || key === 'P') togglePick(cell, candidate.imageId);
    else if (key === 'Enter') open(cell, at.candidate);
    else {
      const marks = marksForKey(key, [candidate]);
      if (!marks) return false;
      mark([candidate.imageId], marks, `${cellLabel(cell)} ${at.candidate + 1}/${cell.candidates.length}`);
      // A rejected image never goes to the marketplace: it stops being the pick.
      if (marks.rejected && cell.pick === candidate.imageId) setPick.mutate({ batchId, productId: cell.productId, shot: cell.shotName, imageId: null });
    }
    return true;
  };
  return { togglePick, open, openProduct, act, error: setPick.error };
}

function BoardGrid({ board, view, t }: { board: CatalogBoard; view: BoardView; t: BoardT }) {
  const gridId = useId().replace(/:/g, '');
  const scrollRef = useRef<HTMLDivElement>(null);
  const [focus, setFocus] = useState<BoardFocus | null>(null);
  const moved = useRef(false);
  const headRef = useRef<HTMLDivElement>(null);
  // The scroll region is as tall as the header and its rows, up to its cap (board.css).
  const [headHeight, setHeadHeight] = useState(HEAD_HEIGHT);
  useLayoutEffect(() => {
    const head = headRef.current;
    if (!head) return;
    const observer = new ResizeObserver(() => setHeadHeight(head.offsetHeight));
    observer.observe(head);
    return () => observer.disconnect();
  }, []);
  const keys = useCandidateKeys(board.batchId, view);
  const at = focus ? clampFocus(view, focus) : null;
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({ count: view.rows.length, getScrollElement: () => scrollRef.current, estimateSize: () => ROW_ESTIMATE, overscan: 4, getItemKey: (i) => view.rows[i]?.product.productId ?? i });
  // After an arrow key the focus follows into the row, once the virtualiser has rendered it.
  useEffect(() => {
    if (!moved.current || !at) return;
    let tries = 0;
    const place = () => {
      const el = document.getElementById(stopId(gridId, at));
      if (el) {
        moved.current = false;
        el.focus();
      } else if (tries++ < 5) requestAnimationFrame(place);
    };
    place();
  });
  const onKeyDown = (e: KeyboardEvent) => {
    if (!at || e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key.startsWith('Arrow')) {
      e.preventDefault();
      const next = moveFocus(view, at, e.key);
      moved.current = true;
      setFocus(next);
      virtualizer.scrollToIndex(next.row, { align: 'auto' });
    } else if (keys.act(at, e.key)) e.preventDefault();
  };
  const template = columns(board, view);
  return (
    <>
      <div className="board-scroll" ref={scrollRef} style={{ height: headHeight + virtualizer.getTotalSize() + 2 }}>
        <div role="grid" aria-label={t('gridLabel')} aria-rowcount={view.rows.length + 1} className="board-grid" onKeyDown={onKeyDown}>
          <div role="row" ref={headRef} className="board-row board-head" style={{ gridTemplateColumns: template }} aria-rowindex={1}>
            <span role="columnheader">{t('product')}</span>
            {view.shots.map((s) => (
              <span role="columnheader" key={s.name} className="board-shot-head">
                {s.name}
              </span>
            ))}
          </div>
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {virtualizer.getVirtualItems().map((item) => {
              const row = view.rows[item.index];
              if (!row) return null;
              return (
                <div key={item.key} role="row" ref={virtualizer.measureElement} data-index={item.index} aria-rowindex={item.index + 2} className="board-row" data-testid="board-row" data-sku={row.product.sku} style={{ gridTemplateColumns: template, transform: `translateY(${item.start}px)` }}>
                  <ProductHead row={row} t={t} onOpen={keys.openProduct} />
                  {row.cells.map((cell, s) => (
                    <BoardCellView key={cell.shotName} cell={cell} row={item.index} shot={s} gridId={gridId} focus={at} t={t} onFocusStop={setFocus} onTogglePick={keys.togglePick} onOpen={keys.open} batchId={board.batchId} />
                  ))}
                </div>
              );
            })}
          </div>
        </div>
      </div>
      <p className="muted small board-keys">{t('keysHint')}</p>
      <ErrorLine error={keys.error} testId="board-pick-error" showCode />
    </>
  );
}

/** The board of the batch on show; null while there is none. */
export function BoardSection({ batchId }: { batchId: string }) {
  const t = useText(boardText);
  useBoardEvents(batchId);
  const board = useBoard(batchId);
  const [filter, setFilter] = useState<BoardFilter>(NO_FILTER);
  const data = board.data ?? null;
  const view = useMemo(() => (data ? boardView(data, filter) : null), [data, filter]);
  return (
    <BatchCard title={t('title')} testId="catalog-board" className="board-card">
      <ErrorLine error={board.error} testId="board-error" showCode />
      {data && view ? (
        <>
          <Filters board={data} filter={filter} setFilter={setFilter} shown={view.rows.length} t={t} />
          {data.products.length === 0 ? <p className="muted small">{t('noProducts')}</p> : null}
          {data.products.length > 0 && view.rows.length === 0 ? <p className="muted small">{t('nothingShown')}</p> : null}
          {view.rows.length > 0 ? <BoardGrid board={data} view={view} t={t} /> : null}
        </>
      ) : null}
    </BatchCard>
  );
}
