// A board wider than its column moves sideways as one: the rows (their own scrollbar hidden), the header row that
// sticks to the column's top, and a scrollbar that sticks to the column's bottom, so it is in reach wherever the
// column is scrolled to (a native one would sit below the last of 1,000 rows). Whichever of them moves, the others
// follow; the scroll events of those follows are known echoes and ignored.
import { useMemo, useRef } from 'react';

export function useSideways() {
  const head = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLDivElement>(null);
  const bar = useRef<HTMLDivElement>(null);
  return useMemo(() => {
    // Where each element was moved to by following another: its scroll event for that move comes later and is an
    // echo, not the designer; followed, a late echo would undo a newer move (a key press revealing a candidate).
    const echoes = new WeakMap<HTMLElement, number>();
    const follow = (from: HTMLElement | null, ...to: Array<HTMLElement | null>) => {
      if (!from) return;
      const left = from.scrollLeft;
      const echo = echoes.get(from);
      echoes.delete(from);
      if (echo !== undefined && Math.abs(echo - left) < 1) return;
      for (const el of to) {
        if (!el || Math.abs(el.scrollLeft - left) < 1) continue;
        echoes.set(el, left);
        el.scrollLeft = left;
      }
    };
    return {
      head,
      content,
      bar,
      /** The rows moved (a trackpad, Shift+wheel, or focus moving to a candidate out of sight). */
      fromContent: () => follow(content.current, head.current, bar.current),
      fromBar: () => follow(bar.current, content.current, head.current),
      /** A sideways swipe (or Shift+wheel) over the header row, which does not scroll by itself, moves the board. */
      onHeadWheel: (e: { deltaX: number; deltaY: number; shiftKey: boolean }) => {
        const dx = e.deltaX || (e.shiftKey ? e.deltaY : 0);
        if (dx && content.current) content.current.scrollLeft += dx;
      },
    };
  }, []);
}

/** Room kept between a revealed candidate and the edges it is moved off. */
const REVEAL_MARGIN = 8;

/**
 * Moves the board sideways so that `el` (a focused candidate) is in sight: right of the product cell that sticks to
 * the left, and left of the board's right edge. The focus alone would leave it under the sticky cell or cut off.
 */
export function revealSideways(content: HTMLElement | null, el: HTMLElement): void {
  if (!content) return;
  const box = content.getBoundingClientRect();
  const at = el.getBoundingClientRect();
  const sticky = el.closest('[role="row"]')?.querySelector('[role="rowheader"]')?.getBoundingClientRect().width ?? 0;
  const left = box.left + sticky + REVEAL_MARGIN;
  const right = box.right - REVEAL_MARGIN;
  if (at.left < left) content.scrollLeft -= left - at.left;
  else if (at.right > right) content.scrollLeft += Math.min(at.right - right, at.left - left);
}

