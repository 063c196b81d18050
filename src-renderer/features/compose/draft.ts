// What the compose panel holds, and how it becomes a request body: pure functions over src-shared, so the
// estimate and the client-side checks are the service's own rules (spec §4.1, DESIGN.md §3), never restated.
import { DEFAULT_PURPOSE, MODELS, type ConcreteModelId, type ImageCount, type ModelId, type PurposeId, type Quality, type Ratio, type Resolution } from '../../../src-shared/catalog.ts';
import type { GenerateRequest } from '../../../src-shared/api.ts';
import type { ApiErrorValue } from '../../../src-shared/errors.ts';
import { chooseAutoModel, type AutoChoice, type CreditEstimate } from '../../../src-shared/pricing.ts';
import { validateGenerateRequest } from '../../../src-shared/validation.ts';

export interface ComposeDraft {
  prompt: string;
  model: ModelId;
  ratio: Ratio;
  /** '' = the model's default resolution (the field is omitted). */
  resolution: Resolution | '';
  /** '' = omitted (GPT models bill it as medium). */
  quality: Quality | '';
  n: ImageCount;
  purpose: PurposeId;
  referenceIds: string[];
}

export const EMPTY_DRAFT: ComposeDraft = {
  prompt: '',
  model: 'auto',
  ratio: '3:4',
  resolution: '',
  quality: '',
  n: 1,
  purpose: DEFAULT_PURPOSE,
  referenceIds: [],
};

/** The model that will run: the chosen one, or auto's choice for this prompt and reference count. */
export function resolveModel(draft: Pick<ComposeDraft, 'model' | 'prompt' | 'referenceIds'>): {
  model: ConcreteModelId | null;
  auto: AutoChoice | null;
} {
  if (draft.model !== 'auto') return { model: draft.model, auto: null };
  const auto = chooseAutoModel(draft.prompt, draft.referenceIds.length);
  return { model: auto.ok ? auto.model : null, auto };
}

/** The body the app sends. Quality goes only to models that price by it, so no needless warning comes back. */
export function buildRequest(draft: ComposeDraft): GenerateRequest {
  const request: GenerateRequest = {};
  const hasRefs = draft.referenceIds.length > 0;
  // With neither prompt nor references, keep the (empty) prompt so the answer is prompt_or_reference_required.
  if (draft.prompt.length > 0 || !hasRefs) request.prompt = draft.prompt;
  if (hasRefs) request.ref_image_ids = [...draft.referenceIds];
  request.model = draft.model;
  request.ratio = draft.ratio;
  if (draft.resolution !== '') request.resolution = draft.resolution;
  const { model } = resolveModel(draft);
  if (draft.quality !== '' && model && MODELS[model].supportsQuality) request.quality = draft.quality;
  request.n = draft.n;
  request.purpose_id = draft.purpose;
  return request;
}

export type DraftCheck =
  | { ok: true; request: GenerateRequest; estimate: CreditEstimate }
  | { ok: false; request: GenerateRequest; error: ApiErrorValue };

/** The service's stateless rules applied to the draft: the first failing one, or the exact reservation. */
export function checkDraft(draft: ComposeDraft): DraftCheck {
  const request = buildRequest(draft);
  const result = validateGenerateRequest(request);
  if (!result.ok) return { ok: false, request, error: result.error };
  return { ok: true, request, estimate: result.value.estimate };
}

const RESOLUTION_FACTOR: Record<Resolution, number> = { '1K': 1, '2K': 1.6, '4K': 2.8 };

/**
 * The usual time of a run, for the "elapsed against usual" hint: the model's 1K single-image time, scaled by
 * resolution and by n (images run in parallel, so each extra one adds less than a whole run).
 */
export function usualSeconds(model: ConcreteModelId, resolution: Resolution, n: number): number {
  const base = MODELS[model].typicalSeconds * RESOLUTION_FACTOR[resolution];
  return Math.round(base * (1 + 0.4 * (n - 1)));
}
