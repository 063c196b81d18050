// Batch runs (docs/catalog.md): a persisted queue of generate jobs, sent through the one GenerationRunner so spec
// §7 applies to every job exactly as to a single generation (503 resends, one retry after a 500, never a resend
// after a timeout); what happens to a failed job is the domain's verdict (retry-policy.ts `batchStep`, the
// user's retry verdict carried out by the queue). What only a batch has on top:
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
import type { GenerationRunner } from '../generation/index.ts';
import { StudioError, asStudioError, renderError } from '../domain/errors.ts';
import { mainMessage, renderNote, type MainCode } from '../domain/messages.ts';
import { DEFAULT_RETRY_POLICY, batchStep, jobRetryVerdict, type RetryPolicy } from '../domain/retry-policy.ts';
import { turnFacts, type StoredTurn } from '../domain/turns.ts';
import type { LibraryRepo } from '../library/index.ts';
import { planFields, visibleStatus, type BatchRepo, type BatchRow, type JobRow, type StoredPause } from './batch-repo.ts';
import { requestAtSend } from './product-master.ts';
import { jobFacts, retryOffer } from './reruns.ts';
import { batchParts, jobCountOf } from './progress.ts';

export interface BatchRunnerDeps {
  repo: LibraryRepo;
  batches: BatchRepo;
  runner: GenerationRunner;
  environment: () => EnvironmentName;
  /**
   * On Local, the account's balance now (credits net of reservations), from the admin API; null when unknown
   * (Remote). Asked when a run starts or resumes and before a pause for credits; in between the batch keeps the
   * balance from its own sends and the service's answers (`KnownBalance`).
   */
  balance: () => Promise<number | null>;
  language: () => Language;
  changed: (batchId: string, jobId?: string) => void;
  now?: () => number;
  onTrouble?: (message: string, error: unknown) => void;
  /** spec §7's policy (tests shorten its waits); the same the single generation runner uses. */
  policy?: Partial<RetryPolicy>;
  /** The product's master reference chosen now (product-master.ts): a job's first send takes it (`requestAtSend`). */
  master?: (productId: string) => string | null;
}

/** Longest single timer (setTimeout overflows past 2^31 ms); a longer wait re-arms. */
const MAX_TIMER_MS = 6 * 3600_000;

/** The end of a wait the service asked for (429, daily limit) that a pause carries, or 0. */
function specWait(pause: StoredPause | null | undefined): number {
  if (!pause) return 0;
  const timed = pause.reason === 'rate_limited' || pause.reason === 'daily_limit' ? (pause.until ?? 0) : 0;
  return Math.max(timed, pause.notBefore ?? 0);
}

/**
 * The Local balance between admin reads: each send takes its estimate (what the service reserves), each settled
 * job gives back what it did not cost (the service's `credits_charged`); an outcome nobody knows forgets it.
 */
class KnownBalance {
  private known: { environment: EnvironmentName; credits: number } | null = null;

  get(environment: EnvironmentName): number | null {
    return this.known?.environment === environment ? this.known.credits : null;
  }

  set(environment: EnvironmentName, credits: number | null): void {
    this.known = credits === null ? null : { environment, credits };
  }

  sent(estimate: number): void {
    if (this.known) this.known.credits -= estimate;
  }

  settled(estimate: number, turn: StoredTurn): void {
    if (turn.status === 'succeeded' || turn.status === 'failed') {
      if (this.known) this.known.credits += estimate - (turn.creditsCharged ?? 0);
    } else this.forget();
  }

  forget(): void {
    this.known = null;
  }
}

export class BatchRunner {
  private readonly deps: BatchRunnerDeps;
  private readonly now: () => number;
  private readonly policy: RetryPolicy;
  private readonly balance = new KnownBalance();
  /** Counts this process's writes to each batch row: a step that read the row sees whether it still holds. */
  private readonly writes = new Map<string, number>();
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
    this.policy = { ...DEFAULT_RETRY_POLICY, ...deps.policy };
  }

  /** At start-up: a batch that was running when the app stopped waits for Resume; timed pauses are re-armed. */
  recover(): void {
    // Jobs in flight when the app stopped are never resent, even when reconciliation finds them refunded.
    this.deps.batches.settleStale();
    // After a restart every batch that was running, or waiting to go on by itself, waits for Resume (a wait
    // the service asked for still holds: Resume is refused until it is over).
    for (const batch of [...this.deps.batches.batchesInState('running'), ...this.deps.batches.batchesInState('paused').filter((b) => b.pause?.until)]) {
      this.setState(batch.id, 'paused', { reason: 'restarted', until: null, needed: null, notBefore: specWait(batch.pause) || null }, this.now());
    }
  }

  start(batchId: string): void {
    const batch = this.require(batchId);
    this.balance.forget(); // read it afresh: the user may have topped up
    this.setState(batch.id, 'running', null, this.now());
    this.deps.changed(batchId);
    void this.pump(batchId);
  }

  pause(batchId: string): BatchRow {
    const batch = this.require(batchId);
    if (batch.state === 'running' || (batch.state === 'paused' && batch.pause?.reason !== 'user')) {
      // A user's pause holds even over a timed wait (which then no longer resumes the batch by itself).
      this.clearTimer(batchId);
      this.setState(batchId, 'paused', { reason: 'user', until: null, needed: null, notBefore: specWait(batch.pause) || null }, this.now());
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
      this.balance.forget(); // read it afresh: the user may have topped up
      this.setState(batchId, 'running', null, this.now());
      // Sends that ended while nobody was acting on them (a crash, a pause) are judged on the running batch, and
      // a pause that judging decides stands (a wait the service asked for, a key every job would fail with).
      for (const job of this.deps.batches.undecided(batchId)) this.decide(job, this.deps.batches.getBatch(batchId));
      this.liftCreditsPause(batchId);
      this.deps.changed(batchId);
    }
    void this.pump(batchId);
    return this.require(batchId);
  }

  /**
   * Resume is what a pause for credits asks for (after a top-up): one decided from an old 402 does not hold it,
   * since nothing is sent before the balance is read afresh and a short balance pauses again on the service's figure.
   */
  private liftCreditsPause(batchId: string): void {
    const batch = this.deps.batches.getBatch(batchId);
    if (batch?.state !== 'paused' || batch.pause?.reason !== 'insufficient_credits' || specWait(batch.pause) > this.now()) return;
    this.setState(batchId, 'running', null, this.now());
  }

  /** Sends no more; jobs in flight finish. */
  cancel(batchId: string): BatchRow {
    const batch = this.require(batchId);
    if (batch.state === 'done' || batch.state === 'cancelled') return batch;
    this.clearTimer(batchId);
    this.deps.batches.cancelQueued(batchId);
    this.setState(batchId, 'cancelled', null, this.now());
    this.deps.changed(batchId);
    return this.require(batchId);
  }

  setConcurrency(batchId: string, concurrency: number): BatchRow {
    this.require(batchId);
    this.deps.batches.setConcurrency(batchId, concurrency, this.now());
    this.wrote(batchId);
    this.deps.changed(batchId);
    void this.pump(batchId);
    return this.require(batchId);
  }

  /** The batch's budget changed (reruns.ts raises it): the queue goes on under the new one. */
  setBudget(batchId: string, budget: number | null): void {
    this.require(batchId);
    this.deps.batches.setBudget(batchId, budget, this.now());
    this.wrote(batchId);
    this.deps.changed(batchId);
  }

  /**
   * Jobs were added to the queue or queued again by a person (reruns.ts): a batch that had ended runs again to
   * send them; a running one sends them in turn; a paused one keeps its pause (a wait, credits, the user) and sends
   * them on Resume.
   */
  goOn(batchId: string): void {
    const batch = this.require(batchId);
    if (batch.state === 'done' || batch.state === 'cancelled') {
      this.start(batchId);
      return;
    }
    this.wrote(batchId);
    this.deps.changed(batchId);
    void this.pump(batchId);
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
    const now = this.now();
    const jobs: BatchJob[] = this.deps.batches.jobViews(batchId).map(({ job, turn, replacedBy }) => {
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
        origin: job.origin,
        replaces: job.replaces,
        replacedBy,
        retry: retryOffer(jobRetryVerdict(jobFacts({ job, turn, replacedBy }), now), language),
      };
    });
    return { ...this.present(batch), jobs };
  }

  private present(batch: BatchRow): BatchSummary {
    const tally = this.deps.batches.tally(batch.id);
    const { counts } = tally;
    const parts = batchParts(counts);
    const remaining = parts.remaining;
    const etaMs = batch.state === 'running' && tally.meanMs !== null && remaining > 0 ? Math.round((tally.meanMs * remaining) / batch.concurrency) : null;
    return {
      id: batch.id,
      name: batch.name,
      createdAt: batch.createdAt,
      environment: batch.environment,
      shotListId: batch.shotListId,
      shotListName: batch.shotListName,
      state: batch.state,
      pause: batch.pause ? this.presentPause(batch.pause) : null,
      budget: batch.budget,
      concurrency: batch.concurrency,
      planned: batch.planned,
      jobCount: jobCountOf(counts),
      counts,
      done: parts.done,
      failed: parts.failed + parts.unknown,
      remaining,
      parts,
      spent: tally.spent,
      reserved: tally.reserved,
      etaMs,
      reruns: this.deps.batches.reruns(batch.id),
    };
  }

  private presentPause(pause: StoredPause): BatchPause {
    const language = this.deps.language();
    return {
      reason: pause.reason,
      until: pause.until,
      needed: pause.needed,
      message: mainMessage(`batch_paused_${pause.reason}` as MainCode, { ...pause.params, cause: this.pauseCause(pause, language), until: pause.until, needed: pause.needed }, language),
    };
  }

  /** What stopped every job, in the reader's language (the code's own message), for the catalog's pause text. */
  private pauseCause(pause: StoredPause, language: Language): string {
    const code = pause.params?.code;
    return typeof code === 'string' && code !== '' ? renderError({ code, params: pause.params }, language).message : '';
  }

  // ---- the queue ----

  private setState(batchId: string, state: BatchRow['state'], pause: StoredPause | null, now: number): void {
    this.deps.batches.setState(batchId, state, pause, now);
    this.wrote(batchId);
  }

  private wrote(batchId: string): void {
    this.writes.set(batchId, (this.writes.get(batchId) ?? 0) + 1);
  }

  /** This process's write count for the batch (a step's read still holds while it is unchanged). */
  private written(batchId: string): number {
    return this.writes.get(batchId) ?? 0;
  }

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

  /** `read`: the batch row as the caller read it, when nothing was written since (saves reading it again). */
  private pausedFor(batchId: string, pause: StoredPause, read?: BatchRow | null): void {
    const batch = read ?? this.deps.batches.getBatch(batchId);
    if (!batch || batch.state === 'cancelled' || batch.state === 'done') return;
    // A wait the service asked for (429, daily limit) holds whatever pause comes after it; the latest time wins.
    const notBefore = Math.max(specWait(pause), specWait(batch.pause)) || null;
    // The user's own pause is the strongest: a wait met meanwhile is kept but does not resume the batch by itself.
    const shown: StoredPause = batch.state === 'paused' && batch.pause?.reason === 'user' ? { ...batch.pause, until: null } : pause;
    const until = shown.until !== null ? Math.max(shown.until, notBefore ?? 0) : null;
    this.setState(batchId, 'paused', { ...shown, until, notBefore }, this.now());
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

  /**
   * Sends queued jobs while the batch runs and there is room (concurrency, budget, balance). Each step reads the
   * batch row once; a write by this process meanwhile (a pause, a cancel, Resume) makes the step start over.
   */
  private async fill(batchId: string): Promise<void> {
    for (;;) {
      if (this.closed) return;
      const batch = this.deps.batches.getBatch(batchId);
      if (!batch || batch.state !== 'running') return;
      const step = await this.sendNext(batch, this.written(batchId));
      if (step === 'stop') return;
    }
  }

  /** One step: the next queued job is sent, or set aside, or the batch waits or pauses. */
  private async sendNext(batch: BatchRow, seen: number): Promise<'next' | 'stop'> {
    const batchId = batch.id;
    const flying = this.flying(batchId);
    if (flying.size >= batch.concurrency) return 'stop';
    const job = this.deps.batches.nextQueued(batchId);
    if (!job) {
      if (flying.size === 0) {
        this.setState(batchId, 'done', null, this.now());
        this.deps.changed(batchId);
      }
      return 'stop';
    }
    if (batch.environment !== this.deps.environment()) {
      this.pausedFor(batchId, { reason: 'problem', until: null, needed: null, params: { code: 'batch_other_environment', environment: batch.environment } }, batch);
      return 'stop';
    }
    const sending = this.requestAtSend(job);
    if (sending === null) return 'next';
    const { estimate } = sending;
    if (batch.budget !== null) {
      const tally = this.deps.batches.tally(batchId);
      if (tally.spent + tally.reserved + tally.unknownEstimates + estimate > batch.budget) {
        // A job in flight may still cost less than reserved (a partial run): wait for it before giving up.
        if (flying.size > 0) return 'stop';
        this.deps.batches.markNotSent(job.id, 'over_budget', null);
        this.deps.changed(batchId, job.id);
        return 'next';
      }
    }
    const short = await this.shortOfCredits(estimate, flying.size);
    // The batch was paused, cancelled or resumed while the balance was read: read it again.
    if (this.written(batchId) !== seen) return 'next';
    if (short === 'wait') return 'stop';
    if (short !== null) {
      this.pausedFor(batchId, { reason: 'insufficient_credits', until: null, needed: estimate, params: { balance: short.balance } }, batch);
      return 'stop';
    }
    // A job back in the queue after a 429 is never resent before its wait is over (spec §7), even when the
    // pause that held it was replaced (a crash between the two writes, another pause after it).
    const previous = job.retryOf ? this.deps.repo.getTurn(job.retryOf) : null;
    if (previous?.retryAt && previous.retryAt > this.now()) {
      this.pausedFor(batchId, { reason: previous.error?.code === 'new_user_daily_limit' ? 'daily_limit' : 'rate_limited', until: previous.retryAt, needed: null }, batch);
      return 'stop';
    }
    flying.add(job.id);
    let turnId: string;
    try {
      ({ turnId } = await this.deps.runner.start({ request: sending.request, sessionId: job.sessionId }, job.retryOf, {
        batchJobId: job.id,
        // In the turn's own transaction: a job cancelled, or a batch paused, while the key was read is not sent
        // (throwing rolls the turn back, so nothing goes out).
        inTransaction: (id) => {
          if (this.written(batchId) !== seen || !this.deps.batches.markSent(job.id, id, sending)) throw new StudioError('batch_job_withdrawn', { jobId: job.id });
        },
      }));
    } catch (thrown) {
      flying.delete(job.id);
      const error = asStudioError(thrown);
      if (error.code === 'batch_job_withdrawn') return 'stop';
      if (error.status !== 400) {
        // Anything but a request that breaks a rule (no key, another environment, a full disk, the keychain)
        // would stop every job alike: the batch pauses and says why.
        this.pausedFor(batchId, { reason: 'problem', until: null, needed: null, params: { code: error.code, message: error.message } });
        return 'stop';
      }
      // Refused before sending (the request breaks a spec §4.1 rule): this job only; nothing was sent or charged.
      this.deps.batches.markNotSent(job.id, 'failed', error.toStored());
      this.deps.changed(batchId, job.id);
      return 'next';
    }
    this.balance.sent(estimate);
    this.deps.changed(batchId, job.id);
    const follow = this.follow(batchId, job.id, turnId).finally(() => this.follows.delete(follow));
    this.follows.add(follow);
    // Full: the next step comes when a job in flight ends (no read to learn it).
    return flying.size >= batch.concurrency ? 'stop' : 'next';
  }

  /**
   * Whether the Local balance leaves room for the job: null (room, or unknown on Remote), 'wait' (jobs in flight
   * first give back or are charged their reservations), or the balance the service says before a pause.
   */
  private async shortOfCredits(estimate: number, inFlight: number): Promise<null | 'wait' | { balance: number }> {
    const environment = this.deps.environment();
    const known = this.balance.get(environment) ?? (await this.readBalance(environment));
    if (known === null || known >= estimate) return null;
    if (inFlight > 0) return 'wait';
    // The batch pauses on the service's own figure, never on its reckoning alone.
    const balance = await this.readBalance(environment);
    return balance === null || balance >= estimate ? null : { balance };
  }

  /**
   * The request the job goes out with and its price (product-master.ts `requestAtSend`: a first send takes the
   * product's master as chosen now); null when the master cannot go in, and the job is set aside unsent saying why.
   * The request and price are recorded with the turn (`markSent`), before anything goes out.
   */
  private requestAtSend(job: JobRow): { request: JobRow['request']; estimate: number } | null {
    try {
      return requestAtSend(job, this.deps.master?.(job.productId) ?? null);
    } catch (thrown) {
      this.deps.batches.markNotSent(job.id, 'failed', asStudioError(thrown).toStored());
      this.deps.changed(job.batchId, job.id);
      return null;
    }
  }

  private async readBalance(environment: EnvironmentName): Promise<number | null> {
    const credits = await this.deps.balance().catch(() => null);
    this.balance.set(environment, credits);
    return credits;
  }

  private async follow(batchId: string, jobId: string, turnId: string): Promise<void> {
    try {
      await this.deps.runner.whenSettled(turnId);
      const job = this.deps.batches.getJob(jobId);
      if (job) this.decide(job, this.deps.batches.getBatch(batchId));
    } catch (error) {
      this.deps.onTrouble?.(`batch job ${jobId} could not be judged`, error);
    } finally {
      this.flying(batchId).delete(jobId);
      this.deps.changed(batchId, jobId);
    }
    await this.pump(batchId);
  }

  /** Acts on how a sent job's turn ended: the domain's spec §7 verdict (`batchStep`), carried out by the queue. */
  private decide(job: JobRow, batch: BatchRow | null): void {
    if (job.status !== 'sent' || !job.turnId || job.decided) return;
    const turn = this.deps.repo.getTurn(job.turnId);
    if (!turn || turn.status === 'running') return;
    const goingOn = batch !== null && batch.state !== 'cancelled' && batch.state !== 'done';
    this.deps.batches.markDecided(job.id);
    this.balance.settled(job.estimate, turn);
    if (turn.status !== 'failed' || !goingOn) return;
    const code = turn.error?.code ?? '';
    const step = batchStep(turnFacts(turn), this.now(), this.policy);
    switch (step.kind) {
      case 'resend':
        // spec §7: retry once as is (the service refunded); the verdict on the resend's 500 is give_up.
        this.deps.batches.requeue(job.id, turn.id);
        return;
      case 'wait':
        this.deps.batches.requeue(job.id, turn.id);
        this.pausedFor(job.batchId, { reason: step.reason, until: step.until, needed: null }, batch);
        return;
      case 'wait_for_service':
        // Nothing ran (the runner already resent a 503 after a few seconds, as spec §7 says); the service is not
        // answering now: the batch waits and goes on by itself (Resume tries sooner).
        this.deps.batches.requeue(job.id, null);
        this.pausedFor(job.batchId, { reason: 'service_unreachable', until: step.until, needed: null, params: { code } }, batch);
        return;
      case 'hold':
        if (step.for === 'top_up') {
          this.deps.batches.requeue(job.id, turn.id);
          this.pausedFor(job.batchId, { reason: 'insufficient_credits', until: null, needed: job.estimate, params: { ...(turn.error?.details ?? {}) } }, batch);
        } else {
          this.deps.batches.requeue(job.id, null);
          this.pausedFor(job.batchId, { reason: 'problem', until: null, needed: null, params: { code } }, batch);
        }
        return;
      case 'give_up':
        // 400s and the rest: this job only (the same request would get the same answer).
        return;
    }
  }
}
