// What surrounds the grid in both views: the tile-size slider, the keys legend with "advance after marking",
// the gallery panel's splitter, and the grid itself with its empty state.
import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import type { GalleryFilters } from '../../../src-shared/ipc/library.ts';
import { appText, useText } from '../../i18n/text.ts';
import { libraryText } from '../../i18n/library.ts';
import { GalleryList } from './GalleryList.tsx';
import { useGallery } from './queries.ts';
import { GALLERY_WIDTH, maxGalleryWidth, THUMB_SIZE, useGalleryView, type GridView } from '../../lib/library-state/view-store.ts';
import './gallery.css';

export function ThumbSizeSlider({ view }: { view: GridView }) {
  const lt = useText(libraryText);
  const size = useGalleryView((s) => s.thumbSize[view]);
  const setSize = useGalleryView((s) => s.setThumbSize);
  return (
    <label className="thumb-size" title={lt('thumbSize')}>
      <span className="thumb-size-icon" aria-hidden="true">
        ▦
      </span>
      <input
        type="range"
        data-testid="thumb-size"
        min={THUMB_SIZE.min}
        max={THUMB_SIZE.max}
        step={THUMB_SIZE.step}
        value={size}
        aria-label={lt('thumbSize')}
        onChange={(e) => setSize(view, Number(e.target.value))}
      />
    </label>
  );
}

/** The culling keys, always in sight under the grid, and the "advance after marking" switch. */
export function CullLegend() {
  const lt = useText(libraryText);
  const advance = useGalleryView((s) => s.advance);
  const setAdvance = useGalleryView((s) => s.setAdvance);
  // Culling keys first; the moving keys are the usual ones (a short window leaves them out, gallery.css).
  const keys: Array<[string, string, 'cull' | 'nav']> = [
    ['1–5', lt('keyRate'), 'cull'],
    ['0', lt('keyClear'), 'cull'],
    ['X', lt('keyReject'), 'cull'],
    ['S', lt('keyStar'), 'cull'],
    ['B', lt('keyBoard'), 'cull'],
    ['←↑↓→', lt('keyMove'), 'nav'],
    ['Enter', lt('keyOpen'), 'nav'],
    ['Space', lt('keySelect'), 'nav'],
  ];
  return (
    <div className="cull-legend" data-testid="cull-legend">
      <ul className="cull-keys" aria-label={lt('keysLabel')}>
        {keys.map(([key, what, kind]) => (
          <li key={key} className={`cull-key-${kind}`}>
            <kbd className="kbd">{key}</kbd> {what}
          </li>
        ))}
      </ul>
      <label className="toggle cull-advance" title={lt('advanceHint')}>
        <input type="checkbox" data-testid="cull-advance" checked={advance} onChange={(e) => setAdvance(e.target.checked)} />
        {lt('advance')}
      </label>
    </div>
  );
}

/**
 * The splitter on the gallery panel's left edge: drag it, or focus it and use ← → (Shift: bigger steps),
 * Home/End. The width is kept in localStorage (view-store) and clamped so the stage keeps its room.
 */
export function GalleryResizer() {
  const lt = useText(libraryText);
  const width = useGalleryView((s) => s.galleryWidth);
  const setWidth = useGalleryView((s) => s.setGalleryWidth);
  const drag = useRef<{ x: number; width: number } | null>(null);
  const max = maxGalleryWidth(useWindowWidth());
  const shown = Math.min(width, max);

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    e.preventDefault();
    e.currentTarget.setPointerCapture(e.pointerId);
    e.currentTarget.focus({ preventScroll: true });
    drag.current = { x: e.clientX, width: shown };
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    if (!drag.current) return;
    // The splitter is on the left edge: moving left widens the gallery.
    setWidth(Math.min(max, drag.current.width + (drag.current.x - e.clientX)));
  };
  const onPointerUp = (e: PointerEvent<HTMLDivElement>) => {
    drag.current = null;
    if (e.currentTarget.hasPointerCapture(e.pointerId)) e.currentTarget.releasePointerCapture(e.pointerId);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const step = e.shiftKey ? GALLERY_WIDTH.step * 4 : GALLERY_WIDTH.step;
    let next: number | null = null;
    if (e.key === 'ArrowLeft') next = shown + step;
    else if (e.key === 'ArrowRight') next = shown - step;
    else if (e.key === 'Home') next = GALLERY_WIDTH.min;
    else if (e.key === 'End') next = max;
    if (next === null) return;
    e.preventDefault();
    setWidth(Math.min(max, Math.max(GALLERY_WIDTH.min, next)));
  };
  return (
    <div
      className="gallery-resizer"
      role="separator"
      aria-orientation="vertical"
      aria-label={lt('resize')}
      aria-valuenow={shown}
      aria-valuemin={GALLERY_WIDTH.min}
      aria-valuemax={max}
      title={lt('resizeHint')}
      tabIndex={0}
      data-testid="gallery-resizer"
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
      onKeyDown={onKeyDown}
    />
  );
}

/** The window's width, kept current (the splitter's maximum depends on it). */
function useWindowWidth(): number {
  const [width, setWidth] = useState(() => window.innerWidth);
  useEffect(() => {
    const onResize = () => setWidth(window.innerWidth);
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return width;
}

/** The grid for the current filters, with its empty state and errors. */
export function GalleryBody({ filters, view }: { filters: GalleryFilters; view: GridView }) {
  const t = useText(appText);
  const gallery = useGallery(filters);
  const rowHeight = useGalleryView((s) => s.thumbSize[view]);
  const pages = gallery.data?.pages ?? [];
  const totals = pages[0]?.totals;
  return (
    <>
      {gallery.isError ? <p className="hint-danger gallery-error">{(gallery.error as Error).message}</p> : null}
      {!gallery.isPending && totals?.images === 0 ? (
        <p className="gallery-empty muted" data-testid="gallery-empty">
          {Object.keys(filters).length > 0 ? t('gallery.noMatches') : t('gallery.empty')}
        </p>
      ) : null}
      <GalleryList pages={pages} hasMore={gallery.hasNextPage} loadingMore={gallery.isFetchingNextPage} loadMore={() => void gallery.fetchNextPage()} rowHeight={rowHeight} />
    </>
  );
}

export function GalleryTotals({ filters }: { filters: GalleryFilters }) {
  const t = useText(appText);
  const totals = useGallery(filters).data?.pages[0]?.totals;
  if (!totals) return null;
  return (
    <span className="muted small gallery-totals" data-testid="gallery-totals">
      {t('gallery.totals', { images: t('gallery.imageCount', { count: totals.images }), sessions: t('gallery.sessionCount', { count: totals.sessions }) })}
    </span>
  );
}
