// spec §7's retry guidance, decided in one place for the whole app: what the runner does after each answer,
// how long a back-off lasts, what the user may retry and when, and what must never be resent. The runner
// (generation/runner.ts) asks `afterErrorAnswer`; the batch runner asks `batchStep` after each failed job, which
// is the user's `retryVerdict` carried out by a queue; the renderer only shows `turnActions` (it derives nothing).
import { errorSpec } from '../../src-shared/errors.ts';
import type { TurnActions, TurnStatus } from '../../src-shared/ipc/generation.ts';
import type { StoredError } from './errors.ts';
import type { StoredNote } from './messages.ts';

export interface RetryPolicy {
  /** Deadline of one generate call (spec §1: runs take up to 5 minutes; a little longer before "unknown"). */
  generateTimeoutMs: number;
  /** Waits before each automatic resend after 503 auth_unavailable; its length bounds the resends. */
  authRetryDelaysMs: number[];
  /** First back-off step after 429 rate_limited; doubles with each rate-limited retry in a row. */
  rateLimitBaseMs: number;
  /** Upper bound of one back-off wait. */
  rateLimitMaxMs: number;
  /** How long a batch waits, after the service stopped answering (503 after its resends, unreachable), before it tries again by itself. */
  serviceWaitMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  generateTimeoutMs: 330_000,
  authRetryDelaysMs: [3_000, 6_000, 12_000],
  rateLimitBaseMs: 60_000,
  rateLimitMaxMs: 24 * 3600_000,
  serviceWaitMs: 60_000,
};

/** How a call ended without an answer we can read. */
export type NetworkEnd = 'timeout' | 'dropped' | 'unreachable' | 'cancelled' | 'app_closed' | 'unreadable_success';

/** What the runner does next. */
export type NextStep =
  | { kind: 'resend_after'; waitMs: number }
  | { kind: 'fail'; retryAt: number | null }
  | { kind: 'unknown'; note: StoredNote }
  | { kind: 'cancelled'; note: StoredNote };

/** A step that ends the turn. */
export type FinalStep = Exclude<NextStep, { kind: 'resend_after' }>;

/**
 * After the service answered with an error. `attempt` counts from 0 (the first send); `rateLimitStreak` is how
 * many rate-limited turns precede this one in its retry chain.
 */
export function afterErrorAnswer(
  error: Pick<StoredError, 'code'>,
  context: { attempt: number; retryAfterS: number | null; rateLimitStreak: number; now: number },
  policy: RetryPolicy,
): NextStep {
  switch (error.code) {
    case 'auth_unavailable': {
      // spec §7: retry after a few seconds; nothing was reserved (auth comes first), so a resend is safe.
      const waitMs = policy.authRetryDelaysMs[context.attempt];
      return waitMs === undefined ? { kind: 'fail', retryAt: null } : { kind: 'resend_after', waitMs };
    }
    case 'rate_limited':
      // spec §7: 24-hour rolling window; exponential back-off; never at once. Never resent by the app itself.
      return { kind: 'fail', retryAt: context.now + rateLimitWaitMs(context.rateLimitStreak, context.retryAfterS, policy) };
    case 'new_user_daily_limit':
      // spec §7: come back the next day; the service's Retry-After says when.
      return { kind: 'fail', retryAt: context.now + (context.retryAfterS ?? 86_400) * 1000 };
    default:
      return { kind: 'fail', retryAt: null };
  }
}

/** spec §7 rule 5: after a timeout nothing is resent blindly, since a run may have produced images. */
export function afterNetworkEnd(end: NetworkEnd, policy: RetryPolicy): FinalStep {
  switch (end) {
    case 'unreachable':
      // Nothing reached the service: no run, no charge.
      return { kind: 'fail', retryAt: null };
    case 'cancelled':
      return { kind: 'cancelled', note: { code: 'cancelled_waiting' } };
    case 'app_closed':
      return { kind: 'unknown', note: { code: 'outcome_unknown', params: { why: 'app_closed' } } };
    case 'unreadable_success':
      return { kind: 'unknown', note: { code: 'outcome_unknown', params: { why: 'unreadable' } } };
    case 'timeout':
      return { kind: 'unknown', note: { code: 'outcome_unknown', params: { why: 'timeout', seconds: Math.round(policy.generateTimeoutMs / 1000) } } };
    case 'dropped':
      return { kind: 'unknown', note: { code: 'outcome_unknown', params: { why: 'dropped' } } };
  }
}

export function rateLimitWaitMs(streak: number, retryAfterS: number | null, policy: RetryPolicy): number {
  const backoff = policy.rateLimitBaseMs * 2 ** streak;
  return Math.min(policy.rateLimitMaxMs, Math.max(backoff, (retryAfterS ?? 0) * 1000));
}

/**
 * What a batch does after one of its jobs failed: the verdict a single generation gets (`retryVerdict`, the
 * fix `turnActions` names), carried out by a queue instead of the user.
 */
export type BatchStep =
  /** 500, the first time: send the job again as is (the service refunded). */
  | { kind: 'resend' }
  /** 429 / daily cap: the job goes back in the queue and nothing is sent before `until`. */
  | { kind: 'wait'; reason: 'rate_limited' | 'daily_limit'; until: number }
  /** 503 after the runner's resends, or no answer: nothing ran; the job goes back and the batch tries again at `until`. */
  | { kind: 'wait_for_service'; until: number }
  /** Every job would get the same answer until the user acts (a top-up, a key): the job goes back, the batch holds. */
  | { kind: 'hold'; for: 'top_up' | 'key' }
  /** This job only: the same request gets the same answer (spec §7 rule 1), or its one retry is spent. */
  | { kind: 'give_up' };

export function batchStep(turn: TurnFacts, now: number, policy: RetryPolicy): BatchStep {
  const verdict = retryVerdict(turn, now);
  const code = turn.error?.code ?? '';
  // A turn the service does not know was judged after a crash or a restore: a person may resend it, the queue never
  // does on its own (a replaced service.db would make every paid turn look unknown there).
  if (code === 'not_on_service') return { kind: 'give_up' };
  if (verdict.allowed || verdict.code === 'retry_too_early') {
    switch (verdict.kind) {
      case 'retry_once':
        return { kind: 'resend' };
      case 'retry_after_wait':
        return { kind: 'wait', reason: code === 'new_user_daily_limit' ? 'daily_limit' : 'rate_limited', until: turn.retryAt ?? now + policy.rateLimitBaseMs };
      case 'retry_safe':
        return { kind: 'wait_for_service', until: now + policy.serviceWaitMs };
    }
  }
  if (turn.status !== 'failed') return { kind: 'give_up' };
  const fix = fixFor(code);
  if (fix === 'top_up') return { kind: 'hold', for: 'top_up' };
  // 401/403 are about the key or the account, checked before anything is reserved: every job would get the same.
  const status = errorSpec(code)?.status;
  if (status === 401 || status === 403) return { kind: 'hold', for: 'key' };
  return { kind: 'give_up' };
}

/** What the user may do with a turn: the facts the decision needs. */
export interface TurnFacts {
  status: TurnStatus;
  error: Pick<StoredError, 'code' | 'requestId'> | null;
  requestId: string | null;
  retryAt: number | null;
  /** A later turn already retried this one. */
  retried: boolean;
  /** The error code of the turn this one retried, if it is a retry. */
  retryOfCode: string | null;
  isRetry: boolean;
  /** The user stopped waiting for this running turn; it goes on in the background. */
  waitingInBackground?: boolean;
}

export type RetryVerdict =
  | { allowed: true; kind: 'retry_once' | 'retry_after_wait' | 'retry_safe' }
  | { allowed: false; code: 'retry_not_allowed' | 'retry_too_early' | 'retry_limit_reached'; params: Record<string, unknown>; availableAt: number | null; kind: TurnActions['retry']['kind'] };

/** May the user retry this turn now? The runner enforces it; `turnActions` shows the same answer. */
export function retryVerdict(turn: TurnFacts, now: number): RetryVerdict {
  const never = (reason: string): RetryVerdict => ({ allowed: false, code: 'retry_not_allowed', params: { reason }, availableAt: null, kind: null });
  if (turn.status === 'running') return never('running');
  if (turn.status === 'succeeded') return never('succeeded');
  if (turn.status === 'outcome_unknown' || turn.status === 'cancelled') return never('outcome_unknown');
  if (turn.retried) return never('already_retried');
  const code = turn.error?.code ?? '';
  switch (code) {
    case 'internal_error':
      // spec §7: retry once as is; then stop and report with the request id.
      if (turn.isRetry && turn.retryOfCode === 'internal_error') {
        return { allowed: false, code: 'retry_limit_reached', params: { requestId: turn.error?.requestId ?? turn.requestId ?? '' }, availableAt: null, kind: null };
      }
      return { allowed: true, kind: 'retry_once' };
    case 'rate_limited':
    case 'new_user_daily_limit': {
      const waitMs = (turn.retryAt ?? 0) - now;
      if (waitMs > 0) {
        return { allowed: false, code: 'retry_too_early', params: { reason: code, waitS: waitMs / 1000, retryAt: turn.retryAt }, availableAt: turn.retryAt, kind: 'retry_after_wait' };
      }
      return { allowed: true, kind: 'retry_after_wait' };
    }
    case 'auth_unavailable':
    case 'service_unreachable':
    case 'not_on_service':
      // Nothing was run or charged: safe to send again.
      return { allowed: true, kind: 'retry_safe' };
    default:
      // 400/401/402/403/404 and anything else: the same request gets the same answer (spec §7 rule 1).
      return never('fix_request');
  }
}

/** One job of a batch as a person sees it: the facts `jobRetryVerdict` needs. */
export interface BatchJobFacts {
  status: 'queued' | 'running' | 'succeeded' | 'failed' | 'unknown' | 'over_budget' | 'cancelled';
  /** It went out (it has a turn); a failed job that did not was refused before sending. */
  sent: boolean;
  /** A later job of the batch already stands in for it (a retry made by hand). */
  replaced: boolean;
  /** It is itself a person's retry of another job. */
  handRetry: boolean;
  /** How its last send ended: the code, the time a 429 allows the next send, the request id. */
  code: string | null;
  retryAt: number | null;
  requestId: string | null;
}

/** Why a person may not retry a batch job now (each has its own sentence in the catalog, `batch_retry_refused`). */
export type JobRetryRefusal =
  | 'in_progress'
  | 'succeeded'
  | 'replaced'
  | 'over_budget'
  | 'not_sent'
  | 'may_pay_twice'
  | 'fix_request'
  | 'top_up'
  | 'key'
  | 'free_space'
  | 'too_early'
  | 'limit_reached';

export type JobRetryVerdict = { allowed: true } | { allowed: false; reason: JobRetryRefusal; availableAt: number | null; params: Record<string, unknown> };

/**
 * May a person send a failed batch job again, by hand, as a new job of the batch? The same spec §7 reading as a
 * single generation (`retryVerdict`), with one difference: the one retry after a 500 (rule 3) was the queue's own
 * resend, so the person who reads the failure may send it once more (both 500s were refunded); a job that is itself
 * that retry by hand stops there (report it with its request id; re-shooting the cell stays possible).
 */
export function jobRetryVerdict(job: BatchJobFacts, now: number): JobRetryVerdict {
  const refuse = (reason: JobRetryRefusal, params: Record<string, unknown> = {}, availableAt: number | null = null): JobRetryVerdict => ({
    allowed: false,
    reason,
    availableAt,
    params: { ...params, reason },
  });
  if (job.status === 'queued' || job.status === 'running') return refuse('in_progress');
  if (job.status === 'succeeded') return refuse('succeeded');
  if (job.replaced) return refuse('replaced');
  if (job.status === 'over_budget') return refuse('over_budget');
  if (job.status === 'cancelled') return refuse('not_sent');
  // spec §7 rule 5: the run may have produced images and been charged; sending again may pay twice.
  if (job.status === 'unknown') return refuse('may_pay_twice', { requestId: job.requestId });
  const code = job.code ?? '';
  // Refused before sending: the request breaks a rule of spec §4.1, and would be refused again.
  if (!job.sent) return refuse('fix_request', { code });
  const facts: TurnFacts = {
    status: 'failed',
    error: { code, requestId: job.requestId ?? '' },
    requestId: job.requestId,
    retryAt: job.retryAt,
    retried: false,
    isRetry: false,
    retryOfCode: null,
  };
  const verdict = retryVerdict(facts, now);
  if (verdict.allowed) {
    if (verdict.kind === 'retry_once' && job.handRetry) return refuse('limit_reached', { requestId: job.requestId, code });
    return { allowed: true };
  }
  if (verdict.code === 'retry_too_early') return refuse('too_early', { code, retryAt: verdict.availableAt }, verdict.availableAt);
  const fix = fixFor(code);
  if (fix === 'top_up') return refuse('top_up', { code });
  if (fix === 'keys' || errorSpec(code)?.status === 401 || errorSpec(code)?.status === 403) return refuse('key', { code });
  if (fix === 'free_space') return refuse('free_space', { code });
  return refuse('fix_request', { code });
}

/** The decision as data for the renderer: which actions a turn offers now, and from when. */
export function turnActions(turn: TurnFacts, now: number): TurnActions {
  const verdict = retryVerdict(turn, now);
  const retry: TurnActions['retry'] = verdict.allowed
    ? { offer: 'now', kind: verdict.kind, availableAt: null, reason: null }
    : verdict.code === 'retry_too_early'
      ? { offer: 'later', kind: verdict.kind, availableAt: verdict.availableAt, reason: verdict.code }
      : { offer: 'never', kind: null, availableAt: null, reason: verdict.code === 'retry_not_allowed' ? String(verdict.params.reason) : verdict.code };
  const running = turn.status === 'running';
  return { retry, stopWaiting: running && turn.waitingInBackground !== true, abort: running, fix: turn.status === 'failed' ? fixFor(turn.error?.code ?? '') : null };
}

/** spec §7's "client action" for a code, as the one thing the user can do about it in the app. */
function fixFor(code: string): TurnActions['fix'] {
  if (code === 'disk_full') return 'free_space';
  switch (errorSpec(code)?.action) {
    case 'top_up':
      return 'top_up';
    case 'create_new_key':
    case 'use_key_with_scope':
    case 'add_authorization':
      return 'keys';
    case 'omit_or_own_session':
      return 'new_session';
    default:
      return null;
  }
}
