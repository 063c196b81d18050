import { describe, expect, it } from 'vitest';
import type { ImageRecord, SessionSummary } from '../../../src-shared/ipc/index.ts';
import { galleryLayout, justifyRows, navigate, tileCenter, GROUP_PADDING, HEADER_HEIGHT, type RowItem } from './layout.ts';

const session = (id: string): SessionSummary => ({
  id,
  serviceSessionId: null,
  environment: 'local',
  title: 'A ceramic mug on a walnut table',
  localTitle: null,
  createdAt: 0,
  updatedAt: 0,
  turnCount: 1,
  imageCount: 0,
});
const image = (id: string, width: number, height: number, sessionId = 's'): ImageRecord => ({
  id,
  turnId: 't',
  sessionId,
  environment: 'local',
  filename: 'x.png',
  width,
  height,
  starred: false,
  rating: 0,
  rejected: false,
  download: 'done',
  missing: false,
  createdAt: 0,
  model: 'nano-banana-2',
  prompt: '',
});
const images = (n: number, prefix: string, w = 1024, h = 1024): ImageRecord[] => Array.from({ length: n }, (_, i) => image(`img_${prefix}${i}`, w, h, prefix));
const rows = (layout: ReturnType<typeof galleryLayout>) => layout.items.filter((i): i is RowItem => i.kind === 'row');

describe('justified layout', () => {
  it('keeps every tile at its image aspect ratio (no square crops) and fills full rows to the width', () => {
    const mixed = [image('a', 1920, 1080), image('b', 768, 1024), image('c', 1080, 1920), image('d', 1024, 1024), image('e', 1920, 1080), image('f', 1024, 1280)];
    const layout = galleryLayout([{ session: session('s'), images: mixed }], 600, 120, 6);
    for (const row of rows(layout)) {
      for (const tile of row.tiles) expect(tile.width / row.height).toBeCloseTo(tile.image.width / tile.image.height, 5);
    }
    const full = rows(layout).slice(0, -1);
    expect(full.length).toBeGreaterThan(0);
    for (const row of full) {
      const last = row.tiles.at(-1);
      const used = last ? last.left + last.width : 0;
      // Floors the height to whole pixels: at most a few px short of the width, never over it.
      expect(used).toBeLessThanOrEqual(600);
      expect(used).toBeGreaterThan(600 - row.tiles.length * 2 - 2);
    }
  });

  it('aims at the target height: bigger tiles mean fewer per row', () => {
    const many = images(40, 'm', 1024, 768);
    const small = justifyRows(many, 800, 80, 6);
    const big = justifyRows(many, 800, 240, 6);
    expect(small.length).toBeLessThan(big.length);
    for (const row of small.slice(0, -1)) expect(Math.abs(row.height - 80)).toBeLessThan(40);
    for (const row of big.slice(0, -1)) expect(Math.abs(row.height - 240)).toBeLessThan(120);
    // The last row is not stretched beyond the target.
    expect(small.at(-1)?.height).toBeLessThanOrEqual(80);
  });

  it('gives a panorama wider than the panel a row of its own, fitted to the width', () => {
    const [row] = justifyRows([image('wide', 4000, 1000)], 300, 200, 6);
    expect(row?.images).toHaveLength(1);
    expect(row?.height).toBe(75);
  });

  it('lays sessions out as a header then rows, with exact starts and a total the virtualiser can trust', () => {
    const layout = galleryLayout(
      [
        { session: session('a'), images: images(3, 'a') },
        { session: session('b'), images: images(5, 'b') },
        { session: session('a'), images: images(3, 'a') },
      ],
      400,
      100,
      6,
    );
    expect(layout.items.filter((i) => i.kind === 'header').map((i) => i.session.id)).toEqual(['a', 'b']);
    expect(layout.order).toHaveLength(8);
    let top = 0;
    layout.items.forEach((item, index) => {
      expect(layout.starts[index]).toBe(top);
      top += item.size;
    });
    expect(layout.totalHeight).toBe(top);
    expect(layout.items[0]?.size).toBe(HEADER_HEIGHT);
    const firstOfB = layout.items.findIndex((i) => i.session.id === 'b');
    const lastRowOfA = layout.items[firstOfB - 1] as RowItem;
    expect(lastRowOfA.size).toBe(lastRowOfA.height + GROUP_PADDING);
    // Each item knows its whole session's extent: from its header's start to the end of its last row.
    layout.items.forEach((item, index) => {
      const span = layout.spans[index];
      const ofA = item.session.id === 'a';
      expect(span).toEqual(ofA ? { start: 0, end: layout.starts[firstOfB] } : { start: layout.starts[firstOfB], end: layout.totalHeight });
    });
    expect(layout.spans[0]).toBe(layout.spans[firstOfB - 1]);
  });

  it('does not depend on anything but width and target: the same input gives the same layout', () => {
    const groups = [{ session: session('a'), images: images(30, 'a', 1920, 1080) }];
    // Same sizes under other ids and another session: identical geometry (ids, names and order keys play no part).
    const renamed = [{ session: session('z'), images: images(30, 'z', 1920, 1080) }];
    const geometry = (layout: ReturnType<typeof galleryLayout>) => ({ total: layout.totalHeight, starts: layout.starts, rows: rows(layout).map((r) => r.tiles.map((t) => t.width)) });
    expect(geometry(galleryLayout(renamed, 512, 120))).toEqual(geometry(galleryLayout(groups, 512, 120)));
    // ...and width and target do shape it, so the comparison above is not comparing two constants.
    expect(galleryLayout(groups, 1024, 120).totalHeight).toBeLessThan(galleryLayout(groups, 512, 120).totalHeight);
    expect(galleryLayout(groups, 512, 240).totalHeight).toBeGreaterThan(galleryLayout(groups, 512, 120).totalHeight);
  });
});

describe('grid keyboard navigation', () => {
  const layout = galleryLayout(
    [
      { session: session('a'), images: images(7, 'a') },
      { session: session('b'), images: images(4, 'b') },
    ],
    330,
    100,
    6,
  );
  // 3 square tiles of ~106 px per row: a = [0 1 2] [3 4 5] [6], b = [0 1 2] [3]
  it('walks the display order with Left/Right and stops at the ends', () => {
    expect(navigate(layout, null, 'ArrowRight', 500)).toBe('img_a0');
    expect(navigate(layout, 'img_a2', 'ArrowRight', 500)).toBe('img_a3');
    expect(navigate(layout, 'img_a6', 'ArrowRight', 500)).toBe('img_b0');
    expect(navigate(layout, 'img_a0', 'ArrowLeft', 500)).toBe('img_a0');
    expect(navigate(layout, 'img_b3', 'ArrowRight', 500)).toBe('img_b3');
  });

  it('moves Up/Down to the nearest tile of the next row, across sessions', () => {
    expect(navigate(layout, 'img_a1', 'ArrowDown', 500)).toBe('img_a4');
    expect(navigate(layout, 'img_a4', 'ArrowDown', 500)).toBe('img_a6');
    expect(navigate(layout, 'img_a6', 'ArrowDown', 500)).toBe('img_b0');
    expect(navigate(layout, 'img_b1', 'ArrowUp', 500)).toBe('img_a6');
    expect(navigate(layout, 'img_a1', 'ArrowUp', 500)).toBe('img_a0');
  });

  it('Down then Up comes back to the same tile in rows of different widths (Up/Down keep their column)', () => {
    const mixed = galleryLayout(
      [{ session: session('m'), images: [image('w0', 1920, 1080), image('n1', 768, 1024), image('n2', 768, 1024), image('s3', 1024, 1024), image('w4', 1920, 1080), image('n5', 768, 1024), image('s6', 1024, 1024)] }],
      420,
      100,
      6,
    );
    for (const start of ['n1', 'n2', 'w0']) {
      const x = tileCenter(mixed, start) ?? 0;
      const down = navigate(mixed, start, 'ArrowDown', 500, x);
      expect(down).not.toBe(start);
      expect(navigate(mixed, down, 'ArrowUp', 500, x)).toBe(start);
    }
  });

  it('Home/End go to the first and last image; PageDown moves about a viewport of rows', () => {
    expect(navigate(layout, 'img_a4', 'Home', 500)).toBe('img_a0');
    expect(navigate(layout, 'img_a4', 'End', 500)).toBe('img_b3');
    expect(navigate(layout, 'img_a0', 'PageDown', 250)).toBe('img_a6');
    expect(navigate(layout, 'img_b3', 'PageUp', 250)).toBe('img_a6');
  });
});
