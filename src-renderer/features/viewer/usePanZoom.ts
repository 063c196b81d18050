// The pan/zoom state of a stage and its gestures: drag to pan (pointer capture), two-finger pinch, wheel or
// trackpad pinch zooming to the cursor, double-click toggling fit / 100 %. Compare binds the same state to every
// pane, so one transform drives them all (the panes have the same size).
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { clampView, fitView, limitsFor, panBy, wheelFactor, zoomAt, MARGIN, type Limits, type Point, type Size, type View } from './panZoom.ts';

export interface PanZoom {
  /** The current view, clamped to the current stage. */
  view: View;
  stage: Size | null;
  content: Size | null;
  /** The scale called 100 %. */
  actual: number;
  /** True while "fit" is in force (it follows the stage's size). */
  isFit: boolean;
  /** The content is larger than the stage on some side: there is something to pan to. */
  canPan: boolean;
  fit(): void;
  /** Zoom to an absolute scale (1 = the content's natural pixels), about `anchor` or the stage's centre. */
  zoomTo(scale: number, anchor?: Point): void;
  zoomBy(factor: number, anchor?: Point): void;
  pan(dx: number, dy: number): void;
  /** Top-left (`start`) or bottom-right (`end`) edge into view. */
  panToEdge(edge: 'start' | 'end'): void;
  /** 100 % (the content's pixels 1:1) about `anchor` or the centre; back to fit when already there. */
  toggleActual(anchor?: Point): void;
  /** Ref for a stage element (several may be bound; the first one measured gives the size). */
  bindStage: (el: HTMLElement | null) => void | (() => void);
}

interface Options {
  /** Natural size of the content, or a function of the stage's size (compare: the pane's inner box). */
  content: Size | null | ((stage: Size) => Size | null);
  /** A new key starts at "fit" again (another image). */
  resetKey: unknown;
  /** Fit never enlarges beyond this scale (1: a small image is not upscaled). */
  fitCap?: number;
  /** The scale called 100 % (the content's pixels 1:1; compare: the first image's), Z and double-click's target. */
  actualScale?: number | ((content: Size) => number);
}

type Stored = { key: unknown; view: View | null };

/** Two fingers on the stage: their midpoint and distance (a pinch zooms by the distance's change). */
function pinchOf(pointers: Map<number, Point>): { mid: Point; dist: number } | null {
  const [a, b] = [...pointers.values()];
  if (!a || !b) return null;
  return { mid: { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 }, dist: Math.hypot(a.x - b.x, a.y - b.y) };
}

/** Buttons and other controls laid over the stage keep their own clicks. */
const isOverlayControl = (target: EventTarget | null) => target instanceof Element && target.closest('button, a, input, select, textarea') !== null;

export function usePanZoom(options: Options): PanZoom {
  const [stage, setStage] = useState<Size | null>(null);
  const [stored, setStored] = useState<Stored>({ key: options.resetKey, view: null });
  const cap = options.fitCap ?? 1;
  const content = useMemo(() => {
    const c = options.content;
    if (typeof c === 'function') return stage ? c(stage) : null;
    return c;
  }, [options.content, stage]);

  const actualOption = options.actualScale;
  const actual = typeof actualOption === 'function' ? (content ? actualOption(content) : 1) : (actualOption ?? 1);
  const limits: Limits | null = stage && content ? limitsFor(stage, content, cap) : null;
  const current = stored.key === options.resetKey ? stored.view : null;
  const view: View =
    stage && content && limits ? (current ? clampView(current, stage, content, limits) : fitView(stage, content, cap)) : { s: 1, x: 0, y: 0 };
  const isFit = current === null;
  const canPan = stage !== null && content !== null && (content.w * view.s > stage.w - 2 * MARGIN + 0.5 || content.h * view.s > stage.h - 2 * MARGIN + 0.5);

  // Latest values for the gesture listeners and the stable operations below.
  const latest = useRef({ stage, content, limits, view, key: options.resetKey, actual, isFit, cap });
  useLayoutEffect(() => {
    latest.current = { stage, content, limits, view, key: options.resetKey, actual, isFit, cap };
  });

  const apply = useCallback((make: (v: View, stage: Size, content: Size, limits: Limits) => View | null) => {
    const l = latest.current;
    if (!l.stage || !l.content || !l.limits) return;
    const next = make(l.view, l.stage, l.content, l.limits);
    // Events come faster than renders (two fingers move in one task, a drag's moves): the next one builds on
    // this result, not on the last rendered view.
    latest.current = { ...l, view: next ?? fitView(l.stage, l.content, l.cap), isFit: next === null };
    setStored({ key: l.key, view: next });
  }, []);

  const ops = useMemo(() => {
    const centre = (): Point => {
      const s = latest.current.stage;
      return s ? { x: s.w / 2, y: s.h / 2 } : { x: 0, y: 0 };
    };
    return {
      fit: () => apply(() => null),
      zoomTo: (scale: number, anchor?: Point) => apply((v, st, c, lim) => zoomAt(v, scale, anchor ?? centre(), st, c, lim)),
      zoomBy: (factor: number, anchor?: Point) => apply((v, st, c, lim) => zoomAt(v, v.s * factor, anchor ?? centre(), st, c, lim)),
      pan: (dx: number, dy: number) => apply((v, st, c, lim) => panBy(v, dx, dy, st, c, lim)),
      panToEdge: (edge: 'start' | 'end') =>
        apply((v, st, c, lim) => (edge === 'start' ? clampView({ ...v, x: MARGIN, y: MARGIN }, st, c, lim) : clampView({ ...v, x: -1e9, y: -1e9 }, st, c, lim))),
      toggleActual: (anchor?: Point) => {
        const l = latest.current;
        if (!l.isFit && Math.abs(l.view.s - l.actual) < 1e-3) apply(() => null);
        else apply((v, st, c, lim) => zoomAt(v, l.actual, anchor ?? centre(), st, c, lim));
      },
    };
  }, [apply]);

  // Stage elements bound so far; the first one is measured.
  const stages = useRef<HTMLElement[]>([]);
  const observer = useRef<ResizeObserver | null>(null);
  const measure = useCallback(() => {
    const el = stages.current[0];
    if (!el) return;
    const w = el.clientWidth;
    const h = el.clientHeight;
    setStage((prev) => (prev && prev.w === w && prev.h === h ? prev : { w, h }));
  }, []);
  useEffect(() => () => observer.current?.disconnect(), []);

  const bindStage = useCallback(
    (el: HTMLElement | null) => {
      if (!el) return;
      stages.current.push(el);
      if (!observer.current) observer.current = new ResizeObserver(measure);
      observer.current.observe(el);
      measure();

      const pointers = new Map<number, Point>();
      const local = (e: { clientX: number; clientY: number }): Point => {
        const r = el.getBoundingClientRect();
        return { x: e.clientX - r.left, y: e.clientY - r.top };
      };
      const onDown = (e: PointerEvent) => {
        if (e.pointerType === 'mouse' && e.button !== 0) return;
        if (isOverlayControl(e.target)) return;
        pointers.set(e.pointerId, local(e));
        try {
          el.setPointerCapture(e.pointerId);
        } catch {
          // A pointer the browser no longer knows (it ended already): nothing to capture.
        }
        el.dataset.dragging = 'true';
        e.preventDefault();
      };
      const onMove = (e: PointerEvent) => {
        const before = pointers.get(e.pointerId);
        if (!before) return;
        const prevSpread = pinchOf(pointers);
        const now = local(e);
        pointers.set(e.pointerId, now);
        const nextSpread = pinchOf(pointers);
        if (prevSpread && nextSpread && prevSpread.dist > 0) {
          const factor = nextSpread.dist / prevSpread.dist;
          const dx = nextSpread.mid.x - prevSpread.mid.x;
          const dy = nextSpread.mid.y - prevSpread.mid.y;
          apply((v, st, c, lim) => panBy(zoomAt(v, v.s * factor, prevSpread.mid, st, c, lim), dx, dy, st, c, lim));
        } else {
          apply((v, st, c, lim) => panBy(v, now.x - before.x, now.y - before.y, st, c, lim));
        }
      };
      const onUp = (e: PointerEvent) => {
        if (!pointers.delete(e.pointerId)) return;
        if (el.hasPointerCapture(e.pointerId)) el.releasePointerCapture(e.pointerId);
        if (pointers.size === 0) delete el.dataset.dragging;
      };
      const onWheel = (e: WheelEvent) => {
        e.preventDefault();
        const anchor = local(e);
        const factor = wheelFactor(e.deltaY, e.deltaMode, e.ctrlKey);
        apply((v, st, c, lim) => zoomAt(v, v.s * factor, anchor, st, c, lim));
      };
      const onDoubleClick = (e: MouseEvent) => {
        if (isOverlayControl(e.target)) return;
        ops.toggleActual(local(e));
      };
      el.addEventListener('pointerdown', onDown);
      el.addEventListener('pointermove', onMove);
      el.addEventListener('pointerup', onUp);
      el.addEventListener('pointercancel', onUp);
      el.addEventListener('wheel', onWheel, { passive: false });
      el.addEventListener('dblclick', onDoubleClick);
      return () => {
        el.removeEventListener('pointerdown', onDown);
        el.removeEventListener('pointermove', onMove);
        el.removeEventListener('pointerup', onUp);
        el.removeEventListener('pointercancel', onUp);
        el.removeEventListener('wheel', onWheel);
        el.removeEventListener('dblclick', onDoubleClick);
        observer.current?.unobserve(el);
        stages.current = stages.current.filter((s) => s !== el);
      };
    },
    [apply, measure, ops],
  );

  return { view, stage, content, actual, isFit, canPan, ...ops, bindStage };
}
