// The grid's keyboard, one Tab stop (role="grid" with aria-activedescendant). Arrows, Home/End and PageUp/PageDown
// move; Shift extends the selection, Ctrl/Cmd moves without selecting; Space toggles; Enter opens the viewer; 1–5
// rate, 0 clears, X rejects, S/F stars (then the next image, when "advance" is on); B adds to a board; Ctrl/Cmd+A
// selects all; Esc clears the selection. Tabbing in focuses the first image in view, so the page does not jump.
import { useRef, useState, type FocusEvent, type KeyboardEvent, type RefObject } from 'react';
import type { ImageRecord } from '../../../src-shared/ipc/generation.ts';
import { marksForKey, type Marks } from '../../lib/library-state/marks.ts';
import { selectAllMatching, selectionAround, useGalleryStore } from '../../lib/library-state/store.ts';
import { useGalleryView } from '../../lib/library-state/view-store.ts';
import { useSelectionInView } from './selection.ts';
import { isNavKey, navigate, tileCenter, type GalleryLayout, type NavKey, type RowItem } from './layout.ts';

export type FocusMode = 'single' | 'range' | 'move';

export interface GridKeysInput {
  scrollRef: RefObject<HTMLDivElement | null>;
  layout: GalleryLayout;
  byId: ReadonlyMap<string, ImageRecord>;
  /** The focused image, when it is laid out. */
  currentActive: string | null;
  rendered: ReadonlySet<string>;
  virtualItems: ReadonlyArray<{ index: number }>;
  hasMore: boolean;
  loadMore: () => void;
  focusTo: (id: string | null, mode: FocusMode) => void;
  onOpen: (id: string) => void;
  reveal: (id: string) => void;
  mark: (input: { imageIds: string[] } & Marks) => void;
}

export function useGridKeys(input: GridKeysInput) {
  const { scrollRef, layout, byId, currentActive, hasMore, loadMore, focusTo } = input;
  const { order } = layout;
  const [keyboardFocus, setKeyboardFocus] = useState(false);
  const pointerDown = useRef(false);
  /** The column Up/Down aim at while the designer keeps moving vertically (reset by any other key). */
  const aimX = useRef<number | null>(null);
  // Marks and "add to board" skip selected images the filters hide (the selection bar counts them).
  const { visible } = useSelectionInView();

  const moveByKey = (e: KeyboardEvent<HTMLDivElement>, key: NavKey, mod: boolean) => {
    e.preventDefault();
    setKeyboardFocus(true);
    const vertical = key === 'ArrowUp' || key === 'ArrowDown' || key === 'PageUp' || key === 'PageDown';
    if (!vertical || aimX.current === null) aimX.current = currentActive ? tileCenter(layout, currentActive) : null;
    const next = navigate(layout, currentActive, key, scrollRef.current?.clientHeight ?? 600, vertical ? (aimX.current ?? undefined) : undefined);
    if (!vertical) aimX.current = null;
    focusTo(next, e.shiftKey ? 'range' : mod ? 'move' : 'single');
    if ((key === 'End' || key === 'PageDown') && hasMore) loadMore();
  };

  const markByKey = (e: KeyboardEvent<HTMLDivElement>, active: string) => {
    const inView = new Set(visible);
    const targets = selectionAround(active).filter((id) => id === active || inView.has(id));
    if (e.key.toLowerCase() === 'b') {
      e.preventDefault();
      useGalleryView.getState().openBoardPicker(targets);
      return;
    }
    const images = targets.map((id) => byId.get(id)).filter((im): im is ImageRecord => im !== undefined);
    const marks = marksForKey(e.key, images);
    if (!marks) return;
    e.preventDefault();
    setKeyboardFocus(true);
    input.mark({ imageIds: targets, ...marks });
    if (targets.length === 1 && useGalleryView.getState().advance) {
      const index = order.indexOf(active);
      if (index >= 0 && index < order.length - 1) focusTo(order[index + 1] ?? null, 'single');
    }
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    // Keys typed into a session's rename field or on its buttons are theirs.
    if (e.target !== e.currentTarget) return;
    const mod = e.ctrlKey || e.metaKey;
    if (isNavKey(e.key)) {
      moveByKey(e, e.key, mod);
      return;
    }
    aimX.current = null;
    if (mod && e.key.toLowerCase() === 'a') {
      e.preventDefault();
      selectAllMatching(order, hasMore);
      return;
    }
    if (e.altKey || mod) return;
    if (e.key === 'Escape') {
      if (useGalleryStore.getState().selected.length > 0) {
        e.preventDefault();
        useGalleryStore.getState().clearSelection();
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
      input.onOpen(currentActive);
      return;
    }
    if (e.key === ' ') {
      e.preventDefault();
      setKeyboardFocus(true);
      useGalleryStore.getState().select(currentActive, e.shiftKey ? 'range' : 'toggle', order);
      return;
    }
    markByKey(e, currentActive);
  };

  const onFocus = (e: FocusEvent<HTMLDivElement>) => {
    if (e.target !== e.currentTarget || pointerDown.current) return;
    setKeyboardFocus(true);
    if (currentActive && input.rendered.has(currentActive)) return;
    // Tabbing in: the first image in view (or the selected one in view), so the page does not jump.
    const firstInView = input.virtualItems
      .map((v) => layout.items[v.index])
      .filter((item): item is RowItem => item?.kind === 'row')
      .flatMap((row) => row.tiles.map((tile) => tile.image.id))
      .find((id) => {
        const at = layout.where.get(id);
        const start = at ? layout.starts[at.item] : undefined;
        return start !== undefined && (scrollRef.current?.scrollTop ?? 0) <= start;
      });
    const pick = currentActive ?? firstInView ?? order[0] ?? null;
    if (pick) {
      useGalleryView.getState().setActive(pick);
      if (!input.rendered.has(pick)) input.reveal(pick);
    }
  };

  const onBlur = (e: FocusEvent<HTMLDivElement>) => {
    if (e.target === e.currentTarget) setKeyboardFocus(false);
  };

  const onPointerDown = () => {
    pointerDown.current = true;
    aimX.current = null;
    setKeyboardFocus(false);
    window.setTimeout(() => (pointerDown.current = false), 0);
  };

  return { keyboardFocus, onKeyDown, onFocus, onBlur, onPointerDown };
}
