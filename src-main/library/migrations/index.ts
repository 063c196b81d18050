// Every migration of the library database, in order. To add one: write `NNNN-name.ts` exporting
// `migration` and add one line below.
import type { Migration } from './types.ts';
import { migration as m0001 } from './0001-library.ts';
import { migration as m0100 } from './0100-webhook-inspector.ts';
import { migration as m0101 } from './0101-inspector-captures-out.ts';
import { migration as m0200 } from './0200-app-meta.ts';
import { migration as m0201 } from './0201-turn-client-id.ts';
import { migration as m0300 } from './0300-library-at-scale.ts';
import { migration as m0400 } from './0400-catalog.ts';
import { migration as m0500 } from './0500-search-turn-counts.ts';
import { migration as m0600 } from './0600-turn-stats.ts';
import { migration as m0710 } from './0710-batch-reruns.ts';
import { migration as m0720 } from './0720-batch-picks.ts';
import { migration as m0730 } from './0730-product-masters.ts';
import { migration as m0740 } from './0740-preset-words.ts';

export const MIGRATIONS: readonly Migration[] = [
  m0001,
  m0100,
  m0101,
  m0200,
  m0201,
  m0300,
  m0400,
  m0500,
  m0600,
  m0710,
  m0720,
  m0730,
  m0740,
];

export type { Migration };
