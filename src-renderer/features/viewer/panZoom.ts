// Pan and zoom as plain arithmetic, shared by the viewer (one image) and compare (one transform for every pane).
//
// A "content" box (the image at its natural size in the viewer; the pane's inner box in compare) is drawn at
// scale `s` with its top-left at (x, y) in stage coordinates. Clamping keeps every pixel reachable: a side that
// fits the stage is centred; a side larger than the stage may travel until either of its edges sits MARGIN px
// inside the stage, never further (no negative centring offsets that hide the top-left).

export interface Size {
  w: number;
  h: number;
}

export interface View {
  s: number;
  x: number;
  y: number;
}

export interface Point {
  x: number;
  y: number;
}

/** Matte around the content at fit, and past an edge when panned all the way. */
export const MARGIN = 16;
export const MAX_SCALE = 16;

/** The scale that shows the whole content inside the stage's margins, never above `cap` (1 = no upscaling). */
export function fitScale(stage: Size, content: Size, cap = 1): number {
  if (content.w <= 0 || content.h <= 0) return 1;
  const aw = Math.max(1, stage.w - 2 * MARGIN);
  const ah = Math.max(1, stage.h - 2 * MARGIN);
  return Math.min(cap, aw / content.w, ah / content.h);
}

function clampAxis(t: number, scaled: number, avail: number): number {
  if (scaled <= avail - 2 * MARGIN) return (avail - scaled) / 2;
  return Math.min(MARGIN, Math.max(avail - MARGIN - scaled, t));
}

export interface Limits {
  min: number;
  max: number;
}

export function limitsFor(stage: Size, content: Size, cap = 1): Limits {
  const fit = fitScale(stage, content, cap);
  return { min: Math.min(fit, 1), max: Math.max(MAX_SCALE, fit) };
}

export function clampScale(s: number, limits: Limits): number {
  return Math.min(limits.max, Math.max(limits.min, s));
}

/** The view moved into bounds: scale within limits, each axis centred or kept within its travel. */
export function clampView(v: View, stage: Size, content: Size, limits: Limits): View {
  const s = clampScale(v.s, limits);
  return { s, x: clampAxis(v.x, content.w * s, stage.w), y: clampAxis(v.y, content.h * s, stage.h) };
}

/** The whole content, centred. */
export function fitView(stage: Size, content: Size, cap = 1): View {
  const s = fitScale(stage, content, cap);
  return clampView({ s, x: 0, y: 0 }, stage, content, { min: s, max: s });
}

/** Zoom to `scale` keeping the content point under `anchor` (stage coordinates) where it is, then clamp. */
export function zoomAt(v: View, scale: number, anchor: Point, stage: Size, content: Size, limits: Limits): View {
  const s = clampScale(scale, limits);
  const ux = (anchor.x - v.x) / v.s;
  const uy = (anchor.y - v.y) / v.s;
  return clampView({ s, x: anchor.x - ux * s, y: anchor.y - uy * s }, stage, content, limits);
}

export function panBy(v: View, dx: number, dy: number, stage: Size, content: Size, limits: Limits): View {
  return clampView({ s: v.s, x: v.x + dx, y: v.y + dy }, stage, content, limits);
}

/** Scale factor of one wheel event: a mouse notch (~100 px) is about 15 %, a trackpad pinch (ctrlKey) is finer-grained. */
export function wheelFactor(deltaY: number, deltaMode: number, pinch: boolean): number {
  const px = deltaMode === 1 ? deltaY * 16 : deltaMode === 2 ? deltaY * 400 : deltaY;
  const k = pinch ? 0.01 : 0.0015;
  return Math.exp(-Math.max(-300, Math.min(300, px)) * k);
}
