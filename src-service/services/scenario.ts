// Fault scenarios (issue 27 Deliver 2, docs/local-service.md "Fault scenarios"): rules that match a request (route,
// account, key, model, n) and give it an outcome, from a sequence or with a seeded probability. Rules are tried in
// order; the first that gives an outcome decides; a rule whose sequence is spent, or whose draw missed, lets the
// next one try. Each rule counts the requests it matched and draws its numbers from (seed, rule, count) alone, so
// the same seed and the same requests give the same outcomes, and traffic another rule matches cannot shift them.
import type { AdminScenario, Scenario, ScenarioOutcome, ScenarioRoute, ScenarioRule } from '../../src-shared/admin.ts';

/** What a request is, as far as the rules can see. */
export interface ScenarioRequest {
  route: ScenarioRoute;
  accountId: string;
  keyId?: string | null;
  model?: string | null;
  /** How many images a generate asked for. */
  n?: number | null;
}

/** An outcome with its latency drawn (a fixed number of milliseconds). */
export type DrawnOutcome = Omit<ScenarioOutcome, 'latency_ms'> & { latency_ms?: number };

export interface ScenarioEngine {
  view(): AdminScenario;
  /** Replaces the scenario: sequences and draws start afresh. */
  replace(scenario: Scenario): AdminScenario;
  /** No rules: every request passes. */
  clear(): AdminScenario;
  /** The outcome the rules give this request, or null when it passes. */
  draw(request: ScenarioRequest): DrawnOutcome | null;
}

const UINT32 = 2 ** 32;

/** A 32-bit mixing function (xor-shift and multiply rounds): close inputs give unrelated outputs. */
function mix32(x: number): number {
  let h = x >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x21f0aaad);
  h = Math.imul(h ^ (h >>> 15), 0x735a2d97);
  return (h ^ (h >>> 15)) >>> 0;
}

/**
 * The n-th number in [0, 1) of a rule's stream: a function of (seed, rule index, n, purpose) only, so it never
 * depends on what other rules drew or in what order requests of other rules arrived.
 */
export function seededUnit(seed: number, rule: number, n: number, purpose: number): number {
  const low = seed % UINT32;
  const high = Math.floor(seed / UINT32);
  let h = mix32(low ^ mix32(high + 0x9e3779b9));
  h = mix32(h ^ mix32(rule + 0x85ebca6b));
  h = mix32(h ^ mix32(n + 0xc2b2ae35));
  h = mix32(h ^ mix32(purpose + 0x27d4eb2f));
  return h / UINT32;
}

const DRAW_FIRES = 0;
const DRAW_LATENCY = 1;

function matches(rule: ScenarioRule, request: ScenarioRequest): boolean {
  const m = rule.match;
  // A rule without a route matches the API requests, never the webhook deliveries (their outcomes differ).
  if (m.route === undefined ? request.route === 'webhook' : m.route !== request.route) return false;
  if (m.account_id !== undefined && m.account_id !== request.accountId) return false;
  if (m.key_id !== undefined && m.key_id !== request.keyId) return false;
  if (m.model !== undefined && m.model !== request.model) return false;
  if (m.n !== undefined && m.n !== request.n) return false;
  return true;
}

function withLatencyDrawn(outcome: ScenarioOutcome, unit: () => number): DrawnOutcome {
  const { latency_ms: latency, ...rest } = outcome;
  if (latency === undefined) return rest;
  if (typeof latency === 'number') return { ...rest, latency_ms: latency };
  return { ...rest, latency_ms: latency.min + Math.floor(unit() * (latency.max - latency.min + 1)) };
}

const EMPTY: Scenario = { seed: 0, rules: [] };

export function createScenarioEngine(initial: Scenario = EMPTY): ScenarioEngine {
  let scenario = initial;
  let matched: number[] = initial.rules.map(() => 0);

  const view = (): AdminScenario => ({ seed: scenario.seed, rules: structuredClone(scenario.rules), matched: [...matched] });

  /** The outcome rule `index` gives its n-th matched request, or null to let the next rule try. */
  function ruleOutcome(rule: ScenarioRule, index: number, n: number): DrawnOutcome | null {
    const unit = (purpose: number) => () => seededUnit(scenario.seed, index, n, purpose);
    if (rule.sequence) {
      const step = rule.sequence[n];
      return step ? withLatencyDrawn(step, unit(DRAW_LATENCY)) : null;
    }
    if (!rule.outcome) return null;
    const fires = unit(DRAW_FIRES)() < (rule.probability ?? 1);
    return fires ? withLatencyDrawn(rule.outcome, unit(DRAW_LATENCY)) : null;
  }

  return {
    view,
    replace(next) {
      scenario = structuredClone(next);
      matched = next.rules.map(() => 0);
      return view();
    },
    clear() {
      scenario = EMPTY;
      matched = [];
      return view();
    },
    draw(request) {
      for (const [index, rule] of scenario.rules.entries()) {
        if (!matches(rule, request)) continue;
        const n = matched[index] ?? 0;
        matched[index] = n + 1;
        const outcome = ruleOutcome(rule, index, n);
        if (outcome === null) continue;
        return outcome.pass ? null : outcome;
      }
      return null;
    },
  };
}
