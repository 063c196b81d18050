// The gallery's justified layout: each session is a header followed by rows of tiles that keep every image's
// aspect ratio (no square crops). A row is filled to the available width and scaled so its tiles share one
// height close to the target (the tile-size slider); a session's last row keeps the target height.
//
// Everything here is a pure function of (images, width, target height), so the virtualiser gets exact sizes:
// nothing is measured in the DOM, and the layout cannot feed back into itself (the scroll container also
// reserves its scrollbar's gutter, so the width never depends on the content's height).
import type { ImageRecord, SessionSummary } from '../../../src-shared/ipc/index.ts';

export const HEADER_HEIGHT = 44;
/** Space under a session's last row. */
export const GROUP_PADDING = 12;
export const GAP = 6;
/** Tiles narrower than this would be unreadable; a very tall image still gets this much. */
const MIN_ASPECT = 0.25;
const MAX_ASPECT = 4;

export interface Tile {
  image: ImageRecord;
  left: number;
  width: number;
}

export interface HeaderItem {
  kind: 'header';
  key: string;
  session: SessionSummary;
  /** The session's images that pass the filters (loaded so far). */
  total: number;
  size: number;
}

export interface RowItem {
  kind: 'row';
  key: string;
  session: SessionSummary;
  tiles: Tile[];
  /** The tiles' height (the item's size adds the gap or the session's padding below). */
  height: number;
  size: number;
  /** Index of this row among rows only (for Up/Down). */
  row: number;
}

export type LayoutItem = HeaderItem | RowItem;

export interface GalleryLayout {
  items: LayoutItem[];
  /** Indexes (into items) of the rows, in order. */
  rows: number[];
  /** Every image id in display order. */
  order: string[];
  /** Where each image is: its item index and its tile index in that row. */
  where: Map<string, { item: number; tile: number }>;
  /** Where each item starts (px from the top of the list). */
  starts: number[];
  /**
   * For each item, its session's whole extent (header to last row; one shared object per session), so the grid
   * can place a session's box once and its rows inside it at fixed offsets while rows scroll in and out.
   */
  spans: Array<{ start: number; end: number }>;
  totalHeight: number;
}

export function aspectOf(image: Pick<ImageRecord, 'width' | 'height'>): number {
  if (!(image.width > 0) || !(image.height > 0)) return 1;
  return Math.min(MAX_ASPECT, Math.max(MIN_ASPECT, image.width / image.height));
}

/** Splits one session's images into justified rows for `width`, aiming at `target` px high. */
export function justifyRows(images: readonly ImageRecord[], width: number, target: number, gap = GAP): Array<{ images: ImageRecord[]; height: number }> {
  const rows: Array<{ images: ImageRecord[]; height: number }> = [];
  const usable = Math.max(1, width);
  let current: ImageRecord[] = [];
  let sum = 0;
  const heightFor = (aspects: number, count: number) => (usable - gap * (count - 1)) / aspects;
  for (const image of images) {
    const a = aspectOf(image);
    current.push(image);
    sum += a;
    if (sum * target + gap * (current.length - 1) < usable) continue;
    // Full: keep the last image in this row or move it to the next, whichever ends closer to the target.
    const withLast = heightFor(sum, current.length);
    const withoutLast = current.length > 1 ? heightFor(sum - a, current.length - 1) : Infinity;
    if (Math.abs(withoutLast - target) < Math.abs(withLast - target)) {
      const last = current.pop() as ImageRecord;
      rows.push({ images: current, height: Math.floor(withoutLast) });
      current = [last];
      sum = a;
      if (a * target >= usable) {
        rows.push({ images: current, height: Math.floor(heightFor(a, 1)) });
        current = [];
        sum = 0;
      }
    } else {
      rows.push({ images: current, height: Math.floor(withLast) });
      current = [];
      sum = 0;
    }
  }
  if (current.length > 0) rows.push({ images: current, height: Math.floor(Math.min(target, heightFor(sum, current.length))) });
  return rows;
}

/** The whole gallery: one header per session, then its rows. Sessions repeated across pages count once. */
export function galleryLayout(
  groups: ReadonlyArray<{ session: SessionSummary; images: ImageRecord[] }>,
  width: number,
  target: number,
  gap = GAP,
): GalleryLayout {
  const items: LayoutItem[] = [];
  const rows: number[] = [];
  const order: string[] = [];
  const where = new Map<string, { item: number; tile: number }>();
  const starts: number[] = [];
  const spans: Array<{ start: number; end: number }> = [];
  const seen = new Set<string>();
  let totalHeight = 0;
  for (const g of groups) {
    if (seen.has(g.session.id)) continue;
    seen.add(g.session.id);
    const span = { start: totalHeight, end: totalHeight };
    const first = items.length;
    items.push({ kind: 'header', key: `h:${g.session.id}`, session: g.session, total: g.images.length, size: HEADER_HEIGHT });
    starts.push(totalHeight);
    totalHeight += HEADER_HEIGHT;
    const justified = justifyRows(g.images, width, target, gap);
    justified.forEach((r, i) => {
      let left = 0;
      const tiles = r.images.map((image) => {
        const w = aspectOf(image) * r.height;
        const tile = { image, left, width: w };
        left += w + gap;
        return tile;
      });
      const last = i === justified.length - 1;
      const size = r.height + (last ? GROUP_PADDING : gap);
      const index = items.length;
      tiles.forEach((tile, t) => {
        order.push(tile.image.id);
        where.set(tile.image.id, { item: index, tile: t });
      });
      items.push({ kind: 'row', key: `r:${g.session.id}:${r.images[0]?.id ?? i}`, session: g.session, tiles, height: r.height, size, row: rows.length });
      rows.push(index);
      starts.push(totalHeight);
      totalHeight += size;
    });
    span.end = totalHeight;
    for (let i = first; i < items.length; i++) spans.push(span);
  }
  return { items, rows, order, where, starts, spans, totalHeight };
}

function centerOf(tile: Tile): number {
  return tile.left + tile.width / 2;
}

/** The tile of a row under x (or, past the row's end, the one whose centre is nearest). */
function nearestIn(row: RowItem, x: number): string | undefined {
  const under = row.tiles.find((tile) => tile.left <= x && x <= tile.left + tile.width);
  if (under) return under.image.id;
  let best: Tile | undefined;
  let distance = Infinity;
  for (const tile of row.tiles) {
    const d = Math.abs(centerOf(tile) - x);
    if (d < distance) {
      distance = d;
      best = tile;
    }
  }
  return best?.image.id;
}

/** The horizontal centre of an image's tile (where Up/Down aim from). */
export function tileCenter(layout: GalleryLayout, id: string): number | null {
  const at = layout.where.get(id);
  const row = at ? layout.items[at.item] : undefined;
  const tile = row?.kind === 'row' ? row.tiles[at?.tile ?? -1] : undefined;
  return tile ? centerOf(tile) : null;
}

export type NavKey = 'ArrowLeft' | 'ArrowRight' | 'ArrowUp' | 'ArrowDown' | 'Home' | 'End' | 'PageUp' | 'PageDown';

export function isNavKey(key: string): key is NavKey {
  return ['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End', 'PageUp', 'PageDown'].includes(key);
}

/**
 * Where a key moves the focus from `from` (null: nothing focused yet, so the first image). Left/Right walk the
 * display order (across rows and sessions), Up/Down go to the tile of the row above/below under `aimX` (the
 * column the designer started moving up or down from, so Down then Up comes back; default: the tile's centre),
 * PageUp/Down by about one viewport of rows, Home/End to the first/last image.
 */
export function navigate(layout: GalleryLayout, from: string | null, key: NavKey, viewportHeight: number, aimX?: number): string | null {
  const { order, items, rows, where } = layout;
  if (order.length === 0) return null;
  const at = from === null ? undefined : where.get(from);
  if (!at || from === null) return order[0] ?? null;
  const index = order.indexOf(from);
  switch (key) {
    case 'ArrowLeft':
      return order[Math.max(0, index - 1)] ?? null;
    case 'ArrowRight':
      return order[Math.min(order.length - 1, index + 1)] ?? null;
    case 'Home':
      return order[0] ?? null;
    case 'End':
      return order.at(-1) ?? null;
    default:
      break;
  }
  const row = items[at.item] as RowItem;
  const tile = row.tiles[at.tile];
  if (!tile) return from;
  const x = aimX ?? centerOf(tile);
  let target: number;
  if (key === 'ArrowDown') target = row.row + 1;
  else if (key === 'ArrowUp') target = row.row - 1;
  else {
    // About one viewport: add rows until their height fills it (at least one row).
    const step = key === 'PageDown' ? 1 : -1;
    let covered = 0;
    let next = row.row;
    while (next + step >= 0 && next + step < rows.length) {
      const item = items[rows[next + step] as number] as RowItem;
      covered += item.size;
      next += step;
      if (covered >= viewportHeight - row.size) break;
    }
    target = next;
  }
  if (target < 0) return order[0] ?? null;
  if (target >= rows.length) return order.at(-1) ?? null;
  return nearestIn(items[rows[target] as number] as RowItem, x) ?? from;
}
