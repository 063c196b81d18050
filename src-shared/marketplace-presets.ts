// Marketplace export presets (docs/export-presets.md): the size, fit, format and size limit each marketplace's
// listing images take. The rules are as recalled from each marketplace's own help pages (2025), not re-checked
// offline; the doc lists every rule with its source. Shared so the export dialog shows what main will write.
import type { MarketplacePresetInfo } from './ipc/batch.ts';
import type { Language } from './language.ts';

export type MarketplaceFormat = 'jpeg' | 'png' | 'webp';

export interface MarketplacePreset {
  id: string;
  name: { zh: string; en: string };
  width: number;
  height: number;
  /** contain: the whole product, padded with `background` (never cropped); cover: fills the frame, cropping the overflow. */
  fit: 'contain' | 'cover';
  background: '#ffffff';
  format: MarketplaceFormat;
  /** 1–100, the first quality tried (JPEG, WebP); lowered in steps when the file is over maxBytes. */
  quality: number;
  /** The file-size limit in bytes (a marketplace's "MB" read as 1,000,000 bytes, the stricter reading). */
  maxBytes: number;
  colourSpace: 'srgb';
  notes: { zh: string; en: string };
  /**
   * Sizes per shot kind, by the image's shape: an image whose aspect is within 3% of an entry's is scaled to that
   * entry (filling it exactly). An image of another shape gets `width` × `height` with `fit`, which for `contain`
   * adds bars: the dialog and the manifest say so (`fit` column `pad`).
   */
  sizes?: readonly PresetSize[];
}

export interface PresetSize {
  width: number;
  height: number;
  /** Which listing images take this size, e.g. the main image, or detail shots. */
  use: { zh: string; en: string };
}

/** How one image is written under a preset: its size, and whether it fills the frame or is padded with bars. */
export interface SizeForImage {
  width: number;
  height: number;
  fit: 'cover' | 'pad';
}

/** How far an image's aspect may be from a size's for that size to take it (model outputs round their sides). */
const ASPECT_TOLERANCE = 0.03;

/** The size an image of `width` × `height` is written at (the one owner of "sizes per shot kind"). */
export function sizeForImage(preset: MarketplacePreset, width: number, height: number): SizeForImage {
  const aspect = width / height;
  const match = (preset.sizes ?? []).find((s) => Math.abs(s.width / s.height - aspect) / aspect <= ASPECT_TOLERANCE);
  if (match) return { width: match.width, height: match.height, fit: 'cover' };
  const sameShape = Math.abs(preset.width / preset.height - aspect) / aspect <= ASPECT_TOLERANCE;
  return { width: preset.width, height: preset.height, fit: preset.fit === 'cover' || sameShape ? 'cover' : 'pad' };
}

/**
 * The size a shot of `ratio` (e.g. "3:4") is written at: the same rule as its images, read from the shot's ratio,
 * so the export dialog can say per shot what main will write before anything is made.
 */
export function sizeForShot(preset: MarketplacePreset, ratio: string): SizeForImage {
  const [w, h] = ratio.split(':').map(Number);
  return w && h ? sizeForImage(preset, w, h) : { width: preset.width, height: preset.height, fit: preset.fit === 'cover' ? 'cover' : 'pad' };
}

const MB = 1_000_000;

/** The fields of a marketplace export's file-name template (BatchExportSchema.template). */
export const MARKETPLACE_TEMPLATE_FIELDS = ['sku', 'shot', 'index', 'product', 'model', 'purpose', 'date'] as const;
export type MarketplaceTemplateField = (typeof MARKETPLACE_TEMPLATE_FIELDS)[number];
export const DEFAULT_MARKETPLACE_TEMPLATE = '{sku}_{shot}_{index}';

/** Every preset today pads the whole product with white into an sRGB JPEG; only size, quality and limit differ. */
const PADDED_WHITE_JPEG = { fit: 'contain', background: '#ffffff', format: 'jpeg', colourSpace: 'srgb' } as const;

export const MARKETPLACE_PRESETS: readonly MarketplacePreset[] = [
  {
    id: 'amazon-main',
    name: { zh: 'Amazon 主图', en: 'Amazon main image' },
    ...PADDED_WHITE_JPEG,
    width: 2000,
    height: 2000,
    quality: 90,
    maxBytes: 10 * MB,
    sizes: [
      { width: 2000, height: 2000, use: { zh: '主图与方形附图', en: 'main and square additional images' } },
      { width: 1500, height: 2000, use: { zh: '3:4 附图', en: '3:4 additional images' } },
      { width: 2000, height: 1500, use: { zh: '4:3 附图', en: '4:3 additional images' } },
      { width: 2000, height: 1125, use: { zh: '16:9 附图', en: '16:9 additional images' } },
      { width: 1125, height: 2000, use: { zh: '9:16 附图', en: '9:16 additional images' } },
    ],
    notes: {
      zh: '主图须为纯白背景（RGB 255,255,255），商品约占画面 85%；最长边至少 1000 像素才能放大查看。',
      en: 'Main image on pure white (RGB 255,255,255), product filling about 85% of the frame; 1000 px or more on the longest side enables zoom.',
    },
  },
  {
    id: 'shopify',
    name: { zh: 'Shopify 商品图', en: 'Shopify product image' },
    ...PADDED_WHITE_JPEG,
    width: 2048,
    height: 2048,
    quality: 90,
    maxBytes: 20 * MB,
    sizes: [
      { width: 2048, height: 2048, use: { zh: '方形商品图', en: 'square product images' } },
      { width: 1536, height: 2048, use: { zh: '3:4 商品图', en: '3:4 product images' } },
      { width: 2048, height: 1536, use: { zh: '4:3 商品图', en: '4:3 product images' } },
    ],
    notes: {
      zh: 'Shopify 建议方形 2048×2048；上限 4472×4472 像素、20 MB。白底不是强制要求，但同一店铺宜统一。',
      en: 'Shopify recommends square 2048×2048; at most 4472×4472 px and 20 MB. White is not required, but keep one backdrop across the store.',
    },
  },
  {
    id: 'etsy',
    name: { zh: 'Etsy 商品图', en: 'Etsy listing photo' },
    ...PADDED_WHITE_JPEG,
    width: 3000,
    height: 2250,
    quality: 85,
    maxBytes: 1 * MB,
    notes: {
      zh: 'Etsy 建议 4:3、3000×2250、最短边至少 2000 像素、文件小于 1 MB（列表缩略图会裁成方形，商品宜居中）。',
      en: 'Etsy recommends 4:3 at 3000×2250, at least 2000 px on the shortest side, under 1 MB (thumbnails are cropped square: keep the product centred).',
    },
  },
  {
    id: 'ebay',
    name: { zh: 'eBay 商品图', en: 'eBay listing photo' },
    ...PADDED_WHITE_JPEG,
    width: 1600,
    height: 1600,
    quality: 90,
    maxBytes: 12 * MB,
    notes: {
      zh: '最长边至少 500 像素，建议 1600；不得有边框、文字或水印；建议白色或浅色背景。',
      en: 'At least 500 px on the longest side, 1600 recommended; no borders, text or watermarks; a white or light backdrop is recommended.',
    },
  },
  {
    id: 'walmart-main',
    name: { zh: 'Walmart 主图', en: 'Walmart main image' },
    ...PADDED_WHITE_JPEG,
    width: 2200,
    height: 2200,
    quality: 90,
    maxBytes: 5 * MB,
    notes: {
      zh: '主图须为纯白背景、方形；建议 2200×2200（至少 1500×1500 才能放大），不超过 5 MB。',
      en: 'Main image square on a seamless pure white backdrop; 2200×2200 recommended (1500×1500 minimum for zoom), 5 MB at most.',
    },
  },
  {
    id: 'taobao-tmall-main',
    name: { zh: '淘宝/天猫 主图', en: 'Taobao / Tmall main image' },
    ...PADDED_WHITE_JPEG,
    width: 800,
    height: 800,
    quality: 90,
    maxBytes: 3 * MB,
    sizes: [
      { width: 800, height: 800, use: { zh: '主图（方形）', en: 'main images (square)' } },
      { width: 750, height: 1000, use: { zh: '3:4 主图与详情图', en: '3:4 main and detail images' } },
    ],
    notes: {
      zh: '主图 800×800 起才有放大镜功能，不超过 3 MB；天猫白底图须为纯白背景、商品居中、无文字与水印。',
      en: 'Main images from 800×800 get the zoom lens, 3 MB at most; Tmall’s white-background image must be pure white, product centred, no text or watermark.',
    },
  },
  {
    id: 'jd-main',
    name: { zh: '京东 主图', en: 'JD.com main image' },
    ...PADDED_WHITE_JPEG,
    width: 800,
    height: 800,
    quality: 90,
    maxBytes: 1 * MB,
    sizes: [
      { width: 800, height: 800, use: { zh: '主图（方形）', en: 'main images (square)' } },
      { width: 750, height: 1000, use: { zh: '3:4 详情图', en: '3:4 detail images' } },
    ],
    notes: {
      zh: '主图 800×800，不超过 1 MB；首图建议白底、商品居中、无牛皮癣（文字、水印、拼接）。',
      en: 'Main image 800×800, 1 MB at most; the first image preferably on white, product centred, no overlaid text, watermarks or collages.',
    },
  },
  {
    id: 'web-2048',
    name: { zh: '网页通用 2048 JPEG', en: 'Web 2048 JPEG' },
    ...PADDED_WHITE_JPEG,
    width: 2048,
    height: 2048,
    quality: 85,
    maxBytes: 2 * MB,
    notes: {
      zh: '不属于任何平台：方形 2048 像素、白色留白，适合自有网站与社交媒体；2 MB 上限是本应用的选择。',
      en: 'No marketplace’s rule: square 2048 px padded with white for your own site and social media; the 2 MB limit is this app’s choice.',
    },
  },
];

export function marketplacePreset(id: string): MarketplacePreset | null {
  return MARKETPLACE_PRESETS.find((p) => p.id === id) ?? null;
}

const FORMAT_LABELS: Record<MarketplaceFormat, string> = { jpeg: 'JPEG', png: 'PNG', webp: 'WebP' };

function megabytes(bytes: number): string {
  return `${Math.round((bytes / MB) * 10) / 10} MB`;
}

/** The sizes per shot kind, e.g. "800×800 main images (square); 750×1000 3:4 detail images". */
export function presetSizes(preset: MarketplacePreset, language: Language): string {
  return (preset.sizes ?? []).map((s) => `${s.width}×${s.height} ${s.use[language]}`).join(language === 'zh' ? '；' : '; ');
}

/** One line: size, fit, format and quality, size limit, colour space. */
export function presetSummary(preset: MarketplacePreset, language: Language): string {
  const format = `${FORMAT_LABELS[preset.format]}${preset.format === 'png' ? '' : ` ${language === 'zh' ? '质量 ' : 'q'}${preset.quality}`}`;
  const sizes = presetSizes(preset, language);
  if (sizes !== '') {
    // Other shapes are padded: said here, so bars never come as a surprise.
    if (language === 'zh') return `${sizes} · 其他比例：${preset.width}×${preset.height} 白色留白 · ${format} · 不超过 ${megabytes(preset.maxBytes)} · sRGB`;
    return `${sizes} · other shapes: ${preset.width}×${preset.height} padded with white · ${format} · ≤ ${megabytes(preset.maxBytes)} · sRGB`;
  }
  const size = `${preset.width}×${preset.height}`;
  if (language === 'zh') {
    const fit = preset.fit === 'contain' ? '白色留白、不裁切' : '铺满画面、裁去多余部分';
    return `${size} 像素 · ${fit} · ${format} · 不超过 ${megabytes(preset.maxBytes)} · sRGB`;
  }
  const fit = preset.fit === 'contain' ? 'padded with white, never cropped' : 'fills the frame, overflow cropped';
  return `${size} px · ${fit} · ${format} · ≤ ${megabytes(preset.maxBytes)} · sRGB`;
}

export function presetInfo(language: Language): MarketplacePresetInfo[] {
  return MARKETPLACE_PRESETS.map((p) => ({ id: p.id, name: p.name[language], summary: presetSummary(p, language) }));
}
