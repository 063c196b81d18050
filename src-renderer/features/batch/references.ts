// How many reference images a product may carry with a shot list: the tightest limit among the list's shots,
// each shot's model taken as the service would take it (auto chooses from the product's prompt and the shot's
// addition, with the same chooseAutoModel the compose form and the service use).
import { MAX_REFERENCE_IMAGES, MODELS, type ConcreteModelId } from '../../../src-shared/catalog.ts';
import type { Shot } from '../../../src-shared/ipc/batch.ts';
import { chooseAutoModel } from '../../../src-shared/pricing.ts';

export type ReferenceLimit =
  /** The tightest shot: its model and that model's limit. */
  | { kind: 'limit'; limit: number; model: ConcreteModelId; shot: string }
  /** auto finds no model for this many references. */
  | { kind: 'none'; limit: number; shot: string }
  /** No shot list chosen (or an empty one). */
  | { kind: 'unknown' };

export function referenceLimit(productPrompt: string, referenceCount: number, shots: readonly Shot[] | null): ReferenceLimit {
  if (!shots || shots.length === 0) return { kind: 'unknown' };
  let tightest: ReferenceLimit = { kind: 'unknown' };
  for (const shot of shots) {
    let model: ConcreteModelId;
    if (shot.model === 'auto') {
      const choice = chooseAutoModel(`${productPrompt} ${shot.promptAddition}`, referenceCount);
      if (!choice.ok) return { kind: 'none', limit: choice.limit, shot: shot.name };
      model = choice.model;
    } else {
      model = shot.model;
    }
    const limit = MODELS[model].referenceLimit;
    if (tightest.kind !== 'limit' || limit < tightest.limit) tightest = { kind: 'limit', limit, model, shot: shot.name };
  }
  return tightest;
}

export function isOverLimit(count: number, limit: ReferenceLimit): boolean {
  if (limit.kind === 'none') return true;
  if (limit.kind === 'limit') return count > limit.limit;
  return count > MAX_REFERENCE_IMAGES;
}
