// The virtualised gallery (@tanstack/react-virtual): one virtual item per session group, so 10,000 images
// keep only the groups near the viewport in the DOM. More pages load as the end comes into view.
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { GalleryPage } from '../../../src-shared/ipc/library.ts';
import { GalleryThumb } from './GalleryThumb.tsx';
import { cellSize, columnsFor, groupItems, itemHeight, GROUP_PADDING, type GroupItem } from './layout.ts';
import { SessionHeader } from './SessionHeader.tsx';
import { useGalleryStore } from './store.ts';

const GAP = 6;
const MIN_CELL = 104;

interface GroupRowProps {
  item: GroupItem;
  start: number;
  size: number;
  columns: number;
  cell: number;
  selectedSet: ReadonlySet<string>;
  onSelect: (id: string, mode: 'single' | 'toggle' | 'range') => void;
  onOpen: (id: string) => void;
  dragIds: (id: string) => string[];
  t: TFunction;
}

/** One session group; memoised so scrolling mounts only the groups that come into view. */
const GroupRow = memo(function GroupRow({ item, start, size, columns, cell, selectedSet, onSelect, onOpen, dragIds, t }: GroupRowProps) {
  return (
    <div
      role="listitem"
      className={`session-group ${item.first ? '' : 'session-group-cont'}`}
      data-testid="session-group"
      data-session-id={item.session.id}
      style={{ position: 'absolute', top: 0, left: 0, width: '100%', height: size, transform: `translateY(${start}px)`, paddingBottom: GROUP_PADDING }}
    >
      {item.first ? <SessionHeader session={item.session} total={item.total} /> : null}
      <div className="thumb-grid" style={{ gridTemplateColumns: `repeat(${columns}, ${cell}px)`, gap: GAP }}>
        {item.images.map((image) => (
          <GalleryThumb
            key={image.id}
            image={image}
            size={cell}
            selected={selectedSet.has(image.id)}
            onSelect={onSelect}
            onOpen={onOpen}
            dragIds={dragIds}
            t={t}
          />
        ))}
      </div>
    </div>
  );
});

export function GalleryList(props: { pages: GalleryPage[]; hasMore: boolean; loadingMore: boolean; loadMore: () => void }) {
  const { t } = useTranslation();
  const scrollRef = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(360);
  const selected = useGalleryStore((s) => s.selected);
  const select = useGalleryStore((s) => s.select);
  const openViewer = useGalleryStore((s) => s.openViewer);

  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setWidth(el.clientWidth - 24));
    observer.observe(el);
    setWidth(el.clientWidth - 24);
    return () => observer.disconnect();
  }, []);

  const items = useMemo(() => groupItems(props.pages.flatMap((p) => p.groups)), [props.pages]);
  const order = useMemo(() => items.flatMap((i) => i.images.map((im) => im.id)), [items]);
  const columns = columnsFor(width, MIN_CELL, GAP);
  const cell = cellSize(width, columns, GAP);
  const selectedSet = useMemo(() => new Set(selected), [selected]);

  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (index) => {
      const item = items[index];
      return item ? itemHeight(item, columns, cell, GAP) : 100;
    },
    overscan: 2,
    getItemKey: (index) => items[index]?.key ?? index,
  });

  useEffect(() => {
    virtualizer.measure();
  }, [columns, cell, virtualizer]);

  const virtualItems = virtualizer.getVirtualItems();
  const lastIndex = virtualItems.at(-1)?.index ?? -1;
  const { hasMore, loadingMore, loadMore } = props;
  useEffect(() => {
    if (hasMore && !loadingMore && lastIndex >= items.length - 4) loadMore();
  }, [lastIndex, items.length, hasMore, loadingMore, loadMore]);

  const onSelect = useCallback((id: string, mode: 'single' | 'toggle' | 'range') => select(id, mode, order), [select, order]);
  const onOpen = useCallback((id: string) => openViewer(order, Math.max(0, order.indexOf(id))), [openViewer, order]);
  const dragIds = useCallback((id: string) => {
    const current = useGalleryStore.getState().selected;
    return current.includes(id) ? current : [id];
  }, []);

  return (
    <div ref={scrollRef} className="gallery-scroll" data-testid="gallery" role="list" aria-label={t('gallery.title')}>
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative', width: '100%' }}>
        {virtualItems.map((v) => {
          const item = items[v.index];
          if (!item) return null;
          return (
            <GroupRow
              key={v.key}
              item={item}
              start={v.start}
              size={v.size}
              columns={columns}
              cell={cell}
              selectedSet={selectedSet}
              onSelect={onSelect}
              onOpen={onOpen}
              dragIds={dragIds}
              t={t}
            />
          );
        })}
      </div>
      {props.loadingMore ? <p className="gallery-more muted">{t('common.loading')}</p> : null}
    </div>
  );
}
