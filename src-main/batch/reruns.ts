// Re-runs inside a batch (issue 26, docs/catalog.md "Re-runs"): a person retries a failed job, re-shoots a cell,
// raises the budget, or finishes the batch with "only what is missing". Every re-run is a new job row of the same
// batch (its own price, request id and turn, in the product's session) that the batch's one queue sends: the job
// is linked to its turn in the transaction that records the turn and journaled before it goes out, so after a
// kill -9 it is either unsent or has a turn, and is never sent twice. Whether a job may be retried is the domain's
// (retry-policy.ts `jobRetryVerdict`); prices are the plan's (validateGenerateRequest, jobsWithinBudget).
import type { GenerateRequest } from '../../src-shared/api.ts';
import { jobsWithinBudget } from '../../src-shared/batch-plan.ts';
import type { BatchSummary } from '../../src-shared/ipc/batch.ts';
import type { FinishAnswer, FinishBatchInput, JobRetryOffer, RaiseBudgetInput, RerunAnswer, RerunCellInput, RetryJobInput } from '../../src-shared/ipc/batch-reruns.ts';
import type { Language } from '../../src-shared/language.ts';
import { validateGenerateRequest } from '../../src-shared/validation.ts';
import { StudioError } from '../domain/errors.ts';
import { newCatalogId } from '../domain/ids.ts';
import { mainMessage } from '../domain/messages.ts';
import { jobRetryVerdict, type BatchJobFacts, type JobRetryVerdict } from '../domain/retry-policy.ts';
import { transaction, type LibraryDatabase } from '../library/index.ts';
import { planFields, visibleStatus, type BatchRow, type BatchTally, type JobRow, type JobTurn } from './batch-repo.ts';
import type { BatchRunner, BatchRunnerDeps } from './batch-runner.ts';
import { requestAtSend, requestWithUsableMaster } from './product-master.ts';

/** The batch runner's reads (its repo, environment, language, clock), the database and the runner itself. */
export type RerunDeps = Pick<BatchRunnerDeps, 'batches' | 'environment' | 'language' | 'now'> & {
  db: LibraryDatabase;
  runner: BatchRunner;
  /** The product's chosen master reference (product-master.ts): a re-shoot sends it in place of the first reference. */
  master?: (productId: string) => string | null;
};

/** One job as the batch shows it, with its turn and the job that replaced it. */
export interface JobView {
  job: JobRow;
  turn: JobTurn | null;
  replacedBy: string | null;
}

/** The facts the domain judges a retry by hand on. */
export function jobFacts(view: JobView): BatchJobFacts {
  const { job, turn } = view;
  const error = turn?.error ?? job.error;
  return {
    status: visibleStatus(job.status, turn ? turn.status : null),
    sent: job.turnId !== null,
    replaced: view.replacedBy !== null,
    handRetry: job.origin === 'retry',
    code: error?.code ?? null,
    retryAt: turn?.retryAt ?? null,
    requestId: turn?.requestId ?? error?.requestId ?? null,
  };
}

/** What the job list shows of a retry by hand: allowed, or why not in the reader's language. */
export function retryOffer(verdict: JobRetryVerdict, language: Language): JobRetryOffer {
  if (verdict.allowed) return { allowed: true, reason: null, message: null, availableAt: null };
  return { allowed: false, reason: verdict.reason, message: mainMessage('batch_retry_refused', verdict.params, language), availableAt: verdict.availableAt };
}

/** Credits the budget leaves for one more job: budget − charged − in flight − unknown − queued; null without a budget. */
function budgetLeft(batch: BatchRow, tally: BatchTally): number | null {
  if (batch.budget === null) return null;
  return batch.budget - (tally.spent + tally.reserved + tally.unknownEstimates + tally.queuedEstimates);
}

/** What the service will reserve for a request (spec §4.1), or the rule it breaks (nothing is added). */
function priceOf(request: GenerateRequest): number {
  const checked = validateGenerateRequest(request);
  if (!checked.ok) {
    const { code, params, status } = checked.error;
    throw new StudioError(code, { ...params }, { status });
  }
  return checked.value.estimate.total;
}

/** The cell's key: one product × one shot of the batch. */
function cellKey(job: Pick<JobRow, 'productId' | 'shotName'>): string {
  return `${job.productId}\u0000${job.shotName}`;
}

/** The batch's jobs by cell, in order. */
function cellsOf(views: JobView[]): Map<string, JobView[]> {
  const cells = new Map<string, JobView[]>();
  for (const view of views) cells.set(cellKey(view.job), [...(cells.get(cellKey(view.job)) ?? []), view]);
  return cells;
}

/** A cell with a result or a job on its way gets nothing more sent by finish or a raised budget: never paid twice. */
function isServed(views: JobView[]): boolean {
  return views.some((v) => ['succeeded', 'queued', 'running'].includes(jobFacts(v).status));
}

/** The cells (product × shot keys, `servedCellKey`) of these jobs that are served: "only what is missing" sends none of them. */
export function servedCells(views: JobView[]): Set<string> {
  return new Set([...cellsOf(views)].filter(([, cell]) => isServed(cell)).map(([key]) => key));
}

/** The key `servedCells` names a product × shot by. */
export function servedCellKey(productId: string, shotName: string): string {
  return cellKey({ productId, shotName });
}

export class Reruns {
  private readonly deps: RerunDeps;
  private readonly now: () => number;

  constructor(deps: RerunDeps) {
    this.deps = deps;
    this.now = deps.now ?? Date.now;
  }

  /** A failed (or unknown) job sent again as a new job linked to it, when spec §7 allows a person to. */
  retryJob(input: RetryJobInput): RerunAnswer {
    const batch = this.sendable(input.batchId);
    const view = this.deps.batches.jobViews(batch.id).find((v) => v.job.id === input.jobId);
    if (!view) throw new StudioError('batch_job_not_found', { jobId: input.jobId });
    const verdict = jobRetryVerdict(jobFacts(view), this.now());
    if (!verdict.allowed) {
      throw new StudioError('batch_retry_refused', { ...verdict.params, sku: view.job.sku, shot: view.job.shotName }, { details: { reason: verdict.reason, availableAt: verdict.availableAt } });
    }
    const estimate = priceOf(view.job.request);
    const left = this.checkBudget(batch, estimate);
    const jobId = this.add(view.job, { request: view.job.request, estimate, origin: 'retry', replaces: view.job.id, retryOf: view.job.turnId });
    return { jobId, estimate, left, batch: this.goOn(batch.id) };
  }

  /** A cell re-shot as a new job (the same request, a prompt tweak, another model or settings), priced first. */
  rerunCell(input: RerunCellInput): RerunAnswer {
    const batch = this.sendable(input.batchId);
    const cell = this.deps.batches.jobViews(batch.id).filter((v) => v.job.productId === input.productId && v.job.shotName === input.shotName);
    const last = cell.at(-1);
    if (!last) throw new StudioError('batch_cell_not_found', { productId: input.productId, shot: input.shotName });
    const busy = cell.find((v) => ['queued', 'running'].includes(jobFacts(v).status));
    if (busy) throw new StudioError('batch_cell_busy', { sku: last.job.sku, shot: last.job.shotName });
    const request = this.withMaster(last.job, rerunRequest(last.job.request, input));
    const estimate = priceOf(request);
    const left = this.checkBudget(batch, estimate);
    if (input.dryRun === true) return { jobId: null, estimate, left, batch: this.deps.runner.summary(batch.id) };
    const jobId = this.add(last.job, { request, estimate, origin: 'rerun', replaces: null, retryOf: null });
    return { jobId, estimate, left, batch: this.goOn(batch.id) };
  }

  /** A new budget, never below what is spent or committed; jobs set aside over budget go back in the queue. */
  raiseBudget(input: RaiseBudgetInput): BatchSummary {
    const batch = this.require(input.batchId);
    const tally = this.deps.batches.tally(batch.id);
    const committed = tally.spent + tally.reserved + tally.unknownEstimates;
    if (input.budget !== null && input.budget < committed) {
      throw new StudioError('batch_budget_below_spent', { budget: input.budget, spent: tally.spent, committed });
    }
    // A cell re-shot meanwhile has its result: its never-sent plan job stays unsent (the cell is not paid twice).
    const served = servedCells(this.deps.batches.jobViews(batch.id));
    const overBudget = this.deps.batches.overBudgetJobs(batch.id).filter((j) => !served.has(cellKey(j))).map((j) => j.id);
    transaction(this.deps.db, () => {
      this.deps.batches.requeueUnsent(overBudget);
      this.deps.runner.setBudget(batch.id, input.budget);
    });
    // The queue judges each of them against the new budget again (one that still does not fit is set aside).
    return overBudget.length > 0 && batch.environment === this.deps.environment() ? this.goOn(batch.id) : this.deps.runner.summary(batch.id);
  }

  /**
   * "Only what is missing": each cell with no result and nothing in the queue gets one job: a never-sent job is
   * queued again as planned, a failed one is retried as a new job where spec §7 allows it. A done shot is never sent.
   */
  finish(input: FinishBatchInput): FinishAnswer {
    const dryRun = input.dryRun === true;
    const batch = dryRun ? this.require(input.batchId) : this.sendable(input.batchId);
    const language = this.deps.language();
    const cells = cellsOf(this.deps.batches.jobViews(batch.id));
    const requeue: JobRow[] = [];
    const retry: JobView[] = [];
    const skipped: FinishAnswer['skipped'] = [];
    for (const views of cells.values()) {
      if (isServed(views)) continue;
      const latest = views.filter((v) => v.replacedBy === null).at(-1) ?? (views.at(-1) as JobView);
      const status = jobFacts(latest).status;
      if (status === 'over_budget' || status === 'cancelled') {
        requeue.push(latest.job);
        continue;
      }
      const verdict = jobRetryVerdict(jobFacts(latest), this.now());
      if (verdict.allowed) retry.push(latest);
      else skipped.push({ jobId: latest.job.id, sku: latest.job.sku, shotName: latest.job.shotName, reason: verdict.reason, message: retryOffer(verdict, language).message ?? '' });
    }
    // A never-sent job goes out with the product's master as it is then: priced so (a retry keeps its request).
    const jobs = [...requeue.map((j) => ({ ...j, estimate: this.priceAtSend(j) })), ...retry.map((v) => v.job)];
    const total = jobs.reduce((sum, j) => sum + j.estimate, 0);
    const left = budgetLeft(batch, this.deps.batches.tally(batch.id));
    // Every cell without a result is here once: sent (requeued or retried) or skipped with its reason.
    const missing = requeue.length + retry.length + skipped.length;
    const answer = { dryRun, missing, jobs: jobs.length, total, requeued: requeue.length, retried: retry.length, left, withinBudget: jobsWithinBudget(jobs, left), skipped };
    if (dryRun || jobs.length === 0) return { ...answer, batch: this.deps.runner.summary(batch.id) };
    transaction(this.deps.db, () => {
      this.deps.batches.requeueUnsent(requeue.map((j) => j.id));
      for (const view of retry) this.add(view.job, { request: view.job.request, estimate: view.job.estimate, origin: 'retry', replaces: view.job.id, retryOf: view.job.turnId });
    });
    return { ...answer, batch: this.goOn(batch.id) };
  }

  /** The re-shoot's request with the product's master reference; one the model cannot take says why (nothing is added). */
  private withMaster(job: JobRow, request: GenerateRequest): GenerateRequest {
    return requestWithUsableMaster(job, request, this.deps.master?.(job.productId) ?? null);
  }

  /** What the queue will reserve for this job when it sends it (requestAtSend); a master it refuses sends nothing. */
  private priceAtSend(job: JobRow): number {
    try {
      return requestAtSend(job, this.deps.master?.(job.productId) ?? null).estimate;
    } catch {
      return 0;
    }
  }

  private require(batchId: string): BatchRow {
    const batch = this.deps.batches.getBatch(batchId);
    if (!batch) throw new StudioError('batch_not_found', { batchId });
    return batch;
  }

  /** A batch this environment can send for (a re-run on another account's batch would fail every send). */
  private sendable(batchId: string): BatchRow {
    const batch = this.require(batchId);
    if (batch.environment !== this.deps.environment()) throw new StudioError('batch_other_environment', { environment: batch.environment });
    return batch;
  }

  /** Refuses a job the budget cannot take, saying its price and what is left; answers what is left. */
  private checkBudget(batch: BatchRow, price: number): number | null {
    const left = budgetLeft(batch, this.deps.batches.tally(batch.id));
    if (left !== null && price > left) throw new StudioError('batch_over_budget', { price, left: Math.max(0, left), budget: batch.budget });
    return left;
  }

  private add(like: JobRow, job: Pick<JobRow, 'request' | 'estimate' | 'origin' | 'replaces' | 'retryOf'>): string {
    const id = newCatalogId('bj_');
    this.deps.batches.addJob(like.batchId, { id, ...planFields(like), sessionId: like.sessionId, ...job });
    return id;
  }

  private goOn(batchId: string): BatchSummary {
    this.deps.runner.goOn(batchId);
    return this.deps.runner.summary(batchId);
  }
}

/** The cell's last request with the re-shoot's changes: a tweak is one more line of the prompt (as a shot's addition is). */
export function rerunRequest(base: GenerateRequest, input: Pick<RerunCellInput, 'promptTweak' | 'model' | 'settings'>): GenerateRequest {
  const request: GenerateRequest = { ...base };
  const tweak = input.promptTweak?.trim() ?? '';
  if (tweak !== '') request.prompt = [base.prompt?.trim() ?? '', tweak].filter((part) => part !== '').join('\n');
  if (input.model !== undefined) request.model = input.model;
  const settings = input.settings ?? {};
  if (settings.ratio !== undefined) request.ratio = settings.ratio;
  if (settings.resolution !== undefined) request.resolution = settings.resolution;
  if (settings.quality !== undefined) request.quality = settings.quality;
  if (settings.n !== undefined) request.n = settings.n;
  return request;
}
