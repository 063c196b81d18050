// A virtualised list that scrolls with its column (the page on a narrow window) instead of in a scroll box of its
// own: the Catalog keeps one scroll area per column (issue 26). The list tells its virtualizer what scrolls it and
// where the list starts inside that (the scroll margin).
import { useCallback, useEffect, useLayoutEffect, useState, type RefObject } from 'react';

/** The nearest ancestor that scrolls: the column on a wide window, the page on a narrow one (batch.css). */
export function scrollParentOf(el: HTMLElement | null): HTMLElement | null {
  for (let at = el?.parentElement ?? null; at; at = at.parentElement) if (/auto|scroll/.test(getComputedStyle(at).overflowY)) return at;
  return null;
}

/**
 * What scrolls the list and where the list starts inside it, measured after each render and on any scroll or
 * resize; the start changes only when what sits above the list grows or shrinks.
 */
export function useColumnScroll(listRef: RefObject<HTMLElement | null>) {
  const [start, setStart] = useState(0);
  const measure = useCallback(() => {
    const list = listRef.current;
    const scroller = scrollParentOf(list);
    if (!list || !scroller) return;
    const next = Math.round(list.getBoundingClientRect().top - scroller.getBoundingClientRect().top + scroller.scrollTop);
    setStart((was) => (was === next ? was : next));
  }, [listRef]);
  useLayoutEffect(measure);
  useEffect(() => {
    // Scroll events do not bubble: caught on the way down, whichever ancestor scrolls.
    document.addEventListener('scroll', measure, { capture: true, passive: true });
    window.addEventListener('resize', measure);
    return () => {
      document.removeEventListener('scroll', measure, { capture: true });
      window.removeEventListener('resize', measure);
    };
  }, [measure]);
  const scrollElement = useCallback(() => scrollParentOf(listRef.current), [listRef]);
  return { scrollElement, start };
}
