// The synthetic generator: exact pixel sizes, determinism per (turn id, index), white purposes, references.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { PIXEL_SIZES, RATIOS } from '../../src-shared/catalog.ts';
import { renderTurnImage, type GenerationJob } from './index.ts';

const dir = mkdtempSync(join(tmpdir(), 'gen-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const base: GenerationJob = {
  turnId: 't_abcdefghij',
  model: 'nano-banana-2',
  ratio: '3:4',
  resolution: '1K',
  purpose: 'free',
  referencePaths: [],
  downgraded: false,
};
let counter = 0;
async function render(job: Partial<GenerationJob>, index = 0): Promise<{ path: string; bytes: Buffer }> {
  const path = join(dir, `${counter++}.png`);
  await renderTurnImage({ ...base, ...job }, index, path);
  return { path, bytes: readFileSync(path) };
}

async function pixel(path: string, x: number, y: number): Promise<number[]> {
  const { data, info } = await sharp(path).extract({ left: x, top: y, width: 1, height: 1 }).raw().toBuffer({ resolveWithObject: true });
  return [...data.subarray(0, info.channels)];
}

describe('generator', () => {
  it.each(RATIOS)('renders a PNG of exactly the DESIGN.md §3 size for %s at 1K', async (ratio) => {
    const { path } = await render({ ratio });
    const meta = await sharp(path).metadata();
    expect(meta.format).toBe('png');
    expect({ width: meta.width, height: meta.height }).toEqual(PIXEL_SIZES[ratio]['1K']);
  });

  it('renders 4K 3:4 at 3584×4800', async () => {
    const { path } = await render({ resolution: '4K' });
    const meta = await sharp(path).metadata();
    expect([meta.width, meta.height]).toEqual([3584, 4800]);
  });

  it('is deterministic for a turn id and index, and differs across indexes and turns', async () => {
    const a = await render({}, 1);
    const b = await render({}, 1);
    const c = await render({}, 2);
    const d = await render({ turnId: 't_0123456789' }, 1);
    expect(a.bytes.equals(b.bytes)).toBe(true);
    expect(a.bytes.equals(c.bytes)).toBe(false);
    expect(a.bytes.equals(d.bytes)).toBe(false);
  });

  it('paints a plain white backdrop for main_white and pure_white and a coloured one for the others', async () => {
    for (const purpose of ['main_white', 'pure_white'] as const) {
      const { path } = await render({ purpose });
      expect(await pixel(path, 5, 5)).toEqual([255, 255, 255]);
      expect(await pixel(path, 890, 600)).toEqual([255, 255, 255]);
    }
    const { path } = await render({ purpose: 'detail' });
    expect(await pixel(path, 5, 5)).not.toEqual([255, 255, 255]);
  });

  it('composites reference images visibly into the top-left corner', async () => {
    const reference = await render({ purpose: 'free', turnId: 't_reference0' });
    const without = await render({ purpose: 'main_white' });
    const withRef = await render({ purpose: 'main_white', referencePaths: [reference.path] });
    // inside the thumbnail (past its white border) the reference's coloured backdrop shows
    expect(await pixel(without.path, 60, 60)).toEqual([255, 255, 255]);
    expect(await pixel(withRef.path, 60, 60)).not.toEqual([255, 255, 255]);
  });

  it('keeps the exact size when the resolution is downgraded (painted small, upscaled)', async () => {
    const { path } = await render({ ratio: '16:9', resolution: '2K', downgraded: true });
    const meta = await sharp(path).metadata();
    expect([meta.width, meta.height]).toEqual([2752, 1536]);
  });
});
