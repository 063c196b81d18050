// The request settings of a generation as the user chose them, with the defaults the service applied filled in
// (ratio 3:4, purpose free). The viewer's details and compare's diff read the same values.
import { DEFAULT_PURPOSE, DEFAULT_RATIO, type PurposeId, type Ratio } from '../../../src-shared/catalog.ts';
import type { TurnRecord } from '../../../src-shared/ipc/generation.ts';

export const REQUEST_FIELDS = ['model', 'ratio', 'resolution', 'quality', 'n', 'purpose', 'prompt', 'references'] as const;
export type RequestField = (typeof REQUEST_FIELDS)[number];

export interface RequestFacts {
  /** The model that ran (auto resolved). */
  model: string;
  requestedAuto: boolean;
  ratio: Ratio;
  ratioDefaulted: boolean;
  resolution: string;
  /** null where the model ignores quality. */
  quality: string | null;
  n: number;
  purpose: PurposeId;
  prompt: string;
  references: string[];
}

export function requestFacts(turn: TurnRecord): RequestFacts {
  const r = turn.request;
  const e = turn.estimate;
  return {
    model: e.model,
    requestedAuto: e.requestedModel === 'auto',
    ratio: r.ratio ?? DEFAULT_RATIO,
    ratioDefaulted: r.ratio === undefined,
    resolution: e.resolution,
    quality: e.quality,
    n: e.n,
    purpose: r.purpose_id ?? DEFAULT_PURPOSE,
    prompt: r.prompt ?? '',
    references: turn.referenceImageIds,
  };
}

/** Comparable text of one field. */
export function factValue(f: RequestFacts, field: RequestField): string {
  switch (field) {
    case 'model':
      return f.model;
    case 'ratio':
      return f.ratio;
    case 'resolution':
      return f.resolution;
    case 'quality':
      return f.quality ?? '';
    case 'n':
      return String(f.n);
    case 'purpose':
      return f.purpose;
    case 'prompt':
      return f.prompt;
    case 'references':
      return f.references.join(',');
  }
}

/** The request fields whose values are not all the same, in REQUEST_FIELDS order. */
export function differingFields(all: readonly RequestFacts[]): RequestField[] {
  return REQUEST_FIELDS.filter((field) => new Set(all.map((f) => factValue(f, field))).size > 1);
}
