// Shot lists (docs/catalog.md): the built-in presets, and the check that every shot of a list is something its
// model can honour (spec §4.1 model table), so a saved list never turns into a batch of refused or silently
// degraded requests.
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

export interface ShotListPreset {
  /** `sl_preset_<preset>`. */
  id: string;
  preset: string;
  name: { zh: string; en: string };
  shots: Shot[];
}

function preset(key: string, name: ShotListPreset['name'], shots: Shot[]): ShotListPreset {
  return { id: `sl_preset_${key}`, preset: key, name, shots };
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
    },
    {
      name: 'detail-material',
      purpose: 'detail',
      model: 'nano-banana-2',
      ratio: '1:1',
      resolution: '2K',
      n: 1,
      promptAddition: 'Macro close-up of the material and surface texture, shallow depth of field, raking side light.',
    },
    {
      name: 'detail-function',
      purpose: 'detail',
      model: 'nano-banana-2',
      ratio: '1:1',
      resolution: '2K',
      n: 1,
      promptAddition: 'Close-up of the key functional part (closure, seams, buttons or ports), crisp focus throughout.',
    },
    {
      name: 'buyer-show',
      purpose: 'buyer_show',
      model: 'auto',
      ratio: '1:1',
      n: 1,
      promptAddition: 'Held or used by a person at home, phone-camera look, natural window light.',
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
    },
    {
      name: 'wide-studio',
      purpose: 'free',
      model: 'nano-banana-2',
      ratio: '16:9',
      resolution: '2K',
      n: 1,
      promptAddition: 'Studio shot on a soft colour gradient backdrop that suits the product, dramatic rim light.',
    },
    {
      name: 'story-lifestyle',
      purpose: 'free',
      model: 'nano-banana-2',
      ratio: '9:16',
      resolution: '2K',
      n: 1,
      promptAddition: 'Vertical lifestyle scene for stories and short video covers, product in the lower half, open sky or wall above.',
    },
    {
      name: 'story-studio',
      purpose: 'free',
      model: 'auto',
      ratio: '9:16',
      n: 1,
      promptAddition: 'Vertical studio shot on a pedestal, low camera angle, bold single-colour background.',
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
    },
    {
      name: 'pure-white',
      purpose: 'pure_white',
      model: 'nano-banana-2',
      ratio: '1:1',
      resolution: '2K',
      n: 1,
      promptAddition: 'Three-quarter view, product alone, soft contact shadow.',
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
    },
    {
      name: 'detail-1',
      purpose: 'detail',
      model: 'nano-banana-2',
      ratio: '3:4',
      resolution: '2K',
      n: 1,
      promptAddition: 'Close-up of the material and craftsmanship, shallow depth of field.',
    },
    {
      name: 'detail-2',
      purpose: 'detail',
      model: 'nano-banana-2',
      ratio: '3:4',
      resolution: '2K',
      n: 1,
      promptAddition: 'Product in use in a typical setting, showing its size against familiar objects.',
    },
    {
      name: 'buyer-show',
      purpose: 'buyer_show',
      model: 'auto',
      ratio: '3:4',
      n: 1,
      promptAddition: 'Everyday home setting, natural light, casual phone-camera framing.',
    },
  ]),
];

export function presetById(id: string): ShotListPreset | null {
  return SHOT_LIST_PRESETS.find((p) => p.id === id) ?? null;
}
