import { describe, expect, it } from 'vitest';
import { validateGenerateRequest, parseJsonBody } from './validation.ts';

const ok = { prompt: 'a red mug' };
const refs = (n: number) => Array.from({ length: n }, (_, i) => `img_${String(i).padStart(8, 'a')}`);

function codeOf(body: unknown): string {
  const r = validateGenerateRequest(body);
  return r.ok ? 'ok' : r.error.code;
}

describe('validateGenerateRequest: one fault at a time', () => {
  it.each<[string, unknown, string]>([
    ['not an object (array)', [], 'invalid_request'],
    ['not an object (string)', 'hello', 'invalid_request'],
    ['null body', null, 'invalid_request'],
    ['neither prompt nor ref_image_ids', { model: 'auto' }, 'invalid_request'],
    ['unknown field (typo)', { ...ok, ration: '1:1' }, 'invalid_request'],
    ['prompt not a string', { prompt: 42 }, 'invalid_request'],
    ['prompt null', { prompt: null }, 'invalid_request'],
    ['ref_image_ids not an array', { ref_image_ids: 'img_aaaaaaaa' }, 'invalid_reference_images'],
    ['ref_image_ids with a number', { ref_image_ids: ['img_aaaaaaaa', 3] }, 'invalid_reference_images'],
    ['both empty', { prompt: '', ref_image_ids: [] }, 'prompt_or_reference_required'],
    ['blank prompt only', { prompt: '   ' }, 'prompt_or_reference_required'],
    ['prompt of 4001 code points', { prompt: 'a'.repeat(4001) }, 'prompt_too_long'],
    ['unknown model', { ...ok, model: 'dall-e' }, 'invalid_model'],
    ['model null', { ...ok, model: null }, 'invalid_model'],
    ['bad ratio', { ...ok, ratio: '2:3' }, 'invalid_ratio'],
    ['ratio the model lacks', { ...ok, model: 'seedream-5-0-pro', ratio: '4:5' }, 'invalid_ratio'],
    ['bad resolution', { ...ok, resolution: '8K' }, 'invalid_resolution'],
    ['lower-case resolution', { ...ok, resolution: '2k' }, 'invalid_resolution'],
    ['resolution the model lacks', { ...ok, model: 'seedream-5-0-pro', resolution: '4K' }, 'invalid_resolution'],
    ['bad quality', { ...ok, quality: 'ultra' }, 'invalid_quality'],
    ['bad quality on a non-GPT model', { ...ok, model: 'nano-banana-2', quality: 'ultra' }, 'invalid_quality'],
    ['n = 3', { ...ok, n: 3 }, 'invalid_image_count'],
    ['n = "2"', { ...ok, n: '2' }, 'invalid_image_count'],
    ['n = 1.5', { ...ok, n: 1.5 }, 'invalid_image_count'],
    ['n = 0', { ...ok, n: 0 }, 'invalid_image_count'],
    ['unknown purpose', { ...ok, purpose_id: 'banner' }, 'invalid_request'],
    ['non-string session_id', { ...ok, session_id: 12 }, 'invalid_request'],
    ['edit-only without reference', { ...ok, model: 'flux-kontext-pro' }, 'invalid_request'],
    ['too many references for the model', { ...ok, model: 'qwen-image-3.0-pro', ref_image_ids: refs(4) }, 'too_many_reference_images'],
    ['too many references for auto', { ...ok, ref_image_ids: refs(17) }, 'too_many_reference_images'],
  ])('%s → %s', (_name, body, code) => {
    expect(codeOf(body)).toBe(code);
  });

  it('answers 400 for every sub-code', () => {
    const r = validateGenerateRequest({ ...ok, n: 3 });
    expect(r.ok ? null : r.error.status).toBe(400);
  });

  it('accepts exactly 4000 code points, counting astral characters once', () => {
    expect(codeOf({ prompt: '😀'.repeat(4000) })).toBe('ok');
    expect(codeOf({ prompt: '😀'.repeat(4001) })).toBe('prompt_too_long');
  });

  it('accepts references alone, and references up to the model limit', () => {
    expect(codeOf({ ref_image_ids: refs(1) })).toBe('ok');
    expect(codeOf({ ref_image_ids: refs(16) })).toBe('ok');
    expect(codeOf({ ref_image_ids: refs(1), model: 'flux-kontext-pro' })).toBe('ok');
  });
});

describe('validateGenerateRequest: order of DESIGN.md §3', () => {
  it.each<[string, unknown, string]>([
    ['prompt type before model', { prompt: 1, model: 'x' }, 'invalid_request'],
    ['references type before emptiness', { prompt: '', ref_image_ids: 'x' }, 'invalid_reference_images'],
    ['length before model', { prompt: 'a'.repeat(4001), model: 'x' }, 'prompt_too_long'],
    ['model before ratio', { ...ok, model: 'x', ratio: 'y' }, 'invalid_model'],
    ['ratio before resolution', { ...ok, ratio: 'y', resolution: 'z' }, 'invalid_ratio'],
    ['resolution before quality', { ...ok, resolution: 'z', quality: 'q' }, 'invalid_resolution'],
    ['quality before n', { ...ok, quality: 'q', n: 5 }, 'invalid_quality'],
    ['n before edit-only', { ...ok, n: 5, model: 'flux-kontext-pro' }, 'invalid_image_count'],
    ['edit-only before reference count', { prompt: 'x', model: 'flux-kontext-pro', ref_image_ids: [] }, 'invalid_request'],
  ])('%s', (_name, body, code) => {
    expect(codeOf(body)).toBe(code);
  });
});

describe('validateGenerateRequest: result', () => {
  it('names the field, the allowed values and the limit in params', () => {
    const typo = validateGenerateRequest({ ...ok, ration: '1:1' });
    expect(typo.ok ? null : typo.error.params).toMatchObject({ field: 'ration', reason: 'unknown_field' });
    const ratio = validateGenerateRequest({ ...ok, model: 'qwen-image-3.0-pro', ratio: '4:5' });
    expect(ratio.ok ? null : ratio.error.params.allowed).toEqual(['1:1', '3:4', '16:9', '9:16']);
    const many = validateGenerateRequest({ ...ok, model: 'qwen-image-3.0-pro', ref_image_ids: refs(5) });
    expect(many.ok ? null : many.error.params).toMatchObject({ count: 5, limit: 3 });
  });

  it('returns the resolved model, defaults and the estimate', () => {
    const r = validateGenerateRequest({ prompt: 'mug with the text "Hi"', n: 2 });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.model).toBe('gpt-image-2');
    expect(r.value.ratio).toBe('3:4');
    expect(r.value.purpose).toBe('free');
    expect(r.value.estimate.total).toBe(30);
  });

  it('reports a body that is not JSON as invalid_request', () => {
    const parsed = parseJsonBody('{"prompt": ');
    expect(parsed.ok ? null : parsed.error.code).toBe('invalid_request');
  });
});
