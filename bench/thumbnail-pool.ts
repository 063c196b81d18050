// Thumbnails that compress and decode like product shots, for benches that need a real thumbnail per image: a few
// hundred generated pictures made into thumbnails by the downloader's own makeThumbnail.
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { makeThumbnail } from '../src-main/files/downloader.ts';

/** A generated product-shot-like picture (gradients, a "product", a shadow, a caption), 896×1200 PNG. */
function pictureSvg(i: number): string {
  const h = (i * 47) % 360;
  const h2 = (h + 40 + (i % 7) * 20) % 360;
  const cx = 300 + ((i * 37) % 300);
  const cy = 500 + ((i * 53) % 300);
  const rx = 140 + ((i * 13) % 120);
  const ry = 200 + ((i * 29) % 160);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="896" height="1200">
  <defs>
    <linearGradient id="bg" x1="0" y1="0" x2="0.3" y2="1"><stop offset="0" stop-color="hsl(${h},35%,88%)"/><stop offset="1" stop-color="hsl(${h2},30%,62%)"/></linearGradient>
    <radialGradient id="p" cx="0.35" cy="0.3" r="0.8"><stop offset="0" stop-color="hsl(${h2},70%,80%)"/><stop offset="0.6" stop-color="hsl(${h2},60%,45%)"/><stop offset="1" stop-color="hsl(${h},50%,20%)"/></radialGradient>
    <filter id="b"><feGaussianBlur stdDeviation="18"/></filter>
  </defs>
  <rect width="896" height="1200" fill="url(#bg)"/>
  <rect y="${820 + (i % 5) * 20}" width="896" height="400" fill="hsl(${h},20%,${40 + (i % 30)}%)"/>
  <ellipse cx="${cx + 30}" cy="${cy + ry - 10}" rx="${rx}" ry="40" fill="rgba(0,0,0,.35)" filter="url(#b)"/>
  <ellipse cx="${cx}" cy="${cy}" rx="${rx}" ry="${ry}" fill="url(#p)"/>
  <rect x="${cx - rx / 3}" y="${cy - ry - 60}" width="${(rx * 2) / 3}" height="80" rx="12" fill="hsl(${h},15%,25%)"/>
  ${Array.from({ length: 6 }, (_, k) => `<circle cx="${(i * 71 + k * 151) % 896}" cy="${(i * 43 + k * 197) % 800}" r="${10 + ((i + k) % 5) * 12}" fill="hsla(${(h + k * 50) % 360},70%,70%,.5)"/>`).join('')}
  <text x="60" y="140" font-family="sans-serif" font-size="64" font-weight="700" fill="hsl(${h},40%,20%)">No. ${i}</text>
</svg>`;
}

/** `count` real thumbnails made by the downloader's makeThumbnail (512 px long side, WebP q82). */
export async function thumbnailPool(dir: string, count: number): Promise<{ files: string[]; meanBytes: number }> {
  mkdirSync(dir, { recursive: true });
  const files: string[] = [];
  // Photographic grain (blurred gaussian noise, soft-light), so thumbnails compress and decode like photos
  // (a flat drawing makes 4 KiB WebPs; these are ~30 KiB, as product shots at 512 px are).
  const grain = await Promise.all(
    Array.from({ length: 8 }, () =>
      sharp({ create: { width: 448, height: 600, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 60 } } }).resize(896, 1200, { kernel: 'cubic' }).blur(1.2).png().toBuffer(),
    ),
  );
  for (let i = 0; i < count; i++) {
    const png = join(dir, `src-${i}.png`);
    await sharp(Buffer.from(pictureSvg(i)))
      .composite([{ input: grain[i % grain.length] as Buffer, blend: 'soft-light' }])
      .png({ compressionLevel: 1 })
      .toFile(png);
    const thumb = join(dir, `thumb-${i}.webp`);
    await makeThumbnail(png, thumb);
    rmSync(png);
    files.push(thumb);
  }
  const bytes = files.reduce((sum, f) => sum + statSync(f).size, 0);
  return { files, meanBytes: bytes / files.length };
}
