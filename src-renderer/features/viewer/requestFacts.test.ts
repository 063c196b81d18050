import { describe, expect, it } from 'vitest';
import type { TurnRecord } from '../../../src-shared/ipc/generation.ts';
import { estimateCredits } from '../../../src-shared/pricing.ts';
import { differingFields, requestFacts } from './requestFacts.ts';

function turn(request: TurnRecord['request'], referenceImageIds: string[] = []): TurnRecord {
  const estimate = estimateCredits({ model: request.model ?? 'auto', prompt: request.prompt, referenceCount: referenceImageIds.length, resolution: request.resolution, quality: request.quality, n: request.n });
  return { request, estimate, referenceImageIds } as unknown as TurnRecord;
}

describe('request facts and their diff', () => {
  it('fills in the defaults the service applied', () => {
    const f = requestFacts(turn({ prompt: 'a mug', model: 'nano-banana-2' }));
    expect(f).toMatchObject({ model: 'nano-banana-2', ratio: '3:4', ratioDefaulted: true, purpose: 'free', quality: null, n: 1, resolution: '2K' });
  });

  it('lists only the fields that differ, in a fixed order', () => {
    const a = requestFacts(turn({ prompt: 'a mug', model: 'gpt-image-2', quality: 'low', ratio: '1:1' }));
    const b = requestFacts(turn({ prompt: 'a mug', model: 'gpt-image-2', quality: 'high', ratio: '1:1' }));
    const c = requestFacts(turn({ prompt: 'a cup', model: 'nano-banana-2', ratio: '16:9' }));
    expect(differingFields([a, b])).toEqual(['quality']);
    expect(differingFields([a, b, c])).toEqual(['model', 'ratio', 'resolution', 'quality', 'prompt']);
    expect(differingFields([a, a])).toEqual([]);
  });

  it('an explicit default equals the default left out', () => {
    const a = requestFacts(turn({ prompt: 'x', model: 'nano-banana-2' }));
    const b = requestFacts(turn({ prompt: 'x', model: 'nano-banana-2', ratio: '3:4', purpose_id: 'free', resolution: '2K' }));
    expect(differingFields([a, b])).toEqual([]);
  });
});
