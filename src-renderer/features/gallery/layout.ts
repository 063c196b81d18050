// Turns gallery pages into virtual items: one item per session group (chunked when a session is huge), so
// the DOM holds only the groups near the viewport while each group stays one element with its images.
import type { ImageRecord, SessionSummary } from '../../../src-shared/ipc/index.ts';

export interface GroupItem {
  key: string;
  session: SessionSummary;
  /** The session's total matching images (for the header). */
  total: number;
  images: ImageRecord[];
  /** First chunk of its session: carries the header. */
  first: boolean;
}

export const MAX_IMAGES_PER_ITEM = 120;
export const HEADER_HEIGHT = 44;
export const GROUP_PADDING = 12;

export function groupItems(groups: ReadonlyArray<{ session: SessionSummary; images: ImageRecord[] }>): GroupItem[] {
  const items: GroupItem[] = [];
  const seen = new Set<string>();
  for (const g of groups) {
    if (seen.has(g.session.id)) continue;
    seen.add(g.session.id);
    for (let i = 0; i < Math.max(1, g.images.length); i += MAX_IMAGES_PER_ITEM) {
      items.push({
        key: `${g.session.id}:${i}`,
        session: g.session,
        total: g.images.length,
        images: g.images.slice(i, i + MAX_IMAGES_PER_ITEM),
        first: i === 0,
      });
    }
  }
  return items;
}

export function columnsFor(width: number, minCell: number, gap: number): number {
  return Math.max(1, Math.floor((width + gap) / (minCell + gap)));
}

export function cellSize(width: number, columns: number, gap: number): number {
  return Math.floor((width - gap * (columns - 1)) / columns);
}

export function itemHeight(item: GroupItem, columns: number, cell: number, gap: number): number {
  const rows = Math.ceil(item.images.length / columns);
  return (item.first ? HEADER_HEIGHT : 0) + rows * cell + Math.max(0, rows - 1) * gap + GROUP_PADDING;
}
