// Armed faults (DESIGN.md §4 PUT /admin/faults). Each counter is consumed by the next n calls; latency_ms
// is not a counter: it delays every generation until it is set back to 0.
import type { Faults } from '../src-shared/api.ts';

export interface ArmedFaults {
  generate: { fail: number; partial: { count: number; produce: number }; downgrade: number; latency_ms: number };
  auth_unavailable: number;
}

export interface GenerateFaultPlan {
  fail: boolean;
  /** Number of images to produce when the partial fault fires, else null. */
  produce: number | null;
  downgrade: boolean;
  latencyMs: number;
}

export interface FaultStore {
  get(): ArmedFaults;
  /** Sets the counters given in the body; the others stay armed as they are. */
  arm(faults: Faults): ArmedFaults;
  /** Consumes one auth_unavailable count; true when this call must answer 503. */
  takeAuthUnavailable(): boolean;
  /** Consumes one count of each armed generate fault for this generation. */
  takeGenerate(): GenerateFaultPlan;
}

function empty(): ArmedFaults {
  return { generate: { fail: 0, partial: { count: 0, produce: 0 }, downgrade: 0, latency_ms: 0 }, auth_unavailable: 0 };
}

export function createFaultStore(): FaultStore {
  const armed = empty();
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
    takeAuthUnavailable() {
      if (armed.auth_unavailable <= 0) return false;
      armed.auth_unavailable--;
      return true;
    },
    takeGenerate() {
      const g = armed.generate;
      const plan: GenerateFaultPlan = { fail: false, produce: null, downgrade: false, latencyMs: g.latency_ms };
      if (g.fail > 0) {
        g.fail--;
        plan.fail = true;
      }
      if (g.partial.count > 0) {
        g.partial.count--;
        plan.produce = g.partial.produce;
      }
      if (g.downgrade > 0) {
        g.downgrade--;
        plan.downgrade = true;
      }
      return plan;
    },
  };
}
