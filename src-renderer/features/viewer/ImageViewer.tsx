// The viewer (loupe): the full-resolution image on a neutral matte, pan and zoom that reach every pixel (drag,
// wheel or pinch to the cursor, keys, fit / 100 % / 200 %), previous / next across the gallery's whole current
// filter (the library answers "index / total", not the loaded pages), culling keys, the image's full details,
// and its actions (export, use as reference, recall, copy as code, delete on the local service).
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { appText, useText } from '../../i18n/text.ts';
import { imageUrl } from '../../lib/desktop.ts';
import { trapTab } from '../../ui/trapTab.ts';
import { useComposeStore } from '../compose/store.ts';
import { useExportImage } from '../gallery/queries.ts';
import { imageQuery, useImage, useSession } from '../../lib/library-queries.ts';
import { useGalleryStore } from '../gallery/store.ts';
import { useGalleryView } from '../gallery/view-store.ts';
import { useLocalAction } from '../local-console/queries.ts';
import { CopyAsCode } from '../runs/CopyAsCode.tsx';
import { useSettings } from '../settings/queries.ts';
import { CullBar, marksForKey } from './CullBar.tsx';
import { loupeText } from './i18n.ts';
import { isTyping } from './keys.ts';
import { KeyHints } from './KeyHints.tsx';
import { MetaPanel } from './MetaPanel.tsx';
import { neighborsQuery, useMark, useNeighbors, type Marks } from './queries.ts';
import { PannedImage, ZoomBar } from './Stage.tsx';
import { useModalFocus } from './useModalFocus.ts';
import { usePanZoom } from './usePanZoom.ts';
import './viewer.css';

type ViewerState = { ids: string[]; index: number };


export function ImageViewer() {
  const viewer = useGalleryStore((s) => s.viewer);
  if (!viewer) return null;
  return <Loupe viewer={viewer} />;
}

function Loupe({ viewer }: { viewer: ViewerState }) {
  const t = useText(appText);
  const lt = useText(loupeText);
  const client = useQueryClient();
  const close = useGalleryStore((s) => s.closeViewer);
  const open = useGalleryStore((s) => s.openViewer);
  const filters = useGalleryStore((s) => s.filters);
  // The gallery's "advance after marking" preference: a culling key also moves to the next image.
  const advance = useGalleryView((s) => s.advance);
  const setAdvance = useGalleryView((s) => s.setAdvance);

  // The image on screen: the one opened, until the designer moves (to ids the library gives, beyond the loaded pages).
  const [moved, setMoved] = useState<{ base: ViewerState; id: string } | null>(null);
  const openedId = viewer.ids[viewer.index] ?? viewer.ids[0] ?? '';
  const id = moved && moved.base === viewer ? moved.id : openedId;

  const detail = useImage(id);
  const data = detail.data?.image.id === id ? detail.data : undefined;
  const image = data?.image;
  const turn = data?.turn;
  const session = useSession(image?.sessionId ?? null);
  const neighbors = useNeighbors(filters, id);
  const mark = useMark();
  const exportImage = useExportImage();
  const recall = useComposeStore((s) => s.recall);
  const addReferences = useComposeStore((s) => s.addReferences);
  const environment = useSettings().data?.environment;
  const deleteImage = useLocalAction('localDeleteImage');
  const [confirmDeleteOf, setConfirmDeleteOf] = useState<string | null>(null);
  const confirmingDelete = confirmDeleteOf !== null && confirmDeleteOf === id;
  const dialogRef = useModalFocus(true, id);

  // Natural size: the library's record, or the loaded file's when the record is not there yet.
  const [natural, setNatural] = useState<{ id: string; w: number; h: number } | null>(null);
  const content = image ? { w: image.width, h: image.height } : natural?.id === id ? { w: natural.w, h: natural.h } : null;
  const pz = usePanZoom({ content, resetKey: id });
  // Destructured: the ref callback is its own value (the React compiler treats what is passed as `ref` as a ref).
  const { bindStage, view } = pz;

  // Previous / next: the library's order under the gallery's filters; the opened list only if it cannot answer.
  const nb = neighbors.data && !neighbors.isPlaceholderData ? neighbors.data : null;
  const listIndex = viewer.ids.indexOf(id);
  const prevId = nb ? nb.prev : neighbors.isError && listIndex > 0 ? (viewer.ids[listIndex - 1] ?? null) : null;
  const nextId = nb ? nb.next : neighbors.isError && listIndex >= 0 ? (viewer.ids[listIndex + 1] ?? null) : null;
  const go = useCallback((target: string | null) => target && setMoved({ base: viewer, id: target }), [viewer]);

  // Make the next move instant: the neighbours' details, places and full images ahead of time.
  useEffect(() => {
    for (const other of [nb?.next, nb?.prev]) {
      if (!other) continue;
      void client.prefetchQuery(imageQuery(other));
      void client.prefetchQuery(neighborsQuery(filters, other));
      const img = new Image();
      img.src = imageUrl('full', other);
    }
  }, [client, filters, nb?.next, nb?.prev]);

  const onMark = useCallback((marks: Marks) => image && mark.mutate({ imageIds: [image.id], ...marks }), [image, mark]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || isTyping(e.target) || e.ctrlKey || e.metaKey || e.altKey) return;
      const step = pz.stage ? Math.max(40, Math.round(Math.min(pz.stage.w, pz.stage.h) * 0.1)) : 80;
      const cull = image ? marksForKey(e.key, image) : null;
      if (cull) {
        onMark(cull);
        if (advance) go(nextId);
      }
      else if (e.key === 'Escape') close();
      else if (e.shiftKey && e.key === 'ArrowLeft') pz.pan(step, 0);
      else if (e.shiftKey && e.key === 'ArrowRight') pz.pan(-step, 0);
      else if (e.shiftKey && e.key === 'ArrowUp') pz.pan(0, step);
      else if (e.shiftKey && e.key === 'ArrowDown') pz.pan(0, -step);
      else if (e.key === 'ArrowRight' || e.key === 'ArrowDown') go(nextId);
      else if (e.key === 'ArrowLeft' || e.key === 'ArrowUp') go(prevId);
      else if (e.key === 'Home') pz.panToEdge('start');
      else if (e.key === 'End') pz.panToEdge('end');
      else if (e.key === '+' || e.key === '=') pz.zoomBy(1.25);
      else if (e.key === '-' || e.key === '_' || e.key === '−') pz.zoomBy(1 / 1.25);
      // Z toggles fit and 100 % (as in Lightroom); F stars, as in the gallery.
      else if (e.key === 'z' || e.key === 'Z') pz.toggleActual();
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [advance, close, go, image, nextId, onMark, prevId, pz]);

  const openSingle = (imageId: string) => open([imageId], 0);
  const zoomText = pz.isFit ? lt('zoomFit') : `${Math.round(view.s * 100)}%`;
  const position = nb
    ? nb.inFilter
      ? lt('position', { index: nb.index + 1, total: nb.total })
      : lt('positionOutside', { total: nb.total })
    : neighbors.isError
      ? lt('position', { index: listIndex + 1, total: viewer.ids.length })
      : '…';

  return (
    <div className="loupe" role="dialog" aria-modal="true" aria-label={t('viewer.title')} data-testid="viewer" data-image-id={id} ref={dialogRef} tabIndex={-1} onKeyDown={trapTab}>
      <div className="loupe-main">
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
            <PannedImage
              key={id}
              src={imageUrl('full', id)}
              previewSrc={imageUrl('thumb', id)}
              alt={turn?.request.prompt || t('viewer.title')}
              rect={{ x: 0, y: 0, w: content.w, h: content.h }}
              view={view}
              testId="viewer-image"
            />
          ) : (
            // Until the size is known: the file itself, out of sight, tells it.
            <img
              key={id}
              className="pz-probe"
              src={imageUrl('full', id)}
              alt=""
              data-testid="viewer-image"
              onLoad={(e) => setNatural({ id, w: e.currentTarget.naturalWidth, h: e.currentTarget.naturalHeight })}
            />
          )}
        </div>
        <div className="loupe-foot">
          <ZoomBar pz={pz} />
        </div>
      </div>
      <aside className="loupe-side">
        <div className="viewer-toolbar">
          <button type="button" className="btn btn-ghost btn-sm" onClick={() => go(prevId)} disabled={!prevId} aria-label={t('viewer.previous')} data-testid="viewer-prev">
            ←
          </button>
          <span
            className="muted small loupe-position"
            data-testid="viewer-position"
            data-index={nb ? nb.index : listIndex}
            data-total={nb ? nb.total : viewer.ids.length}
            data-in-filter={nb ? nb.inFilter : ''}
            aria-label={nb?.inFilter ? lt('positionLabel', { index: nb.index + 1, total: nb.total }) : undefined}
            aria-live="polite"
          >
            {position}
          </span>
          <button type="button" className="btn btn-ghost btn-sm" onClick={() => go(nextId)} disabled={!nextId} aria-label={t('viewer.next')} data-testid="viewer-next">
            →
          </button>
          <span className="spacer" />
          <button type="button" className="btn btn-ghost btn-sm" onClick={close} aria-label={t('common.close')} data-testid="viewer-close">
            ✕
          </button>
        </div>
        {image && turn && data ? (
          <div className="viewer-detail">
            <CullBar image={image} onMark={onMark} />
            <label className="toggle small" title={lt('advanceHint')}>
              <input type="checkbox" data-testid="viewer-advance" checked={advance} onChange={(e) => setAdvance(e.target.checked)} />
              {lt('advance')}
            </label>
            <div className="row-gap wrap">
              <button type="button" className="btn btn-sm" data-testid="export" onClick={() => exportImage.mutate(image.id)}>
                {t('viewer.export')}
              </button>
              <button type="button" className="btn btn-sm" onClick={() => addReferences([image.id])}>
                {t('gallery.useAsReference')}
              </button>
              <button
                type="button"
                className="btn btn-sm"
                data-testid="viewer-recall"
                onClick={() => {
                  recall(turn.request, turn.referenceImageIds);
                  close();
                }}
              >
                {t('turn.recall')}
              </button>
              <CopyAsCode turn={turn} />
              {environment === 'local' && !confirmingDelete ? (
                <button type="button" className="btn btn-sm btn-ghost" data-testid="delete-on-service" onClick={() => setConfirmDeleteOf(image.id)}>
                  {t('viewer.deleteOnService')}
                </button>
              ) : null}
            </div>
            {environment === 'local' && confirmingDelete ? (
              // Deleting cannot be undone on the service: ask once, saying what goes away.
              <div className="cancel-confirm" role="alertdialog" aria-label={t('viewer.deleteOnService')} data-testid="delete-confirm">
                <p>{t('viewer.deleteExplain')}</p>
                <div className="row-gap">
                  <button
                    type="button"
                    className="btn btn-danger btn-sm"
                    data-testid="confirm-delete"
                    disabled={deleteImage.isPending}
                    onClick={() => deleteImage.mutate({ imageId: image.id }, { onSuccess: () => setConfirmDeleteOf(null) })}
                  >
                    {t('viewer.deleteConfirm')}
                  </button>
                  <button type="button" className="btn btn-ghost btn-sm" onClick={() => setConfirmDeleteOf(null)}>
                    {t('viewer.keep')}
                  </button>
                </div>
              </div>
            ) : null}
            {deleteImage.isSuccess && deleteImage.variables?.imageId === image.id ? (
              <p className="muted small" role="status" data-testid="delete-done">
                {t('viewer.deleted')}
              </p>
            ) : null}
            {exportImage.data?.path ? <p className="muted small">{t('viewer.exported', { path: exportImage.data.path })}</p> : null}
            {mark.isError ? <p className="hint-danger" role="alert">{(mark.error as Error).message}</p> : null}
            <MetaPanel detail={data} sessionTitle={session.data?.title ?? null} onOpen={openSingle} />
          </div>
        ) : detail.isError ? (
          <p className="hint-danger viewer-detail" role="alert">
            {(detail.error as Error).message}
          </p>
        ) : null}
        <KeyHints mode="viewer" />
      </aside>
    </div>
  );
}
