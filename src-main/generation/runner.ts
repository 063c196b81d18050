// Running generations (spec §4.1). What to do after each answer (resend after 503, back off after 429, one
// retry after 500, never resend after a timeout) is decided by the domain layer (../domain/retry-policy.ts);
// this runner only carries it out and records the turn as codes and facts (../domain/errors.ts).
import { setTimeout as sleep } from 'node:timers/promises';
import type { GenerateRequest, GenerateResult } from '../../src-shared/api.ts';
import { DEFAULT_PURPOSE, DEFAULT_RATIO, pixelSize } from '../../src-shared/catalog.ts';
import type { GenerationProgress, TurnRecord } from '../../src-shared/ipc/generation.ts';
import type { EnvironmentName } from '../../src-shared/ipc/settings.ts';
import type { Language } from '../../src-shared/language.ts';
import { validateGenerateRequest } from '../../src-shared/validation.ts';
import type { ServiceClient } from '../clients/service-client.ts';
import type { DesktopShell } from '../ports/desktop-shell.ts';
import { StudioError, asStudioError, type StoredError } from '../domain/errors.ts';
import { newLocalId } from '../domain/ids.ts';
import { mainMessage, type StoredNote } from '../domain/messages.ts';
import { DEFAULT_RETRY_POLICY, afterErrorAnswer, afterNetworkEnd, retryVerdict, type FinalStep, type NetworkEnd, type RetryPolicy } from '../domain/retry-policy.ts';
import { fromServiceAnswer } from '../domain/service-answer.ts';
import { presentTurn, type StoredTurn } from '../domain/turns.ts';
import { transaction, type LibraryDatabase } from '../library/index.ts';
import { AppMeta, type LibraryRepo, type SendJournal, type TurnPatch } from '../library/index.ts';

/** The runner's policy is the domain's spec §7 policy (tests shorten its waits). */
export type GenerationPolicy = RetryPolicy;

export interface GenerationDeps {
  db: LibraryDatabase;
  repo: LibraryRepo;
  shell: DesktopShell;
  language: () => Language;
  environment: () => EnvironmentName;
  clientFor: (environment: EnvironmentName, overrides: { generateTimeoutMs: number }) => Promise<ServiceClient>;
  onProgress: (progress: GenerationProgress) => void;
  onTurnChanged: (turnId: string) => void;
  onImagesReady: (turn: StoredTurn) => void;
  onImageChanged?: (imageId: string) => void;
  /** Every request is recorded here before it is sent (library/send-journal.ts), outside library.db. */
  sendJournal?: SendJournal;
  /** The app data folder, named in a disk-full error. */
  dataDir?: string;
  /** Something went wrong that the user is told about through the turn; this is for the log. */
  onTrouble?: (message: string, error: unknown) => void;
  policy?: Partial<GenerationPolicy>;
  now?: () => number;
}

interface Running {
  controller: AbortController;
  startedAt: number;
  /** The user stopped waiting: the call goes on in the background (`stopWaiting`). */
  background: boolean;
}

export class GenerationRunner {
  private readonly deps: GenerationDeps;
  private readonly policy: GenerationPolicy;
  private readonly running = new Map<string, Running>();
  private readonly tasks = new Set<Promise<void>>();
  /** Each running turn's task (whenSettled). */
  private readonly taskOf = new Map<string, Promise<void>>();
  /** Outcomes that could not be written (a full disk): kept here and written as soon as the disk allows. */
  private readonly unsaved = new Map<string, TurnPatch>();
  private unsavedTimer: NodeJS.Timeout | null = null;
  private readonly now: () => number;

  constructor(deps: GenerationDeps) {
    this.deps = deps;
    this.policy = { ...DEFAULT_RETRY_POLICY, ...deps.policy };
    this.now = deps.now ?? Date.now;
  }

  /** Turns an earlier run left `running` (the app quit or died mid-request): their outcome is unknown. */
  recoverInterrupted(): string[] {
    const ids: string[] = [];
    for (const turn of this.deps.repo.turnsWithStatus('running')) {
      if (this.running.has(turn.id)) continue;
      try {
        this.deps.repo.updateTurn(turn.id, { status: 'outcome_unknown', outcome: { code: 'outcome_unknown', params: { why: 'crashed' } }, finishedAt: this.now() });
        ids.push(turn.id);
      } catch (error) {
        // A full disk must not stop the app from starting; the row stays `running` until the next start.
        this.deps.onTrouble?.(`could not mark interrupted generation ${turn.id}`, error);
      }
    }
    return ids;
  }

  /** A turn as the renderer receives it: text in the UI language and the actions spec §7 allows now. */
  present(turn: StoredTurn): TurnRecord {
    // An outcome the disk could not take yet is shown as it is, not as the stale row.
    const unsaved = this.unsaved.get(turn.id);
    const shown: StoredTurn = unsaved ? { ...turn, ...definedOnly(unsaved) } : turn;
    return presentTurn(shown, this.deps.language(), this.now(), this.running.get(turn.id)?.background === true);
  }

  /**
   * Checks the request, records the turn and starts the call; resolves as soon as the turn exists. `inTransaction`
   * runs inside the transaction that records the turn (a batch links its job to the turn there, so a crash can
   * never leave a sent job that looks unsent).
   */
  async start(
    input: { request: GenerateRequest; sessionId?: string | undefined },
    retryOf: string | null = null,
    hooks: { inTransaction?: (turnId: string) => void; batchJobId?: string } = {},
  ): Promise<{ turnId: string }> {
    const environment = this.deps.environment();
    const { session_id: serviceSessionInRequest, ...request } = input.request;
    // Every rule of spec §4.1 that needs no server state is checked before anything is sent or recorded.
    const checked = validateGenerateRequest(request);
    if (!checked.ok) {
      const { code, params, status } = checked.error;
      throw new StudioError(code, { ...params }, { status });
    }
    const client = await this.deps.clientFor(environment, { generateTimeoutMs: this.policy.generateTimeoutMs });
    const { repo } = this.deps;
    let sessionId = input.sessionId ?? null;
    if (sessionId) {
      const session = repo.sessionRow(sessionId);
      if (!session) throw new StudioError('local_session_not_found', { sessionId });
      if (session.environment !== environment) {
        throw new StudioError('environment_mismatch', { sessionEnvironment: session.environment, environment });
      }
    } else if (serviceSessionInRequest) {
      sessionId = repo.findSessionByService(environment, serviceSessionInRequest);
    }
    const turnId = newLocalId('lt_');
    const now = this.now();
    transaction(this.deps.db, () => {
      if (!sessionId) {
        sessionId = newLocalId('ls_');
        repo.createSession(sessionId, environment, now);
        if (serviceSessionInRequest) repo.setSessionService(sessionId, serviceSessionInRequest, 'API generation');
      }
      repo.createTurn({
        id: turnId,
        sessionId,
        environment,
        request,
        estimate: checked.value.estimate,
        startedAt: now,
        retryOf,
        referenceImageIds: request.ref_image_ids ?? [],
      });
      repo.touchSession(sessionId, now);
      if (this.deps.sendJournal) new AppMeta(this.deps.db).recordSendsThrough(now);
      hooks.inTransaction?.(turnId);
    });
    const journalled = { turnId, sessionId: sessionId as string, environment, request, estimate: checked.value.estimate, startedAt: now, retryOf, batchJobId: hooks.batchJobId ?? null };
    try {
      this.deps.sendJournal?.record(journalled);
    } catch (error) {
      // The library holds the turn already; the journal only guards against a restore, so the send goes on.
      this.deps.onTrouble?.(`could not journal generation ${turnId} before sending`, error);
    }
    const controller = new AbortController();
    this.running.set(turnId, { controller, startedAt: now, background: false });
    this.deps.onTurnChanged(turnId);
    const task = this.run(turnId, client, request, controller.signal)
      .catch((error: unknown) => this.deps.onTrouble?.(`generation ${turnId} could not be settled`, error))
      .finally(() => {
        this.running.delete(turnId);
        this.tasks.delete(task);
        this.taskOf.delete(turnId);
      });
    this.tasks.add(task);
    this.taskOf.set(turnId, task);
    return { turnId };
  }

  /**
   * Aborts the connection of a running turn (foreground or background): it ends `cancelled`. The service may
   * still finish it and charge, and its images never arrive (the turn's note says so).
   */
  cancel(turnId: string): { cancelled: boolean } {
    const running = this.running.get(turnId);
    if (!running) return { cancelled: false };
    running.controller.abort();
    return { cancelled: true };
  }

  /**
   * Stops waiting in the foreground: nothing is aborted, the call goes on and ends as it would have (succeeded
   * with its images downloaded, failed, outcome unknown), with the retry policy unchanged. Only the turn's
   * presentation changes (`waitingInBackground`, `actions.stopWaiting` false), and its end is always notified.
   */
  stopWaiting(turnId: string): { waitingInBackground: boolean } {
    const running = this.running.get(turnId);
    if (!running) return { waitingInBackground: false };
    if (!running.background) {
      running.background = true;
      this.deps.onTurnChanged(turnId);
    }
    return { waitingInBackground: true };
  }

  /** A turn as the renderer receives it, by id (a turn just started, for instance). */
  turn(turnId: string): TurnRecord {
    const turn = this.deps.repo.getTurn(turnId);
    if (!turn) throw new StudioError('turn_not_found', { turnId });
    return this.present(turn);
  }

  runningTurns(): TurnRecord[] {
    return [...this.running.keys()].map((id) => this.deps.repo.getTurn(id)).filter((t): t is StoredTurn => t !== null).map((t) => this.present(t));
  }

  /** Resends a failed turn as a new turn, only where spec §7 allows it (../domain/retry-policy.ts decides). */
  async retry(turnId: string): Promise<{ turnId: string }> {
    const turn = this.deps.repo.getTurn(turnId);
    if (!turn) throw new StudioError('turn_not_found', { turnId });
    const verdict = retryVerdict({ ...turn, isRetry: turn.retryOf !== null }, this.now());
    if (!verdict.allowed) {
      const extra = verdict.code === 'retry_too_early' ? { details: { retryAt: turn.retryAt, waitMs: (turn.retryAt ?? 0) - this.now() } } : {};
      throw new StudioError(verdict.code, verdict.params, extra);
    }
    return this.start({ request: { ...turn.request }, sessionId: turn.sessionId }, turn.id);
  }

  /** Resolves when this turn's call has ended and its outcome is recorded (at once if it is not running). */
  async whenSettled(turnId: string): Promise<void> {
    await this.taskOf.get(turnId);
  }

  /** Waits for every running turn to settle (tests, close). */
  async settle(): Promise<void> {
    while (this.tasks.size > 0) await Promise.allSettled([...this.tasks]);
  }

  /** Stops waiting for every run (the app is closing); their outcome becomes unknown. */
  async close(): Promise<void> {
    for (const r of this.running.values()) r.controller.abort('app_closed');
    await this.settle();
    this.flushUnsaved();
    if (this.unsavedTimer) clearInterval(this.unsavedTimer);
  }

  private progress(turnId: string, status: GenerationProgress['status'], phase: GenerationProgress['phase'], extra: Partial<GenerationProgress> = {}): void {
    const startedAt = this.running.get(turnId)?.startedAt ?? this.now();
    this.deps.onProgress({ turnId, status, phase, elapsedMs: this.now() - startedAt, ...extra });
  }

  /**
   * Records how a turn ended. If the disk is full the outcome is kept in memory (and shown) and written as
   * soon as a write succeeds again; nothing here may throw, or the app would lose the run's result.
   */
  private finish(turnId: string, patch: TurnPatch): void {
    const full: TurnPatch = { finishedAt: this.now(), ...patch };
    try {
      this.deps.repo.updateTurn(turnId, full);
    } catch (error) {
      this.keepUnsaved(turnId, full, error);
    }
    this.deps.onTurnChanged(turnId);
    const turn = this.deps.repo.getTurn(turnId);
    const status = full.status ?? turn?.status ?? 'failed';
    this.progress(turnId, status, 'done');
    // A run the user stopped waiting for is no longer on screen: its end is notified even with the window focused.
    const background = this.running.get(turnId)?.background === true;
    if ((background || !this.deps.shell.isWindowFocused()) && status !== 'cancelled') {
      const language = this.deps.language();
      const ok = status === 'succeeded';
      this.deps.shell.notify(
        mainMessage(ok ? 'notify_done_title' : 'notify_failed_title', {}, language),
        mainMessage(ok ? 'notify_done_body' : 'notify_failed_body', { count: turn?.images.length ?? 0 }, language),
      );
    }
  }

  private keepUnsaved(turnId: string, patch: TurnPatch, error: unknown): void {
    this.deps.onTrouble?.(`could not record the end of generation ${turnId}; kept in memory until the disk allows`, error);
    this.unsaved.set(turnId, { ...this.unsaved.get(turnId), ...patch });
    this.unsavedTimer ??= setInterval(() => this.flushUnsaved(), 5_000);
    this.unsavedTimer.unref();
  }

  private flushUnsaved(): void {
    for (const [turnId, patch] of this.unsaved) {
      try {
        this.deps.repo.updateTurn(turnId, patch);
        this.unsaved.delete(turnId);
        this.deps.onTurnChanged(turnId);
      } catch {
        return; // still full: try again later
      }
    }
    if (this.unsaved.size === 0 && this.unsavedTimer) {
      clearInterval(this.unsavedTimer);
      this.unsavedTimer = null;
    }
  }

  /** Applies a domain decision that ends the turn. */
  private endWith(turnId: string, step: FinalStep, error: StoredError | null, requestId: string | null = error?.requestId ?? null): void {
    const patch: TurnPatch =
      step.kind === 'fail'
        ? { status: 'failed', error, requestId, retryAt: step.retryAt }
        : { status: step.kind === 'unknown' ? 'outcome_unknown' : 'cancelled', outcome: step.note, ...(error ? { error, requestId } : {}) };
    this.finish(turnId, patch);
  }

  private async run(turnId: string, client: ServiceClient, request: GenerateRequest, signal: AbortSignal): Promise<void> {
    const { repo } = this.deps;
    const language = this.deps.language();
    try {
      const session = repo.sessionRow(repo.getTurn(turnId)?.sessionId ?? '');
      const body: GenerateRequest = { ...request, ...(session?.serviceSessionId ? { session_id: session.serviceSessionId } : {}) };
      for (let attempt = 0; ; attempt++) {
        this.progress(turnId, 'running', attempt === 0 ? 'sending' : 'retrying', { attempt: attempt + 1 });
        // Once the request is out, the app only waits for the service's single answer (spec §4.1 is synchronous).
        let answered = false;
        const onSent = (): void => {
          if (!answered) this.progress(turnId, 'running', 'waiting', { attempt: attempt + 1 });
        };
        const result = await client.generate(body, signal, { onSent, clientTurnId: turnId });
        answered = true;
        if (result.ok) {
          this.recordSuccess(turnId, result.value, result.requestId);
          return;
        }
        if (result.kind === 'network') {
          const end: NetworkEnd = result.failure === 'cancelled' ? (signal.reason === 'app_closed' ? 'app_closed' : 'cancelled') : result.failure;
          const error: StoredError | null = end === 'unreachable' ? { code: 'service_unreachable', params: { cause: result.message } } : null;
          this.endWith(turnId, afterNetworkEnd(end, this.policy), error);
          return;
        }
        const error = fromServiceAnswer(result.error, language);
        if (error.code === 'unexpected_response' && (error.status ?? 0) >= 200 && (error.status ?? 0) < 300) {
          // A success we cannot read may still have been charged: like a timeout, never resend.
          this.endWith(turnId, afterNetworkEnd('unreadable_success', this.policy), error);
          return;
        }
        const step = afterErrorAnswer(error, { attempt, retryAfterS: result.retryAfterS, rateLimitStreak: this.rateLimitStreak(turnId), now: this.now() }, this.policy);
        if (step.kind === 'resend_after') {
          // `attempt` names the try that follows the wait (the first resend is attempt 2).
          this.progress(turnId, 'running', 'retrying', { waitMs: step.waitMs, attempt: attempt + 2 });
          try {
            await sleep(step.waitMs, undefined, { signal });
          } catch {
            this.endWith(turnId, { kind: 'cancelled', note: { code: 'cancelled_before_resend' } }, error);
            return;
          }
          continue;
        }
        if (error.code === 'reference_image_missing') {
          const missing = await this.findMissingReferences(client, request).catch(() => []);
          error.details = { ...error.details, missingImageIds: missing };
          for (const id of missing) this.deps.onImageChanged?.(id);
        }
        this.endWith(turnId, step, error);
        return;
      }
    } catch (thrown) {
      // A bug or a full disk must still settle the turn and never end the process. A full disk is a failure
      // the user can act on; anything else leaves the outcome unknown, since the run may have been charged.
      const error = asStudioError(thrown);
      this.deps.onTrouble?.(`generation ${turnId} stopped`, thrown);
      if (error.code === 'disk_full') {
        const turn = repo.getTurn(turnId);
        const needBytes = expectedBytes(turn);
        this.finish(turnId, { status: 'failed', error: { code: 'disk_full', params: { needBytes, path: this.deps.dataDir ?? '' } } });
      } else {
        const note: StoredNote = { code: 'outcome_unknown', params: { why: 'dropped' } };
        this.finish(turnId, { status: 'outcome_unknown', outcome: note, error: error.toStored() });
      }
    }
  }

  /** How many rate-limited turns precede this one in its retry chain (spec §7: back off exponentially). */
  private rateLimitStreak(turnId: string): number {
    let streak = 0;
    let turn = this.deps.repo.getTurn(turnId);
    while (turn?.retryOf) {
      turn = this.deps.repo.getTurn(turn.retryOf);
      if (turn?.error?.code !== 'rate_limited') break;
      streak++;
    }
    return streak;
  }

  /**
   * spec §4.1 rule 4: a deleted reference answers reference_image_missing, and the error names no field.
   * We find which by asking the file endpoint for each reference we know (404 = gone); never by reading
   * the message. Returns the ids found missing.
   */
  private async findMissingReferences(client: ServiceClient, request: GenerateRequest): Promise<string[]> {
    const missing: string[] = [];
    for (const id of request.ref_image_ids ?? []) {
      const image = this.deps.repo.getImage(id);
      if (!image) continue;
      const answer = await client.fileLocation(image.filename);
      if (!answer.ok && answer.kind === 'http' && answer.error.status === 404) {
        this.deps.repo.setMissing(id);
        missing.push(id);
      }
    }
    return missing;
  }

  /** Records a success: images and charge in one transaction, then the downloads start. */
  recordSuccess(turnId: string, result: GenerateResult, requestId: string | null, outcome: StoredNote | null = null): void {
    const { repo } = this.deps;
    const turn = repo.getTurn(turnId);
    if (!turn) return;
    const now = this.now();
    try {
      transaction(this.deps.db, () => {
        repo.setSessionService(turn.sessionId, result.session_id, 'API generation');
        repo.insertImages(
          { id: turnId, sessionId: turn.sessionId, environment: turn.environment, model: turn.estimate.model, purpose: turn.request.purpose_id ?? DEFAULT_PURPOSE, prompt: turn.request.prompt ?? '' },
          result.images.map((i) => ({ id: i.id, filename: i.filename, width: i.width, height: i.height })),
          now,
        );
        repo.updateTurn(turnId, {
          status: 'succeeded',
          // A turn settled late (reconciled, or kept out by a full disk) drops what it said before.
          error: null,
          retryAt: null,
          serviceTurnId: result.turn_id,
          creditsCharged: result.credits_charged,
          warnings: result.warnings,
          requestId,
          durationMs: result.duration_ms,
          finishedAt: now,
          ...(outcome ? { outcome } : {}),
        });
        repo.touchSession(turn.sessionId, now);
      });
    } catch (thrown) {
      const error = asStudioError(thrown);
      if (error.code !== 'disk_full') throw thrown;
      // The service charged and has the images; the library could not take them. Say so, keep the charge
      // visible, and keep what identifies the run so nothing is paid for twice (docs/main-process.md).
      this.finish(turnId, {
        status: 'failed',
        serviceTurnId: result.turn_id,
        creditsCharged: result.credits_charged,
        requestId,
        error: { code: 'disk_full', params: { needBytes: imagesBytes(result), path: this.deps.dataDir ?? '' }, details: { charged: result.credits_charged, serviceTurnId: result.turn_id } },
      });
      return;
    }
    const done = repo.getTurn(turnId);
    if (done) this.deps.onImagesReady(done);
    this.progress(turnId, 'succeeded', 'downloading');
    this.finish(turnId, {});
  }
}

function definedOnly(patch: TurnPatch): Partial<StoredTurn> {
  return Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) as Partial<StoredTurn>;
}

/** Room a PNG of the result needs at most (4 bytes a pixel, uncompressed), to tell the user how much to free. */
function imagesBytes(result: GenerateResult): number {
  return result.images.reduce((sum, i) => sum + i.width * i.height * 4, 0) + 1024 * 1024;
}

function expectedBytes(turn: StoredTurn | null): number {
  if (!turn) return 64 * 1024 * 1024;
  const { width, height } = pixelSize(turn.request.ratio ?? DEFAULT_RATIO, turn.estimate.resolution);
  return turn.estimate.n * width * height * 4 + 1024 * 1024;
}

