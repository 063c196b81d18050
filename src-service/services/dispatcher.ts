// The webhook dispatcher (spec §6 "Delivery and retry rules", DESIGN.md §4). Deliveries are rows in SQLite, so a
// restart resumes pending retries. Each attempt: the URL text rules again, then the resolved-address rule
// (fails without connecting), then one POST signed with the account's CURRENT secret and a fresh timestamp of
// real time (as production signs: the admin clock never moves X-Service-Timestamp, so a receiver's 5-minute check
// holds), 8 s timeout, redirects never followed. Retries wait 2 s and 10 s of real time from the end of the failure.
import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { newDeliveryId } from '../../src-shared/ids.ts';
import { signWebhookDelivery, type WebhookEvent } from '../../src-shared/webhook-signature.ts';
import type { DeliveryRow, WebhooksRepo } from '../repos/webhooks.ts';
import { checkResolvedAddress, checkWebhookUrlText } from './webhook-url.ts';
import { createOutageLog, isStorageFailure, writeRetryDelay } from '../write-retry.ts';
import type { WebhookFaultPlan } from '../faults.ts';

/** spec §6 rule 1 and §8: each request times out after 8 seconds. */
export const ATTEMPT_TIMEOUT_MS = 8_000;
/** spec §6 rule 3: two retries, after 2 s and 10 s; the third attempt is the last. */
export const RETRY_DELAYS_MS = [2_000, 10_000] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
/** last_error of an attempt that was sent but whose outcome was never recorded (a stop or crash cut it off). */
const INTERRUPTED = 'the service stopped during this attempt';
/** A receiver's answer body is drained and discarded; beyond this the connection is cut. */
const MAX_RESPONSE_BYTES = 64 * 1024;

export type ResolveHost = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

export interface DispatcherLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** last_error of a delivery given up because of a bug in its own handling (not the receiver's fault, not the disk's). */
export const INTERNAL_FAILURE = 'internal error while delivering';

/**
 * Real time for the delivery mechanics (retry waits, the 8 s timeout) and the signature's timestamp. Tests pass a
 * manual one, so the timing rules are checked exactly rather than against wall-clock bounds.
 */
export interface DispatcherTimers {
  /** Unix ms. */
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const REAL_TIMERS: DispatcherTimers = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export interface DispatcherOptions {
  repo: WebhooksRepo;
  /** Service clock, Unix ms: the recorded times come from it; X-Service-Timestamp is real time (timers.now). */
  now: () => number;
  /** The admin setting allow_loopback_webhooks, read at every attempt. */
  allowLoopback: () => boolean;
  /** Name resolution for the resolved-address rule; the system resolver unless a test supplies one. */
  resolve?: ResolveHost;
  log?: DispatcherLog;
  /** Default REAL_TIMERS. */
  timers?: DispatcherTimers;
  /** The fault scenario's plan for one attempt about to be sent (faults.ts); none when absent. */
  faults?: (accountId: string) => WebhookFaultPlan;
}

export interface Dispatcher {
  /**
   * Persists a new delivery to the account's current URL and schedules its first attempt on a later tick.
   * Safe inside a database transaction: if the transaction rolls back, the attempt finds no row and stops.
   */
  enqueue(accountId: string, url: string, event: WebhookEvent, body: string): string;
  /** Schedules every pending delivery found in the database (after a restart). */
  resume(): void;
  /** Stops timers and cuts in-flight requests; their rows stay pending and resume on the next start. */
  close(): Promise<void>;
}

type AttemptResult =
  | { ok: true; status: number }
  | { ok: false; status: number | null; error: string; connected: boolean };

/** The two loopback spellings the URL rule lets through (webhook-url.ts), and only them. */
function isLoopbackHostname(hostname: string): boolean {
  return hostname === '127.0.0.1' || hostname === 'localhost';
}

const systemResolve: ResolveHost = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/** One POST; resolves with the status of the answer or the reason it failed. Never throws. */
function post(
  url: URL,
  headers: Record<string, string>,
  body: Buffer,
  pinned: { address: string; family: number } | null,
  signal: AbortSignal,
  timeoutMs: number,
  clock: DispatcherTimers,
): Promise<AttemptResult> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: AttemptResult): void => {
      if (settled) return;
      settled = true;
      clock.clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      resolve(result);
    };
    // Connect to the address that passed the resolved-address rule, so a second lookup cannot swap it.
    const lookup: LookupFunction | undefined = pinned
      ? (_host, options, callback) => {
          if (options.all) callback(null, [{ address: pinned.address, family: pinned.family }]);
          else callback(null, pinned.address, pinned.family);
        }
      : undefined;
    const transport = url.protocol === 'https:' ? https : http;
    // An https loopback receiver (allowed only with allow_loopback_webhooks; webhook-url.ts) usually has a
    // self-signed development certificate, and the connection never leaves the machine: its certificate is not
    // verified. Every other https receiver's is.
    const loopbackTls = url.protocol === 'https:' && pinned === null && isLoopbackHostname(url.hostname);
    const req = transport.request({
      method: 'POST',
      protocol: url.protocol,
      hostname: url.hostname,
      port: url.port === '' ? undefined : Number(url.port),
      path: `${url.pathname}${url.search}`,
      headers: { ...headers, 'Content-Length': String(body.byteLength) },
      agent: false,
      ...(lookup ? { lookup } : {}),
      ...(loopbackTls ? { rejectUnauthorized: false } : {}),
    });
    const timer = clock.setTimeout(() => {
      finish({ ok: false, status: null, error: `no answer within ${ATTEMPT_TIMEOUT_MS / 1000} s`, connected: true });
      req.destroy();
    }, Math.max(0, timeoutMs));
    const onAbort = (): void => {
      finish({ ok: false, status: null, error: 'service stopping', connected: false });
      req.destroy();
    };
    signal.addEventListener('abort', onAbort);
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      let received = 0;
      res.on('data', (chunk: Buffer) => {
        received += chunk.byteLength;
        if (received > MAX_RESPONSE_BYTES) res.destroy();
      });
      res.on('error', () => undefined);
      // spec §6 rule 2: only 2xx is success; a 3xx is a failure and its Location is never requested.
      if (status >= 200 && status < 300) finish({ ok: true, status });
      else if (status >= 300 && status < 400) finish({ ok: false, status, error: `redirect ${status} not followed`, connected: true });
      else finish({ ok: false, status, error: `HTTP ${status}`, connected: true });
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      finish({ ok: false, status: null, error: `connection failed: ${error.code ?? error.message}`, connected: false });
    });
    req.end(body);
  });
}

/** last_error of an attempt a fault scenario dropped. */
export const DROPPED = 'dropped by the fault scenario: nothing was sent';
const NO_FAULT: WebhookFaultPlan = { drop: false, duplicate: false, delayMs: 0, status: null };

/** Resolves true after `ms`, or false at once when the service stops meanwhile. */
function pause(ms: number, clock: DispatcherTimers, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const onAbort = (): void => {
      clock.clearTimeout(timer);
      resolve(false);
    };
    const timer = clock.setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

interface SignedAttempt {
  url: URL;
  pinned: { address: string; family: number } | null;
  headers: Record<string, string>;
  body: Buffer;
  /** When the attempt started: its 8 s count from here (or from the end of a forced delay). */
  startedAt: number;
  clock: DispatcherTimers;
  signal: AbortSignal;
}

/**
 * One attempt's sending as the fault scenario says: dropped (nothing sent), delayed after signing (the timestamp
 * ages as on a slow network), sent twice (the same signed request), or recorded with a forced status whatever the
 * receiver answered (so the retries of spec §6 follow).
 */
async function sendAsScenarioSays(attempt: SignedAttempt, forced: WebhookFaultPlan): Promise<AttemptResult> {
  const { url, pinned, headers, body, startedAt, clock, signal } = attempt;
  const send = (since: number): Promise<AttemptResult> => post(url, headers, body, pinned, signal, ATTEMPT_TIMEOUT_MS - (clock.now() - since), clock);
  if (forced.drop) return { ok: false, status: null, error: DROPPED, connected: false };
  let since = startedAt;
  if (forced.delayMs > 0) {
    if (!(await pause(forced.delayMs, clock, signal))) return { ok: false, status: null, error: 'service stopping', connected: false };
    since = clock.now();
  }
  const result = await send(since);
  if (forced.duplicate) await send(clock.now());
  if (forced.status === null) return result;
  const answered = result.ok ? result.status : (result.status ?? result.error);
  return { ok: false, status: forced.status, error: `HTTP ${forced.status} forced by the fault scenario (the receiver answered ${answered})`, connected: true };
}

type AttemptPlan =
  | { kind: 'send'; url: URL; pinned: { address: string; family: number } | null; secret: string }
  | { kind: 'fail'; error: string }
  | { kind: 'stop'; error: string };

interface AttemptContext {
  repo: WebhooksRepo;
  allowLoopback: () => boolean;
  resolve: ResolveHost;
  clock: DispatcherTimers;
}

/** Everything before the POST: the rules of spec §6 that fail an attempt without connecting. */
async function planAttempt(row: DeliveryRow, ctx: AttemptContext): Promise<AttemptPlan> {
  const { repo, allowLoopback, resolve, clock } = ctx;
  const config = repo.getConfig(row.accountId);
  // spec §6 "when a notification is sent": switched off or URL removed → nothing more is sent.
  if (!config || !config.enabled || config.url === '') return { kind: 'stop', error: 'the webhook was switched off or its URL removed' };
  const text = checkWebhookUrlText(row.url, { allowLoopback: allowLoopback() });
  if (!text.ok) return { kind: 'fail', error: `${text.rule}: ${text.detail}` };
  if (text.url === null) return { kind: 'stop', error: 'no URL' };
  if (text.loopback) return { kind: 'send', url: text.url, pinned: null, secret: config.secret };
  const hostname = text.url.hostname.replace(/\.$/, '');
  let addresses: Array<{ address: string; family: number }>;
  let timer: unknown;
  try {
    // The lookup is part of the attempt's 8 s (a hanging resolver must not stall the delivery).
    addresses = await Promise.race([
      resolve(hostname),
      new Promise<never>((_, reject) => {
        timer = clock.setTimeout(() => reject(Object.assign(new Error('lookup timed out'), { code: 'ETIMEOUT' })), ATTEMPT_TIMEOUT_MS);
      }),
    ]);
  } catch (error) {
    return { kind: 'fail', error: `cannot resolve ${hostname}: ${(error as NodeJS.ErrnoException).code ?? String(error)}` };
  } finally {
    if (timer !== undefined) clock.clearTimeout(timer);
  }
  if (addresses.length === 0) return { kind: 'fail', error: `cannot resolve ${hostname}` };
  for (const a of addresses) {
    const verdict = checkResolvedAddress(a.address);
    if (!verdict.ok) return { kind: 'fail', error: `${verdict.rule}: ${verdict.detail}` };
  }
  // Read the secret again after the (slow) lookup: a Regenerate meanwhile must win (spec §6 step 6).
  const fresh = repo.getConfig(row.accountId);
  if (!fresh || !fresh.enabled || fresh.url === '') return { kind: 'stop', error: 'the webhook was switched off or its URL removed' };
  return { kind: 'send', url: text.url, pinned: addresses[0] ?? null, secret: fresh.secret };
}

/** Adds a finished attempt to the delivery's log (every attempt, not only the last status); returns when it ended. */
function logFinished(repo: WebhooksRepo, finishedAt: number, id: string, attempt: number, startedAt: number, result: AttemptResult): number {
  repo.logAttempt(id, { attempt, at: startedAt, status: result.status, error: result.ok ? null : result.error, duration_ms: Math.max(0, finishedAt - startedAt) });
  return finishedAt;
}

/** Ends a pending delivery as failed without a new attempt, keeping its attempt count and last status. */
function endUnsent(repo: WebhooksRepo, row: DeliveryRow, lastError: string, now: number): void {
  repo.recordAttempt(row.id, { attempts: row.attempts, outcome: 'failed', lastStatus: row.lastStatus, lastError, nextAttemptAt: null, now });
}

export function createDispatcher(options: DispatcherOptions): Dispatcher {
  const { repo, now, allowLoopback } = options;
  const resolve = options.resolve ?? systemResolve;
  const log = options.log;
  const clock = options.timers ?? REAL_TIMERS;
  const timers = new Map<string, unknown>();
  const running = new Map<string, Promise<void>>();
  const controller = new AbortController();
  let closed = false;

  const outage = log ? createOutageLog(log, 'webhook delivery records') : null;
  /** Storage failures in a row per delivery, for the back-off of its next try. */
  const storageFailures = new Map<string, number>();

  function schedule(id: string, at: number): void {
    // A retry is scheduled from inside its own run, so only a second timer for the same row is refused.
    if (closed || timers.has(id)) return;
    const timer = clock.setTimeout(() => {
      timers.delete(id);
      const run = attempt(id)
        .then(() => {
          storageFailures.delete(id);
          outage?.recovered();
        })
        .catch((error: unknown) => failedToHandle(id, error))
        .finally(() => running.delete(id));
      running.set(id, run);
    }, Math.max(0, at - clock.now()));
    timers.set(id, timer);
  }

  /**
   * An attempt that threw. The storage failing (a full disk) must neither end the process nor lose the delivery: the
   * row stays pending and is tried again with the service's write back-off (the attempt count written before any
   * send keeps the limit of three, spec §6 rule 3). Anything else is a bug in this one delivery: it is recorded as
   * failed and the queue moves on, instead of trying it forever.
   */
  function failedToHandle(id: string, error: unknown): void {
    if (isStorageFailure(error)) {
      const failures = (storageFailures.get(id) ?? 0) + 1;
      storageFailures.set(id, failures);
      outage?.failed(error);
      schedule(id, clock.now() + writeRetryDelay(failures));
      return;
    }
    storageFailures.delete(id);
    log?.error({ err: error, delivery_id: id }, 'webhook delivery given up: an internal error');
    try {
      const row = repo.getDelivery(id);
      if (row?.outcome === 'pending') endUnsent(repo, row, INTERNAL_FAILURE, now());
    } catch (recordError) {
      failedToHandle(id, recordError);
    }
  }

  async function attempt(id: string): Promise<void> {
    const row = repo.getDelivery(id);
    if (!row || row.outcome !== 'pending' || closed) return;
    // Tried early after a storage failure: the retry wait recorded with the last attempt still holds (spec §6 rule 3).
    if (row.nextAttemptAt !== null && row.nextAttemptAt > clock.now()) return void schedule(id, row.nextAttemptAt);
    // The third attempt was made (and recorded) but a stop or crash cut it off: nothing is re-sent (spec §6 rule 3).
    if (row.attempts >= MAX_ATTEMPTS) {
      endUnsent(repo, row, INTERRUPTED, now());
      log?.warn({ delivery_id: id, attempts: row.attempts }, 'webhook delivery given up: its last attempt was interrupted');
      return;
    }
    const number = row.attempts + 1;
    const startedAt = clock.now();
    const plan = await planAttempt(row, { repo, allowLoopback, resolve, clock });
    if (closed) return;

    let result: AttemptResult;
    if (plan.kind === 'stop') {
      endUnsent(repo, row, plan.error, now());
      log?.info({ delivery_id: id, reason: plan.error }, 'webhook delivery stopped');
      return;
    }
    if (plan.kind === 'fail') {
      result = { ok: false, status: null, error: plan.error, connected: false };
    } else {
      const body = Buffer.from(row.body, 'utf8');
      // spec §6 rule 4: same delivery id, timestamp and signature recomputed for every attempt. Real time, not the
      // service clock: a receiver compares it with its own clock (docs/local-service.md "The service clock").
      const headers = await signWebhookDelivery({
        secret: plan.secret,
        event: row.event as WebhookEvent,
        deliveryId: row.id,
        timestamp: Math.floor(clock.now() / 1000),
        body,
      });
      if (closed) return;
      // Counted before it is sent, so a crash during the attempt never leads to a fourth (spec §6 rule 3). If
      // the process dies now, the next start waits the retry delay from this attempt's start (its end is unknown).
      const retryDelay = RETRY_DELAYS_MS[number - 1];
      repo.recordAttempt(id, {
        attempts: number,
        outcome: 'pending',
        lastStatus: row.lastStatus,
        lastError: INTERRUPTED,
        nextAttemptAt: retryDelay === undefined ? null : startedAt + retryDelay,
        now: now(),
      });
      result = await sendAsScenarioSays({ ...plan, headers, body, startedAt, clock, signal: controller.signal }, options.faults?.(row.accountId) ?? NO_FAULT);
      // Cut by close(): the attempt stays counted; the next start makes the next one, or gives up after the third.
      if (closed) return;
    }

    const finishedAt = logFinished(repo, clock.now(), id, number, startedAt, result);
    if (result.ok) {
      repo.recordAttempt(id, { attempts: number, outcome: 'succeeded', lastStatus: result.status, lastError: null, nextAttemptAt: null, now: now() });
      log?.info({ delivery_id: id, attempt: number, status: result.status }, 'webhook delivered');
      return;
    }
    const delay = RETRY_DELAYS_MS[number - 1];
    const giveUp = delay === undefined;
    // The retry wait counts from the end of the failed attempt (DESIGN.md §4).
    const nextAttemptAt = giveUp ? null : finishedAt + delay;
    repo.recordAttempt(id, {
      attempts: number,
      outcome: giveUp ? 'failed' : 'pending',
      lastStatus: result.status ?? row.lastStatus,
      lastError: result.error,
      nextAttemptAt,
      now: now(),
    });
    log?.warn({ delivery_id: id, attempt: number, status: result.status, error: result.error, give_up: giveUp }, 'webhook attempt failed');
    if (nextAttemptAt !== null) schedule(id, nextAttemptAt);
  }

  return {
    enqueue(accountId, url, event, body) {
      // The delivery keeps the URL it was created for; the secret is read fresh at every attempt.
      const id = newDeliveryId();
      const at = clock.now();
      repo.insertDelivery({ id, accountId, event, url, body, nextAttemptAt: at, now: now() });
      schedule(id, at);
      return id;
    },
    resume() {
      for (const row of repo.pendingDeliveries()) schedule(row.id, row.nextAttemptAt ?? clock.now());
    },
    async close() {
      closed = true;
      for (const timer of timers.values()) clock.clearTimeout(timer);
      timers.clear();
      controller.abort();
      await Promise.allSettled([...running.values()]);
    },
  };
}
