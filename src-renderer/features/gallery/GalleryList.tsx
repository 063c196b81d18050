// The virtualised image grid of the gallery panel and the library view: its geometry (useGridRows.ts), its
// keyboard (useGridKeys.ts) and one rowgroup per session in view (SessionGroup.tsx). The board picker (B) opens
// over it.
import { useCallback, useEffect, useMemo, useRef } from 'react';
import { appText, useText } from '../../i18n/text.ts';
import { libraryText } from '../../i18n/library.ts';
import { useLanguage } from '../../i18n/useLanguage.ts';
import { installDragOut } from '../../lib/image-drag.ts';
import { useMark } from '../../lib/library-state/marks.ts';
import { useGalleryStore } from '../../lib/library-state/store.ts';
import { useGalleryView } from '../../lib/library-state/view-store.ts';
import { BoardPicker } from '../boards/index.ts';
import { useSettings } from '../settings/index.ts';
import { tileId, tileText } from './GalleryThumb.tsx';
import { SessionGroup } from './SessionGroup.tsx';
import { useGridKeys, type FocusMode } from './useGridKeys.ts';
import { useGridRows, type GridPaging } from './useGridRows.ts';

export type ImageGridProps = GridPaging;

export function GalleryList(props: ImageGridProps) {
  const t = useText(appText);
  const language = useLanguage();
  const environment = useSettings().data?.environment;
  const lt = useText(libraryText);
  const text = useMemo(() => tileText(t, lt), [t, lt]);
  const scrollRef = useRef<HTMLDivElement>(null);
  const selected = useGalleryStore((s) => s.selected);
  const select = useGalleryStore((s) => s.select);
  const openViewer = useGalleryStore((s) => s.openViewer);
  const active = useGalleryView((s) => s.active);
  const setActive = useGalleryView((s) => s.setActive);
  const picker = useGalleryView((s) => s.boardPicker);
  const { mutate: mark } = useMark();
  // Images dragged out of the window become an OS drag of their PNGs (whichever view shows the grid).
  useEffect(() => installDragOut(), []);

  const { layout, byId, virtualItems, visibleGroups, rendered, reveal, totalHeight } = useGridRows(scrollRef, props);
  const { order, where } = layout;
  const selectedSet = useMemo(() => new Set(selected), [selected]);

  const onSelect = useCallback(
    (id: string, mode: 'single' | 'toggle' | 'range') => {
      setActive(id);
      select(id, mode, order);
    },
    [select, order, setActive],
  );
  const onOpen = useCallback((id: string) => openViewer(order, Math.max(0, order.indexOf(id))), [openViewer, order]);
  const dragIds = useCallback((id: string) => {
    const current = useGalleryStore.getState().selected;
    return current.includes(id) ? current : [id];
  }, []);
  const onReject = useCallback(
    (id: string) => {
      const image = byId.get(id);
      if (image) mark({ imageIds: [id], rejected: !image.rejected });
    },
    [byId, mark],
  );
  const focusTo = useCallback(
    (id: string | null, mode: FocusMode) => {
      if (!id) return;
      setActive(id);
      if (mode !== 'move') select(id, mode, order);
      reveal(id);
    },
    [setActive, select, order, reveal],
  );

  const currentActive = active !== null && where.has(active) ? active : null;
  const keys = useGridKeys({ scrollRef, layout, byId, currentActive, rendered, virtualItems, hasMore: props.hasMore, loadMore: props.loadMore, focusTo, onOpen, reveal, mark });

  const focusedId = keys.keyboardFocus ? currentActive : null;
  // Translated when the count or language changes, not on every scroll frame.
  const gridLabel = useMemo(() => lt('gridLabel', { count: order.length }), [lt, order.length]);
  const activeDescendant = currentActive && rendered.has(currentActive) ? tileId(currentActive) : undefined;

  return (
    <div className="grid-wrap">
      <div
        ref={scrollRef}
        className="gallery-scroll"
        data-testid="gallery"
        data-image-count={order.length}
        // Empty, it is still a named Tab stop: a group (an aria-label needs a role; a grid needs rows).
        role={order.length > 0 ? 'grid' : 'group'}
        aria-multiselectable={order.length > 0 ? true : undefined}
        aria-label={gridLabel}
        aria-activedescendant={activeDescendant}
        tabIndex={0}
        onKeyDown={keys.onKeyDown}
        onFocus={keys.onFocus}
        onBlur={keys.onBlur}
        onPointerDown={keys.onPointerDown}
      >
        <div style={{ height: totalHeight, position: 'relative', width: '100%' }}>
          {visibleGroups.map((g) => (
            <SessionGroup
              key={g.key}
              items={g.items}
              top={g.top}
              height={g.height}
              selectedSet={selectedSet}
              focusedId={focusedId}
              onSelect={onSelect}
              onOpen={onOpen}
              onReject={onReject}
              dragIds={dragIds}
              t={t}
              text={text}
              language={language}
              environment={environment}
            />
          ))}
        </div>
        {props.loadingMore ? <p className="gallery-more muted">{t('common.loading')}</p> : null}
      </div>
      {picker ? <BoardPicker imageIds={picker} onDone={() => scrollRef.current?.focus({ preventScroll: true })} /> : null}
    </div>
  );
}
