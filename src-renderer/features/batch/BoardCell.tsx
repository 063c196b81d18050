// One cell of the board (one product × one shot): its status (running with the time since it was sent, failed with
// its code and request id), what it cost, and its candidates as thumbnails with their marks and a pick button.
// Candidates are the grid's cells (one Tab stop for the whole grid; the grid handles the keys, CatalogBoard.tsx).
import { memo } from 'react';
import type { BoardCell, CellCandidate } from '../../../src-shared/ipc/batch-board.ts';
import { formatDuration } from '../../i18n/format.ts';
import { imageUrl } from '../../lib/desktop.ts';
import { useNow } from '../../ui/useNow.ts';
import type { BoardT } from './board-i18n.ts';
import { needsAttention, type BoardFocus } from './board-model.ts';
import { CellActions } from './Reruns.tsx';

/** The element id of a focus stop, so the grid can move the focus there after a key. */
export function stopId(gridId: string, at: BoardFocus): string {
  return `${gridId}-${at.row}-${at.shot}-${at.candidate}`;
}

export interface CellProps {
  cell: BoardCell;
  row: number;
  shot: number;
  gridId: string;
  /** The grid's focus (null before it is entered: the first stop takes the Tab). */
  focus: BoardFocus | null;
  t: BoardT;
  onFocusStop: (at: BoardFocus) => void;
  onTogglePick: (cell: BoardCell, imageId: string) => void;
  onOpen: (cell: BoardCell, index: number) => void;
  /** The batch: the cell offers Retry and Re-shoot of its latest job (Reruns.tsx). */
  batchId?: string;
}

function StatusLine({ cell, t }: { cell: BoardCell; t: BoardT }) {
  const running = cell.status === 'running' && cell.startedAt !== null;
  const now = useNow(running, 1000);
  const text = t(`status.${cell.status}`, { time: running ? formatDuration(now - (cell.startedAt ?? now)) : '' });
  return (
    <div className="board-cell-head">
      <span className={`board-status board-status-${cell.status}`} data-testid="cell-status">
        {text}
      </span>
      {cell.status === 'done' ? <span className={cell.pick ? 'board-picked-note' : 'muted'}>{cell.pick ? t('picked') : t('noPick')}</span> : null}
      <span className="board-cost muted">{t('cost', { charged: cell.charged, estimated: cell.estimated })}</span>
      {cell.code ? (
        <span className="board-cell-error">
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

function Candidate(props: CellProps & { candidate: CellCandidate; index: number }) {
  const { cell, candidate: c, index, t } = props;
  const at = { row: props.row, shot: props.shot, candidate: index };
  const focused = props.focus ? props.focus.row === at.row && props.focus.shot === at.shot && props.focus.candidate === index : at.row === 0 && at.shot === 0 && index === 0;
  const picked = cell.pick === c.imageId;
  const words = { index: index + 1, sku: cell.sku, shot: cell.shotName };
  const marks = marksText(c, t);
  return (
    <div
      role="gridcell"
      id={stopId(props.gridId, at)}
      tabIndex={focused ? 0 : -1}
      className={`board-candidate ${picked ? 'board-candidate-picked' : ''} ${c.rejected ? 'board-candidate-rejected' : ''}`}
      data-testid="cell-candidate"
      data-image-id={c.imageId}
      data-picked={picked ? 'true' : 'false'}
      data-rejected={c.rejected ? 'true' : 'false'}
      data-starred={c.starred ? 'true' : 'false'}
      data-rating={c.rating}
      aria-selected={picked}
      title={t('keysHint')}
      onFocus={() => props.onFocusStop(at)}
      onDoubleClick={() => props.onOpen(cell, index)}
    >
      {/* The cell's name comes from its content (what is seen and what is read agree): the image's words, the marks, the button. */}
      {c.download === 'done' ? (
        <img src={imageUrl('thumb', c.imageId)} alt={t('candidateLabel', words)} decoding="async" draggable={false} />
      ) : (
        <span className="board-pending">
          <span className="sr-only">{t('candidateLabel', words)} · </span>
          {c.download === 'failed' ? t('downloadFailed') : t('downloading')}
        </span>
      )}
      {marks ? (
        <>
          <span className="board-marks" aria-hidden="true">
            {c.starred ? '★ ' : ''}
            {c.rating > 0 ? `${c.rating}★` : ''}
            {c.rejected ? ' ✕' : ''}
          </span>
          <span className="sr-only">{marks}</span>
        </>
      ) : null}
      <button
        type="button"
        className={`board-pick ${picked ? 'board-pick-on' : ''}`}
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
          props.onTogglePick(cell, c.imageId);
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
  const focused = props.focus ? props.focus.row === at.row && props.focus.shot === at.shot : at.row === 0 && at.shot === 0;
  return (
    <div
      role="gridcell"
      id={stopId(props.gridId, at)}
      tabIndex={focused ? 0 : -1}
      className="board-empty"
      aria-label={t('emptyCellLabel', { sku: cell.sku, shot: cell.shotName, status: t(`status.${cell.status}`, { time: '' }) })}
      onFocus={() => props.onFocusStop(at)}
    />
  );
}

export const BoardCellView = memo(function BoardCellView(props: CellProps) {
  const { cell } = props;
  return (
    <div
      className={`board-cell board-cell-${cell.status}`}
      data-testid="catalog-cell"
      data-sku={cell.sku}
      data-shot={cell.shotName}
      data-status={cell.status}
      data-picked-image-id={cell.pick ?? ''}
      data-attention={needsAttention(cell) ? 'true' : 'false'}
    >
      <StatusLine cell={cell} t={props.t} />
      <div className="board-candidates">
        {cell.candidates.length > 0 ? cell.candidates.map((c, i) => <Candidate key={c.imageId} {...props} candidate={c} index={i} />) : <EmptyStop {...props} />}
      </div>
      {props.batchId ? (
        // A grid row holds only cells: the cell's Retry and Re-shoot sit in a cell of their own.
        <div role="gridcell" className="board-cell-actions">
          <CellActions batchId={props.batchId} jobId={cell.jobIds.at(-1) ?? null} />
        </div>
      ) : null}
    </div>
  );
});
