// Faults (DESIGN.md §4 PUT /admin/faults, issue 27 Deliver 2): the one-shot counters and the fault scenario
// (services/scenario.ts), turned into one plan per request, and the one answer of a forced status. Each counter is
// consumed by the next n calls; latency_ms is not a counter: it delays every generation until it is set back to 0.
// The counters are a shorthand kept beside the scenario: both apply, the scenario first.
import type { Scenario } from '../src-shared/admin.ts';
import type { Faults } from '../src-shared/api.ts';
import { fail } from './http/errors.ts';
import { createScenarioEngine, type DrawnOutcome, type ScenarioEngine } from './services/scenario.ts';

export interface ArmedFaults {
  generate: { fail: number; partial: { count: number; produce: number }; downgrade: number; latency_ms: number };
  auth_unavailable: number;
}

/** A status an API request is answered with instead of its result: 500, or 503/429 with Retry-After. */
export interface ForcedStatus {
  status: number;
  retryAfterS: number | null;
}

export interface GenerateFaultPlan {
  fail: boolean;
  /** Number of images to produce when the partial fault fires, else null. */
  produce: number | null;
  downgrade: boolean;
  latencyMs: number;
  /** 429 or 503 answered before anything is reserved (a 500 is `fail`: reserved, then refunded). */
  refuse: ForcedStatus | null;
}

/** What the scenario does to one file download or publication lookup. */
export interface RequestFaultPlan {
  latencyMs: number;
  forced: ForcedStatus | null;
  /** GET /api/file answers a direct link that has already expired. */
  expiredLink: boolean;
}

/** What the scenario does to one webhook delivery attempt. */
export interface WebhookFaultPlan {
  /** Counted as an attempt, recorded as failed, nothing sent. */
  drop: boolean;
  /** The same signed request is sent twice. */
  duplicate: boolean;
  /** Wait after signing, before sending (a slow network: the timestamp ages). */
  delayMs: number;
  /** The attempt is sent, then recorded as if the receiver had answered this status. */
  status: number | null;
}

export interface Caller {
  accountId: string;
  keyId: string;
}

export interface FaultStore {
  get(): ArmedFaults;
  /** Sets the counters given in the body; the others stay armed as they are. */
  arm(faults: Faults): ArmedFaults;
  /** The fault scenario (PUT/GET/DELETE /admin/scenario). */
  scenario: Pick<ScenarioEngine, 'view' | 'replace' | 'clear'>;
  /** Consumes one auth_unavailable count; true when this call must answer 503. */
  takeAuthUnavailable(): boolean;
  /** The scenario's outcome for a generation that passed the body checks, before anything is reserved. */
  drawGenerate(caller: Caller, model: string, n: number): GenerateFaultPlan;
  /** Consumes one count of each armed generate fault for this generation, on top of what the scenario drew. */
  takeGenerate(drawn?: GenerateFaultPlan): GenerateFaultPlan;
  drawRequest(route: 'file' | 'publication', caller: Caller): RequestFaultPlan;
  drawWebhook(accountId: string): WebhookFaultPlan;
  /** No counter armed and no scenario (POST /admin/reset). */
  clearAll(): void;
}

function empty(): ArmedFaults {
  return { generate: { fail: 0, partial: { count: 0, produce: 0 }, downgrade: 0, latency_ms: 0 }, auth_unavailable: 0 };
}

const PASSING_GENERATE: GenerateFaultPlan = { fail: false, produce: null, downgrade: false, latencyMs: 0, refuse: null };

function forcedOf(outcome: DrawnOutcome | null): ForcedStatus | null {
  return outcome?.status === undefined ? null : { status: outcome.status, retryAfterS: outcome.retry_after_s ?? null };
}

function generatePlanOf(outcome: DrawnOutcome | null): GenerateFaultPlan {
  if (!outcome) return PASSING_GENERATE;
  const forced = forcedOf(outcome);
  return {
    fail: forced?.status === 500,
    produce: outcome.partial?.produce ?? null,
    downgrade: outcome.downgrade === true,
    latencyMs: outcome.latency_ms ?? 0,
    refuse: forced && forced.status !== 500 ? forced : null,
  };
}

export function createFaultStore(scenario?: Scenario): FaultStore {
  const armed = empty();
  const engine = createScenarioEngine(scenario);
  const snapshot = (): ArmedFaults => structuredClone(armed);
  return {
    get: snapshot,
    arm(faults) {
      const g = faults.generate;
      if (g?.fail !== undefined) armed.generate.fail = g.fail;
      if (g?.partial !== undefined) armed.generate.partial = { ...g.partial };
      if (g?.downgrade !== undefined) armed.generate.downgrade = g.downgrade;
      if (g?.latency_ms !== undefined) armed.generate.latency_ms = g.latency_ms;
      if (faults.auth_unavailable !== undefined) armed.auth_unavailable = faults.auth_unavailable;
      return snapshot();
    },
    scenario: engine,
    clearAll() {
      Object.assign(armed, empty());
      engine.clear();
    },
    takeAuthUnavailable() {
      if (armed.auth_unavailable <= 0) return false;
      armed.auth_unavailable--;
      return true;
    },
    drawGenerate(caller, model, n) {
      return generatePlanOf(engine.draw({ route: 'generate', accountId: caller.accountId, keyId: caller.keyId, model, n }));
    },
    takeGenerate(drawn = PASSING_GENERATE) {
      const g = armed.generate;
      const plan: GenerateFaultPlan = { ...drawn, latencyMs: drawn.latencyMs + g.latency_ms };
      if (g.fail > 0) {
        g.fail--;
        plan.fail = true;
      }
      if (g.partial.count > 0) {
        g.partial.count--;
        plan.produce = Math.min(plan.produce ?? Infinity, g.partial.produce);
      }
      if (g.downgrade > 0) {
        g.downgrade--;
        plan.downgrade = true;
      }
      return plan;
    },
    drawRequest(route, caller) {
      const outcome = engine.draw({ route, accountId: caller.accountId, keyId: caller.keyId });
      return { latencyMs: outcome?.latency_ms ?? 0, forced: forcedOf(outcome), expiredLink: outcome?.expired_link === true };
    },
    drawWebhook(accountId) {
      const outcome = engine.draw({ route: 'webhook', accountId });
      return {
        drop: outcome?.drop === true,
        duplicate: outcome?.duplicate === true,
        delayMs: outcome?.delay_ms ?? 0,
        status: outcome?.status ?? null,
      };
    },
  };
}

/** Retry-After of a forced 503 (as the auth_unavailable counter has always said) and of a forced 429, when not given. */
const DEFAULT_RETRY_AFTER_S = { 503: 3, 429: 60 } as const;

/**
 * The one answer of a forced status (spec §7): 500 internal_error; 503 auth_unavailable and 429 rate_limited with
 * Retry-After. `limit` is the key's request limit the 429 message names.
 */
export function failAsForced(forced: ForcedStatus, limit: number): never {
  if (forced.status === 503) {
    fail('auth_unavailable', {}, { 'Retry-After': String(forced.retryAfterS ?? DEFAULT_RETRY_AFTER_S[503]) });
  }
  if (forced.status === 429) {
    const retryAfter = forced.retryAfterS ?? DEFAULT_RETRY_AFTER_S[429];
    fail('rate_limited', { limit, retry_after_s: retryAfter }, { 'Retry-After': String(retryAfter) });
  }
  fail('internal_error');
}

/** Waits `ms` without keeping a stopping process alive (the connection is closed under it at stop). */
export function faultLatency(ms: number): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/** A file download or publication lookup as the scenario says: its latency, then its forced status if any. */
export async function applyRequestFaults(faults: FaultStore, route: 'file' | 'publication', caller: Caller, limit: number): Promise<RequestFaultPlan> {
  const plan = faults.drawRequest(route, caller);
  await faultLatency(plan.latencyMs);
  if (plan.forced) failAsForced(plan.forced, limit);
  return plan;
}
