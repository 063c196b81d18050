// A board row's images in one image: main's thumbnail sheet (files/thumbnail-sheet.ts) of the product's master
// reference and its cells' downloaded candidates, each drawn from its tile. Asked for with the row's frame, so the
// cells drawn after it (board-staging.ts) find it loaded.
import type { CSSProperties } from 'react';
import { SHEET_MOST } from '../../../src-shared/image-sheet.ts';
import { imageSheetUrl, imageUrl } from '../../lib/desktop.ts';
import type { BoardRow } from './board-model.ts';

/** A row's images in one image (main's thumbnail sheet): its master reference, then its cells' downloaded candidates. */
export interface RowSheet {
  url: string;
  /** Each image's tile, from the left. */
  tiles: ReadonlyMap<string, number>;
}

/** The row's sheet, made once per row object (a re-read of the row makes another). */
const sheets = new WeakMap<BoardRow, RowSheet | null>();
export function rowSheet(row: BoardRow): RowSheet | null {
  let sheet = sheets.get(row);
  if (sheet !== undefined) return sheet;
  const tiles = new Map<string, number>();
  const add = (id: string) => {
    if (!tiles.has(id) && tiles.size < SHEET_MOST) tiles.set(id, tiles.size);
  };
  if (row.product.masterImageId) add(row.product.masterImageId);
  for (const cell of row.cells) for (const c of cell.candidates) if (c.download === 'done') add(c.imageId);
  sheet = tiles.size > 0 ? { url: imageSheetUrl([...tiles.keys()]), tiles } : null;
  sheets.set(row, sheet);
  return sheet;
}

/** An image's tile in the row's sheet (`at` from the left, of `n`), or null when the sheet has none for it. */
function tilePlace(sheet: RowSheet | null, imageId: string): { url: string; at: number; n: number } | null {
  const at = sheet?.tiles.get(imageId);
  return sheet && at !== undefined ? { url: sheet.url, at, n: sheet.tiles.size } : null;
}

/**
 * Where an image of the row is drawn from: its tile of the row's sheet (one request for the whole row: each image
 * the page loads costs its main thread about a millisecond, 17 a row), or its own thumbnail when the sheet has no
 * room for it. The tile is cut out with object-view-box, in fractions of the sheet's width.
 */
export function tileOf(sheet: RowSheet | null, imageId: string): { src: string; style?: CSSProperties } {
  const place = tilePlace(sheet, imageId);
  if (!place) return { src: imageUrl('thumb', imageId) };
  const { url, at, n } = place;
  const pct = (k: number) => `${((k * 100) / n).toFixed(4)}%`;
  return { src: url, style: { objectViewBox: `inset(0 ${pct(n - 1 - at)} 0 ${pct(at)})` } };
}

/**
 * The row's sheet for its cells at a glance (rowSheetStyle on the row, glanceOf on each image): the sheet's URL and its
 * tile count once a row, each image only its place.
 */
export function rowSheetStyle(sheet: RowSheet | null): CSSProperties | undefined {
  return sheet ? ({ '--sheet': `url("${sheet.url}")`, '--sheet-size': `${sheet.tiles.size * 100}% 100%` } as CSSProperties) : undefined;
}

/** An image of the row at a glance (a cell not drawn yet, BoardCell.tsx): its tile of the row's sheet as a box's
 *  background (board.css takes the sheet from the row), no image element of its own; nothing when the sheet has no
 *  tile for it. */
export function glanceOf(sheet: RowSheet | null, imageId: string): CSSProperties | undefined {
  const place = tilePlace(sheet, imageId);
  if (!place) return undefined;
  const { at, n } = place;
  return { backgroundPositionX: n > 1 ? `${((at * 100) / (n - 1)).toFixed(4)}%` : '0' };
}
