import { describe, expect, it } from 'vitest';
import { buildRequest, checkDraft, EMPTY_DRAFT, resolveModel, usualSeconds, type ComposeDraft } from './draft.ts';

const draft = (over: Partial<ComposeDraft>): ComposeDraft => ({ ...EMPTY_DRAFT, ...over });

describe('compose draft', () => {
  it('estimates n × price of one image like the service reserves (spec §4.1 example: 2 × 16 = 32)', () => {
    const check = checkDraft(draft({ prompt: 'a mug', model: 'nano-banana-2', resolution: '2K', n: 2 }));
    expect(check.ok && check.estimate.total).toBe(32);
  });

  it('adds the per-reference surcharge on GPT models', () => {
    const check = checkDraft(draft({ prompt: 'a mug', model: 'gpt-image-2', quality: 'high', referenceIds: ['img_a', 'img_b'] }));
    expect(check.ok && check.estimate.pricePerImage).toBe(52);
  });

  it('sends quality only to models that price by it', () => {
    expect(buildRequest(draft({ prompt: 'x', model: 'nano-banana-2', quality: 'high' })).quality).toBeUndefined();
    expect(buildRequest(draft({ prompt: 'x', model: 'gpt-image-2', quality: 'high' })).quality).toBe('high');
    // auto picks gpt-image-2 when the prompt asks for text in the image
    expect(buildRequest(draft({ prompt: 'slogan "SALE"', model: 'auto', quality: 'low' })).quality).toBe('low');
  });

  it('answers with the service code for a ratio the model lacks', () => {
    const check = checkDraft(draft({ prompt: 'x', model: 'seedream-5-0-pro', ratio: '4:5' }));
    expect(!check.ok && check.error.code).toBe('invalid_ratio');
  });

  it('answers prompt_or_reference_required when both are empty', () => {
    const check = checkDraft(draft({ prompt: '' }));
    expect(!check.ok && check.error.code).toBe('prompt_or_reference_required');
  });

  it('answers too_many_reference_images above the model limit', () => {
    const ids = Array.from({ length: 4 }, (_, i) => `img_${i}`);
    const check = checkDraft(draft({ prompt: 'x', model: 'qwen-image-3.0-pro', referenceIds: ids }));
    expect(!check.ok && check.error.code).toBe('too_many_reference_images');
  });

  it('resolves auto to gpt-image-2 when references exceed nano-banana-2', () => {
    const ids = Array.from({ length: 15 }, (_, i) => `img_${i}`);
    expect(resolveModel(draft({ prompt: 'x', referenceIds: ids })).model).toBe('gpt-image-2');
  });

  it('scales the usual time with resolution and n', () => {
    expect(usualSeconds('nano-banana-2', '4K', 4)).toBeGreaterThan(usualSeconds('nano-banana-2', '1K', 1));
  });
});
