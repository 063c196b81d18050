// Does a white-background shot really sit on white? Marketplaces (Amazon's main image, Tmall's 白底图) refuse a main
// image whose backdrop is grey or where the product is cut by the frame, so before a `main_white` or `pure_white`
// image is exported its border band is measured: the share of border pixels that are (near) pure white.
import sharp from 'sharp';
import type { WhiteCheck } from '../../src-shared/ipc/batch.ts';

/**
 * A border pixel counts as white when every channel (8-bit sRGB) is at least this. 255 exactly would fail almost
 * every JPEG: compression ringing and chroma subsampling leave a white backdrop at 250–255. 250 is about 2% below
 * full and invisible against a white page; a grey a buyer would notice (240 and below) stays out.
 */
export const NEAR_WHITE_MIN = 250;

/** The share of near-white border pixels needed to pass: a product may touch the frame, but only barely. */
export const WHITE_SHARE_TO_PASS = 0.98;

/** The border band: 1% of the shorter side, at least 2 px (at most half the side, for tiny images). */
export function borderBandWidth(width: number, height: number): number {
  const shorter = Math.min(width, height);
  return Math.min(Math.max(2, Math.round(shorter * 0.01)), Math.ceil(shorter / 2));
}

/** Decodes to 8-bit sRGB (alpha flattened onto white, as a marketplace shows it) and measures the border band. */
export async function whiteBorderCheck(input: string | Buffer): Promise<WhiteCheck> {
  const { data, info } = await sharp(input, { failOn: 'error' })
    .flatten({ background: '#ffffff' })
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { width, height, channels } = info;
  const band = borderBandWidth(width, height);
  const isWhite = (x: number, y: number) => {
    const at = (y * width + x) * channels;
    return (data[at] ?? 0) >= NEAR_WHITE_MIN && (data[at + 1] ?? 0) >= NEAR_WHITE_MIN && (data[at + 2] ?? 0) >= NEAR_WHITE_MIN;
  };
  let white = 0;
  let total = 0;
  for (let y = 0; y < height; y++) {
    // Top and bottom bands take whole rows; the rows between only their left and right ends.
    const whole = y < band || y >= height - band;
    const spans: Array<[number, number]> = whole ? [[0, width]] : [[0, band], [Math.max(band, width - band), width]];
    for (const [from, to] of spans) {
      for (let x = from; x < to; x++) {
        total++;
        if (isWhite(x, y)) white++;
      }
    }
  }
  const whiteShare = total === 0 ? 0 : white / total;
  return { whiteShare, passed: whiteShare >= WHITE_SHARE_TO_PASS };
}
