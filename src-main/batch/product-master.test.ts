// A product's master reference in a request (product-master.ts): it takes the first reference's place and the other
// references stay; whether the request then fits the model is validateGenerateRequest's answer (the reference limit).
import { describe, expect, it } from 'vitest';
import { masterRefusal, referencesWithMaster, requestAtSend, requestWithMaster } from './product-master.ts';

const refs = (n: number) => Array.from({ length: n }, (_, i) => `img_Ref${String(i).padStart(5, '0')}`);

describe('a product master in a request', () => {
  it('takes the first reference’s place, keeps the others, is added when there are none, and is never twice', () => {
    expect(requestWithMaster({ prompt: 'a mug', ref_image_ids: ['img_Csv00001', 'img_Csv00002'] }, 'img_Master01').ref_image_ids).toEqual(['img_Master01', 'img_Csv00002']);
    expect(requestWithMaster({ prompt: 'a mug' }, 'img_Master01').ref_image_ids).toEqual(['img_Master01']);
    expect(referencesWithMaster(['img_Csv00001', 'img_Master01'], 'img_Master01')).toEqual(['img_Master01']);
    const request = { prompt: 'a mug', ref_image_ids: ['img_Csv00001'] };
    expect(requestWithMaster(request, null)).toBe(request);
  });

  it('is checked against the model’s reference limit: at the limit it replaces a reference and fits', () => {
    // qwen-image-3.0-pro takes 3 references: three CSV references with the master in the first place still fit.
    expect(masterRefusal({ prompt: 'a mug', model: 'qwen-image-3.0-pro', ratio: '1:1', ref_image_ids: refs(3) }, 'img_Master01')).toBeNull();
    expect(masterRefusal({ prompt: 'a mug', model: 'flux-kontext-pro', ratio: '1:1', ref_image_ids: refs(1) }, 'img_Master01')).toBeNull();
    // A request the model already refuses (4 references on a 3-reference model) is not the master's doing.
    expect(masterRefusal({ prompt: 'a mug', model: 'qwen-image-3.0-pro', ratio: '1:1', ref_image_ids: refs(4) }, 'img_Master01')).toBeNull();
  });

  it('goes into a job at its first send, priced as sent; a resend or a retry by hand goes as it went (spec §7 "as is")', () => {
    const planned = { sku: 'SKU-1', shotName: 'main', request: { prompt: 'a mug', model: 'gpt-image-2' as const, quality: 'low' as const }, estimate: 5 };
    const first = { ...planned, origin: 'plan' as const, earlierTurnIds: [], retryOf: null };
    // A product without a reference gains one: gpt-image-2 charges 1 more per reference, and the price says so.
    expect(requestAtSend(first, 'img_Master01')).toEqual({ request: { ...planned.request, ref_image_ids: ['img_Master01'] }, estimate: 6 });
    expect(requestAtSend({ ...first, origin: 'rerun' }, 'img_Master01').estimate).toBe(6);
    expect(requestAtSend(first, null)).toEqual({ request: planned.request, estimate: 5 });
    // The queue's resend after a 500 (linked to the turn it repeats) and a person's retry keep the request sent before.
    for (const resend of [{ ...first, earlierTurnIds: ['lt_1'], retryOf: 'lt_1' }, { ...first, earlierTurnIds: ['lt_1'] }, { ...first, origin: 'retry' as const, retryOf: 'lt_1' }]) {
      expect(requestAtSend(resend, 'img_Master01')).toEqual({ request: planned.request, estimate: 5 });
    }
  });
});
