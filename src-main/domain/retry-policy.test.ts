// spec §7's retry guidance as the app applies it, table by table: what the runner does after each answer, and
// what the user may retry and when. The renderer shows `turnActions`; these rows are the contract.
import { describe, expect, it } from 'vitest';
import { GENERATE_400_CODES, SPEC_ERROR_CODES } from '../../src-shared/errors.ts';
import {
  DEFAULT_RETRY_POLICY,
  afterErrorAnswer,
  afterNetworkEnd,
  batchStep,
  jobRetryVerdict,
  rateLimitWaitMs,
  retryVerdict,
  turnActions,
  type BatchJobFacts,
  type JobRetryRefusal,
  type TurnFacts,
} from './retry-policy.ts';

const now = 1_000_000;
const failed = (code: string, extra: Partial<TurnFacts> = {}): TurnFacts => ({
  status: 'failed',
  error: { code, requestId: 'req_x' },
  requestId: 'req_x',
  retryAt: null,
  retried: false,
  retryOfCode: null,
  isRetry: false,
  ...extra,
});

describe('after an error answer (the runner)', () => {
  it('resends 503 auth_unavailable after each configured wait, then fails', () => {
    const at = (attempt: number) => afterErrorAnswer({ code: 'auth_unavailable' }, { attempt, retryAfterS: 3, rateLimitStreak: 0, now }, DEFAULT_RETRY_POLICY);
    expect([0, 1, 2].map(at)).toEqual([3_000, 6_000, 12_000].map((waitMs) => ({ kind: 'resend_after', waitMs })));
    expect(at(3)).toEqual({ kind: 'fail', retryAt: null });
  });

  it('never resends a 429 itself: it records when a retry may go, the larger of Retry-After and a doubling back-off', () => {
    expect(afterErrorAnswer({ code: 'rate_limited' }, { attempt: 0, retryAfterS: 10, rateLimitStreak: 0, now }, DEFAULT_RETRY_POLICY)).toEqual({ kind: 'fail', retryAt: now + 60_000 });
    expect(afterErrorAnswer({ code: 'rate_limited' }, { attempt: 0, retryAfterS: 3600, rateLimitStreak: 0, now }, DEFAULT_RETRY_POLICY)).toEqual({ kind: 'fail', retryAt: now + 3_600_000 });
    expect(rateLimitWaitMs(3, null, DEFAULT_RETRY_POLICY)).toBe(480_000);
    expect(rateLimitWaitMs(40, null, DEFAULT_RETRY_POLICY)).toBe(DEFAULT_RETRY_POLICY.rateLimitMaxMs);
    expect(afterErrorAnswer({ code: 'new_user_daily_limit' }, { attempt: 0, retryAfterS: 7200, rateLimitStreak: 0, now }, DEFAULT_RETRY_POLICY)).toEqual({ kind: 'fail', retryAt: now + 7_200_000 });
  });

  it.each(['internal_error', 'insufficient_credits', 'invalid_ratio', 'banned', 'session_not_found', 'something_new'])('fails %s without resending', (code) => {
    expect(afterErrorAnswer({ code }, { attempt: 0, retryAfterS: null, rateLimitStreak: 0, now }, DEFAULT_RETRY_POLICY)).toEqual({ kind: 'fail', retryAt: null });
  });

  it('after a timeout, a dropped connection or an unreadable success the outcome is unknown and nothing is resent (spec §7 rule 5)', () => {
    for (const end of ['timeout', 'dropped', 'unreadable_success', 'app_closed'] as const) expect(afterNetworkEnd(end, DEFAULT_RETRY_POLICY).kind).toBe('unknown');
    expect(afterNetworkEnd('timeout', DEFAULT_RETRY_POLICY)).toMatchObject({ note: { code: 'outcome_unknown', params: { why: 'timeout', seconds: 330 } } });
    expect(afterNetworkEnd('unreachable', DEFAULT_RETRY_POLICY)).toEqual({ kind: 'fail', retryAt: null });
    expect(afterNetworkEnd('cancelled', DEFAULT_RETRY_POLICY).kind).toBe('cancelled');
  });
});

describe('what the user may retry (the runner enforces it, the card shows it)', () => {
  const rows: Array<[string, TurnFacts, ReturnType<typeof turnActions>['retry']]> = [
    ['500: one retry', failed('internal_error'), { offer: 'now', kind: 'retry_once', availableAt: null, reason: null }],
    ['500 already retried once', failed('internal_error', { retried: true }), { offer: 'never', kind: null, availableAt: null, reason: 'already_retried' }],
    ['500 on the retry of a 500', failed('internal_error', { isRetry: true, retryOfCode: 'internal_error' }), { offer: 'never', kind: null, availableAt: null, reason: 'retry_limit_reached' }],
    ['429 before its wait', failed('rate_limited', { retryAt: now + 5_000 }), { offer: 'later', kind: 'retry_after_wait', availableAt: now + 5_000, reason: 'retry_too_early' }],
    ['429 after its wait', failed('rate_limited', { retryAt: now - 1 }), { offer: 'now', kind: 'retry_after_wait', availableAt: null, reason: null }],
    ['new-account cap before the next day', failed('new_user_daily_limit', { retryAt: now + 3_600_000 }), { offer: 'later', kind: 'retry_after_wait', availableAt: now + 3_600_000, reason: 'retry_too_early' }],
    ['503 after the automatic resends', failed('auth_unavailable'), { offer: 'now', kind: 'retry_safe', availableAt: null, reason: null }],
    ['service unreachable', failed('service_unreachable'), { offer: 'now', kind: 'retry_safe', availableAt: null, reason: null }],
    ['402', failed('insufficient_credits'), { offer: 'never', kind: null, availableAt: null, reason: 'fix_request' }],
    ['a full disk after the charge', failed('disk_full'), { offer: 'never', kind: null, availableAt: null, reason: 'fix_request' }],
    ['outcome unknown', { ...failed('x'), status: 'outcome_unknown', error: null }, { offer: 'never', kind: null, availableAt: null, reason: 'outcome_unknown' }],
    ['stopped waiting', { ...failed('x'), status: 'cancelled', error: null }, { offer: 'never', kind: null, availableAt: null, reason: 'outcome_unknown' }],
    ['succeeded', { ...failed('x'), status: 'succeeded', error: null }, { offer: 'never', kind: null, availableAt: null, reason: 'succeeded' }],
  ];
  it('a turn the service does not know (judged after a crash or restore): a person may resend it, the queue gives up', () => {
    const facts = failed('not_on_service');
    expect(turnActions(facts, now).retry.offer).toBe('now');
    expect(batchStep(facts, now, DEFAULT_RETRY_POLICY)).toEqual({ kind: 'give_up' });
  });

  it.each(rows)('%s', (_name, facts, expected) => {
    expect(turnActions(facts, now).retry).toEqual(expected);
    // The runner's verdict agrees with what is shown.
    expect(retryVerdict(facts, now).allowed).toBe(expected.offer === 'now');
  });

  it.each([
    ['insufficient_credits', 'top_up'],
    ['invalid_api_key', 'keys'],
    ['insufficient_scope', 'keys'],
    ['session_not_found', 'new_session'],
    ['disk_full', 'free_space'],
    ['internal_error', null],
  ])('names the fix for %s: %s', (code, fix) => {
    expect(turnActions(failed(code), now).fix).toBe(fix);
  });

  it('offers "stop waiting" only while the run waits for the service', () => {
    expect(turnActions({ ...failed('x'), status: 'running', error: null }, now).stopWaiting).toBe(true);
    expect(turnActions(failed('internal_error'), now).stopWaiting).toBe(false);
  });

  it('after "stop waiting" the run goes on in the background: no second stop, abort still offered until it ends', () => {
    const running = { ...failed('x'), status: 'running' as const, error: null };
    expect(turnActions(running, now)).toMatchObject({ stopWaiting: true, abort: true });
    expect(turnActions({ ...running, waitingInBackground: true }, now)).toMatchObject({ stopWaiting: false, abort: true });
    expect(turnActions({ ...running, status: 'succeeded', waitingInBackground: true }, now)).toMatchObject({ stopWaiting: false, abort: false });
    expect(turnActions(failed('internal_error'), now).abort).toBe(false);
  });
});

describe('a batch job gets the verdict a single generation gets, for every spec §7 answer', () => {
  const policy = DEFAULT_RETRY_POLICY;
  /** What the single generation offers (its retry offer and fix) and what the batch does, side by side. */
  const both = (facts: TurnFacts) => {
    const single = turnActions(facts, now);
    return { offer: single.retry.offer, kind: single.retry.kind, fix: single.fix, batch: batchStep(facts, now, policy) };
  };
  const soon = now + 5_000;
  const rows: Array<[string, TurnFacts, ReturnType<typeof both>]> = [
    ...GENERATE_400_CODES.map((code): [string, TurnFacts, ReturnType<typeof both>] => [`400 ${code}`, failed(code), { offer: 'never', kind: null, fix: null, batch: { kind: 'give_up' } }]),
    ['401 unauthorized', failed('unauthorized'), { offer: 'never', kind: null, fix: 'keys', batch: { kind: 'hold', for: 'key' } }],
    ['401 invalid_api_key', failed('invalid_api_key'), { offer: 'never', kind: null, fix: 'keys', batch: { kind: 'hold', for: 'key' } }],
    ['402 insufficient_credits', failed('insufficient_credits'), { offer: 'never', kind: null, fix: 'top_up', batch: { kind: 'hold', for: 'top_up' } }],
    ['403 insufficient_scope', failed('insufficient_scope'), { offer: 'never', kind: null, fix: 'keys', batch: { kind: 'hold', for: 'key' } }],
    ['403 banned', failed('banned'), { offer: 'never', kind: null, fix: null, batch: { kind: 'hold', for: 'key' } }],
    ['404 session_not_found', failed('session_not_found'), { offer: 'never', kind: null, fix: 'new_session', batch: { kind: 'give_up' } }],
    ['404 not_found', failed('not_found'), { offer: 'never', kind: null, fix: null, batch: { kind: 'give_up' } }],
    ['429 rate_limited', failed('rate_limited', { retryAt: soon }), { offer: 'later', kind: 'retry_after_wait', fix: null, batch: { kind: 'wait', reason: 'rate_limited', until: soon } }],
    ['429 new_user_daily_limit', failed('new_user_daily_limit', { retryAt: soon }), { offer: 'later', kind: 'retry_after_wait', fix: null, batch: { kind: 'wait', reason: 'daily_limit', until: soon } }],
    ['500 internal_error', failed('internal_error'), { offer: 'now', kind: 'retry_once', fix: null, batch: { kind: 'resend' } }],
    ['500 on the retry of a 500', failed('internal_error', { isRetry: true, retryOfCode: 'internal_error' }), { offer: 'never', kind: null, fix: null, batch: { kind: 'give_up' } }],
    ['503 auth_unavailable after the resends', failed('auth_unavailable'), { offer: 'now', kind: 'retry_safe', fix: null, batch: { kind: 'wait_for_service', until: now + policy.serviceWaitMs } }],
    ['no answer (service unreachable)', failed('service_unreachable'), { offer: 'now', kind: 'retry_safe', fix: null, batch: { kind: 'wait_for_service', until: now + policy.serviceWaitMs } }],
    ['timeout (outcome unknown)', { ...failed('x'), status: 'outcome_unknown', error: null }, { offer: 'never', kind: null, fix: null, batch: { kind: 'give_up' } }],
  ];

  it('covers every code of spec §7', () => {
    const covered = new Set(rows.map(([, facts]) => facts.error?.code));
    expect(SPEC_ERROR_CODES.filter((code) => !covered.has(code))).toEqual([]);
  });

  it('a turn the service does not know (judged after a crash or restore): a person may resend it, the queue gives up', () => {
    const facts = failed('not_on_service');
    expect(turnActions(facts, now).retry.offer).toBe('now');
    expect(batchStep(facts, now, policy)).toEqual({ kind: 'give_up' });
  });

  it.each(rows)('%s', (_name, facts, expected) => {
    const got = both(facts);
    expect(got).toEqual(expected);
    // The batch resends exactly when the single generation may retry, and waits exactly as long.
    expect(got.batch.kind === 'resend' || got.batch.kind === 'wait' || got.batch.kind === 'wait_for_service').toBe(got.offer !== 'never');
    if (got.batch.kind === 'wait') expect(got.batch.until).toBe(turnActions(facts, now).retry.availableAt);
  });
});

describe('what a person may retry by hand in a batch (batch:retry-job), for every spec §7 answer', () => {
  const job = (code: string | null, extra: Partial<BatchJobFacts> = {}): BatchJobFacts => ({
    status: 'failed', sent: true, replaced: false, handRetry: false, code, retryAt: null, requestId: 'req_x', ...extra,
  });
  const soon = now + 5_000;
  const refused = (reason: JobRetryRefusal) => reason;
  const rows: Array<[string, BatchJobFacts, true | JobRetryRefusal]> = [
    ...GENERATE_400_CODES.map((code): [string, BatchJobFacts, JobRetryRefusal] => [`400 ${code}`, job(code), refused('fix_request')]),
    ['401 unauthorized', job('unauthorized'), refused('key')],
    ['401 invalid_api_key', job('invalid_api_key'), refused('key')],
    ['402 insufficient_credits', job('insufficient_credits'), refused('top_up')],
    ['403 insufficient_scope', job('insufficient_scope'), refused('key')],
    ['403 banned', job('banned'), refused('key')],
    ['404 session_not_found', job('session_not_found'), refused('fix_request')],
    ['404 not_found', job('not_found'), refused('fix_request')],
    ['429 rate_limited before its wait', job('rate_limited', { retryAt: soon }), refused('too_early')],
    ['429 new_user_daily_limit before the next day', job('new_user_daily_limit', { retryAt: soon }), refused('too_early')],
    ['429 rate_limited after its wait', job('rate_limited', { retryAt: now - 1 }), true],
    // The queue's own resend was spec §7's one retry; the person may send it once more (both refunded).
    ['500 internal_error after the automatic resend', job('internal_error'), true],
    ['500 on a retry made by hand', job('internal_error', { handRetry: true }), refused('limit_reached')],
    ['503 auth_unavailable after the resends', job('auth_unavailable'), true],
    ['no answer (service unreachable)', job('service_unreachable'), true],
    ['a turn the service does not know (judged after a crash)', job('not_on_service'), true],
    ['charged, but the disk was full', job('disk_full'), refused('free_space')],
    ['outcome unknown (timeout, crash)', job(null, { status: 'unknown' }), refused('may_pay_twice')],
    ['refused before sending', job('invalid_ratio', { sent: false }), refused('fix_request')],
    ['already retried by hand', job('internal_error', { replaced: true }), refused('replaced')],
    ['over budget', job(null, { status: 'over_budget', sent: false }), refused('over_budget')],
    ['cancelled before sending', job(null, { status: 'cancelled', sent: false }), refused('not_sent')],
    ['done', job(null, { status: 'succeeded' }), refused('succeeded')],
    ['queued', job(null, { status: 'queued', sent: false }), refused('in_progress')],
    ['running', job(null, { status: 'running' }), refused('in_progress')],
  ];

  it('covers every code of spec §7', () => {
    const covered = new Set(rows.map(([, facts]) => facts.code));
    expect(SPEC_ERROR_CODES.filter((code) => !covered.has(code))).toEqual([]);
  });

  it.each(rows)('%s', (_name, facts, expected) => {
    const verdict = jobRetryVerdict(facts, now);
    expect(verdict.allowed ? true : verdict.reason).toBe(expected);
  });

  it('a 429 says from when, and a 500 on a retry by hand names its request id', () => {
    expect(jobRetryVerdict(job('rate_limited', { retryAt: soon }), now)).toMatchObject({ allowed: false, availableAt: soon, params: { retryAt: soon } });
    expect(jobRetryVerdict(job('internal_error', { handRetry: true }), now)).toMatchObject({ params: { requestId: 'req_x' } });
  });
});
