// A batch's progress in parts (docs/catalog.md "The batch run"): every job of the batch in exactly one part, so the
// parts add up to the job count and nothing is hidden (a batch that ended with jobs set aside over budget is not
// "finished" as if they were made). The one owner of how the counts become the progress line's figures.
import type { BatchCounts, BatchParts } from '../../src-shared/ipc/batch.ts';

/** Jobs of the batch (a failure a person's retry stands in for is not one: its retry is counted instead). */
export function jobCountOf(counts: BatchCounts): number {
  return counts.queued + counts.running + counts.succeeded + counts.failed + counts.unknown + counts.overBudget + counts.cancelled;
}

/**
 * done + failed + unknown + overBudget + cancelled + remaining = the job count. `unsent`: jobs that were never sent and
 * are not waiting either (over budget, cancelled): a person can still have them sent (raise the budget, "only what
 * is missing"), so a batch that ended with some is finished only with them said.
 */
export function batchParts(counts: BatchCounts): BatchParts {
  const remaining = counts.queued + counts.running;
  return {
    done: counts.succeeded,
    failed: counts.failed,
    unknown: counts.unknown,
    overBudget: counts.overBudget,
    cancelled: counts.cancelled,
    remaining,
    unsent: counts.overBudget + counts.cancelled,
  };
}
