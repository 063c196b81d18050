// Batch runs (docs/catalog.md): a persisted queue of generate jobs, sent through the one GenerationRunner so spec
// §7 applies to every job exactly as to a single generation (503 resends, one retry after a 500, never a resend
// after a timeout), with what only a batch has on top:
//   - at most `concurrency` jobs in flight;
//   - a budget: a job is sent only if the batch's spend (charged, plus reservations of jobs in flight, plus the
//     estimates of jobs whose outcome is unknown, which may have been charged) leaves room for its reservation;
//   - pauses: 429 rate_limited / new_user_daily_limit pause the whole batch until the retry time and go on by
//     themselves; insufficient_credits pauses until Resume (after a top-up), saying how much is needed; a service
//     that does not answer pauses until Resume. The job that met them goes back in the queue (nothing was charged);
//   - a job whose outcome is unknown is never sent again by the batch.
// The job is linked to its turn in the transaction that records the turn, so after kill -9 a job is either
// unsent (queued) or has a turn (whose outcome the start-up recovery and, on Local, reconciliation settle).
import type { EnvironmentName } from '../../src-shared/ipc/settings.ts';
import type { BatchDetail, BatchJob, BatchPause, BatchSummary } from '../../src-shared/ipc/batch.ts';
import type { Language } from '../../src-shared/language.ts';
import type { GenerationRunner } from '../generation/runner.ts';
import { StudioError, asStudioError, renderError, type StoredError } from '../domain/errors.ts';
import { mainMessage, renderNote, type MainCode } from '../domain/messages.ts';
import type { LibraryRepo } from '../library/library-repo.ts';
import { planFields, visibleStatus, type BatchRepo, type BatchRow, type JobRow, type StoredPause } from './batch-repo.ts';

export interface BatchRunnerDeps {
  repo: LibraryRepo;
  batches: BatchRepo;
  runner: GenerationRunner;
  environment: () => EnvironmentName;
  /** On Local, the account's balance now (credits net of reservations); null when unknown (Remote). */
  balance: () => Promise<number | null>;
  language: () => Language;
  changed: (batchId: string, jobId?: string) => void;
  now?: () => number;
  onTrouble?: (message: string, error: unknown) => void;
}

/** Service answers about the key or the account: every job would get the same, and nothing was charged (auth comes first). */
const KEY_PROBLEMS = new Set(['invalid_api_key', 'unauthorized', 'insufficient_scope', 'banned']);
/** How long a batch waits after the service stopped answering before it tries again by itself. */
const SERVICE_WAIT_MS = 60_000;
/** Longest single timer (setTimeout overflows past 2^31 ms); a longer wait re-arms. */
const MAX_TIMER_MS = 6 * 3600_000;

/** The end of a wait the service asked for (429, daily limit) that a pause carries, or 0. */
function specWait(pause: StoredPause | null | undefined): number {
  if (!pause) return 0;
  const timed = pause.reason === 'rate_limited' || pause.reason === 'daily_limit' ? (pause.until ?? 0) : 0;
  return Math.max(timed, pause.notBefore ?? 0);
}

export class BatchRunner {
  private readonly deps: BatchRunnerDeps;
  private readonly now: () => number;
  /** Jobs sent by this process and not yet settled, per batch. */
  private readonly inFlight = new Map<string, Set<string>>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** One pump per batch at a time; a call while it runs asks for another pass. */
  private readonly pumping = new Map<string, boolean>();
  private readonly follows = new Set<Promise<void>>();
  private closed = false;

  constructor(deps: BatchRunnerDeps) {
    this.deps = deps;
    this.now = deps.now ?? Date.now;
  }

  /** At start-up: a batch that was running when the app stopped waits for Resume; timed pauses are re-armed. */
  recover(): void {
    // Jobs in flight when the app stopped are never resent, even when reconciliation finds them refunded.
    this.deps.batches.settleStale();
    // After a restart every batch that was running, or waiting to go on by itself, waits for Resume (a wait
    // the service asked for still holds: Resume is refused until it is over).
    for (const batch of [...this.deps.batches.batchesInState('running'), ...this.deps.batches.batchesInState('paused').filter((b) => b.pause?.until)]) {
      this.deps.batches.setState(batch.id, 'paused', { reason: 'restarted', until: null, needed: null, notBefore: specWait(batch.pause) || null }, this.now());
    }
  }

  start(batchId: string): void {
    const batch = this.require(batchId);
    this.deps.batches.setState(batch.id, 'running', null, this.now());
    this.deps.changed(batchId);
    void this.pump(batchId);
  }

  pause(batchId: string): BatchRow {
    const batch = this.require(batchId);
    if (batch.state === 'running' || (batch.state === 'paused' && batch.pause?.reason !== 'user')) {
      // A user's pause holds even over a timed wait (which then no longer resumes the batch by itself).
      this.clearTimer(batchId);
      this.deps.batches.setState(batchId, 'paused', { reason: 'user', until: null, needed: null, notBefore: specWait(batch.pause) || null }, this.now());
      this.deps.changed(batchId);
    } else if (batch.state !== 'paused') {
      throw new StudioError('batch_not_running', { state: batch.state });
    }
    return this.require(batchId);
  }

  resume(batchId: string): BatchRow {
    const batch = this.require(batchId);
    if (batch.state === 'done' || batch.state === 'cancelled') throw new StudioError('batch_finished', { state: batch.state });
    const waitEnds = specWait(batch.pause);
    if (batch.state === 'paused' && waitEnds > this.now()) {
      // spec §7: after a 429 or the daily limit, never at once.
      throw new StudioError('batch_waiting', { until: waitEnds });
    }
    if (batch.state === 'paused') {
      this.clearTimer(batchId);
      // Sends that ended while nobody was acting on them (a crash, a pause) are judged first.
      for (const job of this.deps.batches.undecided(batchId)) this.decide(job);
      this.deps.batches.setState(batchId, 'running', null, this.now());
      this.deps.changed(batchId);
    }
    void this.pump(batchId);
    return this.require(batchId);
  }

  /** Sends no more; jobs in flight finish. */
  cancel(batchId: string): BatchRow {
    const batch = this.require(batchId);
    if (batch.state === 'done' || batch.state === 'cancelled') return batch;
    this.clearTimer(batchId);
    this.deps.batches.cancelQueued(batchId);
    this.deps.batches.setState(batchId, 'cancelled', null, this.now());
    this.deps.changed(batchId);
    return this.require(batchId);
  }

  setConcurrency(batchId: string, concurrency: number): BatchRow {
    this.require(batchId);
    this.deps.batches.setConcurrency(batchId, concurrency, this.now());
    this.deps.changed(batchId);
    void this.pump(batchId);
    return this.require(batchId);
  }

  /** Waits for every job this process sent to settle and be judged (tests, close). */
  async settle(): Promise<void> {
    while (this.follows.size > 0) await Promise.allSettled([...this.follows]);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  // ---- presentation ----

  summary(batchId: string): BatchSummary {
    return this.present(this.require(batchId));
  }

  list(): BatchSummary[] {
    return this.deps.batches.listBatches().map((b) => this.present(b));
  }

  detail(batchId: string): BatchDetail {
    const batch = this.require(batchId);
    const language = this.deps.language();
    const jobs: BatchJob[] = this.deps.batches.jobViews(batchId).map(({ job, turn }) => {
      const status = visibleStatus(job.status, turn ? turn.status : job.status === 'sent' ? null : job.status);
      const error = turn?.error ?? job.error;
      return {
        id: job.id,
        position: job.position,
        ...planFields(job),
        sessionId: job.sessionId,
        status,
        turnId: job.turnId,
        turnIds: [...job.earlierTurnIds, ...(job.turnId ? [job.turnId] : [])],
        imageIds: turn?.imageIds ?? [],
        creditsCharged: turn?.creditsCharged ?? null,
        error: error && (status === 'failed' || status === 'unknown') ? renderError(error, language) : null,
        requestId: turn?.requestId ?? error?.requestId ?? null,
        note: status === 'unknown' && turn?.outcome ? renderNote(turn.outcome, language) : null,
        startedAt: turn?.startedAt ?? null,
        finishedAt: turn?.finishedAt ?? null,
      };
    });
    return { ...this.present(batch), jobs };
  }

  private present(batch: BatchRow): BatchSummary {
    const tally = this.deps.batches.tally(batch.id);
    const { counts } = tally;
    const remaining = counts.queued + counts.running;
    const etaMs = batch.state === 'running' && tally.meanMs !== null && remaining > 0 ? Math.round((tally.meanMs * remaining) / batch.concurrency) : null;
    return {
      id: batch.id,
      name: batch.name,
      createdAt: batch.createdAt,
      environment: batch.environment,
      shotListName: batch.shotListName,
      state: batch.state,
      pause: batch.pause ? this.presentPause(batch.pause) : null,
      budget: batch.budget,
      concurrency: batch.concurrency,
      planned: batch.planned,
      jobCount: Object.values(counts).reduce((a, b) => a + b, 0),
      counts,
      done: counts.succeeded,
      failed: counts.failed + counts.unknown,
      remaining,
      spent: tally.spent,
      reserved: tally.reserved,
      etaMs,
    };
  }

  private presentPause(pause: StoredPause): BatchPause {
    const language = this.deps.language();
    return {
      reason: pause.reason,
      until: pause.until,
      needed: pause.needed,
      message: mainMessage(`batch_paused_${pause.reason}` as MainCode, { ...pause.params, until: pause.until, needed: pause.needed }, language),
    };
  }

  // ---- the queue ----

  private require(batchId: string): BatchRow {
    const batch = this.deps.batches.getBatch(batchId);
    if (!batch) throw new StudioError('batch_not_found', { batchId });
    return batch;
  }

  private flying(batchId: string): Set<string> {
    let set = this.inFlight.get(batchId);
    if (!set) {
      set = new Set();
      this.inFlight.set(batchId, set);
    }
    return set;
  }

  private pausedFor(batchId: string, pause: StoredPause): void {
    const batch = this.deps.batches.getBatch(batchId);
    if (!batch || batch.state === 'cancelled' || batch.state === 'done') return;
    // A wait the service asked for (429, daily limit) holds whatever pause comes after it; the latest time wins.
    const notBefore = Math.max(specWait(pause), specWait(batch.pause)) || null;
    // The user's own pause is the strongest: a wait met meanwhile is kept but does not resume the batch by itself.
    const shown: StoredPause = batch.state === 'paused' && batch.pause?.reason === 'user' ? { ...batch.pause, until: null } : pause;
    const until = shown.until !== null ? Math.max(shown.until, notBefore ?? 0) : null;
    this.deps.batches.setState(batchId, 'paused', { ...shown, until, notBefore }, this.now());
    if (until !== null) this.armTimer(batchId, until);
    this.deps.changed(batchId);
  }

  private armTimer(batchId: string, until: number): void {
    this.clearTimer(batchId);
    const wait = Math.min(MAX_TIMER_MS, Math.max(0, until - this.now()));
    const timer = setTimeout(() => {
      this.timers.delete(batchId);
      if (this.closed) return;
      const batch = this.deps.batches.getBatch(batchId);
      if (!batch || batch.state !== 'paused' || !batch.pause?.until) return;
      if (batch.pause.until > this.now()) {
        this.armTimer(batchId, batch.pause.until);
        return;
      }
      try {
        this.resume(batchId);
      } catch (error) {
        this.deps.onTrouble?.(`batch ${batchId} could not go on after its wait`, error);
      }
    }, wait);
    timer.unref();
    this.timers.set(batchId, timer);
  }

  private clearTimer(batchId: string): void {
    const timer = this.timers.get(batchId);
    if (timer) clearTimeout(timer);
    this.timers.delete(batchId);
  }

  private async pump(batchId: string): Promise<void> {
    if (this.pumping.has(batchId)) {
      this.pumping.set(batchId, true);
      return;
    }
    this.pumping.set(batchId, false);
    try {
      do {
        this.pumping.set(batchId, false);
        await this.fill(batchId);
      } while (this.pumping.get(batchId) === true);
    } catch (error) {
      this.deps.onTrouble?.(`batch ${batchId} stopped sending`, error);
      this.pausedFor(batchId, { reason: 'problem', until: null, needed: null, params: { code: asStudioError(error).code } });
    } finally {
      this.pumping.delete(batchId);
    }
  }

  /** Sends queued jobs while the batch runs and there is room (concurrency, budget, balance). */
  private async fill(batchId: string): Promise<void> {
    for (;;) {
      if (this.closed) return;
      const batch = this.deps.batches.getBatch(batchId);
      if (!batch || batch.state !== 'running') return;
      const flying = this.flying(batchId);
      if (flying.size >= batch.concurrency) return;
      const job = this.deps.batches.nextQueued(batchId);
      if (!job) {
        if (flying.size === 0) {
          this.deps.batches.setState(batchId, 'done', null, this.now());
          this.deps.changed(batchId);
        }
        return;
      }
      if (batch.environment !== this.deps.environment()) {
        this.pausedFor(batchId, { reason: 'problem', until: null, needed: null, params: { code: 'batch_other_environment', environment: batch.environment } });
        return;
      }
      if (batch.budget !== null) {
        const tally = this.deps.batches.tally(batchId);
        if (tally.spent + tally.reserved + tally.unknownEstimates + job.estimate > batch.budget) {
          // A job in flight may still cost less than reserved (a partial run): wait for it before giving up.
          if (flying.size > 0) return;
          this.deps.batches.markNotSent(job.id, 'over_budget', null);
          this.deps.changed(batchId, job.id);
          continue;
        }
      }
      const balance = await this.deps.balance().catch(() => null);
      if (balance !== null && balance < job.estimate) {
        if (flying.size > 0) return; // reservations in flight come back or are charged first
        this.pausedFor(batchId, { reason: 'insufficient_credits', until: null, needed: job.estimate, params: { balance } });
        return;
      }
      // A job back in the queue after a 429 is never resent before its wait is over (spec §7), even when the
      // pause that held it was replaced (a crash between the two writes, another pause after it).
      const previous = job.retryOf ? this.deps.repo.getTurn(job.retryOf) : null;
      if (previous?.retryAt && previous.retryAt > this.now()) {
        this.pausedFor(batchId, { reason: previous.error?.code === 'new_user_daily_limit' ? 'daily_limit' : 'rate_limited', until: previous.retryAt, needed: null });
        return;
      }
      const again = this.deps.batches.getBatch(batchId);
      if (!again || again.state !== 'running') return;
      flying.add(job.id);
      let turnId: string;
      try {
        ({ turnId } = await this.deps.runner.start({ request: job.request, sessionId: job.sessionId }, job.retryOf, {
          // In the turn's own transaction: a job cancelled, or a batch paused, while the key was read is not sent
          // (throwing rolls the turn back, so nothing goes out).
          inTransaction: (id) => {
            const current = this.deps.batches.getBatch(batchId);
            if (current?.state !== 'running' || !this.deps.batches.markSent(job.id, id)) throw new StudioError('batch_job_withdrawn', { jobId: job.id });
          },
        }));
      } catch (thrown) {
        flying.delete(job.id);
        const error = asStudioError(thrown);
        if (error.code === 'batch_job_withdrawn') return;
        if (error.status !== 400) {
          // Anything but a request that breaks a rule (no key, another environment, a full disk, the keychain)
          // would stop every job alike: the batch pauses and says why.
          this.pausedFor(batchId, { reason: 'problem', until: null, needed: null, params: { code: error.code, message: error.message } });
          return;
        }
        // Refused before sending (the request breaks a spec §4.1 rule): this job only; nothing was sent or charged.
        this.deps.batches.markNotSent(job.id, 'failed', error.toStored());
        this.deps.changed(batchId, job.id);
        continue;
      }
      this.deps.changed(batchId, job.id);
      const follow = this.follow(batchId, job.id, turnId).finally(() => this.follows.delete(follow));
      this.follows.add(follow);
    }
  }

  private async follow(batchId: string, jobId: string, turnId: string): Promise<void> {
    try {
      await this.deps.runner.whenSettled(turnId);
      const job = this.deps.batches.getJob(jobId);
      if (job) this.decide(job);
    } catch (error) {
      this.deps.onTrouble?.(`batch job ${jobId} could not be judged`, error);
    } finally {
      this.flying(batchId).delete(jobId);
      this.deps.changed(batchId, jobId);
    }
    await this.pump(batchId);
  }

  /** Acts on how a sent job's turn ended (spec §7, as the domain's retry policy decides for one generation). */
  private decide(job: JobRow): void {
    if (job.status !== 'sent' || !job.turnId || job.decided) return;
    const turn = this.deps.repo.getTurn(job.turnId);
    if (!turn || turn.status === 'running') return;
    const batch = this.deps.batches.getBatch(job.batchId);
    const goingOn = batch !== null && batch.state !== 'cancelled' && batch.state !== 'done';
    this.deps.batches.markDecided(job.id);
    if (turn.status !== 'failed' || !goingOn) return;
    const error: StoredError | null = turn.error;
    const code = error?.code ?? '';
    switch (code) {
      case 'rate_limited':
      case 'new_user_daily_limit':
        this.deps.batches.requeue(job.id, turn.id);
        this.pausedFor(job.batchId, { reason: code === 'rate_limited' ? 'rate_limited' : 'daily_limit', until: turn.retryAt ?? this.now() + 60_000, needed: null });
        return;
      case 'insufficient_credits':
        this.deps.batches.requeue(job.id, turn.id);
        this.pausedFor(job.batchId, { reason: 'insufficient_credits', until: null, needed: job.estimate, params: { ...(error?.details ?? {}) } });
        return;
      case 'auth_unavailable':
      case 'service_unreachable':
        // Nothing ran (the runner already resent a 503 after a few seconds, as spec §7 says); the service is not
        // answering now: the batch waits a minute and goes on by itself (Resume tries sooner).
        this.deps.batches.requeue(job.id, null);
        this.pausedFor(job.batchId, { reason: 'service_unreachable', until: this.now() + SERVICE_WAIT_MS, needed: null, params: { code } });
        return;
      case 'internal_error': {
        // spec §7: retry once as is (the service refunded); a second 500 for the same job stays failed.
        const earlier500 = job.earlierTurnIds.some((id) => this.deps.repo.getTurn(id)?.error?.code === 'internal_error');
        if (!earlier500) this.deps.batches.requeue(job.id, turn.id);
        return;
      }
      default:
        if (KEY_PROBLEMS.has(code)) {
          this.deps.batches.requeue(job.id, null);
          this.pausedFor(job.batchId, { reason: 'problem', until: null, needed: null, params: { code } });
          return;
        }
        // 400s and the rest: this job only (the same request would get the same answer).
        return;
    }
  }
}
