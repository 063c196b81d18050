import { describe, expect, it } from 'vitest';
import { jobsWithinBudget, planJobs, type PlannedProduct } from './batch-plan.ts';
import type { Shot } from './ipc/batch.ts';
import { estimateCredits } from './pricing.ts';
import { presetById } from './shot-lists.ts';

function product(id: string, fields: Partial<PlannedProduct> = {}): PlannedProduct {
  return { id, sku: `SKU-${id}`, name: `Product ${id}`, prompt: 'a white ceramic mug', referenceImageIds: [], ...fields };
}

function shot(name: string, fields: Partial<Shot> = {}): Shot {
  return { name, purpose: 'free', model: 'auto', ratio: '1:1', n: 1, promptAddition: '', ...fields };
}

const refs = (count: number): string[] => Array.from({ length: count }, (_, i) => `img_ref${String(i).padStart(4, '0')}`);

describe('planJobs', () => {
  it('makes one job per product and shot, product by product, with the request a single generation sends', () => {
    const products = [product('1', { prompt: '  a white ceramic mug  ', referenceImageIds: ['img_aaaa1111'] }), product('2', { prompt: '杯子，白色陶瓷' })];
    const shots = [
      shot('hero', { purpose: 'main_white', model: 'nano-banana-2', ratio: '1:1', resolution: '4K', n: 2, promptAddition: ' on pure white \n' }),
      shot('wide', { model: 'gpt-image-2', ratio: '16:9', quality: 'high', promptAddition: '' }),
    ];
    const { jobs, problems } = planJobs(products, shots);
    expect(problems).toEqual([]);
    expect(jobs.map((j) => [j.sku, j.shotIndex, j.shotName, j.productName, j.purpose])).toEqual([
      ['SKU-1', 0, 'hero', 'Product 1', 'main_white'],
      ['SKU-1', 1, 'wide', 'Product 1', 'free'],
      ['SKU-2', 0, 'hero', 'Product 2', 'main_white'],
      ['SKU-2', 1, 'wide', 'Product 2', 'free'],
    ]);
    expect(jobs.map((j) => j.request)).toEqual([
      { prompt: 'a white ceramic mug\non pure white', ref_image_ids: ['img_aaaa1111'], model: 'nano-banana-2', ratio: '1:1', resolution: '4K', n: 2, purpose_id: 'main_white' },
      { prompt: 'a white ceramic mug', ref_image_ids: ['img_aaaa1111'], model: 'gpt-image-2', ratio: '16:9', quality: 'high', n: 1, purpose_id: 'free' },
      { prompt: '杯子，白色陶瓷\non pure white', model: 'nano-banana-2', ratio: '1:1', resolution: '4K', n: 2, purpose_id: 'main_white' },
      { prompt: '杯子，白色陶瓷', model: 'gpt-image-2', ratio: '16:9', quality: 'high', n: 1, purpose_id: 'free' },
    ]);
    // DESIGN.md §3 prices by hand: nano 4K 23 × 2; gpt high 50 + 1 per reference.
    expect(jobs.map((j) => [j.model, j.estimate])).toEqual([
      ['nano-banana-2', 46],
      ['gpt-image-2', 51],
      ['nano-banana-2', 46],
      ['gpt-image-2', 50],
    ]);
  });

  it('prices every job exactly as estimateCredits prices the same request', () => {
    const products = [
      product('a', { prompt: 'linen shirt on a hanger' }),
      product('b', { prompt: 'perfume bottle with the brand name “AURA” on the label', referenceImageIds: refs(3) }),
      product('c', { prompt: '', referenceImageIds: refs(1) }),
      product('d', { prompt: '运动鞋，侧面', referenceImageIds: refs(15) }),
    ];
    const shots = [
      shot('s1', { model: 'auto', n: 4 }),
      shot('s2', { model: 'gpt-image-2.5', quality: 'low', resolution: '2K', n: 2 }),
      shot('s3', { model: 'seedream-5-0-pro', resolution: '2K' }),
      shot('s4', { model: 'qwen-image-3.0-pro', n: 2 }),
    ];
    const { jobs, problems } = planJobs(products, shots);
    // Hand-built: what each product × shot reserves, computed from the request fields directly.
    let expectedTotal = 0;
    const expected: number[] = [];
    for (const p of products) {
      for (const s of shots) {
        const prompt = [p.prompt, s.promptAddition].filter(Boolean).join('\n');
        const referenceCount = p.referenceImageIds.length;
        if (s.model === 'seedream-5-0-pro' && referenceCount > 10) continue;
        if (s.model === 'qwen-image-3.0-pro' && referenceCount > 3) continue;
        const total = estimateCredits({ model: s.model, prompt, referenceCount, resolution: s.resolution, quality: s.quality, n: s.n }).total;
        expected.push(total);
        expectedTotal += total;
      }
    }
    expect(jobs.map((j) => j.estimate)).toEqual(expected);
    expect(jobs.reduce((sum, j) => sum + j.estimate, 0)).toBe(expectedTotal);
    // Spot checks against the price table: d on auto (15 references > nano's 14) falls back to gpt-image-2 medium + 15.
    expect(jobs.find((j) => j.sku === 'SKU-d' && j.shotName === 's1')).toMatchObject({ model: 'gpt-image-2', estimate: 4 * (15 + 15) });
    expect(jobs.find((j) => j.sku === 'SKU-b' && j.shotName === 's2')).toMatchObject({ estimate: 2 * (5 + 3) });
    expect(problems.map((p) => [p.sku, p.shotName, p.code])).toEqual([
      ['SKU-d', 's3', 'too_many_reference_images'],
      ['SKU-d', 's4', 'too_many_reference_images'],
    ]);
  });

  it('auto picks gpt-image-2 when the prompt asks for text in the image, nano-banana-2 otherwise', () => {
    const products = [
      product('plain', { prompt: 'a leather wallet on slate' }),
      product('brand', { prompt: 'a leather wallet with the slogan "Carry less" embossed' }),
      product('zh', { prompt: '皮夹，印有品牌标志' }),
      product('price', { prompt: 'wallet, ¥199 tag' }),
    ];
    const { jobs } = planJobs(products, [shot('auto', { model: 'auto' })]);
    expect(jobs.map((j) => [j.sku, j.model, j.estimate])).toEqual([
      ['SKU-plain', 'nano-banana-2', 16],
      ['SKU-brand', 'gpt-image-2', 15],
      ['SKU-zh', 'gpt-image-2', 15],
      ['SKU-price', 'gpt-image-2', 15],
    ]);
    expect(jobs.every((j) => j.request.model === 'auto')).toBe(true);
  });

  it("auto also reads the shot's addition for text in the image", () => {
    const { jobs } = planJobs([product('1')], [shot('banner', { promptAddition: 'with the headline "Summer"' })]);
    expect(jobs[0]?.model).toBe('gpt-image-2');
  });

  it('counts the GPT surcharge of one credit per reference on every image', () => {
    const { jobs } = planJobs([product('1', { referenceImageIds: refs(5) })], [shot('gpt', { model: 'gpt-image-2', n: 4 }), shot('nano', { model: 'nano-banana-2', n: 4 })]);
    expect(jobs.map((j) => j.estimate)).toEqual([4 * (15 + 5), 4 * 16]);
  });

  it('makes a product with more references than the model takes a problem, with the code validation gives', () => {
    const { jobs, problems } = planJobs([product('many', { referenceImageIds: refs(20) }), product('ok', { referenceImageIds: refs(2) })], [shot('hero', { model: 'nano-banana-2' }), shot('any', { model: 'auto' })]);
    expect(problems).toEqual([
      { productId: 'many', sku: 'SKU-many', shotName: 'hero', code: 'too_many_reference_images', params: { count: 20, limit: 14, model: 'nano-banana-2' } },
      { productId: 'many', sku: 'SKU-many', shotName: 'any', code: 'too_many_reference_images', params: { count: 20, limit: 16, model: 'auto' } },
    ]);
    expect(jobs.map((j) => [j.productId, j.shotName])).toEqual([
      ['ok', 'hero'],
      ['ok', 'any'],
    ]);
  });

  it('makes flux-kontext-pro (edit only) without a reference a problem, and prices it with one', () => {
    const { jobs, problems } = planJobs([product('bare'), product('ref', { referenceImageIds: refs(1) })], [shot('edit', { model: 'flux-kontext-pro', ratio: '4:5' })]);
    expect(problems).toEqual([
      { productId: 'bare', sku: 'SKU-bare', shotName: 'edit', code: 'invalid_request', params: { reason: 'edit_only_needs_reference', model: 'flux-kontext-pro' } },
    ]);
    expect(jobs.map((j) => [j.productId, j.model, j.estimate])).toEqual([['ref', 'flux-kontext-pro', 5]]);
  });

  it('makes a joined prompt over 4000 characters a problem (a full product prompt plus a full addition)', () => {
    const { problems } = planJobs([product('long', { prompt: 'p'.repeat(3000) })], [shot('s', { promptAddition: 'a'.repeat(1000) })]);
    expect(problems).toEqual([{ productId: 'long', sku: 'SKU-long', shotName: 's', code: 'prompt_too_long', params: { length: 4001, limit: 4000 } }]);
  });

  it('leaves out an empty prompt; with no reference either, it is a problem', () => {
    const { jobs, problems } = planJobs([product('refs', { prompt: '  ', referenceImageIds: refs(1) }), product('nothing', { prompt: ' ' })], [shot('s', { model: 'nano-banana-2', promptAddition: ' ' })]);
    expect(jobs.map((j) => j.request)).toEqual([{ ref_image_ids: refs(1), model: 'nano-banana-2', ratio: '1:1', n: 1, purpose_id: 'free' }]);
    expect(problems).toEqual([{ productId: 'nothing', sku: 'SKU-nothing', shotName: 's', code: 'invalid_request', params: { reason: 'missing_prompt_and_references' } }]);
  });

  it('plans a preset for a product and keeps the shot index of the list', () => {
    const preset = presetById('sl_preset_marketplace_hero');
    if (!preset) throw new Error('preset missing');
    const { jobs, problems } = planJobs([product('1')], preset.shots);
    expect(problems).toEqual([]);
    expect(jobs.map((j) => j.shotIndex)).toEqual(preset.shots.map((_, i) => i));
    expect(jobs.map((j) => j.request.prompt)).toEqual(preset.shots.map((s) => `a white ceramic mug\n${s.promptAddition}`));
  });
});

describe('jobsWithinBudget', () => {
  const jobs = [{ estimate: 16 }, { estimate: 50 }, { estimate: 12 }, { estimate: 30 }];

  it('counts every job without a budget', () => {
    expect(jobsWithinBudget(jobs, null)).toBe(4);
  });

  it('counts jobs in order while the total stays within the budget, the budget itself included', () => {
    expect(jobsWithinBudget(jobs, 108)).toBe(4);
    expect(jobsWithinBudget(jobs, 107)).toBe(3);
    expect(jobsWithinBudget(jobs, 66)).toBe(2);
    expect(jobsWithinBudget(jobs, 11)).toBe(0);
  });

  it('skips a job that does not fit and still counts a cheaper one after it, as the runner sends it', () => {
    // 16 fits (16), 50 does not (66 > 40), 12 fits (28), 30 does not (58 > 40).
    expect(jobsWithinBudget(jobs, 40)).toBe(2);
    // 50 does not fit in 30; 16 and 12 after it do (28).
    expect(jobsWithinBudget(jobs, 15)).toBe(1);
    expect(jobsWithinBudget([{ estimate: 50 }, { estimate: 16 }, { estimate: 12 }], 30)).toBe(2);
  });

  it('counts nothing for no jobs', () => {
    expect(jobsWithinBudget([], 100)).toBe(0);
  });
});
