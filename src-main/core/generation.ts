// Running generations (spec §4.1) with spec §7's retry guidance done right: 503 auth_unavailable retried
// after a few seconds (bounded); 429 rate_limited waits with exponential back-off and is retried only by
// the user after the wait; 500 offers exactly one retry; a timeout or a broken connection is never resent.
import { setTimeout as sleep } from 'node:timers/promises';
import type { GenerateRequest, GenerateResult } from '../../src-shared/api.ts';
import { errorMessage, isErrorCode, type ErrorCode } from '../../src-shared/errors.ts';
import { randomAlphanumeric } from '../../src-shared/ids.ts';
import type { IpcError } from '../../src-shared/ipc/contract.ts';
import type { GenerationProgress, TurnRecord } from '../../src-shared/ipc/generation.ts';
import type { EnvironmentName } from '../../src-shared/ipc/settings.ts';
import type { Language } from '../../src-shared/language.ts';
import { validateGenerateRequest } from '../../src-shared/validation.ts';
import type { ServiceClient } from '../api/service-client.ts';
import type { DesktopShell } from '../desktop-shell.ts';
import { transaction, type LibraryDatabase } from '../library/database.ts';
import type { LibraryRepo } from '../library/library-repo.ts';
import { StudioError, say, studioError } from './errors.ts';
import { CANCELLED_BEFORE_RESEND_NOTE, CANCELLED_NOTE, UNREACHABLE_ERROR, notifyDone, outcomeUnknownNote } from './notes.ts';

export interface GenerationPolicy {
  /** Deadline of one generate call (spec §1: runs take up to 5 minutes). */
  generateTimeoutMs: number;
  /** Waits before each automatic resend after 503 auth_unavailable; its length bounds the resends. */
  authRetryDelaysMs: number[];
  /** First back-off step after 429 rate_limited; doubles with each rate-limited retry in a row. */
  rateLimitBaseMs: number;
  /** Upper bound of one back-off wait. */
  rateLimitMaxMs: number;
}

export const DEFAULT_POLICY: GenerationPolicy = {
  generateTimeoutMs: 330_000,
  authRetryDelaysMs: [3_000, 6_000, 12_000],
  rateLimitBaseMs: 60_000,
  rateLimitMaxMs: 24 * 3600_000,
};

export interface GenerationDeps {
  db: LibraryDatabase;
  repo: LibraryRepo;
  shell: DesktopShell;
  language: () => Language;
  environment: () => EnvironmentName;
  clientFor: (environment: EnvironmentName, overrides: { generateTimeoutMs: number }) => Promise<ServiceClient>;
  onProgress: (progress: GenerationProgress) => void;
  onTurnChanged: (turnId: string) => void;
  onImagesReady: (turn: TurnRecord) => void;
  onImageChanged?: (imageId: string) => void;
  policy?: Partial<GenerationPolicy>;
  now?: () => number;
}

export function newLocalId(prefix: 'lt_' | 'ls_'): string {
  return prefix + randomAlphanumeric(10);
}

interface Running {
  controller: AbortController;
  startedAt: number;
}

export class GenerationRunner {
  private readonly deps: GenerationDeps;
  private readonly policy: GenerationPolicy;
  private readonly running = new Map<string, Running>();
  private readonly tasks = new Set<Promise<void>>();
  private readonly now: () => number;

  constructor(deps: GenerationDeps) {
    this.deps = deps;
    this.policy = { ...DEFAULT_POLICY, ...deps.policy };
    this.now = deps.now ?? Date.now;
  }

  /** Turns an earlier run left `running` (the app quit mid-request): their outcome is unknown. */
  recoverInterrupted(): void {
    const language = this.deps.language();
    for (const turn of this.deps.repo.turnsWithStatus('running')) {
      if (this.running.has(turn.id)) continue;
      this.deps.repo.updateTurn(turn.id, {
        status: 'outcome_unknown',
        outcomeNote: say(outcomeUnknownNote('app_closed', 0), language),
        finishedAt: this.now(),
      });
    }
  }

  /** Checks the request, records the turn and starts the call; resolves as soon as the turn exists. */
  async start(input: { request: GenerateRequest; sessionId?: string | undefined }, retryOf: string | null = null): Promise<{ turnId: string }> {
    const language = this.deps.language();
    const environment = this.deps.environment();
    const { session_id: serviceSessionInRequest, ...request } = input.request;
    // Every rule of spec §4.1 that needs no server state is checked before anything is sent or recorded.
    const checked = validateGenerateRequest(request);
    if (!checked.ok) {
      const { code, params, status } = checked.error;
      throw new StudioError(code, errorMessage(code, params, language), { status, details: { ...params } });
    }
    const client = await this.deps.clientFor(environment, { generateTimeoutMs: this.policy.generateTimeoutMs });
    const { repo } = this.deps;
    let sessionId = input.sessionId ?? null;
    if (sessionId) {
      const session = repo.sessionRow(sessionId);
      if (!session) throw studioError('session_not_found', { zh: `本地会话 ${sessionId} 不存在。`, en: `Local session ${sessionId} does not exist.` }, language);
      if (session.environment !== environment) {
        throw studioError(
          'environment_mismatch',
          { zh: `该会话属于 ${session.environment} 环境，当前是 ${environment}。`, en: `That session belongs to the ${session.environment} environment; the current one is ${environment}.` },
          language,
        );
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
    });
    const controller = new AbortController();
    this.running.set(turnId, { controller, startedAt: now });
    this.deps.onTurnChanged(turnId);
    const task = this.run(turnId, client, request, controller.signal).finally(() => {
      this.running.delete(turnId);
      this.tasks.delete(task);
    });
    this.tasks.add(task);
    return { turnId };
  }

  /** Stops waiting for a turn. The service may still finish it and charge (the turn's note says so). */
  cancel(turnId: string): { cancelled: boolean } {
    const running = this.running.get(turnId);
    if (!running) return { cancelled: false };
    running.controller.abort();
    return { cancelled: true };
  }

  runningTurns(): TurnRecord[] {
    return [...this.running.keys()].map((id) => this.deps.repo.getTurn(id)).filter((t): t is TurnRecord => t !== null);
  }

  /** Resends a failed turn as a new turn, only where spec §7 allows it. */
  async retry(turnId: string): Promise<{ turnId: string }> {
    const language = this.deps.language();
    const { repo } = this.deps;
    const turn = repo.getTurn(turnId);
    if (!turn) throw studioError('turn_not_found', { zh: `找不到生成记录 ${turnId}。`, en: `No generation ${turnId}.` }, language);
    const refuse = (code: string, text: { zh: string; en: string }, details?: Record<string, unknown>): never => {
      throw studioError(code, text, language, details);
    };
    if (turn.status === 'running') refuse('retry_not_allowed', { zh: '该生成仍在进行中。', en: 'This generation is still running.' });
    if (turn.status === 'succeeded') refuse('retry_not_allowed', { zh: '该生成已经成功，无需重试。', en: 'This generation succeeded; there is nothing to retry.' });
    if (turn.status === 'outcome_unknown' || turn.status === 'cancelled') {
      refuse('retry_not_allowed', {
        zh: '这次生成的结果未知，服务端可能已经生成并扣费，因此不能自动重发。请先在服务网站查看；如需再次生成，请手动发起新的生成。',
        en: 'The outcome of this generation is unknown: the service may have produced and charged for it, so it is not resent. Check the service’s website first; to generate again, start a new generation yourself.',
      });
    }
    const code = turn.error?.code ?? '';
    if (repo.turnsRetrying(turnId) > 0) {
      refuse('retry_not_allowed', { zh: '该生成已经重试过了。', en: 'This generation was already retried.' });
    }
    if (code === 'internal_error') {
      // spec §7: retry once as is; then stop and report with the request id.
      const previous = turn.retryOf ? repo.getTurn(turn.retryOf) : null;
      if (previous?.error?.code === 'internal_error') {
        refuse(
          'retry_limit_reached',
          {
            zh: `已经重试过一次仍然失败。请停止重试，并带上 request_id ${turn.requestId ?? ''} 反馈问题。`,
            en: `It failed again after one retry. Stop retrying and report it with request_id ${turn.requestId ?? ''}.`,
          },
          { requestId: turn.requestId },
        );
      }
    } else if (code === 'rate_limited') {
      const waitMs = (turn.retryAt ?? 0) - this.now();
      if (waitMs > 0) {
        refuse(
          'retry_too_early',
          {
            zh: `该密钥已达到 24 小时请求上限，请在 ${Math.ceil(waitMs / 1000)} 秒后再试（指数退避，不要立即重试）。`,
            en: `This key reached its 24-hour request limit; try again in ${Math.ceil(waitMs / 1000)} s (exponential back-off, never at once).`,
          },
          { retryAt: turn.retryAt, waitMs },
        );
      }
    } else if (code === 'auth_unavailable' || code === 'service_unreachable') {
      // Safe: nothing was run or charged.
    } else if (code === 'new_user_daily_limit') {
      // spec §7: come back the next day; the turn records when (Retry-After).
      const waitMs = (turn.retryAt ?? 0) - this.now();
      if (waitMs > 0) {
        refuse(
          'retry_too_early',
          {
            zh: `新账户的 24 小时消费上限已满，请在 ${Math.ceil(waitMs / 3_600_000)} 小时后再试。`,
            en: `The new account’s 24-hour spending cap is reached; try again in ${Math.ceil(waitMs / 3_600_000)} h.`,
          },
          { retryAt: turn.retryAt, waitMs },
        );
      }
    } else {
      refuse('retry_not_allowed', {
        zh: '同样的请求会得到同样的回答，请先修改请求（见错误说明）。',
        en: 'The same request gets the same answer; fix the request first (see the error).',
      });
    }
    const request: GenerateRequest = { ...turn.request };
    return this.start({ request, sessionId: turn.sessionId }, turn.id);
  }

  /** Waits for every running turn to settle (tests, close). */
  async settle(): Promise<void> {
    while (this.tasks.size > 0) await Promise.allSettled([...this.tasks]);
  }

  /** Stops waiting for every run (the app is closing); their outcome becomes unknown. */
  async close(): Promise<void> {
    for (const r of this.running.values()) r.controller.abort('app_closed');
    await this.settle();
  }

  private progress(turnId: string, status: GenerationProgress['status'], phase: GenerationProgress['phase'], extra: Partial<GenerationProgress> = {}): void {
    const startedAt = this.running.get(turnId)?.startedAt ?? this.now();
    this.deps.onProgress({ turnId, status, phase, elapsedMs: this.now() - startedAt, ...extra });
  }

  private finish(turnId: string, patch: Parameters<LibraryRepo['updateTurn']>[1]): void {
    this.deps.repo.updateTurn(turnId, { finishedAt: this.now(), ...patch });
    this.deps.onTurnChanged(turnId);
    const turn = this.deps.repo.getTurn(turnId);
    if (turn) this.progress(turnId, turn.status, 'done');
    if (turn && !this.deps.shell.isWindowFocused() && turn.status !== 'cancelled') {
      const language = this.deps.language();
      const note = notifyDone(turn.status === 'succeeded', turn.images.length);
      this.deps.shell.notify(say(note.title, language), say(note.body, language));
    }
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
        const result = await client.generate(body, signal, { onSent });
        answered = true;
        if (result.ok) {
          this.recordSuccess(turnId, result.value, result.requestId);
          return;
        }
        if (result.kind === 'network') {
          if (result.failure === 'cancelled') {
            const closing = signal.reason === 'app_closed';
            this.finish(turnId, closing ? { status: 'outcome_unknown', outcomeNote: say(outcomeUnknownNote('app_closed', 0), language) } : { status: 'cancelled', outcomeNote: say(CANCELLED_NOTE, language) });
          } else if (result.failure === 'unreachable') {
            this.finish(turnId, { status: 'failed', error: { code: 'service_unreachable', message: say(UNREACHABLE_ERROR, language), details: { cause: result.message } } });
          } else {
            // spec §7 rule 5: a run may have produced images; resending would be paid twice.
            const note = outcomeUnknownNote(result.failure === 'timeout' ? 'timeout' : 'dropped', Math.round(this.policy.generateTimeoutMs / 1000));
            this.finish(turnId, { status: 'outcome_unknown', outcomeNote: say(note, language) });
          }
          return;
        }
        const error = result.error;
        if (error.code === 'unexpected_response' && (error.status ?? 0) >= 200 && (error.status ?? 0) < 300) {
          // A success we cannot read may still have been charged: like a timeout, never resend.
          this.finish(turnId, { status: 'outcome_unknown', error, requestId: error.requestId ?? null, outcomeNote: say(outcomeUnknownNote('unreadable', 0), language) });
          return;
        }
        if (error.code === 'auth_unavailable' && attempt < this.policy.authRetryDelaysMs.length) {
          // spec §7: retry after a few seconds; nothing was reserved, so a resend is safe.
          const waitMs = this.policy.authRetryDelaysMs[attempt] ?? 3000;
          // `attempt` names the try that follows the wait (the first resend is attempt 2).
          this.progress(turnId, 'running', 'retrying', { waitMs, attempt: attempt + 2 });
          try {
            await sleep(waitMs, undefined, { signal });
          } catch {
            this.finish(turnId, { status: 'cancelled', error, requestId: error.requestId ?? null, outcomeNote: say(CANCELLED_BEFORE_RESEND_NOTE, language) });
            return;
          }
          continue;
        }
        const patch: Parameters<LibraryRepo['updateTurn']>[1] = { status: 'failed', error: localizeError(error, language), requestId: error.requestId ?? null };
        if (error.code === 'rate_limited') patch.retryAt = this.now() + this.backoffMs(turnId, result.retryAfterS);
        if (error.code === 'new_user_daily_limit') patch.retryAt = this.now() + (result.retryAfterS ?? 86_400) * 1000;
        if (error.code === 'reference_image_missing') {
          const missing = await this.findMissingReferences(client, request).catch(() => []);
          patch.error = { ...(patch.error as IpcError), details: { ...error.details, missingImageIds: missing } };
          for (const id of missing) this.deps.onImageChanged?.(id);
        }
        this.finish(turnId, patch);
        return;
      }
    } catch (error) {
      // A bug or a disk problem must still settle the turn; its outcome is unknown since it may have run.
      const message = error instanceof Error ? error.message : String(error);
      this.finish(turnId, { status: 'outcome_unknown', outcomeNote: `${say(outcomeUnknownNote('dropped', 0), language)} (${message})` });
    }
  }

  /** spec §7: 24-hour rolling window, exponential back-off, never at once. */
  private backoffMs(turnId: string, retryAfterS: number | null): number {
    let streak = 0;
    let turn = this.deps.repo.getTurn(turnId);
    while (turn?.retryOf) {
      turn = this.deps.repo.getTurn(turn.retryOf);
      if (turn?.error?.code !== 'rate_limited') break;
      streak++;
    }
    const backoff = this.policy.rateLimitBaseMs * 2 ** streak;
    return Math.min(this.policy.rateLimitMaxMs, Math.max(backoff, (retryAfterS ?? 0) * 1000));
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

  private recordSuccess(turnId: string, result: GenerateResult, requestId: string | null): void {
    const { repo } = this.deps;
    const turn = repo.getTurn(turnId);
    if (!turn) return;
    const now = this.now();
    transaction(this.deps.db, () => {
      repo.setSessionService(turn.sessionId, result.session_id, 'API generation');
      repo.insertImages(
        { id: turnId, sessionId: turn.sessionId, environment: turn.environment, model: turn.estimate.model, purpose: turn.request.purpose_id ?? 'free', prompt: turn.request.prompt ?? '' },
        result.images.map((i) => ({ id: i.id, filename: i.filename, width: i.width, height: i.height })),
        now,
      );
      repo.updateTurn(turnId, {
        status: 'succeeded',
        serviceTurnId: result.turn_id,
        creditsCharged: result.credits_charged,
        warnings: result.warnings,
        requestId,
        durationMs: result.duration_ms,
        finishedAt: now,
      });
      repo.touchSession(turn.sessionId, now);
    });
    const done = repo.getTurn(turnId);
    if (done) this.deps.onImagesReady(done);
    this.progress(turnId, 'succeeded', 'downloading');
    this.finish(turnId, {});
  }
}

/** Keeps the service's message (it already follows Accept-Language); known codes keep their code. */
function localizeError(error: IpcError, _language: Language): IpcError {
  const known: ErrorCode | null = isErrorCode(error.code) ? error.code : null;
  return known ? error : { ...error, details: { ...error.details, unknownCode: true } };
}
