// The viewer: the full image, arrow keys to move, zoom (fit / 100% / wheel), and the image's detail: its
// settings, the references it used and where it was used as a reference; star, export, recall, reuse.
import { useCallback, useEffect, useState, type WheelEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { ImageRecord } from '../../../src-shared/ipc/generation.ts';
import { imageUrl } from '../../lib/desktop.ts';
import { ClampedText } from '../../ui/ClampedText.tsx';
import { trapTab } from '../../ui/trapTab.ts';
import { useDialogFocus } from '../../ui/useDialogFocus.ts';
import { useComposeStore } from '../compose/store.ts';
import { useLocalAction } from '../local-console/queries.ts';
import { CopyAsCode } from '../runs/CopyAsCode.tsx';
import { useSettings } from '../settings/queries.ts';
import { useExportImage, useImageDetail, useStar } from './queries.ts';
import { useGalleryStore } from './store.ts';

type Zoom = 'fit' | number;

function MiniThumbs({ images, onOpen }: { images: ImageRecord[]; onOpen: (id: string) => void }) {
  const { t } = useTranslation();
  return (
    <ul className="mini-thumbs">
      {images.map((im) => (
        <li key={im.id}>
          <button type="button" className="mini-thumb" onClick={() => onOpen(im.id)} aria-label={t('gallery.openImage', { id: im.id })} data-image-id={im.id}>
            <img src={imageUrl('thumb', im.id)} alt="" />
            {im.missing ? <span className="thumb-flag">{t('tray.missing')}</span> : null}
          </button>
        </li>
      ))}
    </ul>
  );
}

export function ImageViewer() {
  const { t } = useTranslation();
  const viewer = useGalleryStore((s) => s.viewer);
  const move = useGalleryStore((s) => s.moveViewer);
  const close = useGalleryStore((s) => s.closeViewer);
  const open = useGalleryStore((s) => s.openViewer);
  const id = viewer ? (viewer.ids[viewer.index] ?? null) : null;
  const detail = useImageDetail(id);
  const star = useStar();
  const exportImage = useExportImage();
  const recall = useComposeStore((s) => s.recall);
  const environment = useSettings().data?.environment;
  const deleteImage = useLocalAction('localDeleteImage');
  const addReferences = useComposeStore((s) => s.addReferences);
  const [confirmDeleteOf, setConfirmDeleteOf] = useState<string | null>(null);
  const confirmingDelete = confirmDeleteOf !== null && confirmDeleteOf === id;
  // Zoom belongs to the image on screen: moving to another image starts at "fit" again.
  const [zoomOf, setZoomOf] = useState<{ id: string | null; zoom: Zoom }>({ id: null, zoom: 'fit' });
  const zoom: Zoom = zoomOf.id === id ? zoomOf.zoom : 'fit';
  const setZoom = useCallback(
    (next: Zoom | ((z: Zoom) => Zoom)) =>
      setZoomOf((prev) => {
        const current = prev.id === id ? prev.zoom : 'fit';
        return { id, zoom: typeof next === 'function' ? next(current) : next };
      }),
    [id],
  );
  const dialogRef = useDialogFocus(viewer !== null);

  useEffect(() => {
    if (!viewer) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'ArrowRight' || e.key === 'ArrowDown') move(1);
      else if (e.key === 'ArrowLeft' || e.key === 'ArrowUp') move(-1);
      else if (e.key === 'Escape') close();
      else if (e.key === '+' || e.key === '=') setZoom((z: Zoom) => Math.min(8, (z === 'fit' ? 1 : z) * 1.25));
      else if (e.key === '-') setZoom((z: Zoom) => Math.max(0.1, (z === 'fit' ? 1 : z) / 1.25));
      else if (e.key === '0') setZoom('fit');
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [viewer, move, close, setZoom]);

  if (!viewer || !id) return null;
  const image = detail.data?.image;
  const turn = detail.data?.turn;
  const onWheel = (e: WheelEvent) => {
    if (!e.ctrlKey && zoom === 'fit') return;
    setZoom((z: Zoom) => Math.min(8, Math.max(0.1, (z === 'fit' ? 1 : z) * (e.deltaY < 0 ? 1.1 : 1 / 1.1))));
  };
  const openSingle = (imageId: string) => open([imageId], 0);
  return (
    <div className="overlay" role="dialog" aria-modal="true" aria-label={t('viewer.title')} data-testid="viewer" ref={dialogRef} tabIndex={-1} onKeyDown={trapTab}>
      <div className="viewer-stage" onWheel={onWheel}>
        <img
          src={imageUrl('full', id)}
          alt={turn?.request.prompt ?? ''}
          className={zoom === 'fit' ? 'viewer-img-fit' : 'viewer-img-zoom'}
          style={zoom === 'fit' || !image ? undefined : { width: image.width * zoom, height: image.height * zoom }}
          data-testid="viewer-image"
        />
      </div>
      <aside className="viewer-side">
        <div className="viewer-toolbar">
          <button type="button" className="btn btn-ghost btn-sm" onClick={() => move(-1)} disabled={viewer.index === 0} aria-label={t('viewer.previous')}>
            ←
          </button>
          <span className="muted small">
            {viewer.index + 1} / {viewer.ids.length}
          </span>
          <button type="button" className="btn btn-ghost btn-sm" onClick={() => move(1)} disabled={viewer.index >= viewer.ids.length - 1} aria-label={t('viewer.next')}>
            →
          </button>
          <span className="spacer" />
          <button type="button" className="btn btn-ghost btn-sm" onClick={() => setZoom('fit')} aria-pressed={zoom === 'fit'}>
            {t('viewer.fit')}
          </button>
          <button type="button" className="btn btn-ghost btn-sm" onClick={() => setZoom(1)} aria-pressed={zoom === 1} data-testid="zoom-100">
            100%
          </button>
          <button type="button" className="btn btn-ghost btn-sm" onClick={close} aria-label={t('common.close')} data-testid="viewer-close">
            ✕
          </button>
        </div>
        {image && turn ? (
          <div className="viewer-detail">
            <ClampedText text={turn.request.prompt || t('viewer.noPrompt')} lines={8} className="viewer-prompt" testId="viewer-prompt" />
            <dl className="facts">
              <dt>{t('compose.model')}</dt>
              <dd>{turn.estimate.model}</dd>
              <dt>{t('viewer.size')}</dt>
              <dd>
                {image.width} × {image.height}
              </dd>
              <dt>{t('viewer.id')}</dt>
              <dd>
                <code>{image.id}</code>
              </dd>
            </dl>
            <div className="row-gap wrap">
              <button type="button" className="btn btn-sm" data-testid="star" aria-pressed={image.starred} onClick={() => star.mutate({ imageId: image.id, starred: !image.starred })}>
                {image.starred ? `★ ${t('gallery.unstar')}` : `☆ ${t('gallery.star')}`}
              </button>
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
            <h3 className="viewer-h" data-testid="viewer-references" data-count={detail.data?.references.length ?? 0}>
              {t('viewer.references', { count: detail.data?.references.length ?? 0 })}
            </h3>
            {detail.data && detail.data.references.length > 0 ? <MiniThumbs images={detail.data.references} onOpen={openSingle} /> : <p className="muted small">{t('viewer.noReferences')}</p>}
            <h3 className="viewer-h" data-testid="viewer-used-in" data-count={detail.data?.usedIn.length ?? 0}>
              {t('viewer.usedIn', { count: detail.data?.usedIn.length ?? 0 })}
            </h3>
            {detail.data && detail.data.usedIn.length > 0 ? (
              <MiniThumbs images={detail.data.usedIn.flatMap((u) => u.images)} onOpen={openSingle} />
            ) : (
              <p className="muted small">{t('viewer.notUsed')}</p>
            )}
          </div>
        ) : null}
        <p className="muted small viewer-keys">{t('viewer.keys')}</p>
      </aside>
    </div>
  );
}

export function CompareView() {
  const { t } = useTranslation();
  const compare = useGalleryStore((s) => s.compare);
  const close = useGalleryStore((s) => s.closeCompare);
  const dialogRef = useDialogFocus(compare !== null);
  useEffect(() => {
    if (!compare) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') close();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [compare, close]);
  if (!compare) return null;
  return (
    <div className="overlay compare" role="dialog" aria-modal="true" aria-label={t('compare.title')} data-testid="compare-view" ref={dialogRef} tabIndex={-1} onKeyDown={trapTab}>
      <div className="compare-bar">
        <span>{t('compare.title')}</span>
        <button type="button" className="btn btn-ghost btn-sm" onClick={close} aria-label={t('common.close')}>
          ✕
        </button>
      </div>
      <div className="compare-panes">
        {compare.map((id) => (
          <figure key={id} className="compare-pane">
            <img src={imageUrl('full', id)} alt="" />
            <figcaption className="muted small">{id}</figcaption>
          </figure>
        ))}
      </div>
    </div>
  );
}
