// Renders one generated image to a PNG file with sharp/libvips at exactly the requested pixel size.
// The backdrop is painted at a reduced scale and enlarged (smooth gradients lose nothing), the reference
// thumbnails and the caption are composited at full resolution, and PNG compression is kept low for speed.
import sharp, { type OverlayOptions, type Sharp } from 'sharp';
import { captionSvg, sceneSvg } from './scene.ts';

// A bounded pixel cache and no file cache: four 4K images in parallel must stay under 400 MB (docs/benchmarks.md).
sharp.cache({ memory: 64, files: 0, items: 32 });

export interface RenderInput {
  width: number;
  height: number;
  /** Seed of the picture: the same turn id and index always give the same bytes. */
  seedText: string;
  whiteBackground: boolean;
  caption: string;
  /** PNG files of the reference images, composited as visible thumbnails. */
  referencePaths: readonly string[];
  /** Paint at half size and upscale, as when the vendor returned fewer pixels (the downgrade fault). */
  downgraded: boolean;
}

const PNG_OPTIONS = { compressionLevel: 1, adaptiveFiltering: false, palette: false } as const;

/** Longest side at which the backdrop is painted before it is enlarged. */
const BACKDROP_MAX_SIDE = 1400;

async function renderAt(input: RenderInput, width: number, height: number): Promise<Sharp> {
  const shrink = Math.max(1, Math.max(width, height) / BACKDROP_MAX_SIDE);
  const bw = Math.round(width / shrink);
  const bh = Math.round(height / shrink);
  const svg = sceneSvg({ width: bw, height: bh, seedText: input.seedText, whiteBackground: input.whiteBackground });
  const layers: OverlayOptions[] = [];

  const short = Math.min(width, height);
  const margin = Math.round(short * 0.03);
  if (input.referencePaths.length > 0) {
    const shown = input.referencePaths.slice(0, 6);
    const thumbSide = Math.round(Math.min(short * 0.22, (width - margin * (shown.length + 1)) / shown.length));
    const border = Math.max(2, Math.round(thumbSide * 0.03));
    const thumbs = await Promise.all(
      shown.map((path) =>
        sharp(path)
          .resize(thumbSide - 2 * border, thumbSide - 2 * border, { fit: 'cover' })
          .extend({ top: border, bottom: border, left: border, right: border, background: '#ffffff' })
          .png({ compressionLevel: 0 })
          .toBuffer(),
      ),
    );
    thumbs.forEach((thumb, i) => layers.push({ input: thumb, left: margin + i * (thumbSide + margin), top: margin }));
  }

  const caption = captionSvg(input.caption, Math.max(12, Math.round(short * 0.022)));
  layers.push({ input: Buffer.from(caption.svg), left: margin, top: height - margin - caption.height });

  if (bw === width && bh === height) return sharp(Buffer.from(svg), { density: 72 }).composite(layers);
  // Large frames: paint the backdrop small and without alpha, then enlarge it. Three channels and a linear
  // enlargement of smooth gradients keep four 4K frames in parallel fast and well under 400 MB.
  const backdrop = await sharp(Buffer.from(svg), { density: 72 }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return sharp(backdrop.data, { raw: backdrop.info }).resize(width, height, { kernel: 'linear' }).composite(layers);
}

export async function renderImage(input: RenderInput, outputPath: string): Promise<void> {
  if (!input.downgraded) {
    await (await renderAt(input, input.width, input.height)).removeAlpha().png(PNG_OPTIONS).toFile(outputPath);
    return;
  }
  const small = await (await renderAt(input, Math.round(input.width / 2), Math.round(input.height / 2))).raw().toBuffer({
    resolveWithObject: true,
  });
  await sharp(small.data, { raw: small.info })
    .removeAlpha()
    .resize(input.width, input.height, { kernel: 'cubic' })
    .png(PNG_OPTIONS)
    .toFile(outputPath);
}
