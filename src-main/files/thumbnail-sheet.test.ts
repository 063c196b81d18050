import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SHEET_TILE, ThumbnailSheets } from './thumbnail-sheet.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sheet-test-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const COLOURS: Record<string, { r: number; g: number; b: number }> = {
  img_red00001: { r: 220, g: 20, b: 20 },
  img_grn00002: { r: 20, g: 200, b: 40 },
  img_blu00003: { r: 30, g: 40, b: 210 },
};

/** Thumbnails as the downloader writes them (WebP), of different shapes: a sheet's tiles are centred squares. */
async function writeThumbs(): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const sizes = [
    [512, 384],
    [384, 512],
    [256, 256],
  ];
  for (const [i, [id, colour]] of Object.entries(COLOURS).entries()) {
    const [width, height] = sizes[i] as [number, number];
    const file = join(dir, `${id}.webp`);
    await sharp({ create: { width, height, channels: 3, background: colour } }).webp().toFile(file);
    files.set(id, file);
  }
  return files;
}

/** The colour at the centre of each tile. */
async function tileColours(bytes: Buffer, tiles: number): Promise<Array<[number, number, number]>> {
  const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
  return Array.from({ length: tiles }, (_, i) => {
    const at = (Math.floor(SHEET_TILE / 2) * info.width + i * SHEET_TILE + Math.floor(SHEET_TILE / 2)) * info.channels;
    return [data[at] ?? -1, data[at + 1] ?? -1, data[at + 2] ?? -1];
  });
}

const near = (a: readonly number[], b: { r: number; g: number; b: number }) => Math.abs((a[0] ?? 0) - b.r) < 24 && Math.abs((a[1] ?? 0) - b.g) < 24 && Math.abs((a[2] ?? 0) - b.b) < 24;

describe('thumbnail sheets', () => {
  it('puts the thumbnails side by side as square tiles in the order asked, a blank tile for one not on disk', async () => {
    const files = await writeThumbs();
    const asked: string[] = [];
    const sheets = new ThumbnailSheets((id) => {
      asked.push(id);
      return Promise.resolve(files.get(id) ?? null);
    });
    const ids = ['img_blu00003', 'img_red00001', 'img_nothere9', 'img_grn00002'];
    const sheet = await sheets.sheet(ids);
    const meta = await sharp(sheet.bytes).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', SHEET_TILE * 4, SHEET_TILE]);
    const colours = await tileColours(sheet.bytes, 4);
    expect(near(colours[0] ?? [], COLOURS.img_blu00003!)).toBe(true);
    expect(near(colours[1] ?? [], COLOURS.img_red00001!)).toBe(true);
    expect(near(colours[2] ?? [], { r: 128, g: 128, b: 128 })).toBe(true);
    expect(near(colours[3] ?? [], COLOURS.img_grn00002!)).toBe(true);
    expect(sheet.complete).toBe(false);
    // Not kept: asked again, the missing thumbnail is looked for again.
    await sheets.sheet(ids);
    expect(asked.filter((id) => id === 'img_nothere9')).toHaveLength(2);
  });

  it('keeps a complete sheet: asked again, it answers the same bytes without reading the thumbnails', async () => {
    const files = await writeThumbs();
    let reads = 0;
    const sheets = new ThumbnailSheets((id) => {
      reads++;
      return Promise.resolve(files.get(id) ?? null);
    });
    const first = await sheets.sheet(['img_red00001', 'img_grn00002']);
    expect(first.complete).toBe(true);
    expect(reads).toBe(2);
    const again = await sheets.sheet(['img_red00001', 'img_grn00002']);
    expect(again.bytes.equals(first.bytes)).toBe(true);
    expect(reads).toBe(2);
  });

  it('gives an unreadable thumbnail a blank tile instead of failing the sheet', async () => {
    const files = await writeThumbs();
    const broken = join(dir, 'broken.webp');
    writeFileSync(broken, 'not an image');
    const sheets = new ThumbnailSheets((id) => Promise.resolve(id === 'img_broken01' ? broken : (files.get(id) ?? null)));
    const sheet = await sheets.sheet(['img_broken01', 'img_red00001']);
    expect(sheet.complete).toBe(false);
    const colours = await tileColours(sheet.bytes, 2);
    expect(near(colours[0] ?? [], { r: 128, g: 128, b: 128 })).toBe(true);
    expect(near(colours[1] ?? [], COLOURS.img_red00001!)).toBe(true);
  });
});
