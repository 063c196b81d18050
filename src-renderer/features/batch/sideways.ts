// A board wider than its column moves sideways as one: the rows, the header row that sticks to the column's top, and
// a scrollbar that sticks to the column's bottom, so it is in reach wherever the column is scrolled to (a native one
// would sit below the last of 1,000 rows). Whichever of them moves, the others follow; the scroll events of those
// follows are known echoes and ignored.
//
// The rows' box does not scroll sideways by itself (overflow hidden): a sideways swipe or Shift+wheel over it is
// moved here, as over the header row. Each row's product cell stays in sight at the left by a transform the rows'
// box hands down (--board-x, set in the same task as the move), not by `position: sticky`: a sticky box inside the
// rows made every change in a row lay the whole page out (a sticky descendant stops the rows' box from being a
// layout root of its own) and made the page's compositor split into a layer per row.
import { useMemo, useRef } from 'react';

/** The CSS variable the rows' box hands its product cells: how far the board is moved sideways. */
const BOARD_X = '--board-x';
/** The attribute the rows' box has while the board is moved sideways (board.css moves the product cells then only). */
const MOVED = 'data-moved';

export function useSideways() {
  const head = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLDivElement>(null);
  const bar = useRef<HTMLDivElement>(null);
  return useMemo(() => {
    // Where each element was moved to by following another: its scroll event for that move comes later and is an
    // echo, not the designer; followed, a late echo would undo a newer move (a key press revealing a candidate).
    const echoes = new WeakMap<HTMLElement, number>();
    /** The product cells follow the rows' box to where it has scrolled (its first child hands the offset down). */
    const holdProducts = () => {
      const rows = content.current?.firstElementChild as HTMLElement | null | undefined;
      const left = `${content.current?.scrollLeft ?? 0}px`;
      if (!rows || rows.style.getPropertyValue(BOARD_X) === left) return;
      rows.style.setProperty(BOARD_X, left);
      // Only a board moved sideways gives its product cells the transform (each one a layer of the page's paint).
      rows.toggleAttribute(MOVED, left !== '0px');
    };
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
      holdProducts();
    };
    /** A sideways swipe or Shift+wheel over the rows or the header row (neither scrolls by itself) moves the board. */
    const onWheel = (e: { deltaX: number; deltaY: number; shiftKey: boolean }) => {
      const dx = e.deltaX || (e.shiftKey ? e.deltaY : 0);
      const el = content.current;
      if (!dx || !el) return;
      el.scrollLeft += dx;
      // Moved here, so the others follow in this task, not a frame later with the rows' scroll event.
      follow(el, head.current, bar.current);
    };
    return {
      head,
      content,
      bar,
      /** The rows moved (a trackpad, Shift+wheel, or focus moving to a candidate out of sight). */
      fromContent: () => follow(content.current, head.current, bar.current),
      fromBar: () => follow(bar.current, content.current, head.current),
      onHeadWheel: onWheel,
      onContentWheel: onWheel,
    };
  }, []);
}

/** Room kept between a revealed candidate and the edges it is moved off. */
const REVEAL_MARGIN = 8;

/**
 * Moves the board sideways so that `el` (a focused candidate) is in sight: right of the product cell held at the
 * left, and left of the board's right edge. The focus alone would leave it under the product cell or cut off.
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

