// The grid's geometry: its width, the justified layout of the loaded pages (layout.ts), the virtualiser over it
// (@tanstack/react-virtual), the sessions in view and the images rendered. More pages load as the end comes into
// view. Virtual items have exact sizes, so nothing is measured.
import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react';
import type { ImageRecord } from '../../../src-shared/ipc/generation.ts';
import type { GalleryPage } from '../../../src-shared/ipc/library.ts';
import { galleryLayout, GAP, type LayoutItem } from './layout.ts';

/** Horizontal padding of the scroll container (each side), in px; matches .gallery-scroll in gallery.css. */
const PAD_X = 12;

export interface VisibleGroup {
  key: string;
  top: number;
  height: number;
  items: Array<{ item: LayoutItem; start: number }>;
}

export interface GridPaging {
  pages: GalleryPage[];
  hasMore: boolean;
  loadingMore: boolean;
  loadMore: () => void;
  /** The tiles' target height (the tile-size slider). */
  rowHeight: number;
}

/**
 * The width comes from the scroll container, whose scrollbar gutter is always reserved (gallery.css): a scrollbar
 * appearing or going cannot change it, so the layout never oscillates. Sub-pixel changes are ignored.
 */
function useGridWidth(scrollRef: RefObject<HTMLDivElement | null>): number {
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    let resizes = 0;
    const update = () => {
      resizes += 1;
      el.dataset.resizeCount = String(resizes);
      const next = Math.max(0, Math.floor(el.clientWidth - 2 * PAD_X));
      setWidth((prev) => (prev === next ? prev : next));
    };
    const observer = new ResizeObserver(update);
    observer.observe(el);
    update();
    return () => observer.disconnect();
  }, [scrollRef]);
  return width;
}

/** The layout of the loaded pages at this width, and each laid-out image by id. */
function useGridLayout(scrollRef: RefObject<HTMLDivElement | null>, pages: GalleryPage[], width: number, rowHeight: number) {
  const layoutCount = useRef(0);
  const groups = useMemo(() => pages.flatMap((p) => p.groups), [pages]);
  const layout = useMemo(() => galleryLayout(groups, Math.max(width, 1), rowHeight, GAP), [groups, width, rowHeight]);
  // How many layouts this grid has made, for the e2e that proves an idle gallery makes none.
  useEffect(() => {
    layoutCount.current += 1;
    if (scrollRef.current) scrollRef.current.dataset.layoutCount = String(layoutCount.current);
  }, [layout, scrollRef]);
  const byId = useMemo(() => {
    const map = new Map<string, ImageRecord>();
    for (const item of layout.items) if (item.kind === 'row') for (const tile of item.tiles) map.set(tile.image.id, tile.image);
    return map;
  }, [layout]);
  return { layout, byId };
}

/**
 * Groups the visible items by session: one rowgroup per session in view. A group's box spans its whole session
 * (layout.spans), so only entering rows are styled and laid out.
 */
function groupBySession(virtualItems: ReadonlyArray<{ index: number; start: number }>, items: readonly LayoutItem[], spans: ReadonlyArray<{ start: number; end: number }>): VisibleGroup[] {
  const out: VisibleGroup[] = [];
  for (const v of virtualItems) {
    const item = items[v.index];
    const span = spans[v.index];
    if (!item || !span) continue;
    const last = out.at(-1);
    if (last && last.items[0]?.item.session.id === item.session.id) last.items.push({ item, start: v.start });
    else out.push({ key: `g:${item.session.id}`, top: span.start, height: span.end - span.start, items: [{ item, start: v.start }] });
  }
  return out;
}

export function useGridRows(scrollRef: RefObject<HTMLDivElement | null>, paging: GridPaging) {
  const width = useGridWidth(scrollRef);
  const { layout, byId } = useGridLayout(scrollRef, paging.pages, width, paging.rowHeight);
  const { items, where, spans } = layout;

  const getItemKey = useCallback((index: number) => items[index]?.key ?? index, [items]);
  const estimateSize = useCallback((index: number) => items[index]?.size ?? 0, [items]);
  // The virtualiser's functions are read each render (this hook's component is not compiler-memoised).
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: width > 0 ? items.length : 0,
    getScrollElement: () => scrollRef.current,
    estimateSize,
    overscan: 2,
    getItemKey,
    // A scroll re-renders in React's next batch instead of synchronously inside the scroll event (flushSync
    // cost ~4.5 ms a frame in the gallery-scroll bench's profile).
    useFlushSync: false,
  });

  const virtualItems = virtualizer.getVirtualItems();
  const lastIndex = virtualItems.at(-1)?.index ?? -1;
  const { hasMore, loadingMore, loadMore } = paging;
  useEffect(() => {
    if (hasMore && !loadingMore && lastIndex >= items.length - 8) loadMore();
  }, [lastIndex, items.length, hasMore, loadingMore, loadMore]);

  const visibleGroups = useMemo(() => groupBySession(virtualItems, items, spans), [virtualItems, items, spans]);
  const rendered = useMemo(() => {
    const set = new Set<string>();
    for (const g of visibleGroups) for (const { item } of g.items) if (item.kind === 'row') for (const tile of item.tiles) set.add(tile.image.id);
    return set;
  }, [visibleGroups]);

  /** Scrolls an image into view; the first row of a session brings its header along. */
  const reveal = useCallback(
    (id: string) => {
      const at = where.get(id);
      if (!at) return;
      const header = items[at.item - 1]?.kind === 'header' ? at.item - 1 : at.item;
      const el = scrollRef.current;
      const start = layout.starts[header];
      if (el && start !== undefined && start < el.scrollTop) virtualizer.scrollToIndex(header, { align: 'start' });
      else virtualizer.scrollToIndex(at.item, { align: 'auto' });
    },
    [where, items, layout, virtualizer, scrollRef],
  );

  const totalHeight = width > 0 ? virtualizer.getTotalSize() : 0;
  return { layout, byId, virtualItems, visibleGroups, rendered, reveal, totalHeight };
}
