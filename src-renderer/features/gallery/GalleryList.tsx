// The virtualised image grid of the gallery panel and the library view (@tanstack/react-virtual). Virtual
// items are session headers and justified rows (layout.ts) with exact sizes, so only the rows near the
// viewport are in the DOM and nothing is measured. More pages load as the end comes into view.
//
// Keyboard: the grid is one Tab stop (role="grid" with aria-activedescendant). Arrows, Home/End and
// PageUp/PageDown move; Shift extends the selection, Ctrl/Cmd moves without selecting; Space toggles; Enter
// opens the viewer; 1–5 rate, 0 clears, X rejects, S/F stars (then the next image, when "advance" is on);
// B adds to a board; Ctrl/Cmd+A selects all; Esc clears the selection.
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type FocusEvent, type KeyboardEvent } from 'react';
import type { ImageRecord } from '../../../src-shared/ipc/generation.ts';
import type { GalleryPage } from '../../../src-shared/ipc/library.ts';
import type { EnvironmentName } from '../../../src-shared/ipc/settings.ts';
import type { Language } from '../../../src-shared/language.ts';
import { appText, useText, type AppText } from '../../i18n/text.ts';
import { call } from '../../lib/desktop.ts';
import { useLanguage } from '../../i18n/useLanguage.ts';
import { useSettings } from '../settings/index.ts';
import { libraryText } from '../../i18n/library.ts';
import { BoardPicker } from '../boards/BoardPicker.tsx';
import { marksForKey, useMark } from './cull.ts';
import { installDragOut } from '../../lib/image-drag.ts';
import { GalleryThumb, tileId, tileText, type TileText } from './GalleryThumb.tsx';
import { galleryLayout, isNavKey, navigate, tileCenter, GAP, type LayoutItem, type RowItem } from './layout.ts';
import { SessionHeader } from './SessionHeader.tsx';
import { useGalleryStore } from '../../lib/library-state/store.ts';
import { useGalleryView } from '../../lib/library-state/view-store.ts';

/** Horizontal padding of the scroll container (each side), in px; matches .gallery-scroll in gallery.css. */
const PAD_X = 12;

interface GroupProps {
  items: Array<{ item: LayoutItem; start: number }>;
  top: number;
  height: number;
  selectedSet: ReadonlySet<string>;
  focusedId: string | null;
  onSelect: (id: string, mode: 'single' | 'toggle' | 'range') => void;
  onOpen: (id: string) => void;
  onReject: (id: string) => void;
  dragIds: (id: string) => string[];
  t: AppText;
  text: TileText;
  language: Language;
  environment: EnvironmentName | undefined;
}

/** The visible part of one session: its header (when in view) and its rows in view, one rowgroup. */
const SessionGroup = memo(function SessionGroup({ items, top, height, selectedSet, focusedId, onSelect, onOpen, onReject, dragIds, t, text, language, environment }: GroupProps) {
  const session = items[0]?.item.session;
  if (!session) return null;
  return (
    <div
      role="rowgroup"
      className="session-group"
      data-testid="session-group"
      data-session-id={session.id}
      style={{ position: 'absolute', top: 0, left: 0, width: '100%', height, transform: `translateY(${top}px)` }}
    >
      {items.map(({ item, start }) =>
        item.kind === 'header' ? (
          <div key={item.key} role="row" className="grid-header-row" style={{ top: start - top, height: item.size }}>
            <div role="gridcell" className="grid-header-cell">
              <SessionHeader session={item.session} total={item.total} environment={environment} t={t} language={language} />
            </div>
          </div>
        ) : (
          <div key={item.key} role="row" className="grid-row" style={{ top: start - top, height: item.height }}>
            {item.tiles.map((tile) => (
              <GalleryThumb
                key={tile.image.id}
                image={tile.image}
                left={tile.left}
                width={tile.width}
                height={item.height}
                selected={selectedSet.has(tile.image.id)}
                focused={focusedId === tile.image.id}
                onSelect={onSelect}
                onOpen={onOpen}
                onReject={onReject}
                dragIds={dragIds}
                text={text}
              />
            ))}
          </div>
        ),
      )}
    </div>
  );
});

export interface ImageGridProps {
  pages: GalleryPage[];
  hasMore: boolean;
  loadingMore: boolean;
  loadMore: () => void;
  /** The tiles' target height (the tile-size slider). */
  rowHeight: number;
}

export function GalleryList(props: ImageGridProps) {
  const t = useText(appText);
  const language = useLanguage();
  const environment = useSettings().data?.environment;
  const lt = useText(libraryText);
  const text = useMemo(() => tileText(t, lt), [t, lt]);
  const scrollRef = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  const selected = useGalleryStore((s) => s.selected);
  const select = useGalleryStore((s) => s.select);
  const openViewer = useGalleryStore((s) => s.openViewer);
  const clearSelection = useGalleryStore((s) => s.clearSelection);
  const active = useGalleryView((s) => s.active);
  const setActive = useGalleryView((s) => s.setActive);
  const picker = useGalleryView((s) => s.boardPicker);
  const openBoardPicker = useGalleryView((s) => s.openBoardPicker);
  const { mutate: mark } = useMark();
  const [keyboardFocus, setKeyboardFocus] = useState(false);
  const pointerDown = useRef(false);
  /** The column Up/Down aim at while the designer keeps moving vertically (reset by any other key). */
  const aimX = useRef<number | null>(null);
  const layoutCount = useRef(0);
  // Images dragged out of the window become an OS drag of their PNGs (whichever view shows the grid).
  useEffect(() => installDragOut(), []);

  // The width comes from the scroll container, whose scrollbar gutter is always reserved (gallery.css): a
  // scrollbar appearing or going cannot change it, so the layout never oscillates. Sub-pixel changes are ignored.
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
  }, []);

  const groups = useMemo(() => props.pages.flatMap((p) => p.groups), [props.pages]);
  const layout = useMemo(() => galleryLayout(groups, Math.max(width, 1), props.rowHeight, GAP), [groups, width, props.rowHeight]);
  // How many layouts this grid has made, for the e2e that proves an idle gallery makes none.
  useEffect(() => {
    layoutCount.current += 1;
    if (scrollRef.current) scrollRef.current.dataset.layoutCount = String(layoutCount.current);
  }, [layout]);
  const { items, order, where } = layout;
  const byId = useMemo(() => {
    const map = new Map<string, ImageRecord>();
    for (const item of items) if (item.kind === 'row') for (const tile of item.tiles) map.set(tile.image.id, tile.image);
    return map;
  }, [items]);
  const selectedSet = useMemo(() => new Set(selected), [selected]);

  const getItemKey = useCallback((index: number) => items[index]?.key ?? index, [items]);
  const estimateSize = useCallback((index: number) => items[index]?.size ?? 0, [items]);
  // The virtualiser's functions are read each render (this component is not compiler-memoised).
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
  const { hasMore, loadingMore, loadMore } = props;
  useEffect(() => {
    if (hasMore && !loadingMore && lastIndex >= items.length - 8) loadMore();
  }, [lastIndex, items.length, hasMore, loadingMore, loadMore]);

  // Group the visible items by session: one rowgroup per session in view. A group's box spans its whole session
  // (layout.spans), so neither it nor its rows move or resize while rows scroll in and out: only entering rows
  // are styled and laid out.
  const { spans } = layout;
  const visibleGroups = useMemo(() => {
    const out: Array<{ key: string; top: number; height: number; items: Array<{ item: LayoutItem; start: number }> }> = [];
    for (const v of virtualItems) {
      const item = items[v.index];
      const span = spans[v.index];
      if (!item || !span) continue;
      const last = out.at(-1);
      if (last && last.items[0]?.item.session.id === item.session.id) last.items.push({ item, start: v.start });
      else out.push({ key: `g:${item.session.id}`, top: span.start, height: span.end - span.start, items: [{ item, start: v.start }] });
    }
    return out;
  }, [virtualItems, items, spans]);
  const rendered = useMemo(() => {
    const set = new Set<string>();
    for (const g of visibleGroups) for (const { item } of g.items) if (item.kind === 'row') for (const tile of item.tiles) set.add(tile.image.id);
    return set;
  }, [visibleGroups]);

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

  const reveal = useCallback(
    (id: string) => {
      const at = where.get(id);
      if (!at) return;
      // The first row of a session brings its header along.
      const header = items[at.item - 1]?.kind === 'header' ? at.item - 1 : at.item;
      const el = scrollRef.current;
      const start = layout.starts[header];
      if (el && start !== undefined && start < el.scrollTop) virtualizer.scrollToIndex(header, { align: 'start' });
      else virtualizer.scrollToIndex(at.item, { align: 'auto' });
    },
    [where, items, layout, virtualizer],
  );

  const focusTo = useCallback(
    (id: string | null, mode: 'single' | 'range' | 'move') => {
      if (!id) return;
      setActive(id);
      if (mode !== 'move') select(id, mode, order);
      reveal(id);
    },
    [setActive, select, order, reveal],
  );

  const currentActive = active !== null && where.has(active) ? active : null;

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    // Keys typed into a session's rename field or on its buttons are theirs.
    if (e.target !== e.currentTarget) return;
    const el = scrollRef.current;
    const mod = e.ctrlKey || e.metaKey;
    if (isNavKey(e.key)) {
      e.preventDefault();
      setKeyboardFocus(true);
      const vertical = e.key === 'ArrowUp' || e.key === 'ArrowDown' || e.key === 'PageUp' || e.key === 'PageDown';
      if (!vertical || aimX.current === null) aimX.current = currentActive ? tileCenter(layout, currentActive) : null;
      const next = navigate(layout, currentActive, e.key, el?.clientHeight ?? 600, vertical ? (aimX.current ?? undefined) : undefined);
      if (!vertical) aimX.current = null;
      focusTo(next, e.shiftKey ? 'range' : mod ? 'move' : 'single');
      if ((e.key === 'End' || e.key === 'PageDown') && hasMore) loadMore();
      return;
    }
    aimX.current = null;
    if (mod && e.key.toLowerCase() === 'a') {
      e.preventDefault();
      // Everything that passes the filters, loaded or not (the first 5000): the loaded ones at once.
      useGalleryStore.setState({ selected: [...order], anchor: order[0] ?? null });
      if (hasMore) {
        void call('libraryImageIds', { filters: useGalleryStore.getState().filters, limit: 5000 }).then(
          ({ ids }) => useGalleryStore.setState({ selected: ids, anchor: ids[0] ?? null }),
          () => undefined,
        );
      }
      return;
    }
    if (e.altKey || mod) return;
    if (e.key === 'Escape') {
      if (useGalleryStore.getState().selected.length > 0) {
        e.preventDefault();
        clearSelection();
      }
      return;
    }
    if (!currentActive) {
      if (e.key === 'Enter' || e.key === ' ' || marksForKey(e.key, []) !== null) {
        e.preventDefault();
        focusTo(order[0] ?? null, 'single');
      }
      return;
    }
    if (e.key === 'Enter') {
      e.preventDefault();
      onOpen(currentActive);
      return;
    }
    if (e.key === ' ') {
      e.preventDefault();
      setKeyboardFocus(true);
      select(currentActive, e.shiftKey ? 'range' : 'toggle', order);
      return;
    }
    // Marks apply to the selection when the focused image is part of it, else to the focused image alone.
    const current = useGalleryStore.getState().selected;
    const targets = current.length > 1 && current.includes(currentActive) ? current : [currentActive];
    if (e.key.toLowerCase() === 'b') {
      e.preventDefault();
      openBoardPicker(targets);
      return;
    }
    const images = targets.map((id) => byId.get(id)).filter((im): im is ImageRecord => im !== undefined);
    const marks = marksForKey(e.key, images);
    if (!marks) return;
    e.preventDefault();
    setKeyboardFocus(true);
    mark({ imageIds: targets, ...marks });
    if (targets.length === 1 && useGalleryView.getState().advance) {
      const index = order.indexOf(currentActive);
      if (index >= 0 && index < order.length - 1) focusTo(order[index + 1] ?? null, 'single');
    }
  };

  const onFocus = (e: FocusEvent<HTMLDivElement>) => {
    if (e.target !== e.currentTarget) return;
    if (pointerDown.current) return;
    setKeyboardFocus(true);
    if (currentActive && rendered.has(currentActive)) return;
    // Tabbing in: the first image in view (or the selected one in view), so the page does not jump.
    const firstInView = virtualItems
      .map((v) => items[v.index])
      .filter((item): item is RowItem => item?.kind === 'row')
      .flatMap((row) => row.tiles.map((tile) => tile.image.id))
      .find((id) => {
        const at = where.get(id);
        const start = at ? layout.starts[at.item] : undefined;
        return start !== undefined && (scrollRef.current?.scrollTop ?? 0) <= start;
      });
    const pick = currentActive ?? firstInView ?? order[0] ?? null;
    if (pick) {
      setActive(pick);
      if (!rendered.has(pick)) reveal(pick);
    }
  };

  const focusedId = keyboardFocus ? currentActive : null;
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
        onKeyDown={onKeyDown}
        onFocus={onFocus}
        onBlur={(e) => {
          if (e.target === e.currentTarget) setKeyboardFocus(false);
        }}
        onPointerDown={() => {
          pointerDown.current = true;
          aimX.current = null;
          setKeyboardFocus(false);
          window.setTimeout(() => (pointerDown.current = false), 0);
        }}
      >
        <div style={{ height: width > 0 ? virtualizer.getTotalSize() : 0, position: 'relative', width: '100%' }}>
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
