import { describe, expect, it } from 'vitest';
import type { Shot } from '../../../src-shared/ipc/batch.ts';
import { isOverLimit, referenceLimit } from './references.ts';

const shot = (over: Partial<Shot>): Shot => ({ name: 'hero', purpose: 'free', model: 'auto', ratio: '1:1', n: 1, promptAddition: '', ...over });

describe('reference limit of a product with a shot list', () => {
  it('is the tightest model limit among the shots', () => {
    const limit = referenceLimit('a mug', 3, [shot({ model: 'gpt-image-2' }), shot({ name: 'wide', model: 'seedream-5-0-pro' })]);
    expect(limit).toEqual({ kind: 'limit', limit: 10, model: 'seedream-5-0-pro', shot: 'wide' });
  });

  it('follows auto: nano-banana-2 (14), gpt-image-2 (16) when the prompt asks for text or the references need it', () => {
    expect(referenceLimit('a mug', 2, [shot({})])).toMatchObject({ limit: 14, model: 'nano-banana-2' });
    expect(referenceLimit('a mug with the headline "SALE"', 2, [shot({})])).toMatchObject({ limit: 16, model: 'gpt-image-2' });
    expect(referenceLimit('a mug', 15, [shot({})])).toMatchObject({ limit: 16, model: 'gpt-image-2' });
  });

  it('flags a count no model takes, and knows nothing without a list', () => {
    const none = referenceLimit('a mug', 17, [shot({})]);
    expect(none.kind).toBe('none');
    expect(isOverLimit(17, none)).toBe(true);
    expect(referenceLimit('a mug', 3, null)).toEqual({ kind: 'unknown' });
    expect(isOverLimit(15, referenceLimit('a mug', 15, [shot({ model: 'qwen-image-3.0-pro' })]))).toBe(true);
  });
});
