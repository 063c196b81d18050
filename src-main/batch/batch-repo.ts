// SQL for batches and their jobs (migration 0400). A sent job's outcome is its library turn's: the job row keeps
// only what the queue needs (queued, sent, never sent and why), so a turn settled later (reconciled after a
// crash) shows in the batch without anything copied.
import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import { preparedOnce } from '../library/index.ts';
import type { GenerateRequest } from '../../src-shared/api.ts';
import type { PurposeId } from '../../src-shared/catalog.ts';
import type { BatchCounts, BatchJob, BatchPauseReason, BatchState, JobShot } from '../../src-shared/ipc/batch.ts';
import type { BatchReruns, JobOrigin } from '../../src-shared/ipc/batch-reruns.ts';
import type { StoredError } from '../domain/errors.ts';
import type { StoredNote } from '../domain/messages.ts';
import type { TurnStatus } from '../../src-shared/ipc/generation.ts';
import { storedError, storedNote } from '../library/index.ts';

type Row = Record<string, SQLInputValue>;

export type JobRowStatus = 'queued' | 'sent' | 'failed' | 'over_budget' | 'cancelled';

export interface StoredPause {
  reason: BatchPauseReason;
  /** When the batch goes on by itself (a timed wait that nothing stronger, like the user's pause, overrides). */
  until: number | null;
  /** Nothing may be sent before this (a 429 or daily-limit wait), whatever the reason shown; kept across pauses. */
  notBefore?: number | null;
  needed: number | null;
  /** Facts for the message (an error code, the balance). */
  params?: Record<string, unknown>;
}

export interface BatchRow {
  id: string;
  name: string;
  environment: 'local' | 'remote';
  shotListId: string;
  shotListName: string;
  state: BatchState;
  pause: StoredPause | null;
  budget: number | null;
  concurrency: number;
  planned: number;
  createdAt: number;
  updatedAt: number;
}

/** The job as the queue keeps it: what the plan fixed (as the batch shows it), and the queue's own state. */
export interface JobRow
  extends Pick<BatchJob, 'id' | 'position' | 'productId' | 'sku' | 'productName' | 'shotIndex' | 'shotName' | 'purpose' | 'sessionId' | 'request' | 'estimate' | 'turnId'> {
  batchId: string;
  status: JobRowStatus;
  earlierTurnIds: string[];
  retryOf: string | null;
  decided: boolean;
  error: StoredError | null;
  /** The plan made it, or a person added it (reruns.ts); a retry by hand names the job it stands in for. */
  origin: JobOrigin;
  replaces: string | null;
}

export type NewJob = Omit<JobRow, 'status' | 'turnId' | 'earlierTurnIds' | 'retryOf' | 'decided' | 'error' | 'batchId' | 'origin' | 'replaces'>;

/** A job a person adds after the plan: a retry by hand (linked to the job and turn it retries) or a re-shoot. */
export type AddedJob = Omit<NewJob, 'position'> & Pick<JobRow, 'origin' | 'replaces' | 'retryOf'>;

/** What a job keeps of its plan: copied from the plan into the queue, and from the queue into what a batch shows. */
export type PlanFields = Pick<BatchJob, 'productId' | 'sku' | 'productName' | 'shotIndex' | 'shotName' | 'purpose' | 'request' | 'estimate'>;

/** The plan fields of a plan job or a job row alone (neither may carry its other fields into the other's shape). */
export function planFields(job: PlanFields): PlanFields {
  const { productId, sku, productName, shotIndex, shotName, purpose, request, estimate } = job;
  return { productId, sku, productName, shotIndex, shotName, purpose, request, estimate };
}

/** What a batch shows of a job's turn. */
export interface JobTurn {
  status: TurnStatus;
  creditsCharged: number | null;
  error: StoredError | null;
  requestId: string | null;
  outcome: StoredNote | null;
  startedAt: number;
  finishedAt: number | null;
  imageIds: string[];
  /** A 429: when the service allows the next send. */
  retryAt: number | null;
}

/** What the summary needs, from one grouped pass over the jobs and their turns. */
export interface BatchTally {
  counts: BatchCounts;
  spent: number;
  reserved: number;
  /** Estimates of jobs whose outcome is unknown (they may have been charged). */
  unknownEstimates: number;
  /** Estimates of jobs waiting in the queue (a re-run is priced against what they will take too). */
  queuedEstimates: number;
  /** Mean ms of the batch's succeeded sends, or null before the first. */
  meanMs: number | null;
}

function str(v: SQLInputValue | undefined): string {
  return typeof v === 'string' ? v : String(v ?? '');
}
function numOrNull(v: SQLInputValue | undefined): number | null {
  return v === null || v === undefined ? null : Number(v);
}

export class BatchRepo {

  private readonly sql: (text: string) => StatementSync;

  constructor(db: DatabaseSync) {
    this.sql = preparedOnce(db);
  }

  createBatch(batch: BatchRow, jobs: NewJob[]): void {
    this.sql(
      `INSERT INTO batches (id, name, environment, shot_list_id, shot_list_name, state, pause, budget, concurrency, planned, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      batch.id, batch.name, batch.environment, batch.shotListId, batch.shotListName, batch.state, batch.pause ? JSON.stringify(batch.pause) : null,
      batch.budget, batch.concurrency, batch.planned, batch.createdAt, batch.updatedAt,
    );
    const insert = this.sql(
      `INSERT INTO batch_jobs (id, batch_id, position, product_id, sku, product_name, shot_index, shot_name, purpose, session_id, request, estimate, status)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'queued')`,
    );
    for (const j of jobs) {
      insert.run(j.id, batch.id, j.position, j.productId, j.sku, j.productName, j.shotIndex, j.shotName, j.purpose, j.sessionId, JSON.stringify(j.request), j.estimate);
    }
  }

  /** The first row of a query, mapped; null when there is none. */
  private first<T>(text: string, map: (row: Row) => T, ...params: SQLInputValue[]): T | null {
    const row = this.sql(text).get(...params) as Row | undefined;
    return row ? map(row) : null;
  }

  getBatch(id: string): BatchRow | null {
    return this.first('SELECT * FROM batches WHERE id = ?', toBatch, id);
  }

  listBatches(): BatchRow[] {
    return (this.sql('SELECT * FROM batches ORDER BY created_at DESC, id DESC').all() as Row[]).map(toBatch);
  }

  batchesInState(state: BatchState): BatchRow[] {
    return (this.sql('SELECT * FROM batches WHERE state = ? ORDER BY created_at').all(state) as Row[]).map(toBatch);
  }

  setState(id: string, state: BatchState, pause: StoredPause | null, now: number): void {
    this.sql('UPDATE batches SET state = ?, pause = ?, updated_at = ? WHERE id = ?').run(state, pause ? JSON.stringify(pause) : null, now, id);
  }

  setConcurrency(id: string, concurrency: number, now: number): void {
    this.sql('UPDATE batches SET concurrency = ?, updated_at = ? WHERE id = ?').run(concurrency, now, id);
  }

  jobs(batchId: string): JobRow[] {
    return (this.sql('SELECT * FROM batch_jobs WHERE batch_id = ? ORDER BY position').all(batchId) as Row[]).map(toJob);
  }

  /** Every job with what the batch shows of its turn, in two statements (not one turn read per job). */
  jobViews(batchId: string): Array<{ job: JobRow; turn: JobTurn | null; replacedBy: string | null }> {
    const images = new Map<string, string[]>();
    for (const row of this.sql(
      `SELECT i.id AS id, i.turn_id AS turn_id FROM batch_jobs j JOIN images i ON i.turn_id = j.turn_id WHERE j.batch_id = ? ORDER BY j.position, i.position`,
    ).all(batchId) as Row[]) {
      const turnId = str(row.turn_id);
      const list = images.get(turnId) ?? [];
      list.push(str(row.id));
      images.set(turnId, list);
    }
    const rows = this.sql(
      `SELECT j.*, t.status AS t_status, t.credits_charged AS t_charged, t.error_json AS t_error, t.request_id AS t_request_id,
              t.outcome_note AS t_outcome, t.started_at AS t_started_at, t.finished_at AS t_finished_at, t.retry_at AS t_retry_at,
              (SELECT r.id FROM batch_jobs r WHERE r.replaces = j.id LIMIT 1) AS replaced_by
       FROM batch_jobs j LEFT JOIN turns t ON t.id = j.turn_id WHERE j.batch_id = ? ORDER BY j.position`,
    ).all(batchId) as Row[];
    return rows.map((row) => {
      const job = toJob(row);
      const turn: JobTurn | null =
        job.turnId !== null && row.t_status !== null && row.t_status !== undefined
          ? {
              status: str(row.t_status) as TurnStatus,
              creditsCharged: numOrNull(row.t_charged),
              error: storedError(row.t_error),
              requestId: row.t_request_id === null || row.t_request_id === undefined ? null : str(row.t_request_id),
              outcome: storedNote(row.t_outcome),
              startedAt: Number(row.t_started_at),
              finishedAt: numOrNull(row.t_finished_at),
              imageIds: images.get(job.turnId) ?? [],
              retryAt: numOrNull(row.t_retry_at),
            }
          : null;
      return { job, turn, replacedBy: row.replaced_by === null || row.replaced_by === undefined ? null : str(row.replaced_by) };
    });
  }

  getJob(id: string): JobRow | null {
    return this.first('SELECT * FROM batch_jobs WHERE id = ?', toJob, id);
  }

  /** The first queued job, in plan order. */
  nextQueued(batchId: string): JobRow | null {
    return this.first("SELECT * FROM batch_jobs WHERE batch_id = ? AND status = 'queued' ORDER BY position LIMIT 1", toJob, batchId);
  }

  /** Sent jobs whose turn has ended and that the batch has not acted on yet (it stopped or crashed meanwhile). */
  undecided(batchId: string): JobRow[] {
    return (
      this.sql(
        `SELECT j.* FROM batch_jobs j JOIN turns t ON t.id = j.turn_id
         WHERE j.batch_id = ? AND j.status = 'sent' AND j.decided = 0 AND t.status <> 'running' ORDER BY j.position`,
      ).all(batchId) as Row[]
    ).map(toJob);
  }

  /**
   * At start-up, before anything is sent: jobs sent by an earlier run of the app are never acted on again (their
   * turns were in flight, or ended unattended); their outcome is what recovery and reconciliation make it.
   */
  settleStale(): void {
    this.sql("UPDATE batch_jobs SET decided = 1 WHERE status = 'sent' AND decided = 0").run();
  }

  /**
   * Links a job to the turn that sends it (inside the transaction that records the turn), with the request and price
   * it goes out with (a first send takes the product's master as it is then: product-master.ts `requestAtSend`).
   */
  markSent(jobId: string, turnId: string, sent: Pick<JobRow, 'request' | 'estimate'>): boolean {
    const update = this.sql("UPDATE batch_jobs SET status = 'sent', turn_id = ?, request = ?, estimate = ?, decided = 0 WHERE id = ? AND status = 'queued'");
    return update.run(turnId, JSON.stringify(sent.request), sent.estimate, jobId).changes === 1;
  }

  markDecided(jobId: string): void {
    this.sql('UPDATE batch_jobs SET decided = 1 WHERE id = ?').run(jobId);
  }

  /** Back in the queue after a send nothing was charged for (429, 402, 503, one retry after a 500). */
  requeue(jobId: string, retryOf: string | null): void {
    const job = this.getJob(jobId);
    if (!job || job.turnId === null) return;
    this.sql("UPDATE batch_jobs SET status = 'queued', turn_id = NULL, earlier_turn_ids = ?, retry_of = ?, decided = 0 WHERE id = ?").run(
      JSON.stringify([...job.earlierTurnIds, job.turnId]), retryOf, jobId,
    );
  }

  /** Never sent: refused before sending (the error says why), over budget, or cancelled. */
  markNotSent(jobId: string, status: 'failed' | 'over_budget' | 'cancelled', error: StoredError | null): void {
    this.sql("UPDATE batch_jobs SET status = ?, error = ? WHERE id = ? AND status = 'queued'").run(status, error ? JSON.stringify(error) : null, jobId);
  }

  /** A job a person added (reruns.ts), queued after every other job of the batch. */
  addJob(batchId: string, job: AddedJob): void {
    this.sql(
      `INSERT INTO batch_jobs (id, batch_id, position, product_id, sku, product_name, shot_index, shot_name, purpose, session_id, request, estimate, status, retry_of, origin, replaces)
       SELECT ?, ?, COALESCE(MAX(position), -1) + 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'queued', ?, ?, ? FROM batch_jobs WHERE batch_id = ?`,
    ).run(
      job.id, batchId, job.productId, job.sku, job.productName, job.shotIndex, job.shotName, job.purpose, job.sessionId, JSON.stringify(job.request), job.estimate,
      job.retryOf, job.origin, job.replaces, batchId,
    );
  }

  /** Never-sent jobs (over budget, cancelled) back in the queue, as they were planned; answers how many. */
  requeueUnsent(jobIds: readonly string[]): number {
    const requeue = this.sql("UPDATE batch_jobs SET status = 'queued', error = NULL WHERE id = ? AND status IN ('over_budget', 'cancelled')");
    let changed = 0;
    for (const id of jobIds) changed += Number(requeue.run(id).changes);
    return changed;
  }

  overBudgetJobs(batchId: string): JobRow[] {
    return (this.sql("SELECT * FROM batch_jobs WHERE batch_id = ? AND status = 'over_budget' ORDER BY position").all(batchId) as Row[]).map(toJob);
  }

  setBudget(id: string, budget: number | null, now: number): void {
    this.sql('UPDATE batches SET budget = ?, updated_at = ? WHERE id = ?').run(budget, now, id);
  }

  /** Jobs a person added after the plan, and what they cost. */
  reruns(batchId: string): BatchReruns {
    const row = this.sql(
      `SELECT COUNT(*) AS n, SUM(j.origin = 'retry') AS retried, SUM(j.origin = 'rerun') AS reshot, COALESCE(SUM(j.estimate), 0) AS estimated,
              COALESCE(SUM(t.credits_charged), 0) AS charged
       FROM batch_jobs j LEFT JOIN turns t ON t.id = j.turn_id WHERE j.batch_id = ? AND j.origin <> 'plan'`,
    ).get(batchId) as Row;
    return { jobs: Number(row.n), retried: Number(row.retried ?? 0), reshot: Number(row.reshot ?? 0), estimated: Number(row.estimated), charged: Number(row.charged) };
  }

  cancelQueued(batchId: string): number {
    return Number(this.sql("UPDATE batch_jobs SET status = 'cancelled' WHERE batch_id = ? AND status = 'queued'").run(batchId).changes);
  }

  /** Counts by the job's visible status, credits charged, reserved by jobs in flight, pace. */
  tally(batchId: string): BatchTally {
    const rows = this.sql(
      `SELECT j.status AS js, t.status AS ts, COUNT(*) AS n, SUM(j.estimate) AS estimate, SUM(COALESCE(t.credits_charged, 0)) AS charged,
              AVG(CASE WHEN t.status = 'succeeded' THEN t.finished_at - t.started_at END) AS mean_ms, SUM(t.status = 'succeeded') AS ok,
              EXISTS (SELECT 1 FROM batch_jobs r WHERE r.replaces = j.id) AS replaced
       FROM batch_jobs j LEFT JOIN turns t ON t.id = j.turn_id WHERE j.batch_id = ? GROUP BY js, ts, replaced`,
    ).all(batchId) as Row[];
    const counts: BatchCounts = { queued: 0, running: 0, succeeded: 0, failed: 0, unknown: 0, overBudget: 0, cancelled: 0, replaced: 0 };
    let spent = 0;
    let reserved = 0;
    let unknownEstimates = 0;
    let queuedEstimates = 0;
    let meanMs: number | null = null;
    for (const row of rows) {
      const n = Number(row.n);
      const status = visibleStatus(str(row.js) as JobRowStatus, row.ts === null || row.ts === undefined ? null : str(row.ts));
      spent += Number(row.charged ?? 0);
      // A failure a person's retry stands in for is no longer a failure of the batch (the retry is counted instead).
      if (Number(row.replaced) === 1) {
        counts.replaced += n;
        continue;
      }
      counts[status === 'over_budget' ? 'overBudget' : status] += n;
      if (status === 'running') reserved += Number(row.estimate ?? 0);
      if (status === 'unknown') unknownEstimates += Number(row.estimate ?? 0);
      if (status === 'queued') queuedEstimates += Number(row.estimate ?? 0);
      if (status === 'succeeded' && row.mean_ms !== null) meanMs = Number(row.mean_ms);
    }
    // Earlier sends of requeued jobs are failures the service refunded, except where it charged (kept honest).
    const earlier = this.sql(
      `SELECT COALESCE(SUM(t.credits_charged), 0) AS charged FROM batch_jobs j, json_each(j.earlier_turn_ids) e JOIN turns t ON t.id = e.value WHERE j.batch_id = ?`,
    ).get(batchId) as Row;
    spent += Number(earlier.charged ?? 0);
    return { counts, spent, reserved, unknownEstimates, queuedEstimates, meanMs };
  }
}

export type VisibleJobStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'unknown' | 'over_budget' | 'cancelled';

/** A job's status as the user sees it: the queue's while unsent, its turn's once sent. */
export function visibleStatus(job: JobRowStatus, turn: string | null): VisibleJobStatus {
  if (job !== 'sent') return job;
  switch (turn) {
    case 'running':
      return 'running';
    case 'succeeded':
      return 'succeeded';
    case 'failed':
      return 'failed';
    default:
      // outcome_unknown, cancelled (the connection was aborted: the service may have run it), or a missing turn.
      return 'unknown';
  }
}

function toBatch(row: Row): BatchRow {
  return {
    id: str(row.id),
    name: str(row.name),
    environment: str(row.environment) as BatchRow['environment'],
    shotListId: str(row.shot_list_id),
    shotListName: str(row.shot_list_name),
    state: str(row.state) as BatchState,
    pause: row.pause ? (JSON.parse(str(row.pause)) as StoredPause) : null,
    budget: numOrNull(row.budget),
    concurrency: Number(row.concurrency),
    planned: Number(row.planned),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

/** Which product × shot a job row makes (the job list and the board read it alike). */
export function jobShotOf(row: Row): JobShot {
  return {
    productId: str(row.product_id),
    sku: str(row.sku),
    productName: str(row.product_name),
    shotIndex: Number(row.shot_index),
    shotName: str(row.shot_name),
    purpose: str(row.purpose) as PurposeId,
  };
}

function toJob(row: Row): JobRow {
  return {
    id: str(row.id),
    batchId: str(row.batch_id),
    position: Number(row.position),
    ...jobShotOf(row),
    sessionId: str(row.session_id),
    request: JSON.parse(str(row.request)) as GenerateRequest,
    estimate: Number(row.estimate),
    status: str(row.status) as JobRowStatus,
    turnId: row.turn_id === null || row.turn_id === undefined ? null : str(row.turn_id),
    earlierTurnIds: JSON.parse(str(row.earlier_turn_ids)) as string[],
    retryOf: row.retry_of === null || row.retry_of === undefined ? null : str(row.retry_of),
    decided: Number(row.decided) === 1,
    error: row.error ? (JSON.parse(str(row.error)) as StoredError) : null,
    origin: (row.origin === undefined || row.origin === null ? 'plan' : str(row.origin)) as JobOrigin,
    replaces: row.replaces === null || row.replaces === undefined ? null : str(row.replaces),
  };
}
