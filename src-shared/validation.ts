// DESIGN.md §3 "Validation order": the stateless rules of POST /api/v1/generate, in the order the service
// applies them, so the app can refuse a request before sending it with exactly the service's answer.
// The stateful rules that follow (session, references, balance, new-account cap) live in the service.
import {
  DEFAULT_PURPOSE,
  IMAGE_COUNTS,
  MODEL_IDS,
  MODELS,
  PROMPT_MAX_CODE_POINTS,
  PURPOSE_IDS,
  QUALITIES,
  RATIOS,
  RESOLUTIONS,
  isImageCount,
  isModelId,
  isPurposeId,
  isQuality,
  isRatio,
  isResolution,
  type ConcreteModelId,
  type ImageCount,
  type ModelId,
  type PurposeId,
  type Quality,
  type Ratio,
  type Resolution,
} from './catalog.ts';
import { apiError, type ApiErrorValue } from './errors.ts';
import { chooseAutoModel, estimateCredits, type CreditEstimate } from './pricing.ts';

export const GENERATE_FIELDS = [
  'prompt',
  'ref_image_ids',
  'model',
  'ratio',
  'resolution',
  'quality',
  'n',
  'session_id',
  'purpose_id',
] as const;

/** A generate body after the stateless rules passed: defaults are not filled in, only types narrowed. */
export interface ValidGenerateRequest {
  prompt?: string;
  ref_image_ids?: string[];
  model?: ModelId;
  ratio?: Ratio;
  resolution?: Resolution;
  quality?: Quality;
  n?: ImageCount;
  session_id?: string;
  purpose_id?: PurposeId;
}

export interface ValidatedGenerate {
  request: ValidGenerateRequest;
  /** The model that will run (auto resolved). */
  model: ConcreteModelId;
  ratio: Ratio;
  purpose: PurposeId;
  referenceIds: string[];
  estimate: CreditEstimate;
}

export type GenerateValidation = { ok: true; value: ValidatedGenerate } | { ok: false; error: ApiErrorValue };

/** Length in Unicode code points, the unit of the 4000-character limit. */
export function codePointLength(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

function fail(error: ApiErrorValue): GenerateValidation {
  return { ok: false, error };
}

/**
 * Parses a raw request body (text) the way the service does: not JSON → invalid_request.
 * Returns the parsed value for validateGenerateRequest.
 */
export function parseJsonBody(text: string): { ok: true; value: unknown } | { ok: false; error: ApiErrorValue } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, error: apiError('invalid_request', { reason: 'not_json' }) };
  }
}

/** The first failing stateless rule of DESIGN.md §3, or the narrowed request with its estimate. */
export function validateGenerateRequest(body: unknown): GenerateValidation {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return fail(apiError('invalid_request', { reason: 'not_object' }));
  }
  const record = body as Record<string, unknown>;
  // A typo such as `ration` is refused by name: the spec never ignores a bad parameter.
  for (const key of Object.keys(record)) {
    if (!(GENERATE_FIELDS as readonly string[]).includes(key)) {
      return fail(apiError('invalid_request', { reason: 'unknown_field', field: key }));
    }
  }
  const hasPrompt = Object.hasOwn(record, 'prompt');
  const hasRefs = Object.hasOwn(record, 'ref_image_ids');
  if (!hasPrompt && !hasRefs) return fail(apiError('invalid_request', { reason: 'missing_prompt_and_references' }));

  const { prompt, ref_image_ids: refs } = record;
  if (hasPrompt && typeof prompt !== 'string') {
    return fail(apiError('invalid_request', { reason: 'wrong_type', field: 'prompt', expected: 'string' }));
  }
  if (hasRefs && (!Array.isArray(refs) || !refs.every((r) => typeof r === 'string'))) {
    return fail(apiError('invalid_reference_images', { field: 'ref_image_ids' }));
  }
  const promptText = typeof prompt === 'string' ? prompt : '';
  const referenceIds = Array.isArray(refs) ? (refs as string[]) : [];
  if (promptText.trim() === '' && referenceIds.length === 0) return fail(apiError('prompt_or_reference_required'));

  const length = codePointLength(promptText);
  if (length > PROMPT_MAX_CODE_POINTS) {
    return fail(apiError('prompt_too_long', { length, limit: PROMPT_MAX_CODE_POINTS }));
  }

  const requestedModel = Object.hasOwn(record, 'model') ? record.model : 'auto';
  if (!isModelId(requestedModel)) {
    return fail(apiError('invalid_model', { model: String(JSON.stringify(requestedModel)), allowed: MODEL_IDS }));
  }
  // Ratio and resolution are checked against the model that will run. auto with more references than any
  // model takes is refused later (too_many_reference_images); its candidates offer every ratio and resolution.
  const autoChoice = requestedModel === 'auto' ? chooseAutoModel(promptText, referenceIds.length) : null;
  const model: ConcreteModelId =
    requestedModel === 'auto' ? (autoChoice?.ok ? autoChoice.model : 'gpt-image-2') : requestedModel;
  const spec = MODELS[model];

  const ratio = Object.hasOwn(record, 'ratio') ? record.ratio : '3:4';
  if (!isRatio(ratio) || !spec.ratios.includes(ratio)) {
    return fail(apiError('invalid_ratio', { ratio: String(JSON.stringify(ratio)), model, allowed: spec.ratios }));
  }
  const hasResolution = Object.hasOwn(record, 'resolution');
  const resolution = record.resolution;
  if (hasResolution && (!isResolution(resolution) || !spec.resolutions.includes(resolution))) {
    return fail(
      apiError('invalid_resolution', {
        resolution: String(JSON.stringify(resolution)),
        model,
        allowed: spec.resolutions,
      }),
    );
  }
  const hasQuality = Object.hasOwn(record, 'quality');
  if (hasQuality && !isQuality(record.quality)) {
    return fail(apiError('invalid_quality', { quality: String(JSON.stringify(record.quality)), allowed: QUALITIES }));
  }
  const hasN = Object.hasOwn(record, 'n');
  if (hasN && !isImageCount(record.n)) {
    return fail(apiError('invalid_image_count', { n: String(JSON.stringify(record.n)), allowed: IMAGE_COUNTS.map(String) }));
  }
  const hasPurpose = Object.hasOwn(record, 'purpose_id');
  if (hasPurpose && !isPurposeId(record.purpose_id)) {
    const wrongType = typeof record.purpose_id !== 'string';
    return fail(
      apiError('invalid_request', {
        reason: wrongType ? 'wrong_type' : 'unknown_value',
        field: 'purpose_id',
        ...(wrongType ? { expected: 'string' } : { allowed: PURPOSE_IDS }),
      }),
    );
  }
  const hasSession = Object.hasOwn(record, 'session_id');
  if (hasSession && typeof record.session_id !== 'string') {
    return fail(apiError('invalid_request', { reason: 'wrong_type', field: 'session_id', expected: 'string' }));
  }
  if (spec.requiresReference && referenceIds.length === 0) {
    return fail(apiError('invalid_request', { reason: 'edit_only_needs_reference', model }));
  }
  if (autoChoice && !autoChoice.ok) {
    return fail(apiError('too_many_reference_images', { count: autoChoice.count, limit: autoChoice.limit, model: 'auto' }));
  }
  if (referenceIds.length > spec.referenceLimit) {
    return fail(apiError('too_many_reference_images', { count: referenceIds.length, limit: spec.referenceLimit, model }));
  }

  const request: ValidGenerateRequest = {};
  if (hasPrompt) request.prompt = promptText;
  if (hasRefs) request.ref_image_ids = referenceIds;
  if (Object.hasOwn(record, 'model')) request.model = requestedModel;
  if (Object.hasOwn(record, 'ratio')) request.ratio = ratio;
  if (hasResolution) request.resolution = resolution as Resolution;
  if (hasQuality) request.quality = record.quality as Quality;
  if (hasN) request.n = record.n as ImageCount;
  if (hasSession) request.session_id = record.session_id as string;
  if (hasPurpose) request.purpose_id = record.purpose_id as PurposeId;

  const estimate = estimateCredits({
    model: requestedModel,
    prompt: promptText,
    referenceCount: referenceIds.length,
    resolution: request.resolution,
    quality: request.quality,
    n: request.n,
  });
  return {
    ok: true,
    value: { request, model, ratio, purpose: request.purpose_id ?? DEFAULT_PURPOSE, referenceIds, estimate },
  };
}

/** For the UI: which values of each option the model allows, with the default it falls back to. */
export function allowedOptions(model: ConcreteModelId): {
  ratios: readonly Ratio[];
  resolutions: readonly Resolution[];
  defaultResolution: Resolution;
  qualities: readonly Quality[] | null;
  referenceLimit: number;
} {
  const spec = MODELS[model];
  return {
    ratios: spec.ratios,
    resolutions: spec.resolutions,
    defaultResolution: spec.defaultResolution,
    qualities: spec.supportsQuality ? QUALITIES : null,
    referenceLimit: spec.referenceLimit,
  };
}

export { RATIOS, RESOLUTIONS };
