// The viewer (loupe): the full-resolution image on a neutral matte, pan and zoom that reach every pixel (drag,
// wheel or pinch to the cursor, keys, fit / 100 % / 200 %), previous / next across the gallery's whole current
// filter (the library answers "index / total", not the loaded pages), culling keys, the image's full details,
// and its actions (export, use as reference, recall, copy as code, delete on the local service). Opened on Catalog
// images (a cell, a product, a job), it walks only them and picks (P) for each image's cell.
import { useQueries } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import type { ImageRecord } from '../../../src-shared/ipc/generation.ts';
import { appText, useText } from '../../i18n/text.ts';
import { imageUrl } from '../../lib/desktop.ts';
import { imageQuery, useImage } from '../../lib/library-queries.ts';
import { trapTab } from '../../ui/trapTab.ts';
import { useMark, type Marks } from '../../lib/library-state/marks.ts';
import { usePickInScope, useScopePicks } from '../../lib/library-state/cell-scope.ts';
import { cellName, nameInScope, useGalleryStore, type ScopeCell, type ViewerScope } from '../../lib/library-state/store.ts';
import { loupeText } from './i18n.ts';
import { KeyHints } from './KeyHints.tsx';
import { LoupeDetail } from './LoupeDetail.tsx';
import { LoupeToolbar } from './LoupeToolbar.tsx';
import { PickedBadge, PickToggle } from './PickToggle.tsx';
import type { Size } from './panZoom.ts';
import { PannedImage, screenRect, ZoomBar } from './Stage.tsx';
import { useLoupeKeys } from './useLoupeKeys.ts';
import { useLoupeTravel, type ViewerState } from './useLoupeTravel.ts';
import { useModalFocus } from './useModalFocus.ts';
import { usePanZoom, type PanZoom } from './usePanZoom.ts';
import './viewer.css';

export function ImageViewer() {
  const viewer = useGalleryStore((s) => s.viewer);
  if (!viewer) return null;
  return <Loupe viewer={viewer} />;
}

function Loupe({ viewer }: { viewer: ViewerState }) {
  const t = useText(appText);
  const close = useGalleryStore((s) => s.closeViewer);
  const travel = useLoupeTravel(viewer);
  const { id } = travel;
  const detail = useImage(id);
  const data = detail.data?.image.id === id ? detail.data : undefined;
  const image = data?.image;
  const mark = useMark();
  // Inside a cell or product the note names the image by it ("SKU-001 · main 2/4").
  const scopeName = viewer.scope ? nameInScope(viewer.scope, viewer.ids, id) : undefined;
  const pick = useLoupePick(viewer, travel.listIndex, id);
  const { afterMark } = pick;
  const onMark = useCallback(
    (marks: Marks) => {
      if (!image) return;
      mark.mutate({ imageIds: [image.id], ...marks, ...(scopeName ? { label: scopeName } : {}) });
      afterMark(marks);
    },
    [image, mark, scopeName, afterMark],
  );
  const dialogRef = useModalFocus(true, id);

  // Natural size: the library's record, or the loaded file's when the record is not there yet.
  const [natural, setNatural] = useState<{ id: string; w: number; h: number } | null>(null);
  const content = image ? { w: image.width, h: image.height } : natural?.id === id ? { w: natural.w, h: natural.h } : null;
  const pz = usePanZoom({ content, resetKey: id });
  useLoupeKeys({ image, pz, travel, onMark, close, ...(pick.cell ? { onPick: pick.toggle } : {}) });

  return (
    <div className="loupe" role="dialog" aria-modal="true" aria-label={t('viewer.title')} data-testid="viewer" data-image-id={id} ref={dialogRef} tabIndex={-1} onKeyDown={trapTab}>
      <div className="loupe-main">
        <LoupeStage id={id} image={image} alt={data?.turn.request.prompt || t('viewer.title')} content={content} pz={pz} picked={pick.picked} onNaturalSize={(w, h) => setNatural({ id, w, h })} />
        {viewer.scope ? <Filmstrip viewer={viewer} scope={viewer.scope} picks={pick.picks} current={id} atEnd={!travel.nextId} go={travel.go} /> : null}
        <div className="loupe-foot">
          <ZoomBar pz={pz} />
        </div>
      </div>
      <aside className="loupe-side">
        <LoupeToolbar travel={travel} viewer={viewer} close={close} />
        {pick.cell ? (
          <div className="loupe-pick-row">
            <PickToggle picked={pick.picked} rejected={image?.rejected === true} cellName={cellName(pick.cell.sku, pick.cell.shot)} onToggle={pick.toggle} />
            {pick.error ? (
              <p className="hint-danger small" role="alert">
                {pick.error.message}
              </p>
            ) : null}
          </div>
        ) : null}
        <LoupeDetail id={id} data={data} error={detail.isError ? (detail.error as Error) : null} onMark={onMark} markError={mark.isError ? (mark.error as Error) : null} close={close} />
        <KeyHints mode="viewer" pick={pick.cell !== undefined} />
      </aside>
    </div>
  );
}

/** The image's Catalog cell, whether it is the cell's pick, and the pick's actions (nothing outside the Catalog). */
function useLoupePick(viewer: ViewerState, listIndex: number, id: string) {
  const picks = useScopePicks(viewer.scope?.cells);
  const { toggle, afterMark, errorIn } = usePickInScope();
  const cell: ScopeCell | undefined = viewer.scope?.cells?.[listIndex];
  const picked = cell !== undefined && picks[listIndex] === id;
  return {
    cell,
    picked,
    picks,
    error: errorIn(cell),
    toggle: useCallback(() => {
      if (cell) toggle(cell, id, picked);
    }, [cell, id, picked, toggle]),
    afterMark: useCallback((marks: Marks) => afterMark(cell, marks, picked), [afterMark, cell, picked]),
  };
}

/**
 * The scope's images (a board cell or a product) as thumbnails: where the viewer is, and one click to go. At its last
 * image it says so (arrows and auto-advance stop there), and its images can be compared side by side.
 */
function Filmstrip(props: { viewer: ViewerState; scope: ViewerScope; picks: ReadonlyArray<string | null>; current: string; atEnd: boolean; go: (id: string) => void }) {
  const { viewer, scope, picks, current, atEnd, go } = props;
  const lt = useText(loupeText);
  const openScopedCompare = useGalleryStore((s) => s.openScopedCompare);
  const closeViewer = useGalleryStore((s) => s.closeViewer);
  const { ids } = viewer;
  // Each image's marks (the details the viewer reads anyway): a rejected one dimmed, a starred or rated one says so.
  const details = useQueries({ queries: ids.map((other) => imageQuery(other)) });
  const compare = () => {
    closeViewer();
    openScopedCompare(ids, scope);
  };
  return (
    <div className="loupe-scope">
      <nav className="loupe-filmstrip" aria-label={lt('filmstrip', { scope: scope.label })} data-testid="viewer-filmstrip">
        {ids.map((other, i) => {
          const marks = details[i]?.data?.image;
          const picked = picks[i] === other;
          const label = lt('filmstripItem', { index: i + 1, total: ids.length });
          return (
          <button
            key={other}
            type="button"
            className={`loupe-filmstrip-item ${other === current ? 'is-current' : ''} ${marks?.rejected ? 'is-rejected' : ''} ${picked ? 'is-picked' : ''}`}
            aria-current={other === current ? 'true' : undefined}
            aria-label={picked ? `${label}, ${lt('pickedInStrip')}` : label}
            title={scope.names?.[i]}
            data-testid="viewer-filmstrip-item"
            data-image-id={other}
            data-picked={picked ? 'true' : 'false'}
            onClick={() => go(other)}
          >
            <img src={imageUrl('thumb', other)} alt="" decoding="async" />
            {picked ? (
              <span className="loupe-filmstrip-pick" aria-hidden="true">
                ✓
              </span>
            ) : null}
            {marks && (marks.rejected || marks.starred || marks.rating > 0) ? (
              <span className="loupe-filmstrip-marks" aria-hidden="true">
                {marks.rejected ? '✕' : `${marks.starred ? '★' : ''}${marks.rating > 0 ? ` ${marks.rating}` : ''}`}
              </span>
            ) : null}
          </button>
          );
        })}
      </nav>
      {atEnd && ids.length > 1 ? (
        <span className="muted small loupe-scope-end" data-testid="viewer-scope-end">
          {lt('scopeEnd', { scope: scope.label })}
        </span>
      ) : null}
      {ids.length > 1 ? (
        <button type="button" className="btn btn-ghost btn-sm loupe-scope-compare" data-testid="viewer-compare-scope" onClick={compare}>
          {lt('compareScope', { count: Math.min(4, ids.length) })}
        </button>
      ) : null}
    </div>
  );
}

/** The image at the view's transform; while it downloads, a note; until its size is known, the file out of sight. */
function LoupeStage(props: { id: string; image: ImageRecord | undefined; alt: string; content: Size | null; pz: PanZoom; picked: boolean; onNaturalSize: (w: number, h: number) => void }) {
  const t = useText(appText);
  const lt = useText(loupeText);
  const { id, image, content, pz } = props;
  // Destructured: the ref callback is its own value (the React compiler treats what is passed as `ref` as a ref).
  const { bindStage, view } = pz;
  const zoomText = pz.isFit ? lt('zoomFit') : `${Math.round(view.s * 100)}%`;
  return (
    <div
      className={`pz-stage ${pz.canPan ? 'pz-can-pan' : ''}`}
      ref={bindStage}
      role="group"
      tabIndex={0}
      aria-label={lt('stage', { zoom: zoomText })}
      data-testid="viewer-stage"
      data-scale={view.s}
      data-x={view.x}
      data-y={view.y}
      data-fit={pz.isFit}
    >
      {image && image.download !== 'done' ? (
        <p className="pz-note" role="status">
          {image.download === 'failed' ? t('turn.downloadFailed') : t('turn.downloading')}
        </p>
      ) : content ? (
        <>
          <PannedImage
            key={id}
            src={imageUrl('full', id)}
            previewSrc={imageUrl('thumb', id)}
            alt={props.alt}
            rect={{ x: 0, y: 0, w: content.w, h: content.h }}
            view={view}
            testId="viewer-image"
          />
          {/* On the image's corner, kept in sight when the image is zoomed beyond the stage. */}
          {props.picked ? <PickedBadge at={screenRect({ x: 0, y: 0, w: content.w, h: content.h }, view)} /> : null}
        </>
      ) : (
        // Until the size is known: the file itself, out of sight, tells it.
        <img
          key={id}
          className="pz-probe"
          src={imageUrl('full', id)}
          alt=""
          data-testid="viewer-image"
          onLoad={(e) => props.onNaturalSize(e.currentTarget.naturalWidth, e.currentTarget.naturalHeight)}
        />
      )}
    </div>
  );
}
