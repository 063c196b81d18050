// One cell of the board (one product × one shot): its status (running with the time since it was sent, failed with
// its code and request id), what it cost, and its candidates as thumbnails with their marks and a pick button.
// Candidates are the grid's cells (one Tab stop for the whole grid; the grid handles the keys, CatalogBoard.tsx).
// Memoised on its cell object (a refresh replaces only the rows it read) and on which of its stops takes the Tab,
// so scrolling mounts the rows that enter and renders nothing else again. A cell of a row that enters during a scroll
// comes at a glance (`drawn` false: the cell's attributes, its status word and its candidates' tiles) and is drawn
// once the column rests (board-staging.ts).
import { memo, type MouseEvent as ReactMouseEvent } from 'react';
import type { BatchJob } from '../../../src-shared/ipc/batch.ts';
import type { BoardCell, CellCandidate } from '../../../src-shared/ipc/batch-board.ts';
import { formatDuration } from '../../i18n/format.ts';
import { useNow } from '../../ui/useNow.ts';
import type { BoardT } from './board-i18n.ts';
import { needsAttention, type BoardFocus } from './board-model.ts';
import { glanceOf, tileOf, type RowSheet } from './board-sheet.ts';
import { CellActions } from './Reruns.tsx';

/** The element id of a focus stop, so the grid can move the focus there after a key. */
export function stopId(gridId: string, at: BoardFocus): string {
  return `${gridId}-${at.row}-${at.shot}-${at.candidate}`;
}

/** What a cell asks of the grid; one object for the whole board that never changes (CatalogBoard.tsx). */
export interface CellHandlers {
  focusStop: (at: BoardFocus) => void;
  /** A press on a cell at a glance: its row is drawn at once and the stop pressed takes the focus, as a press on it
   *  drawn would have given it. */
  reach: (at: BoardFocus) => void;
  togglePick: (cell: BoardCell, imageId: string) => void;
  open: (cell: BoardCell, index: number) => void;
}

export interface CellProps {
  cell: BoardCell;
  row: number;
  shot: number;
  gridId: string;
  /** Which of the cell's stops takes the Tab (its candidate index), or -1 for none. */
  tabStop: number;
  t: BoardT;
  on: CellHandlers;
  /** The batch: the cell offers Retry and Re-shoot of its latest job (Reruns.tsx). */
  batchId?: string;
  /** The cell's latest job, from the batch detail the page holds (the grid looks it up once for all its cells). */
  job?: BatchJob | null;
  /** Whether the cell's contents are drawn yet, or it shows them at a glance (board-staging.ts). */
  drawn?: boolean;
  /** The row's thumbnail sheet its candidates are drawn from (BoardRow.tsx), or null for their own thumbnails. */
  sheet?: RowSheet | null;
}

/** A running cell's status with the time since it was sent, ticking each second (only running cells hold a timer). */
function RunningStatus({ startedAt, t }: { startedAt: number; t: BoardT }) {
  const now = useNow(true, 1000);
  return <>{t('status.running', { time: formatDuration(now - startedAt) })}</>;
}

/** The cell's status in a word ("Done", "Over budget"); a running cell's time since it was sent is RunningStatus's. */
function statusWord(cell: BoardCell, t: BoardT): string {
  return t(`status.${cell.status}`, { time: '' });
}

function StatusLine({ cell, t }: { cell: BoardCell; t: BoardT }) {
  const running = cell.status === 'running' && cell.startedAt !== null;
  const cost = t('cost', { charged: cell.charged, estimated: cell.estimated });
  // A done cell without a pick says so in the same quiet line as its cost (one text less in each of a board's cells).
  const quiet = cell.status === 'done' && !cell.pick ? `${t('noPick')} · ${cost}` : cost;
  return (
    <div className="catalog-board-cell-head">
      <span className={`catalog-board-status catalog-board-status-${cell.status}`} data-testid="cell-status">
        {running ? <RunningStatus startedAt={cell.startedAt ?? 0} t={t} /> : statusWord(cell, t)}
      </span>
      {cell.status === 'done' && cell.pick ? <span className="catalog-board-picked-note">{t('picked')}</span> : null}
      <span className="muted">{quiet}</span>
      {cell.code ? (
        <span className="catalog-board-cell-error">
          <code>{cell.code}</code>
          {cell.requestId ? <span className="mono"> {t('requestId', { id: cell.requestId })}</span> : null}
        </span>
      ) : null}
    </div>
  );
}

function marksText(c: CellCandidate, t: BoardT): string {
  return [c.rating > 0 ? t('rated', { n: c.rating }) : null, c.starred ? t('starred') : null, c.rejected ? t('rejected') : null].filter(Boolean).join(' · ');
}

/** The marks over a thumbnail: drawn for the eye, spelled for a screen reader. */
function Marks({ c, t }: { c: CellCandidate; t: BoardT }) {
  const words = marksText(c, t);
  if (!words) return null;
  return (
    <>
      <span className="catalog-board-marks" aria-hidden="true">
        {c.starred ? '★ ' : ''}
        {c.rating > 0 ? `${c.rating}★` : ''}
        {c.rejected ? ' ✕' : ''}
      </span>
      <span className="sr-only">{words}</span>
    </>
  );
}

function Candidate({ cell, candidate: c, index, props }: { cell: BoardCell; candidate: CellCandidate; index: number; props: CellProps }) {
  const { t, on } = props;
  const at = { row: props.row, shot: props.shot, candidate: index };
  const picked = cell.pick === c.imageId;
  const words = { index: index + 1, sku: cell.sku, shot: cell.shotName };
  return (
    <div
      role="gridcell"
      id={stopId(props.gridId, at)}
      tabIndex={props.tabStop === index ? 0 : -1}
      className={`catalog-board-candidate${picked ? ' catalog-board-candidate-picked' : ''}${c.rejected ? ' catalog-board-candidate-rejected' : ''}`}
      data-testid="cell-candidate"
      data-image-id={c.imageId}
      data-picked={picked ? 'true' : 'false'}
      data-rejected={c.rejected ? 'true' : 'false'}
      data-starred={c.starred ? 'true' : 'false'}
      data-rating={c.rating}
      aria-selected={picked}
      onFocus={() => on.focusStop(at)}
      onDoubleClick={() => on.open(cell, index)}
    >
      {/* The cell's name comes from its content (what is seen and what is read agree): the image's words, the marks, the button. */}
      {c.download === 'done' ? (
        // A fixed 96 px box, decoded off the main thread: entering rows never wait for a decode.
        <img {...tileOf(props.sheet ?? null, c.imageId)} alt={t('candidateLabel', words)} width={96} height={96} decoding="async" draggable={false} />
      ) : (
        <span className="catalog-board-pending">
          <span className="sr-only">{t('candidateLabel', words)} · </span>
          {c.download === 'failed' ? t('downloadFailed') : t('downloading')}
        </span>
      )}
      <Marks c={c} t={t} />
      <button
        type="button"
        className={`catalog-board-pick${picked ? ' catalog-board-pick-on' : ''}`}
        data-testid="pick"
        tabIndex={-1}
        aria-pressed={picked}
        aria-label={picked ? t('unpickLabel', words) : t('pickLabel', words)}
        disabled={c.rejected && !picked}
        // The grid keeps the focus on the candidate; the button only takes the click.
        onMouseDown={(e) => e.preventDefault()}
        onDoubleClick={(e) => e.stopPropagation()}
        onClick={(e) => {
          e.stopPropagation();
          on.togglePick(cell, c.imageId);
        }}
      >
        {picked ? `✓ ${t('picked')}` : t('pick')}
      </button>
    </div>
  );
}

/** A cell without candidates is one focus stop that says its status. */
function EmptyStop(props: CellProps) {
  const { cell, t } = props;
  const at = { row: props.row, shot: props.shot, candidate: 0 };
  return (
    <div
      role="gridcell"
      id={stopId(props.gridId, at)}
      tabIndex={props.tabStop === 0 ? 0 : -1}
      className="catalog-board-empty"
      aria-label={t('emptyCellLabel', { sku: cell.sku, shot: cell.shotName, status: statusWord(cell, t) })}
      onFocus={() => props.on.focusStop(at)}
    />
  );
}

/**
 * A cell whose contents are not drawn yet (its row came in during a scroll, board-staging.ts), at a glance: its
 * candidates' tiles of the row's sheet where their images will be, the pick ringed and the rejected dimmed, under its
 * status word (board.css, from the cell's data-glance). No stops, no buttons, no image elements: the contents replace
 * it once the scroll rests.
 */
function CellGlance({ cell, sheet }: { cell: BoardCell; sheet: RowSheet | null }) {
  return (
    <>
      {cell.candidates.map((c, i) => {
        const tile = c.download === 'done' ? glanceOf(sheet, c.imageId) : undefined;
        return <span key={c.imageId} aria-hidden="true" data-candidate={i} className={`catalog-board-glance${tile ? ' catalog-board-glance-tile' : ''}${cell.pick === c.imageId ? ' catalog-board-candidate-picked' : ''}${c.rejected ? ' catalog-board-glance-rejected' : ''}`} style={tile} />;
      })}
    </>
  );
}

/** A press on a cell at a glance: the candidate whose tile was pressed (the first stop elsewhere in the cell) is reached. */
function reachFromGlance(e: ReactMouseEvent<HTMLElement>, props: CellProps): void {
  if (e.button !== 0) return;
  // The focus stays where it was until the stop is drawn and takes it.
  e.preventDefault();
  const tile = (e.target as HTMLElement).closest<HTMLElement>('[data-candidate]');
  props.on.reach({ row: props.row, shot: props.shot, candidate: Number(tile?.dataset.candidate ?? 0) });
}

export const BoardCellView = memo(function BoardCellView(props: CellProps) {
  const { cell } = props;
  return (
    <div
      className={`catalog-board-cell catalog-board-cell-${cell.status}`}
      data-testid="catalog-cell"
      data-sku={cell.sku}
      data-shot={cell.shotName}
      data-status={cell.status}
      data-picked-image-id={cell.pick ?? ''}
      data-attention={needsAttention(cell) ? 'true' : 'false'}
      data-drawn={props.drawn === false ? 'false' : 'true'}
      data-glance={props.drawn === false ? statusWord(cell, props.t) : undefined}
      onMouseDown={props.drawn === false ? (e) => reachFromGlance(e, props) : undefined}
    >
      {props.drawn === false ? (
        <CellGlance cell={cell} sheet={props.sheet ?? null} />
      ) : (
        <>
          <StatusLine cell={cell} t={props.t} />
          <div className="catalog-board-candidates">
            {cell.candidates.length > 0 ? cell.candidates.map((c, i) => <Candidate key={c.imageId} cell={cell} candidate={c} index={i} props={props} />) : <EmptyStop {...props} />}
          </div>
          {/* The cell's Retry and Re-shoot, a grid cell of their own. */}
          {props.batchId && props.job ? <CellActions batchId={props.batchId} job={props.job} /> : null}
        </>
      )}
    </div>
  );
});
