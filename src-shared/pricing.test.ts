import { describe, expect, it } from 'vitest';
import { CONCRETE_MODEL_IDS, IMAGE_COUNTS, MODELS, QUALITIES, type Quality, type Resolution } from './catalog.ts';
import { chooseAutoModel, estimateCredits } from './pricing.ts';
import { asksForText, findTextIntent } from './text-intent.ts';

// DESIGN.md §3 "Price of one image", restated independently.
function specPrice(model: string, resolution: Resolution, quality: Quality | undefined, refs: number): number {
  switch (model) {
    case 'nano-banana-2':
      return { '1K': 12, '2K': 16, '4K': 23 }[resolution];
    case 'gpt-image-2':
    case 'gpt-image-2.5':
      return { low: 5, medium: 15, high: 50 }[quality ?? 'medium'] + refs;
    case 'seedream-5-0-pro':
      return { '1K': 6, '2K': 12 }[resolution as '1K' | '2K'];
    case 'qwen-image-3.0-pro':
      return { '1K': 6, '2K': 11 }[resolution as '1K' | '2K'];
    case 'flux-kontext-pro':
      return 5;
  }
  throw new Error(model);
}

describe('estimateCredits', () => {
  const cases: Array<[string, Resolution, Quality | undefined, number, 1 | 2 | 4]> = [];
  for (const model of CONCRETE_MODEL_IDS) {
    for (const resolution of MODELS[model].resolutions) {
      for (const quality of [undefined, ...QUALITIES]) {
        for (const refs of [0, 1, MODELS[model].referenceLimit]) {
          if (model === 'flux-kontext-pro' && refs === 0) continue;
          for (const n of IMAGE_COUNTS) cases.push([model, resolution, quality, refs, n]);
        }
      }
    }
  }

  it.each(cases)('%s %s quality=%s refs=%i n=%i reserves n × price of one image', (model, resolution, quality, refs, n) => {
    const estimate = estimateCredits({ model: model as never, resolution, quality, referenceCount: refs, n, prompt: 'a red mug' });
    const one = specPrice(model, resolution, quality, refs);
    expect(estimate.pricePerImage).toBe(one);
    expect(estimate.total).toBe(n * one);
    expect(estimate.model).toBe(model);
  });

  it('matches the spec example: n=2 at 2K on nano-banana-2 reserves 32', () => {
    expect(estimateCredits({ model: 'nano-banana-2', resolution: '2K', n: 2, referenceCount: 0 }).total).toBe(32);
  });

  it('uses the model default resolution when omitted', () => {
    expect(estimateCredits({ model: 'nano-banana-2', referenceCount: 0 }).resolution).toBe('2K');
    expect(estimateCredits({ model: 'gpt-image-2', referenceCount: 0 }).resolution).toBe('1K');
    expect(estimateCredits({ model: 'seedream-5-0-pro', referenceCount: 0 }).resolution).toBe('1K');
  });

  it('bills an omitted quality on GPT models as medium (15) and ignores quality elsewhere', () => {
    const gpt = estimateCredits({ model: 'gpt-image-2', referenceCount: 0 });
    expect(gpt.quality).toBe('medium');
    expect(gpt.total).toBe(15);
    const nano = estimateCredits({ model: 'nano-banana-2', quality: 'high', referenceCount: 0 });
    expect(nano.quality).toBeNull();
    expect(nano.total).toBe(16);
  });

  it('breaks the GPT reference surcharge out of the base price', () => {
    const e = estimateCredits({ model: 'gpt-image-2', quality: 'high', referenceCount: 3, n: 2 });
    expect([e.basePrice, e.referenceSurcharge, e.pricePerImage, e.total]).toEqual([50, 3, 53, 106]);
  });

  it('prices auto by the model it picks', () => {
    expect(estimateCredits({ model: 'auto', prompt: 'a mug on a table', referenceCount: 0 })).toMatchObject({ model: 'nano-banana-2', total: 16 });
    expect(estimateCredits({ model: 'auto', prompt: 'a mug with the slogan "Hot"', referenceCount: 0 })).toMatchObject({ model: 'gpt-image-2', total: 15 });
    expect(estimateCredits({ model: 'auto', prompt: 'a mug', referenceCount: 15 })).toMatchObject({ model: 'gpt-image-2', total: 30 });
  });
});

describe('chooseAutoModel', () => {
  it('picks nano-banana-2 by default', () => {
    expect(chooseAutoModel('a leather bag on marble', 0)).toMatchObject({ ok: true, model: 'nano-banana-2', reason: { kind: 'default' } });
  });
  it('picks gpt-image-2 when the prompt asks for text', () => {
    expect(chooseAutoModel('banner with headline Summer', 0)).toMatchObject({ ok: true, model: 'gpt-image-2', reason: { kind: 'text_in_image' } });
  });
  it('falls back to the first model whose limit fits the references', () => {
    expect(chooseAutoModel('a bag', 14)).toMatchObject({ ok: true, model: 'nano-banana-2' });
    expect(chooseAutoModel('a bag', 15)).toMatchObject({ ok: true, model: 'gpt-image-2', reason: { kind: 'reference_count', preferred: 'nano-banana-2' } });
    expect(chooseAutoModel('price tag ¥99', 16)).toMatchObject({ ok: true, model: 'gpt-image-2' });
  });
  it('refuses above 16 references', () => {
    expect(chooseAutoModel('a bag', 17)).toEqual({ ok: false, count: 17, limit: 16 });
  });
});

describe('asksForText', () => {
  it.each([
    ['a mug that says "Good Morning"', 'quoted'],
    ['poster with “新品上市”', 'quoted'],
    ['include the brand name', 'keyword'],
    ['add a slogan', 'keyword'],
    ['Big SALE banner', 'keyword'],
    ['30% off sticker', 'keyword'],
    ['nice typography', 'keyword'],
    ['加上品牌标语', 'keyword'],
    ['瓶身印有文字', 'keyword'],
    ['促销海报', 'keyword'],
    ['tag showing $49', 'currency'],
    ['标签 ￥129', 'currency'],
  ])('finds text intent in %s', (prompt, kind) => {
    expect(findTextIntent(prompt)?.kind).toBe(kind);
  });
  it.each(['a ceramic mug on a wooden table', 'context of a kitchen', 'labelled? no: a bottle', '白色背景的陶瓷杯', ''])('finds none in %s', (prompt) => {
    expect(asksForText(prompt)).toBe(false);
  });
});
