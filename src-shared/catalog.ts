// The catalog of spec §4.1 (model table), §2.6 (purposes) and DESIGN.md §3 (pixel sizes, prices, defaults).
// Every other part of the app and the local service reads these tables; nothing restates them.

export const RATIOS = ['1:1', '3:4', '4:5', '16:9', '9:16'] as const;
export type Ratio = (typeof RATIOS)[number];
export const DEFAULT_RATIO: Ratio = '3:4';

export const RESOLUTIONS = ['1K', '2K', '4K'] as const;
export type Resolution = (typeof RESOLUTIONS)[number];

export const QUALITIES = ['low', 'medium', 'high'] as const;
export type Quality = (typeof QUALITIES)[number];
export const DEFAULT_QUALITY: Quality = 'medium';

export const IMAGE_COUNTS = [1, 2, 4] as const;
export type ImageCount = (typeof IMAGE_COUNTS)[number];

export const PROMPT_MAX_CODE_POINTS = 4000;

export const MODEL_IDS = [
  'auto',
  'nano-banana-2',
  'gpt-image-2',
  'gpt-image-2.5',
  'seedream-5-0-pro',
  'qwen-image-3.0-pro',
  'flux-kontext-pro',
] as const;
export type ModelId = (typeof MODEL_IDS)[number];
export type ConcreteModelId = Exclude<ModelId, 'auto'>;

export type ModelStatus = 'stable' | 'testing' | 'edit_only';

export interface ModelSpec {
  id: ConcreteModelId;
  status: ModelStatus;
  ratios: readonly Ratio[];
  resolutions: readonly Resolution[];
  defaultResolution: Resolution;
  /** GPT models price by quality; the others ignore it (with a warning). */
  supportsQuality: boolean;
  referenceLimit: number;
  /** Credits for one image without reference surcharge: by resolution, or by quality on GPT models. */
  price: { byResolution?: Partial<Record<Resolution, number>>; byQuality?: Record<Quality, number> };
  /** Credits added per reference image for each image (GPT models: 1). */
  perReferenceSurcharge: number;
  /** Needs at least one reference image (flux-kontext-pro is edit only). */
  requiresReference: boolean;
  /** Usual seconds for one run at 1K, n=1; the app scales it for its "usual time" hint. */
  typicalSeconds: number;
}

const ALL_RATIOS = RATIOS;
const NO_4_5: readonly Ratio[] = ['1:1', '3:4', '16:9', '9:16'];
const GPT_PRICE = { byQuality: { low: 5, medium: 15, high: 50 } } as const;
/** What the GPT models share (DESIGN.md §3: price by quality plus 1 per reference, 1K by default). */
const GPT_FAMILY = {
  ratios: ALL_RATIOS,
  resolutions: ['1K', '2K', '4K'],
  defaultResolution: '1K',
  supportsQuality: true,
  referenceLimit: 16,
  price: GPT_PRICE,
  perReferenceSurcharge: 1,
  requiresReference: false,
} as const satisfies Partial<ModelSpec>;
/** What the two testing models share (1K/2K without 4:5, priced by resolution, no reference surcharge). */
const TESTING_2K_FAMILY = {
  status: 'testing',
  ratios: NO_4_5,
  resolutions: ['1K', '2K'],
  defaultResolution: '1K',
  supportsQuality: false,
  perReferenceSurcharge: 0,
  requiresReference: false,
  typicalSeconds: 15,
} as const satisfies Partial<ModelSpec>;

export const MODELS: Readonly<Record<ConcreteModelId, ModelSpec>> = {
  'nano-banana-2': {
    id: 'nano-banana-2',
    status: 'stable',
    ratios: ALL_RATIOS,
    resolutions: ['1K', '2K', '4K'],
    defaultResolution: '2K',
    supportsQuality: false,
    referenceLimit: 14,
    price: { byResolution: { '1K': 12, '2K': 16, '4K': 23 } },
    perReferenceSurcharge: 0,
    requiresReference: false,
    typicalSeconds: 20,
  },
  'gpt-image-2': { ...GPT_FAMILY, id: 'gpt-image-2', status: 'stable', typicalSeconds: 40 },
  'gpt-image-2.5': { ...GPT_FAMILY, id: 'gpt-image-2.5', status: 'testing', typicalSeconds: 45 },
  'seedream-5-0-pro': {
    ...TESTING_2K_FAMILY,
    id: 'seedream-5-0-pro',
    referenceLimit: 10,
    price: { byResolution: { '1K': 6, '2K': 12 } },
  },
  'qwen-image-3.0-pro': {
    ...TESTING_2K_FAMILY,
    id: 'qwen-image-3.0-pro',
    referenceLimit: 3,
    price: { byResolution: { '1K': 6, '2K': 11 } },
  },
  'flux-kontext-pro': {
    id: 'flux-kontext-pro',
    status: 'edit_only',
    ratios: ALL_RATIOS,
    resolutions: ['1K'],
    defaultResolution: '1K',
    supportsQuality: false,
    referenceLimit: 1,
    price: { byResolution: { '1K': 5 } },
    perReferenceSurcharge: 0,
    requiresReference: true,
    typicalSeconds: 12,
  },
};

export const CONCRETE_MODEL_IDS = MODEL_IDS.filter((m): m is ConcreteModelId => m !== 'auto');

/** The highest reference limit of any model: above it even `auto` answers too_many_reference_images. */
export const MAX_REFERENCE_IMAGES = Math.max(...CONCRETE_MODEL_IDS.map((m) => MODELS[m].referenceLimit));

export function isModelId(value: unknown): value is ModelId {
  return typeof value === 'string' && (MODEL_IDS as readonly string[]).includes(value);
}
export function isRatio(value: unknown): value is Ratio {
  return typeof value === 'string' && (RATIOS as readonly string[]).includes(value);
}
export function isResolution(value: unknown): value is Resolution {
  return typeof value === 'string' && (RESOLUTIONS as readonly string[]).includes(value);
}
export function isQuality(value: unknown): value is Quality {
  return typeof value === 'string' && (QUALITIES as readonly string[]).includes(value);
}
export function isImageCount(value: unknown): value is ImageCount {
  return typeof value === 'number' && (IMAGE_COUNTS as readonly number[]).includes(value);
}

export const PURPOSE_IDS = ['free', 'main_white', 'detail', 'buyer_show', 'pure_white'] as const;
export type PurposeId = (typeof PURPOSE_IDS)[number];
export const DEFAULT_PURPOSE: PurposeId = 'free';

export interface PurposeSpec {
  id: PurposeId;
  /** The generator paints a plain white backdrop for these. */
  whiteBackground: boolean;
  label: { zh: string; en: string };
  description: { zh: string; en: string };
}

export const PURPOSES: Readonly<Record<PurposeId, PurposeSpec>> = {
  free: {
    id: 'free',
    whiteBackground: false,
    label: { zh: '自由生成', en: 'Free' },
    description: { zh: '只按提示词生成，不附加电商拍摄规则。', en: 'Prompt only; no e-commerce photography rules added.' },
  },
  main_white: {
    id: 'main_white',
    whiteBackground: true,
    label: { zh: '白底主图', en: 'Marketplace hero' },
    description: {
      zh: '平台主图：白底、商品居中、占满画面，适合商品列表首图。',
      en: 'Marketplace hero image: white backdrop, product centred and filling the frame.',
    },
  },
  detail: {
    id: 'detail',
    whiteBackground: false,
    label: { zh: '细节图', en: 'Detail shot' },
    description: {
      zh: '近距离展示材质、做工与局部细节。',
      en: 'Close-up that shows material, finish and small details.',
    },
  },
  buyer_show: {
    id: 'buyer_show',
    whiteBackground: false,
    label: { zh: '买家秀', en: 'Buyer show' },
    description: {
      zh: '像买家实拍：生活场景、自然光，真实不摆拍。',
      en: 'Looks like a customer photo: everyday setting, natural light, unstaged.',
    },
  },
  pure_white: {
    id: 'pure_white',
    whiteBackground: true,
    label: { zh: '纯白底（无人物）', en: 'Pure white, no person' },
    description: {
      zh: '纯白背景，只有商品，画面中不出现人物。',
      en: 'Pure white background with the product alone; no person in frame.',
    },
  },
};

export function isPurposeId(value: unknown): value is PurposeId {
  return typeof value === 'string' && (PURPOSE_IDS as readonly string[]).includes(value);
}

/** DESIGN.md §3: width × height for every ratio and resolution. */
export const PIXEL_SIZES: Readonly<Record<Ratio, Record<Resolution, { width: number; height: number }>>> = {
  '1:1': { '1K': { width: 1024, height: 1024 }, '2K': { width: 2048, height: 2048 }, '4K': { width: 4096, height: 4096 } },
  '3:4': { '1K': { width: 896, height: 1200 }, '2K': { width: 1792, height: 2400 }, '4K': { width: 3584, height: 4800 } },
  '4:5': { '1K': { width: 928, height: 1152 }, '2K': { width: 1856, height: 2304 }, '4K': { width: 3712, height: 4608 } },
  '16:9': { '1K': { width: 1376, height: 768 }, '2K': { width: 2752, height: 1536 }, '4K': { width: 5504, height: 3072 } },
  '9:16': { '1K': { width: 768, height: 1376 }, '2K': { width: 1536, height: 2752 }, '4K': { width: 3072, height: 5504 } },
};

export function pixelSize(ratio: Ratio, resolution: Resolution): { width: number; height: number } {
  return PIXEL_SIZES[ratio][resolution];
}
