// POST /api/v1/generate (spec §4.1) in the order of DESIGN.md §3: stateless rules (src-shared), then
// session, references, balance and the new-account cap; then the reservation in one transaction with the
// balance change; the run; settle (refund the difference on partial success) or refund all on failure.
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { MODELS } from '../../src-shared/catalog.ts';
import { newFilename, newId } from '../../src-shared/ids.ts';
import type { Language } from '../../src-shared/language.ts';
import { chargeForProduced } from '../../src-shared/pricing.ts';
import { parseJsonBody, validateGenerateRequest } from '../../src-shared/validation.ts';
import { warningFor, type GenerationWarning } from '../../src-shared/warnings.ts';
import type { GenerateResult } from '../../src-shared/api.ts';
import { transaction } from '../db.ts';
import type { ServiceDeps } from '../deps.ts';
import { failIfTooDeep } from '../http/body.ts';
import { DomainError, fail } from '../http/errors.ts';
import { renderTurnImage, type GenerationJob } from '../generator/index.ts';
import { createAccountsRepo } from '../repos/accounts.ts';
import { createImagesRepo, type ImagesRepo } from '../repos/images.ts';
import { createSessionsRepo } from '../repos/sessions.ts';
import { createTurnsRepo, type TurnsRepo } from '../repos/turns.ts';
import { noteRequestTurn } from './request-ledger.ts';
import { createCreditService, type CreditService } from './credits.ts';
import { failAsForced, faultLatency, type Caller, type GenerateFaultPlan } from '../faults.ts';
import { createRetryingWrites } from '../write-retry.ts';

export const SESSION_TITLE = 'API generation';
/** spec §4.1 billing rule 5 and §8. */
export const NEW_ACCOUNT_DAILY_CAP = 2000;
export const NEW_ACCOUNT_AGE_MS = 7 * 86_400_000;
const DAY_MS = 86_400_000;

/** One step below the requested resolution: what the vendor "returned" under the downgrade fault. */
const NATIVE_BELOW = { '4K': '2K', '2K': '1K', '1K': '512px' } as const;

class RunFailed extends Error {}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new RunFailed('service stopping'));
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new RunFailed('service stopping'));
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

type Estimate = Parameters<typeof chargeForProduced>[0];
type Validated = Extract<ReturnType<typeof validateGenerateRequest>, { ok: true }>['value'];
type RunAnswer = Omit<GenerateResult, 'ok' | 'turn_id' | 'session_id'>;
type MadeImage = { id: string; filename: string; index: number; width: number; height: number };

/** The request body read and checked by the stateless rules (src-shared), or the matching 400. */
function parseGenerateBody(bodyText: string): Validated {
  failIfTooDeep(bodyText);
  const parsed = parseJsonBody(bodyText);
  if (!parsed.ok) fail(parsed.error.code, parsed.error.params);
  const validation = validateGenerateRequest(parsed.value);
  if (!validation.ok) fail(validation.error.code, validation.error.params);
  return validation.value;
}

/**
 * Refunds of failed runs (spec §4.1 billing rule 2). A refund that cannot be written (a full disk, an I/O error) is
 * retried with the service's write back-off until it lands (write-retry.ts); the reservation stays pending meanwhile
 * and is released once (close() is idempotent). On stop, refunds still waiting get one last try; what fails then
 * stays pending for the start-up refund (DESIGN.md §3).
 */
function createRefunds(deps: ServiceDeps, credits: CreditService, turns: TurnsRepo) {
  const { db, clock, logger } = deps;
  const writes = createRetryingWrites({ log: logger, what: 'refund', delays: deps.testing.settleRetryDelaysMs });
  return {
    /** Refunds the turn in full and marks it failed, now or, if that cannot be written, in the background. */
    refund(turnId: string): void {
      writes.write(turnId, () =>
        transaction(db, () => {
          credits.close(turnId, 0);
          turns.finish(turnId, 'failed', 0, null, clock.now());
        }),
      );
    },
    /** The last try of every refund still waiting (on stop). */
    finishAtStop: writes.finishAtStop,
  };
}

/** Seconds until a new account may spend `needed` again (the earliest moment the rolling window allows). */
function capRetryAfter(credits: CreditService, now: number, account: { id: string; created_at: number }, spent: number, needed: number): number {
  let at = account.created_at + NEW_ACCOUNT_AGE_MS;
  if (needed <= NEW_ACCOUNT_DAILY_CAP) {
    let remaining = spent;
    for (const row of credits.spendsLast24h(account.id)) {
      remaining -= row.spend;
      if (remaining + needed <= NEW_ACCOUNT_DAILY_CAP) {
        at = Math.min(at, row.created_at + DAY_MS);
        break;
      }
    }
  }
  return Math.max(1, Math.ceil((at - now) / 1000));
}

/** The warnings of a finished run (spec §4.1): quality ignored, resolution downgraded, fewer images. */
function runWarnings(job: GenerationJob, quality: string | undefined, downgraded: boolean, requested: number, produced: number, language: Language): GenerationWarning[] {
  const warnings: GenerationWarning[] = [];
  if (quality !== undefined && !MODELS[job.model].supportsQuality) {
    warnings.push(warningFor({ feature: 'quality', model: job.model, quality }, language));
  }
  if (downgraded) {
    warnings.push(warningFor({ feature: 'resolution', requested: job.resolution, native: NATIVE_BELOW[job.resolution] }, language));
  }
  if (produced < requested) warnings.push(warningFor({ feature: 'n', requested, produced }, language));
  return warnings;
}

/** Renders `count` images; every file written is listed in `written`, so a failed run can remove them all. */
async function renderImages(deps: ServiceDeps, job: GenerationJob, count: number, written: string[]): Promise<MadeImage[]> {
  // allSettled: when one image fails, the others must finish writing before their files are removed.
  const settled = await Promise.allSettled(
    Array.from({ length: count }, async (_, index) => {
      const filename = newFilename();
      const path = deps.files.pathFor(filename);
      written.push(path);
      const rendered = await renderTurnImage(job, index, path);
      return { id: newId('image'), filename, ...rendered };
    }),
  );
  return settled.map((result) => {
    if (result.status === 'rejected') throw result.reason;
    return result.value;
  });
}

/**
 * The stateful rules (session, references, balance, the new-account cap) and the reservation, in one
 * transaction: nothing is reserved unless all pass, and concurrent requests see each other's reservations.
 */
function createReservations(deps: ServiceDeps, credits: CreditService, turns: TurnsRepo, images: ImagesRepo) {
  const { db, clock, files } = deps;
  const accounts = createAccountsRepo(db);
  const sessions = createSessionsRepo(db);

  /** The files of the referenced images; another account's image answers like a deleted one (DESIGN.md §3). */
  function referencePaths(accountId: string, referenceIds: readonly string[]): string[] {
    return referenceIds.map((id) => {
      const image = images.findById(id);
      if (!image || image.account_id !== accountId || image.deleted_at !== null) fail('reference_image_missing', { image_id: id });
      // A file cleaned up on disk behind the database's back is just as missing (spec §4.1 rule 4).
      const path = files.pathFor(image.filename);
      if (!existsSync(path)) fail('reference_image_missing', { image_id: id });
      return path;
    });
  }

  function checkBalance(accountId: string, total: number, now: number): void {
    const account = accounts.findById(accountId) ?? fail('invalid_api_key', { reason: 'unknown' });
    if (account.credits < total) fail('insufficient_credits', { needed: total, balance: account.credits });
    if (now - account.created_at >= NEW_ACCOUNT_AGE_MS) return;
    const spent = credits.spentLast24h(accountId);
    if (spent + total > NEW_ACCOUNT_DAILY_CAP) {
      const retryAfter = capRetryAfter(credits, now, account, spent, total);
      fail('new_user_daily_limit', { limit: NEW_ACCOUNT_DAILY_CAP, spent, needed: total }, { 'Retry-After': String(retryAfter) });
    }
  }

  return (accountId: string, turnId: string, v: Validated, clientTurnId: string | null) =>
    transaction(db, () => {
      const now = clock.now();
      const { request, estimate } = v;
      if (request.session_id !== undefined) {
        const session = sessions.findById(request.session_id);
        if (!session || session.account_id !== accountId) fail('session_not_found', { session_id: request.session_id });
      }
      const paths = referencePaths(accountId, v.referenceIds);
      checkBalance(accountId, estimate.total, now);
      let sessionId = request.session_id;
      if (sessionId === undefined) {
        sessionId = newId('session');
        sessions.insert({ id: sessionId, account_id: accountId, title: SESSION_TITLE, created_at: now });
      }
      turns.insert({
        id: turnId,
        account_id: accountId,
        session_id: sessionId,
        request: JSON.stringify(request),
        model: v.model,
        ratio: v.ratio,
        resolution: estimate.resolution,
        n: estimate.n,
        created_at: now,
        client_turn_id: clientTurnId,
      });
      credits.reserve(accountId, turnId, estimate.total);
      return { sessionId, referencePaths: paths };
    });
}

export function createGenerateService(deps: ServiceDeps) {
  const { db, clock, faults, logger } = deps;
  const images = createImagesRepo(db);
  const turns = createTurnsRepo(db);
  const credits = createCreditService(db, clock, { beforeClose: deps.testing.beforeCreditClose });
  const refunds = createRefunds(deps, credits, turns);
  const reserve = createReservations(deps, credits, turns, images);
  const stopping = new AbortController();
  const inFlight = new Set<Promise<unknown>>();

  // On close, runs still waiting are cut short and refunded before the database closes.
  deps.lifecycle.onClose(async () => {
    stopping.abort();
    await Promise.allSettled([...inFlight]);
    refunds.finishAtStop();
  });

  /** Images, charge and turn written together: the run's success is recorded whole or not at all. */
  function recordSuccess(turnId: string, accountId: string, made: MadeImage[], charged: number, warnings: GenerationWarning[]): void {
    transaction(db, () => {
      const now = clock.now();
      for (const image of made) {
        images.insert({ ...image, idx: image.index, account_id: accountId, turn_id: turnId, created_at: now });
      }
      credits.close(turnId, charged);
      turns.finish(turnId, 'succeeded', charged, JSON.stringify(warnings), now);
    });
  }

  /** The run after the reservation: settle on success (net of a partial), refund all on failure. */
  async function runTurn(turnId: string, accountId: string, job: GenerationJob, estimate: Estimate, quality: string | undefined, language: Language, drawn: GenerateFaultPlan): Promise<RunAnswer> {
    const started = performance.now();
    // The scenario's outcome (drawn before the reservation) and the one-shot counters: one plan, one way to fail.
    const plan = faults.takeGenerate(drawn);
    const written: string[] = [];
    try {
      if (plan.latencyMs > 0) await sleep(plan.latencyMs, stopping.signal);
      if (plan.fail) throw new RunFailed('fault: whole run failed');
      const produce = Math.min(estimate.n, plan.produce ?? estimate.n);
      if (produce === 0) throw new RunFailed('fault: no image produced');
      const made = await renderImages(deps, { ...job, downgraded: plan.downgrade }, produce, written);
      if (stopping.signal.aborted) throw new RunFailed('service stopping');
      const warnings = runWarnings(job, quality, plan.downgrade, estimate.n, produce, language);
      const charged = chargeForProduced(estimate, produce);
      recordSuccess(turnId, accountId, made, charged, warnings);
      logger.info({ turn_id: turnId, model: job.model, n: estimate.n, produced: produce, charged }, 'generation finished');
      return {
        credits_charged: charged,
        duration_ms: Math.round(performance.now() - started),
        warnings,
        images: made.map(({ id, filename, width, height }) => ({ id, filename, url: `/api/file/${filename}`, width, height })),
      };
    } catch (error) {
      // spec §4.1 billing rule 2: whole run failed → full refund, 500 internal_error.
      refunds.refund(turnId);
      await Promise.all(written.map((path) => rm(path, { force: true })));
      if (!(error instanceof RunFailed)) logger.error({ err: error, turn_id: turnId }, 'generation failed');
      else logger.warn({ turn_id: turnId, reason: error.message }, 'generation failed');
      throw new DomainError('internal_error');
    }
  }

  return {
    /** clientTurnId: a valid X-Client-Turn-Id, recorded with the turn (docs/local-service.md), or null. */
    async generate(caller: Caller, bodyText: string, language: Language, clientTurnId: string | null = null): Promise<GenerateResult> {
      const { accountId } = caller;
      const validated = parseGenerateBody(bodyText);
      const { request, model, ratio, purpose, estimate } = validated;
      // A scenario's 429 or 503 is answered before anything is reserved, as production refuses (faults.ts).
      const drawn = faults.drawGenerate(caller, model, estimate.n);
      if (drawn.refuse) {
        await faultLatency(drawn.latencyMs);
        failAsForced(drawn.refuse, deps.settings.get().default_rate_limit_per_24h);
      }
      const turnId = newId('turn');
      noteRequestTurn(turnId);
      const { sessionId, referencePaths } = reserve(accountId, turnId, validated, clientTurnId);
      const job: GenerationJob = { turnId, model, ratio, resolution: estimate.resolution, purpose, referencePaths, downgraded: false };
      const run = runTurn(turnId, accountId, job, estimate, request.quality, language, drawn);
      inFlight.add(run);
      try {
        const result = await run;
        return { ok: true, turn_id: turnId, session_id: sessionId, ...result };
      } finally {
        inFlight.delete(run);
      }
    },
  };
}
