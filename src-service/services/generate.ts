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
import { createImagesRepo } from '../repos/images.ts';
import { createSessionsRepo } from '../repos/sessions.ts';
import { createTurnsRepo } from '../repos/turns.ts';
import { createCreditService } from './credits.ts';

export const SESSION_TITLE = 'API generation';
/** spec §4.1 billing rule 5 and §8. */
export const NEW_ACCOUNT_DAILY_CAP = 2000;
export const NEW_ACCOUNT_AGE_MS = 7 * 86_400_000;
const DAY_MS = 86_400_000;

/** One step below the requested resolution: what the vendor "returned" under the downgrade fault. */
const NATIVE_BELOW = { '4K': '2K', '2K': '1K', '1K': '512px' } as const;

class RunFailed extends Error {}

/** Back-off of a refund that failed to be written: 250 ms doubling, then every 30 s until it succeeds. */
const REFUND_RETRY_DELAYS_MS = [250, 500, 1_000, 2_000, 4_000, 8_000, 16_000, 30_000];

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

export function createGenerateService(deps: ServiceDeps) {
  const { db, clock, files, faults, logger } = deps;
  const accounts = createAccountsRepo(db);
  const images = createImagesRepo(db);
  const sessions = createSessionsRepo(db);
  const turns = createTurnsRepo(db);
  const credits = createCreditService(db, clock, { beforeClose: deps.testing.beforeCreditClose });
  const stopping = new AbortController();
  const inFlight = new Set<Promise<unknown>>();
  const refundRetries = new Map<string, NodeJS.Timeout>();
  const retryDelays = deps.testing.settleRetryDelaysMs ?? REFUND_RETRY_DELAYS_MS;

  /** spec §4.1 billing rule 2: a failed run is refunded in full and its turn marked failed. */
  function refundFailedTurn(turnId: string): void {
    transaction(db, () => {
      credits.close(turnId, 0);
      turns.finish(turnId, 'failed', 0, null, clock.now());
    });
  }

  /**
   * A refund that could not be written (a full disk, an I/O error) is retried in the background with back-off
   * until it succeeds; the reservation stays pending meanwhile and is released once (close() is idempotent).
   */
  function retryRefund(turnId: string, attempt = 0): void {
    const delay = retryDelays[Math.min(attempt, retryDelays.length - 1)] ?? 30_000;
    const timer = setTimeout(() => {
      refundRetries.delete(turnId);
      try {
        refundFailedTurn(turnId);
        logger.info({ turn_id: turnId, attempt: attempt + 1 }, 'refund written after retrying');
      } catch (error) {
        logger.error({ err: error, turn_id: turnId, attempt: attempt + 1 }, 'refund failed again; retrying');
        retryRefund(turnId, attempt + 1);
      }
    }, delay);
    refundRetries.set(turnId, timer);
  }

  // On close, runs still waiting are cut short and refunded before the database closes. Refunds still being
  // retried get one last try; what fails then stays pending for the start-up refund (DESIGN.md §3).
  deps.lifecycle.onClose(async () => {
    stopping.abort();
    await Promise.allSettled([...inFlight]);
    for (const [turnId, timer] of refundRetries) {
      clearTimeout(timer);
      try {
        refundFailedTurn(turnId);
      } catch (error) {
        logger.error({ err: error, turn_id: turnId }, 'refund still failing at stop; the next start refunds it');
      }
    }
    refundRetries.clear();
  });

  /** Seconds until a new account may spend `needed` again (the earliest moment the rolling window allows). */
  function capRetryAfter(accountId: string, createdAt: number, spent: number, needed: number): number {
    const now = clock.now();
    const becomesOld = createdAt + NEW_ACCOUNT_AGE_MS;
    let at = becomesOld;
    if (needed <= NEW_ACCOUNT_DAILY_CAP) {
      const rows = db
        .prepare(
          "SELECT created_at, CASE status WHEN 'pending' THEN amount WHEN 'settled' THEN charged ELSE 0 END AS spend FROM reservations WHERE account_id = ? AND created_at > ? ORDER BY created_at",
        )
        .all(accountId, now - DAY_MS) as Array<{ created_at: number; spend: number }>;
      let remaining = spent;
      for (const row of rows) {
        remaining -= row.spend;
        if (remaining + needed <= NEW_ACCOUNT_DAILY_CAP) {
          at = Math.min(at, row.created_at + DAY_MS);
          break;
        }
      }
    }
    return Math.max(1, Math.ceil((at - now) / 1000));
  }

  /** The run after the reservation: settle on success (net of a partial), refund all on failure. */
  async function runTurn(
    turnId: string,
    accountId: string,
    job: GenerationJob,
    estimate: Parameters<typeof chargeForProduced>[0],
    quality: string | undefined,
    language: Language,
  ): Promise<Omit<GenerateResult, 'ok' | 'turn_id' | 'session_id'>> {
    const started = performance.now();
    const plan = faults.takeGenerate();
    const written: string[] = [];
    try {
      if (plan.latencyMs > 0) await sleep(plan.latencyMs, stopping.signal);
      if (plan.fail) throw new RunFailed('fault: whole run failed');
      const produce = Math.min(estimate.n, plan.produce ?? estimate.n);
      if (produce === 0) throw new RunFailed('fault: no image produced');
      const downgraded = plan.downgrade;
      // allSettled: when one image fails, the others must finish writing before their files are removed.
      const settled = await Promise.allSettled(
        Array.from({ length: produce }, async (_, index) => {
          const filename = newFilename();
          const path = files.pathFor(filename);
          written.push(path);
          const rendered = await renderTurnImage({ ...job, downgraded }, index, path);
          return { id: newId('image'), filename, ...rendered };
        }),
      );
      const made = settled.map((result) => {
        if (result.status === 'rejected') throw result.reason;
        return result.value;
      });
      if (stopping.signal.aborted) throw new RunFailed('service stopping');

      const warnings: GenerationWarning[] = [];
      if (quality !== undefined && !MODELS[job.model].supportsQuality) {
        warnings.push(warningFor({ feature: 'quality', model: job.model, quality }, language));
      }
      if (downgraded) {
        warnings.push(warningFor({ feature: 'resolution', requested: job.resolution, native: NATIVE_BELOW[job.resolution] }, language));
      }
      if (produce < estimate.n) warnings.push(warningFor({ feature: 'n', requested: estimate.n, produced: produce }, language));

      const charged = chargeForProduced(estimate, produce);
      transaction(db, () => {
        const now = clock.now();
        for (const image of made) {
          images.insert({
            id: image.id,
            account_id: accountId,
            turn_id: turnId,
            idx: image.index,
            filename: image.filename,
            width: image.width,
            height: image.height,
            created_at: now,
          });
        }
        credits.close(turnId, charged);
        turns.finish(turnId, 'succeeded', charged, JSON.stringify(warnings), now);
      });
      logger.info({ turn_id: turnId, model: job.model, n: estimate.n, produced: produce, charged }, 'generation finished');
      return {
        credits_charged: charged,
        duration_ms: Math.round(performance.now() - started),
        warnings,
        images: made.map((image) => ({
          id: image.id,
          filename: image.filename,
          url: `/api/file/${image.filename}`,
          width: image.width,
          height: image.height,
        })),
      };
    } catch (error) {
      // spec §4.1 billing rule 2: whole run failed → full refund, 500 internal_error.
      try {
        refundFailedTurn(turnId);
      } catch (refundError) {
        logger.error({ err: refundError, turn_id: turnId }, 'refund failed; retrying in the background');
        retryRefund(turnId);
      }
      await Promise.all(written.map((path) => rm(path, { force: true })));
      if (!(error instanceof RunFailed)) logger.error({ err: error, turn_id: turnId }, 'generation failed');
      else logger.warn({ turn_id: turnId, reason: error.message }, 'generation failed');
      throw new DomainError('internal_error');
    }
  }

  return {
    /** clientTurnId: a valid X-Client-Turn-Id, recorded with the turn (docs/local-service.md), or null. */
    async generate(accountId: string, bodyText: string, language: Language, clientTurnId: string | null = null): Promise<GenerateResult> {
      failIfTooDeep(bodyText);
      const parsed = parseJsonBody(bodyText);
      if (!parsed.ok) fail(parsed.error.code, parsed.error.params);
      const validation = validateGenerateRequest(parsed.value);
      if (!validation.ok) fail(validation.error.code, validation.error.params);
      const { request, model, ratio, purpose, referenceIds, estimate } = validation.value;

      // The stateful rules and the reservation happen in one transaction: nothing is reserved unless all
      // pass, and concurrent requests see each other's reservations (no overspend).
      const turnId = newId('turn');
      const { sessionId, referencePaths } = transaction(db, () => {
        const now = clock.now();
        if (request.session_id !== undefined) {
          const session = sessions.findById(request.session_id);
          if (!session || session.account_id !== accountId) fail('session_not_found', { session_id: request.session_id });
        }
        const paths: string[] = [];
        for (const id of referenceIds) {
          const image = images.findById(id);
          // Another account's image answers exactly like a deleted one, so ids cannot be probed (DESIGN.md §3).
          if (!image || image.account_id !== accountId || image.deleted_at !== null) fail('reference_image_missing', { image_id: id });
          // A file cleaned up on disk behind the database's back is just as missing (spec §4.1 rule 4).
          const path = files.pathFor(image.filename);
          if (!existsSync(path)) fail('reference_image_missing', { image_id: id });
          paths.push(path);
        }
        const account = accounts.findById(accountId) ?? fail('invalid_api_key', { reason: 'unknown' });
        if (account.credits < estimate.total) fail('insufficient_credits', { needed: estimate.total, balance: account.credits });
        if (now - account.created_at < NEW_ACCOUNT_AGE_MS) {
          const spent = credits.spentLast24h(accountId);
          if (spent + estimate.total > NEW_ACCOUNT_DAILY_CAP) {
            const retryAfter = capRetryAfter(accountId, account.created_at, spent, estimate.total);
            fail('new_user_daily_limit', { limit: NEW_ACCOUNT_DAILY_CAP, spent, needed: estimate.total }, { 'Retry-After': String(retryAfter) });
          }
        }
        let session = request.session_id;
        if (session === undefined) {
          session = newId('session');
          sessions.insert({ id: session, account_id: accountId, title: SESSION_TITLE, created_at: now });
        }
        turns.insert({
          id: turnId,
          account_id: accountId,
          session_id: session,
          request: JSON.stringify(request),
          model,
          ratio,
          resolution: estimate.resolution,
          n: estimate.n,
          created_at: now,
          client_turn_id: clientTurnId,
        });
        credits.reserve(accountId, turnId, estimate.total);
        return { sessionId: session, referencePaths: paths };
      });

      const run = runTurn(turnId, accountId, {
        turnId,
        model,
        ratio,
        resolution: estimate.resolution,
        purpose,
        referencePaths,
        downgraded: false,
      }, estimate, request.quality, language);
      inFlight.add(run);
      try {
        const result = await run;
        return { ok: true, turn_id: turnId, session_id: sessionId, ...result };
      } finally {
        inFlight.delete(run);
      }
    }
  };
}
