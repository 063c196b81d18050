// When the local service dies unexpectedly, whether to start it again and after how long: one policy for both
// of its hosts (service-host/node-service-host.ts in plain Node, electron/utility-service-host.ts in the app).
// A service that keeps dying is given up on for a while, so a broken install does not spin the CPU and the user is
// told; after a cool-down the host tries again from scratch, so Local is never failed for good (a full disk freed, a
// folder another service let go). One that dies once in a while (and lived meanwhile) is always restarted.

export interface SupervisorPolicy {
  /** More deaths than this within `windowMs` and the host gives up. */
  maxDeaths: number;
  windowMs: number;
  /** Wait before the first restart; it doubles with each death inside the window. */
  firstDelayMs: number;
  /** Upper bound of one wait. */
  maxDelayMs: number;
  /** After giving up, the wait before the host tries again (longer than the window, so those deaths no longer count). */
  coolDownMs: number;
}

export const DEFAULT_SUPERVISOR_POLICY: SupervisorPolicy = { maxDeaths: 5, windowMs: 60_000, firstDelayMs: 500, maxDelayMs: 8_000, coolDownMs: 90_000 };

/** What the host does after a death. */
export type AfterDeath =
  | { kind: 'restart'; afterMs: number; deathsInWindow: number }
  | { kind: 'give_up'; why: 'too_many_deaths' | 'data_folder_locked'; deathsInWindow: number; retryAfterMs: number };

/** The history of a host's deaths and the decision after each; the clock is injected (tests, never Date.now here). */
export class ServiceSupervisor {
  private readonly policy: SupervisorPolicy;
  private readonly now: () => number;
  private deaths: number[] = [];

  constructor(now: () => number, policy: Partial<SupervisorPolicy> = {}) {
    this.now = now;
    this.policy = { ...DEFAULT_SUPERVISOR_POLICY, ...policy };
  }

  /**
   * The service died (or a restart failed). `folderLocked`: another service holds its data folder now, so
   * starting against the lock cannot succeed and is not tried.
   */
  died(facts: { folderLocked?: boolean } = {}): AfterDeath {
    const now = this.now();
    this.deaths = [...this.deaths.filter((at) => now - at < this.policy.windowMs), now];
    const deathsInWindow = this.deaths.length;
    const retryAfterMs = this.policy.coolDownMs;
    if (facts.folderLocked === true) return { kind: 'give_up', why: 'data_folder_locked', deathsInWindow, retryAfterMs };
    if (deathsInWindow > this.policy.maxDeaths) return { kind: 'give_up', why: 'too_many_deaths', deathsInWindow, retryAfterMs };
    const afterMs = Math.min(this.policy.maxDelayMs, this.policy.firstDelayMs * 2 ** (deathsInWindow - 1));
    return { kind: 'restart', afterMs, deathsInWindow };
  }
}

/** The sentence a host adds to a give-up: the user's way out is to wait, or to fix what the reason names. */
export function triesAgainIn(ms: number): string {
  const seconds = Math.max(1, Math.round(ms / 1000));
  return seconds >= 120 ? `Local tries again in ${Math.round(seconds / 60)} minutes.` : `Local tries again in ${seconds} s.`;
}
