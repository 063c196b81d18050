// A board wider than its column moves sideways as one: the rows (their own scrollbar hidden), the header row that
// sticks to the column's top, and a scrollbar that sticks to the column's bottom, so it is in reach wherever the
// column is scrolled to (a native one would sit below the last of 1,000 rows). Whichever of them moves, the others
// follow; setting the same offset fires no scroll event, so they never echo.
import { useMemo, useRef } from 'react';

export function useSideways() {
  const head = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLDivElement>(null);
  const bar = useRef<HTMLDivElement>(null);
  return useMemo(() => {
    const follow = (from: HTMLElement | null, ...to: Array<HTMLElement | null>) => {
      const left = from?.scrollLeft ?? 0;
      for (const el of to) if (el && el.scrollLeft !== left) el.scrollLeft = left;
    };
    return {
      head,
      content,
      bar,
      /** The rows moved (a trackpad, Shift+wheel, or focus moving to a candidate out of sight). */
      fromContent: () => follow(content.current, head.current, bar.current),
      fromBar: () => follow(bar.current, content.current, head.current),
    };
  }, []);
}
