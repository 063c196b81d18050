// Shot lists (docs/catalog.md): the built-in presets, and the check that every shot of a list is something its
// model can honour (spec §4.1 model table), so a saved list never turns into a batch of refused or silently
// degraded requests.
import { LANGUAGES, type Language } from './language.ts';
import { MODELS, QUALITIES, type ConcreteModelId, type ModelId, type Quality, type Ratio, type Resolution } from './catalog.ts';
import type { Shot } from './ipc/batch.ts';
import { AUTO_FALLBACK_ORDER } from './pricing.ts';

/** The models auto can pick (DESIGN.md §3 "auto"); a shot on auto must suit both. */
const AUTO_CANDIDATES: readonly ConcreteModelId[] = AUTO_FALLBACK_ORDER;

// A type, not an interface: it travels as an error's params (Record<string, unknown>).
export type ShotNotSupported = {
  shot: string;
  /** The shot's model (`auto` when auto may pick a model that lacks the value). */
  model: string;
  reason: 'ratio' | 'resolution' | 'quality';
  value: string;
  /** What the model offers (for auto: what every model it can pick offers); empty for quality on a model without it. */
  allowed: string[];
};

export type ShotCheck = { ok: true } | { ok: false; code: 'shot_not_supported'; params: ShotNotSupported };

export type ShotListCheck =
  | { ok: true }
  | { ok: false; code: 'shot_not_supported'; params: ShotNotSupported & { index: number } }
  | { ok: false; code: 'shot_name_taken'; params: { index: number; name: string; firstIndex: number } };

function modelsOf(model: ModelId): readonly ConcreteModelId[] {
  return model === 'auto' ? AUTO_CANDIDATES : [model];
}

/** Values every one of the models offers, in the order of the first. */
function offeredByAll<T extends string>(models: readonly ConcreteModelId[], values: (model: ConcreteModelId) => readonly T[]): T[] {
  const [first, ...rest] = models.map(values);
  return (first ?? []).filter((v) => rest.every((other) => other.includes(v)));
}

/**
 * Whether the shot's model offers its ratio and resolution, and honours its quality. A quality on a model without
 * one is refused: the service would ignore it with a warning, so the shot would not be what it says.
 * flux-kontext-pro passes (it needs a reference: the plan reports products without one).
 */
export function checkShot(shot: Shot): ShotCheck {
  const models = modelsOf(shot.model);
  const refuse = (reason: ShotNotSupported['reason'], value: string, allowed: string[]): ShotCheck => ({
    ok: false,
    code: 'shot_not_supported',
    params: { shot: shot.name, model: shot.model, reason, value, allowed },
  });
  const ratios = offeredByAll<Ratio>(models, (m) => MODELS[m].ratios);
  if (!ratios.includes(shot.ratio)) return refuse('ratio', shot.ratio, ratios);
  if (shot.resolution !== undefined) {
    const resolutions = offeredByAll<Resolution>(models, (m) => MODELS[m].resolutions);
    if (!resolutions.includes(shot.resolution)) return refuse('resolution', shot.resolution, resolutions);
  }
  if (shot.quality !== undefined && !models.every((m) => MODELS[m].supportsQuality)) {
    const qualities = offeredByAll<Quality>(models, (m) => (MODELS[m].supportsQuality ? QUALITIES : []));
    return refuse('quality', shot.quality, qualities);
  }
  return { ok: true };
}

/** The key shot names are compared by: they become export file names, which may be case-insensitive. */
function nameKey(name: string): string {
  return name.trim().toLowerCase();
}

/** Every shot checked in order; the first bad one is reported with its index. */
export function checkShotList(input: { name: string; shots: Shot[] }): ShotListCheck {
  const seen = new Map<string, number>();
  for (const [index, shot] of input.shots.entries()) {
    const check = checkShot(shot);
    if (!check.ok) return { ok: false, code: check.code, params: { ...check.params, index } };
    const firstIndex = seen.get(nameKey(shot.name));
    if (firstIndex !== undefined) return { ok: false, code: 'shot_name_taken', params: { index, name: shot.name.trim(), firstIndex } };
    seen.set(nameKey(shot.name), index);
  }
  return { ok: true };
}

/** A built-in shot's name and prompt addition in Chinese (the English ones are the shot's own). */
export interface ShotWords {
  name: string;
  promptAddition: string;
}

export interface ShotListPreset {
  /** `sl_preset_<preset>`. */
  id: string;
  preset: string;
  name: { zh: string; en: string };
  /** The shots in English. */
  shots: Shot[];
  /** The same shots' names and prompt additions in Chinese, in the same order. */
  zh: ShotWords[];
  /** The marketplace export preset (src-shared/marketplace-presets.ts) these shots are made for, if one marketplace's. */
  marketplace?: string;
}

function preset(key: string, name: ShotListPreset['name'], shots: Array<Shot & { zh: ShotWords }>, marketplace?: string): ShotListPreset {
  const made = { id: `sl_preset_${key}`, preset: key, name, shots: shots.map(({ zh: _zh, ...shot }) => shot), zh: shots.map((s) => s.zh) };
  return marketplace ? { ...made, marketplace } : made;
}

/**
 * A built-in list's shots in a UI language, as its name is: a Chinese designer reads, edits and sends Chinese shot
 * names and prompt additions. Once the list is saved it keeps the words it was saved with (a batch keeps its own),
 * and once a batch ran it, the words of that batch's language (`presetLanguageOf`; batch/catalog-repo.ts keeps it):
 * shot names are keys (picks, the board's columns, export names, "only what is missing"), so a language switch
 * must never rename shots a batch has used.
 */
export function presetShots(preset: ShotListPreset, language: Language): Shot[] {
  if (language === 'en') return preset.shots.map((s) => ({ ...s }));
  return preset.shots.map((s, i) => ({ ...s, ...preset.zh[i] }));
}

/** The language whose shipped shot names these are (a batch's shots), or null when they are not all the preset's. */
export function presetLanguageOf(preset: ShotListPreset, shotNames: readonly string[]): Language | null {
  if (shotNames.length === 0) return null;
  const shipsAll = (language: Language) => {
    const shipped = new Set(presetShots(preset, language).map((s) => s.name));
    return shotNames.every((name) => shipped.has(name));
  };
  return LANGUAGES.find(shipsAll) ?? null;
}

// The additions ask for no text in the image on purpose: a word such as "text" or "label" would make auto pick
// gpt-image-2 (DESIGN.md §3), so auto's choice stays with the product's own prompt.
export const SHOT_LIST_PRESETS: ReadonlyArray<ShotListPreset> = [
  preset('marketplace_hero', { zh: '电商主图套装', en: 'Marketplace set' }, [
    {
      name: 'hero',
      purpose: 'main_white',
      model: 'nano-banana-2',
      ratio: '1:1',
      resolution: '2K',
      n: 1,
      promptAddition: 'Front three-quarter view, centred, filling about 85% of the frame, soft even studio light.',
      zh: { name: '主图', promptAddition: '前侧 45° 角，居中，约占画面 85%，柔和均匀的棚拍光。' },
    },
    {
      name: 'detail-material',
      purpose: 'detail',
      model: 'nano-banana-2',
      ratio: '1:1',
      resolution: '2K',
      n: 1,
      promptAddition: 'Macro close-up of the material and surface texture, shallow depth of field, raking side light.',
      zh: { name: '细节-材质', promptAddition: '材质与表面纹理的微距特写，浅景深，低角度侧光。' },
    },
    {
      name: 'detail-function',
      purpose: 'detail',
      model: 'nano-banana-2',
      ratio: '1:1',
      resolution: '2K',
      n: 1,
      promptAddition: 'Close-up of the key functional part (closure, seams, buttons or ports), crisp focus throughout.',
      zh: { name: '细节-功能', promptAddition: '关键功能部位的特写（开合处、缝线、按钮或接口），整体清晰对焦。' },
    },
    {
      name: 'buyer-show',
      purpose: 'buyer_show',
      model: 'auto',
      ratio: '1:1',
      n: 1,
      promptAddition: 'Held or used by a person at home, phone-camera look, natural window light.',
      zh: { name: '买家秀', promptAddition: '在家中被人手持或使用，手机拍摄的质感，自然窗光。' },
    },
  ]),
  preset('ads', { zh: '广告横竖版', en: 'Ads, wide and vertical' }, [
    {
      name: 'wide-lifestyle',
      purpose: 'free',
      model: 'nano-banana-2',
      ratio: '16:9',
      resolution: '2K',
      n: 1,
      promptAddition: 'Lifestyle scene in a bright modern interior, product in the right third, calm empty space on the left.',
      zh: { name: '横版-场景', promptAddition: '明亮的现代室内生活场景，商品位于右侧三分之一，左侧留出安静的空白。' },
    },
    {
      name: 'wide-studio',
      purpose: 'free',
      model: 'nano-banana-2',
      ratio: '16:9',
      resolution: '2K',
      n: 1,
      promptAddition: 'Studio shot on a soft colour gradient backdrop that suits the product, dramatic rim light.',
      zh: { name: '横版-棚拍', promptAddition: '与商品相配的柔和渐变色背景棚拍，强烈的轮廓光。' },
    },
    {
      name: 'story-lifestyle',
      purpose: 'free',
      model: 'nano-banana-2',
      ratio: '9:16',
      resolution: '2K',
      n: 1,
      promptAddition: 'Vertical lifestyle scene for stories and short video covers, product in the lower half, open sky or wall above.',
      zh: { name: '竖版-场景', promptAddition: '适合快拍和短视频封面的竖版生活场景，商品在下半部分，上方是开阔的天空或墙面。' },
    },
    {
      name: 'story-studio',
      purpose: 'free',
      model: 'auto',
      ratio: '9:16',
      n: 1,
      promptAddition: 'Vertical studio shot on a pedestal, low camera angle, bold single-colour background.',
      zh: { name: '竖版-棚拍', promptAddition: '竖版棚拍，商品置于展台上，低机位，醒目的纯色背景。' },
    },
  ]),
  preset('white_only', { zh: '仅白底图', en: 'White background only' }, [
    {
      name: 'main-white',
      purpose: 'main_white',
      model: 'nano-banana-2',
      ratio: '1:1',
      resolution: '2K',
      n: 1,
      promptAddition: 'Front view, centred, filling about 85% of the frame.',
      zh: { name: '白底主图', promptAddition: '正面视角，居中，约占画面 85%。' },
    },
    {
      name: 'pure-white',
      purpose: 'pure_white',
      model: 'nano-banana-2',
      ratio: '1:1',
      resolution: '2K',
      n: 1,
      promptAddition: 'Three-quarter view, product alone, soft contact shadow.',
      zh: { name: '纯白底', promptAddition: '四分之三侧面，只有商品本身，柔和的接触阴影。' },
    },
  ]),
  preset('cn_marketplace', { zh: '淘宝 / 天猫 / 京东', en: 'Taobao / Tmall / JD' }, [
    {
      name: 'main',
      purpose: 'main_white',
      model: 'nano-banana-2',
      ratio: '1:1',
      resolution: '2K',
      n: 1,
      promptAddition: 'Front three-quarter view, centred, product fills most of the square frame, bright even light.',
      zh: { name: '主图', promptAddition: '前侧 45° 角，居中，商品占满方形画面的大部分，明亮均匀的光线。' },
    },
    {
      name: 'detail-1',
      purpose: 'detail',
      model: 'nano-banana-2',
      ratio: '3:4',
      resolution: '2K',
      n: 1,
      promptAddition: 'Close-up of the material and craftsmanship, shallow depth of field.',
      zh: { name: '细节-1', promptAddition: '材质与做工的特写，浅景深。' },
    },
    {
      name: 'detail-2',
      purpose: 'detail',
      model: 'nano-banana-2',
      ratio: '3:4',
      resolution: '2K',
      n: 1,
      promptAddition: 'Product in use in a typical setting, showing its size against familiar objects.',
      zh: { name: '细节-2', promptAddition: '商品在典型场景中使用，借常见物品体现它的大小。' },
    },
    {
      name: 'buyer-show',
      purpose: 'buyer_show',
      model: 'auto',
      ratio: '3:4',
      n: 1,
      promptAddition: 'Everyday home setting, natural light, casual phone-camera framing.',
      zh: { name: '买家秀', promptAddition: '日常居家场景，自然光，随手用手机拍摄的构图。' },
    },
  ], 'taobao-tmall-main'),
];

export function presetById(id: string): ShotListPreset | null {
  return SHOT_LIST_PRESETS.find((p) => p.id === id) ?? null;
}

/**
 * The export preset a batch of this shot list is delivered with by default: the built-in list's marketplace (an
 * edited built-in list keeps its id, so its marketplace), or null for a list of the user's own or a general one.
 */
export function marketplaceOfShotList(shotListId: string): string | null {
  return presetById(shotListId)?.marketplace ?? null;
}
