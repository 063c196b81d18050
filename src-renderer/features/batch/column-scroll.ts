// A virtualised list that scrolls with its column (the columns' box on a narrow window) instead of in a scroll box of
// its own: the Catalog keeps one scroll area per column (issue 26). The list tells its virtualizer what scrolls it and
// where the list starts inside that (the scroll margin).
import { useCallback, useLayoutEffect, useRef, useState, type RefObject } from 'react';

/**
 * How many rows a virtualised list draws beyond those in view: every row of a short list (find in page, a screen
 * reader and scripted tests reach each one), a few of a long one (`wholeUpTo` is where drawing it all starts to cost).
 */
export function overscanFor(count: number, wholeUpTo: number, near: number): number {
  return count <= wholeUpTo ? count : near;
}

/** The Catalog's tables and lists of one line per row (products, jobs): whole up to this many rows, then windowed
 *  with this many drawn beyond the view each way. The board, whose rows are far heavier, has its own. */
export const LIST_WHOLE_UP_TO = 200;
export const LIST_NEAR = 8;

/** Marks what may scroll a list: the columns, and the columns' box on a narrow window (BatchPage.tsx). */
export const COLUMN_SCROLL = 'data-column-scroll';

/**
 * The nearest marked ancestor that scrolls: the column on a wide window, the columns' box on a narrow one
 * (batch.css). Only marked ones: a card that scrolls sideways computes overflow-y `auto` too, and taken for the
 * scroller (as tall as the list) it made the virtualiser draw every row (176,000 elements for 8,000 jobs).
 */
export function scrollParentOf(el: HTMLElement | null): HTMLElement | null {
  for (let at = el?.parentElement ?? null; at; at = at.parentElement) if (at.hasAttribute(COLUMN_SCROLL) && /auto|scroll/.test(getComputedStyle(at).overflowY)) return at;
  return null;
}

/**
 * What scrolls the list and where the list starts inside it. The start does not move as the column scrolls, only when
 * something above the list grows, shrinks, comes or goes: measured then (a resize of the list's ancestors or of what
 * sits before them, an element put in or taken out beside them, the window's size), never on a scroll or a render, so
 * a scroll step forces no layout.
 */
export function useColumnScroll(listRef: RefObject<HTMLElement | null>) {
  const [start, setStart] = useState(0);
  const scroller = useRef<HTMLElement | null>(null);
  // Crossing the narrow-window width hands the scrolling from the column to the columns' box: looked for again then.
  const [layout, setLayout] = useState(0);
  useLayoutEffect(() => {
    const list = listRef.current;
    const column = scrollParentOf(list);
    scroller.current = column;
    if (!list || !column) return;
    const measure = () => {
      const next = Math.round(list.getBoundingClientRect().top - column.getBoundingClientRect().top + column.scrollTop);
      setStart((was) => (was === next ? was : next));
    };
    measure();
    const sizes = new ResizeObserver(measure);
    const children = new MutationObserver(measure);
    for (let at: HTMLElement | null = list; at && at !== column; at = at.parentElement) {
      sizes.observe(at);
      for (let before = at.previousElementSibling; before; before = before.previousElementSibling) sizes.observe(before);
      if (at.parentElement) children.observe(at.parentElement, { childList: true });
    }
    const resized = () => {
      if (scrollParentOf(list) === column) measure();
      else setLayout((n) => n + 1);
    };
    window.addEventListener('resize', resized);
    return () => {
      sizes.disconnect();
      children.disconnect();
      window.removeEventListener('resize', resized);
    };
  }, [listRef, layout]);
  const scrollElement = useCallback(() => scroller.current ?? scrollParentOf(listRef.current), [listRef]);
  return { scrollElement, start };
}
