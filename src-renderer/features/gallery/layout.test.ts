import { describe, expect, it } from 'vitest';
import type { ImageRecord, SessionSummary } from '../../../src-shared/ipc/index.ts';
import { cellSize, columnsFor, groupItems, itemHeight, MAX_IMAGES_PER_ITEM, HEADER_HEIGHT } from './layout.ts';
import { useGalleryStore } from './store.ts';

const session = (id: string): SessionSummary => ({
  id,
  serviceSessionId: null,
  environment: 'local',
  title: 'API generation',
  localTitle: null,
  createdAt: 0,
  updatedAt: 0,
  turnCount: 1,
  imageCount: 0,
});
const images = (n: number, prefix: string): ImageRecord[] =>
  Array.from({ length: n }, (_, i) => ({
    id: `img_${prefix}${i}`,
    turnId: 't',
    sessionId: prefix,
    environment: 'local',
    filename: 'x.png',
    width: 1,
    height: 1,
    starred: false,
    download: 'done',
    missing: false,
    createdAt: 0,
    model: 'nano-banana-2',
    prompt: '',
  }));

describe('gallery layout', () => {
  it('makes one item per session and splits a huge session into chunks, the header only on the first', () => {
    const items = groupItems([
      { session: session('a'), images: images(3, 'a') },
      { session: session('b'), images: images(MAX_IMAGES_PER_ITEM + 1, 'b') },
    ]);
    expect(items.map((i) => [i.session.id, i.images.length, i.first])).toEqual([
      ['a', 3, true],
      ['b', MAX_IMAGES_PER_ITEM, true],
      ['b', 1, false],
    ]);
  });

  it('ignores a session repeated across pages', () => {
    expect(groupItems([{ session: session('a'), images: images(1, 'a') }, { session: session('a'), images: images(1, 'a') }])).toHaveLength(1);
  });

  it('fits columns to the width and sizes rows from them', () => {
    const columns = columnsFor(400, 104, 6);
    expect(columns).toBe(3);
    const cell = cellSize(400, columns, 6);
    expect(cell * columns + 6 * (columns - 1)).toBeLessThanOrEqual(400);
    const [item] = groupItems([{ session: session('a'), images: images(7, 'a') }]);
    expect(item && itemHeight(item, columns, cell, 6)).toBe(HEADER_HEIGHT + 3 * cell + 2 * 6 + 12);
  });
});

describe('gallery selection', () => {
  it('selects one, toggles with Ctrl, spans a range with Shift', () => {
    const order = ['a', 'b', 'c', 'd', 'e'];
    const { select } = useGalleryStore.getState();
    select('b', 'single', order);
    select('d', 'range', order);
    expect(useGalleryStore.getState().selected).toEqual(['b', 'c', 'd']);
    select('c', 'toggle', order);
    expect(useGalleryStore.getState().selected).toEqual(['b', 'd']);
    select('e', 'single', order);
    expect(useGalleryStore.getState().selected).toEqual(['e']);
  });
});
