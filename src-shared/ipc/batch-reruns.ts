// IPC: re-runs inside a batch (docs/catalog.md "Re-runs"): retry a failed job by hand, re-shoot a cell, raise the
// budget, finish the batch ("only what is missing"). Each re-run is a new job of the same batch (its own price,
// request id and turn, in the product's session), sent by the batch's one queue, so it is crash-safe like every job.
import { z } from 'zod';
import { IMAGE_COUNTS, MODEL_IDS, QUALITIES, RATIOS, RESOLUTIONS } from '../catalog.ts';
import { SHOT_ADDITION_MAX, SHOT_NAME_MAX } from '../limits.ts';
import { IdSchema, method } from './contract.ts';
import type { BatchSummary } from './batch.ts';

/** Why a job is in the batch: the plan made it, or a person added it (a retry of a failed job, a re-shoot of a cell). */
export type JobOrigin = 'plan' | 'retry' | 'rerun';

/** What the job list shows of a job's "retry by hand" (the domain decides: retry-policy.ts `jobRetryVerdict`). */
export interface JobRetryOffer {
  allowed: boolean;
  /** Why not (`in_progress`, `succeeded`, `replaced`, `over_budget`, `not_sent`, `may_pay_twice`, `fix_request`, `top_up`, `key`, `free_space`, `too_early`, `limit_reached`), or null. */
  reason: string | null;
  /** The reason as a sentence in the UI language, or null. */
  message: string | null;
  /** A 429: when a retry may go. */
  availableAt: number | null;
}

/** Jobs a person added after the plan, and what they cost: the plan's total plus these is what the batch may charge. */
export interface BatchReruns {
  jobs: number;
  retried: number;
  reshot: number;
  /** Sum of their estimates. */
  estimated: number;
  /** Credits charged for them so far. */
  charged: number;
}

const BatchId = IdSchema;

export const RetryJobSchema = z.strictObject({ batchId: BatchId, jobId: IdSchema });
export type RetryJobInput = z.input<typeof RetryJobSchema>;

/** Settings a re-shoot may change (omitted = the cell's last request's). */
export const RerunSettingsSchema = z.strictObject({
  ratio: z.enum(RATIOS).optional(),
  resolution: z.enum(RESOLUTIONS).optional(),
  quality: z.enum(QUALITIES).optional(),
  n: z.union(IMAGE_COUNTS.map((n) => z.literal(n)) as [z.ZodLiteral<1>, z.ZodLiteral<2>, z.ZodLiteral<4>]).optional(),
});

export const RerunCellSchema = z.strictObject({
  batchId: BatchId,
  productId: IdSchema,
  /** The shot's name (unique in its list; `data-shot` of the cell). */
  shotName: z.string().min(1).max(SHOT_NAME_MAX),
  /** A line added to the cell's prompt (e.g. "softer light"); empty or omitted = the same prompt. */
  promptTweak: z.string().max(SHOT_ADDITION_MAX).optional(),
  model: z.enum(MODEL_IDS).optional(),
  settings: RerunSettingsSchema.optional(),
  /** true: only the price and what the budget leaves; nothing is added. */
  dryRun: z.boolean().default(false),
});
export type RerunCellInput = z.input<typeof RerunCellSchema>;

export const RaiseBudgetSchema = z.strictObject({
  batchId: BatchId,
  /** The new cap (never below what is spent or committed); null = no cap. */
  budget: z.number().int().min(1).max(100_000_000).nullable(),
});
export type RaiseBudgetInput = z.input<typeof RaiseBudgetSchema>;

export const FinishBatchSchema = z.strictObject({
  batchId: BatchId,
  /** true: only how many jobs and what they cost; nothing is queued. */
  dryRun: z.boolean().default(false),
});
export type FinishBatchInput = z.input<typeof FinishBatchSchema>;

/** A job added (or, with dryRun, what it would be): its price and what the budget leaves before it. */
export interface RerunAnswer {
  /** The new job, or null with dryRun. */
  jobId: string | null;
  estimate: number;
  /** Credits the budget leaves before this job (budget − charged − in flight − unknown − queued), or null without a budget. */
  left: number | null;
  batch: BatchSummary;
}

/** A cell "finish" leaves alone, and why (a sentence in the UI language). */
export interface FinishSkipped {
  jobId: string;
  sku: string;
  shotName: string;
  reason: string;
  message: string;
}

export interface FinishAnswer {
  dryRun: boolean;
  /**
   * Cells with no result and nothing on its way: `jobs` of them are sent, the rest are `skipped` (missing = jobs +
   * skipped). 0: nothing is missing; missing > 0 with jobs 0: shots lack a result yet none can be sent (each says why).
   */
  missing: number;
  /** Jobs queued (or that would be): never-sent ones queued again, plus failed ones retried as new jobs. */
  jobs: number;
  /** What they cost (their estimates). */
  total: number;
  requeued: number;
  retried: number;
  /** Credits the budget leaves before them, or null without a budget; how many of them fit in it. */
  left: number | null;
  withinBudget: number;
  /** Cells without a result that are not sent again (an unknown outcome, a request to fix, …). */
  skipped: FinishSkipped[];
  batch: BatchSummary;
}

export const batchRerunMethods = {
  /**
   * A failed (or unknown) job sent again by hand, as a new job of the same batch linked to it (`replaces`), when
   * spec §7 allows it (`batch_retry_refused` says why not: the same answer again, a top-up, a wait, or an unknown
   * outcome that may have been charged). The batch sends it (one that ended runs again; a paused one on Resume).
   */
  batchRetryJob: method<RerunAnswer>()('batch:retry-job', RetryJobSchema),
  /** A cell re-shot as a new job of the batch (same request, a prompt tweak, another model or settings), priced first; over budget is refused (`batch_over_budget`). */
  batchRerunCell: method<RerunAnswer>()('batch:rerun-cell', RerunCellSchema),
  /** A new budget (never below what is spent or committed: `batch_budget_below_spent`); jobs set aside over budget are queued again. */
  batchRaiseBudget: method<BatchSummary>()('batch:raise-budget', RaiseBudgetSchema),
  /** "Only what is missing": cells with no result get one job each (never a done shot); dryRun answers count and price only. */
  batchFinish: method<FinishAnswer>()('batch:finish', FinishBatchSchema),
};
