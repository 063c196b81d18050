// What a plan's products × shots already have (docs/catalog.md "Plan and editing"): a result, or a job on its way,
// in a batch of the same shot list on this environment, so Start warns before paying for them again and can send
// "only what is missing". Which cells are served is the one rule "finish this batch" uses (reruns.ts servedCells),
// here applied across the shot list's batches.
import type { PlanJob } from '../../src-shared/ipc/batch.ts';
import type { EnvironmentName } from '../../src-shared/ipc/settings.ts';
import type { BatchRepo } from './batch-repo.ts';
import { boardCellKey } from './board.ts';
import { servedCellKey, servedCells } from './reruns.ts';

export interface MadeDeps {
  batches: Pick<BatchRepo, 'listBatches' | 'jobViews'>;
  /** A batch's picks by cell (board.ts pickedImages, keyed by boardCellKey). */
  picks: (batchId: string) => Map<string, string>;
}

export interface AlreadyMade {
  cells: number;
  picked: number;
  batches: number;
  /** The plan's jobs whose product × shot has no result and nothing on its way. */
  missing: PlanJob[];
}

/** The plan's jobs split into made (in an earlier or the current batch of this list) and missing. */
export function alreadyMade(deps: MadeDeps, shotListId: string, environment: EnvironmentName, jobs: readonly PlanJob[]): AlreadyMade {
  const served = new Set<string>();
  const picked = new Set<string>();
  let batches = 0;
  const wanted = new Set(jobs.map((j) => servedCellKey(j.productId, j.shotName)));
  const wantedOnBoard = new Set(jobs.map((j) => boardCellKey(j.productId, j.shotName)));
  for (const batch of deps.batches.listBatches()) {
    if (batch.shotListId !== shotListId || batch.environment !== environment) continue;
    const cells = [...servedCells(deps.batches.jobViews(batch.id))].filter((key) => wanted.has(key));
    if (cells.length === 0) continue;
    batches++;
    for (const key of cells) served.add(key);
    for (const key of deps.picks(batch.id).keys()) if (wantedOnBoard.has(key)) picked.add(key);
  }
  const missing = jobs.filter((j) => !served.has(servedCellKey(j.productId, j.shotName)));
  return { cells: served.size, picked: picked.size, batches, missing };
}
