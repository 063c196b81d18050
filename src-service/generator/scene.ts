// The placeholder product shot as SVG: a lit backdrop (wall gradient, floor, spotlight, floor shadow) and a
// simple product silhouette, all derived from a seed so the same turn id and index always paint the same
// picture. White purposes (main_white, pure_white) get a plain white backdrop (spec §2.6).
import { createHash } from 'node:crypto';

export interface SceneInput {
  width: number;
  height: number;
  seedText: string;
  whiteBackground: boolean;
}

/** A small deterministic generator: SHA-256 of the seed text, stretched with a xorshift. */
export function seededRandom(seedText: string): () => number {
  const digest = createHash('sha256').update(seedText).digest();
  let state = digest.readUInt32LE(0) ^ digest.readUInt32LE(4) || 0x9e3779b9;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 0x1_0000_0000;
  };
}

function hsl(h: number, s: number, l: number): string {
  return `hsl(${h.toFixed(1)},${s.toFixed(1)}%,${l.toFixed(1)}%)`;
}

type Shape = 'bottle' | 'box' | 'jar' | 'tube';
const SHAPES: readonly Shape[] = ['bottle', 'box', 'jar', 'tube'];

/** Product outline as a path in a 100×100 box (origin at the product's bottom centre: x −50..50, y −100..0). */
function productPath(shape: Shape): string {
  switch (shape) {
    case 'bottle':
      return 'M -22 0 Q -26 0 -26 -6 L -26 -58 Q -26 -68 -14 -72 L -9 -76 L -9 -90 L 9 -90 L 9 -76 L 14 -72 Q 26 -68 26 -58 L 26 -6 Q 26 0 22 0 Z';
    case 'box':
      return 'M -32 0 L -32 -70 L -20 -80 L 36 -80 L 36 -10 L 28 0 Z';
    case 'jar':
      return 'M -30 0 Q -34 0 -34 -6 L -34 -44 Q -34 -52 -26 -54 L -26 -62 L 26 -62 L 26 -54 Q 34 -52 34 -44 L 34 -6 Q 34 0 30 0 Z';
    case 'tube':
      return 'M -14 0 L -14 -12 L -22 -86 L 22 -86 L 14 -12 L 14 0 Z';
  }
}

export function sceneSvg(input: SceneInput): string {
  const { width: w, height: h } = input;
  const rand = seededRandom(input.seedText);
  const hue = Math.floor(rand() * 360);
  const accentHue = (hue + 150 + rand() * 60) % 360;
  const shape = SHAPES[Math.floor(rand() * SHAPES.length)] ?? 'bottle';
  const lightX = 0.25 + rand() * 0.5;
  const floorY = input.whiteBackground ? h * 0.86 : h * (0.6 + rand() * 0.08);
  const size = Math.min(w, h) * (input.whiteBackground ? 0.62 : 0.5) * (0.85 + rand() * 0.3);
  const cx = w / 2 + (input.whiteBackground ? 0 : (rand() - 0.5) * w * 0.12);
  const scale = size / 100;
  const product = productPath(shape);

  const backdrop = input.whiteBackground
    ? `<rect width="${w}" height="${h}" fill="#ffffff"/>`
    : `<defs>
    <linearGradient id="wall" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="${hsl(hue, 28, 86)}"/><stop offset="1" stop-color="${hsl(hue, 30, 70)}"/>
    </linearGradient>
    <linearGradient id="floor" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="${hsl(hue, 22, 62)}"/><stop offset="1" stop-color="${hsl(hue, 26, 48)}"/>
    </linearGradient>
    <radialGradient id="spot" cx="${lightX}" cy="0.35" r="0.6">
      <stop offset="0" stop-color="#ffffff" stop-opacity="0.55"/><stop offset="1" stop-color="#ffffff" stop-opacity="0"/>
    </radialGradient>
  </defs>
  <rect width="${w}" height="${h}" fill="url(#wall)"/>
  <rect y="${floorY.toFixed(1)}" width="${w}" height="${(h - floorY).toFixed(1)}" fill="url(#floor)"/>
  <rect width="${w}" height="${h}" fill="url(#spot)"/>`;

  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">
  ${backdrop}
  <defs>
    <radialGradient id="shadow" cx="0.5" cy="0.5" r="0.5">
      <stop offset="0" stop-color="#000" stop-opacity="${input.whiteBackground ? 0.18 : 0.45}"/><stop offset="1" stop-color="#000" stop-opacity="0"/>
    </radialGradient>
    <linearGradient id="body" x1="0" y1="0" x2="1" y2="0">
      <stop offset="0" stop-color="${hsl(accentHue, 55, 30)}"/>
      <stop offset="${(0.2 + lightX * 0.5).toFixed(2)}" stop-color="${hsl(accentHue, 60, 62)}"/>
      <stop offset="1" stop-color="${hsl(accentHue, 55, 24)}"/>
    </linearGradient>
  </defs>
  <ellipse cx="${cx.toFixed(1)}" cy="${floorY.toFixed(1)}" rx="${(size * 0.55).toFixed(1)}" ry="${(size * 0.08).toFixed(1)}" fill="url(#shadow)"/>
  <g transform="translate(${cx.toFixed(1)} ${floorY.toFixed(1)}) scale(${scale.toFixed(4)})">
    <path d="${product}" fill="url(#body)"/>
    <rect x="-18" y="${shape === 'box' ? -55 : -40}" width="36" height="16" rx="2" fill="#ffffff" fill-opacity="0.82"/>
  </g>
</svg>`;
}

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (ch) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[ch] ?? ch);
}

/** A small caption plate: model, ratio, resolution (the synthetic generator marks what was asked). */
export function captionSvg(text: string, fontPx: number): { svg: string; width: number; height: number } {
  const height = Math.round(fontPx * 1.8);
  const width = Math.round(fontPx * 0.62 * text.length + fontPx * 1.4);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
  <rect width="${width}" height="${height}" rx="${Math.round(fontPx * 0.4)}" fill="#000" fill-opacity="0.55"/>
  <text x="${Math.round(fontPx * 0.7)}" y="${Math.round(fontPx * 1.25)}" font-family="Liberation Sans, DejaVu Sans, sans-serif" font-size="${fontPx}" fill="#fff">${escapeXml(text)}</text>
</svg>`;
  return { svg, width, height };
}
