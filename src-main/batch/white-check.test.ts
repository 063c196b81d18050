// The white-border check over real images made with sharp (PNG and JPEG, files and buffers).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { borderBandWidth, NEAR_WHITE_MIN, WHITE_SHARE_TO_PASS, whiteBorderCheck } from './white-check.ts';

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'studio-white-check-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const DARK = { r: 30, g: 40, b: 60 };

/** A PNG: a `size`² canvas of `backdrop` with a dark product at (left, top), `w`×`h`. */
async function scene(size: number, backdrop: { r: number; g: number; b: number }, product: { left: number; top: number; w: number; h: number }): Promise<Buffer> {
  const box = await sharp({ create: { width: product.w, height: product.h, channels: 3, background: DARK } }).png().toBuffer();
  return sharp({ create: { width: size, height: size, channels: 3, background: backdrop } })
    .composite([{ input: box, left: product.left, top: product.top }])
    .png()
    .toBuffer();
}

const WHITE = { r: 255, g: 255, b: 255 };

describe('whiteBorderCheck', () => {
  it('passes a product centred on pure white, read from a file', async () => {
    const file = join(root, 'centred.png');
    writeFileSync(file, await scene(400, WHITE, { left: 100, top: 100, w: 200, h: 200 }));
    await expect(whiteBorderCheck(file)).resolves.toEqual({ whiteShare: 1, passed: true });
  });

  it('fails a light grey (240) backdrop', async () => {
    const png = await scene(400, { r: 240, g: 240, b: 240 }, { left: 100, top: 100, w: 200, h: 200 });
    await expect(whiteBorderCheck(png)).resolves.toEqual({ whiteShare: 0, passed: false });
  });

  it('fails a product that covers 10% of the border where it touches the bottom edge', async () => {
    // 400² → a 4 px band: 400² − 392² = 6336 border pixels; a 160 px wide product through the bottom band darkens 640.
    expect(borderBandWidth(400, 400)).toBe(4);
    const png = await scene(400, WHITE, { left: 120, top: 200, w: 160, h: 200 });
    const check = await whiteBorderCheck(png);
    expect(check.whiteShare).toBeCloseTo(1 - 640 / 6336, 6);
    expect(check.passed).toBe(false);
  });

  it('passes a product that only grazes the edge (1% of the border)', async () => {
    // 16 px wide × 4 px of band = 64 of 6336 border pixels.
    const png = await scene(400, WHITE, { left: 192, top: 300, w: 16, h: 100 });
    const check = await whiteBorderCheck(png);
    expect(check.whiteShare).toBeCloseTo(1 - 64 / 6336, 6);
    expect(check.passed).toBe(true);
  });

  it('passes white with JPEG noise, which pure-255 counting would fail', async () => {
    // White with a little sensor-like noise (251–255, seeded), a product in the middle, saved as a 4:2:0 JPEG.
    const size = 600;
    const pixels = Buffer.alloc(size * size * 3);
    let seed = 12345;
    for (let i = 0; i < pixels.length; i++) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      pixels[i] = 251 + (seed % 5);
    }
    const box = await sharp({ create: { width: 300, height: 300, channels: 3, background: DARK } }).png().toBuffer();
    const jpeg = await sharp(pixels, { raw: { width: size, height: size, channels: 3 } })
      .composite([{ input: box, left: 150, top: 150 }])
      .jpeg({ quality: 80, chromaSubsampling: '4:2:0' })
      .toBuffer();
    const check = await whiteBorderCheck(jpeg);
    expect(check.passed).toBe(true);
    expect(check.whiteShare).toBeGreaterThanOrEqual(WHITE_SHARE_TO_PASS);

    // The decoded border really is noisy: too few pixels are exactly 255 for a zero-tolerance check to pass.
    const { data, info } = await sharp(jpeg).raw().toBuffer({ resolveWithObject: true });
    const band = borderBandWidth(info.width, info.height);
    let exact = 0;
    for (let x = 0; x < info.width; x++) {
      const at = x * info.channels;
      if (data[at] === 255 && data[at + 1] === 255 && data[at + 2] === 255) exact++;
    }
    expect(band).toBe(6);
    expect(exact / info.width).toBeLessThan(WHITE_SHARE_TO_PASS);
    expect(NEAR_WHITE_MIN).toBeLessThan(255);
  });

  it('reads a transparent backdrop as white (flattened the way a marketplace shows it)', async () => {
    const box = await sharp({ create: { width: 100, height: 100, channels: 4, background: { ...DARK, alpha: 1 } } }).png().toBuffer();
    const png = await sharp({ create: { width: 300, height: 200, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
      .composite([{ input: box, left: 100, top: 50 }])
      .png()
      .toBuffer();
    await expect(whiteBorderCheck(png)).resolves.toEqual({ whiteShare: 1, passed: true });
  });

  it('rejects a file that is not an image', async () => {
    await expect(whiteBorderCheck(Buffer.from('not an image'))).rejects.toThrow();
  });
});
