// spec §4.1 (model table, auto selection, billing) and DESIGN.md §3 (price of one image, defaults).
// estimateCredits is the single source of the reservation: the service reserves exactly its total.
import {
  DEFAULT_QUALITY,
  MODELS,
  type ConcreteModelId,
  type ImageCount,
  type ModelId,
  type Quality,
  type Resolution,
} from './catalog.ts';
import { findTextIntent, type TextIntentMatch } from './text-intent.ts';

export type AutoReason =
  | { kind: 'default' }
  | { kind: 'text_in_image'; cue: TextIntentMatch }
  | { kind: 'reference_count'; count: number; preferred: ConcreteModelId; preferredLimit: number; cue: TextIntentMatch | null };

export type AutoChoice = { ok: true; model: ConcreteModelId; reason: AutoReason } | { ok: false; count: number; limit: number };

/** Order in which auto falls back when the preferred model cannot take the references (DESIGN.md §3). */
export const AUTO_FALLBACK_ORDER: readonly ConcreteModelId[] = ['nano-banana-2', 'gpt-image-2'];

export function chooseAutoModel(prompt: string | undefined | null, referenceCount: number): AutoChoice {
  const cue = findTextIntent(prompt);
  const preferred: ConcreteModelId = cue ? 'gpt-image-2' : 'nano-banana-2';
  const preferredLimit = MODELS[preferred].referenceLimit;
  if (referenceCount <= preferredLimit) {
    return { ok: true, model: preferred, reason: cue ? { kind: 'text_in_image', cue } : { kind: 'default' } };
  }
  const fitting = AUTO_FALLBACK_ORDER.find((m) => referenceCount <= MODELS[m].referenceLimit);
  if (!fitting) {
    return { ok: false, count: referenceCount, limit: Math.max(...AUTO_FALLBACK_ORDER.map((m) => MODELS[m].referenceLimit)) };
  }
  return { ok: true, model: fitting, reason: { kind: 'reference_count', count: referenceCount, preferred, preferredLimit, cue } };
}

/** What estimateCredits needs: a request that passed validateGenerateRequest's stateless rules. */
export interface PricedRequest {
  model: ModelId;
  prompt?: string | undefined;
  referenceCount: number;
  resolution?: Resolution | undefined;
  quality?: Quality | undefined;
  n?: ImageCount | undefined;
}

export interface CreditEstimate {
  requestedModel: ModelId;
  model: ConcreteModelId;
  /** Present when requestedModel is auto. */
  autoReason: AutoReason | null;
  resolution: Resolution;
  /** Quality that is billed (GPT models; omitted = medium), or null where the model ignores quality. */
  quality: Quality | null;
  n: ImageCount;
  referenceCount: number;
  /** Price of one image before the reference surcharge. */
  basePrice: number;
  /** Surcharge added to each image (GPT: 1 per reference image). */
  referenceSurcharge: number;
  /** Price of one image: basePrice + referenceSurcharge. */
  pricePerImage: number;
  /** n × pricePerImage: what the service reserves. */
  total: number;
}

export class EstimateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EstimateError';
  }
}

/** Price of one image on a concrete model (DESIGN.md §3). Throws for a resolution the model lacks. */
export function pricePerImage(
  model: ConcreteModelId,
  resolution: Resolution,
  quality: Quality | null,
  referenceCount: number,
): { basePrice: number; referenceSurcharge: number; total: number } {
  const spec = MODELS[model];
  let basePrice: number | undefined;
  if (spec.price.byQuality) basePrice = spec.price.byQuality[quality ?? DEFAULT_QUALITY];
  else basePrice = spec.price.byResolution?.[resolution];
  if (basePrice === undefined) throw new EstimateError(`${model} has no price for ${resolution}`);
  const referenceSurcharge = spec.perReferenceSurcharge * referenceCount;
  return { basePrice, referenceSurcharge, total: basePrice + referenceSurcharge };
}

export function estimateCredits(request: PricedRequest): CreditEstimate {
  let model: ConcreteModelId;
  let autoReason: AutoReason | null = null;
  if (request.model === 'auto') {
    const choice = chooseAutoModel(request.prompt, request.referenceCount);
    if (!choice.ok) throw new EstimateError(`auto cannot take ${choice.count} reference images (limit ${choice.limit})`);
    model = choice.model;
    autoReason = choice.reason;
  } else {
    model = request.model;
  }
  const spec = MODELS[model];
  const resolution = request.resolution ?? spec.defaultResolution;
  if (!spec.resolutions.includes(resolution)) throw new EstimateError(`${model} does not offer ${resolution}`);
  const quality = spec.supportsQuality ? (request.quality ?? DEFAULT_QUALITY) : null;
  const n = request.n ?? 1;
  const price = pricePerImage(model, resolution, quality, request.referenceCount);
  return {
    requestedModel: request.model,
    model,
    autoReason,
    resolution,
    quality,
    n,
    referenceCount: request.referenceCount,
    basePrice: price.basePrice,
    referenceSurcharge: price.referenceSurcharge,
    pricePerImage: price.total,
    total: n * price.total,
  };
}

/** What a partial success charges: produced × price of one image (DESIGN.md §3). */
export function chargeForProduced(estimate: CreditEstimate, produced: number): number {
  return produced * estimate.pricePerImage;
}
