// The local service's restart policy, shared by both hosts, against a clock the test moves.
import { describe, expect, it } from 'vitest';
import { DEFAULT_SUPERVISOR_POLICY, ServiceSupervisor } from './supervisor-policy.ts';

function supervisor(policy = {}) {
  let now = 1_000_000;
  const s = new ServiceSupervisor(() => now, policy);
  return { s, advance: (ms: number) => (now += ms) };
}

describe('ServiceSupervisor', () => {
  it('restarts after 0.5 s, doubling with each death inside a minute, and gives up at the sixth', () => {
    const { s, advance } = supervisor();
    const steps = [];
    for (let i = 0; i < 6; i++) {
      steps.push(s.died());
      advance(1_000);
    }
    expect(steps.slice(0, 5)).toEqual([500, 1_000, 2_000, 4_000, 8_000].map((afterMs, i) => ({ kind: 'restart', afterMs, deathsInWindow: i + 1 })));
    expect(steps[5]).toEqual({ kind: 'give_up', why: 'too_many_deaths', deathsInWindow: 6, retryAfterMs: DEFAULT_SUPERVISOR_POLICY.coolDownMs });
  });

  it('a service that lived a minute between deaths is always restarted, with the first wait', () => {
    const { s, advance } = supervisor();
    for (let i = 0; i < 20; i++) {
      expect(s.died()).toEqual({ kind: 'restart', afterMs: DEFAULT_SUPERVISOR_POLICY.firstDelayMs, deathsInWindow: 1 });
      advance(DEFAULT_SUPERVISOR_POLICY.windowMs);
    }
  });

  it('only deaths inside the window count', () => {
    const { s, advance } = supervisor({ maxDeaths: 2, windowMs: 10_000 });
    s.died();
    advance(6_000);
    s.died();
    advance(6_000); // the first is now outside the window
    expect(s.died()).toMatchObject({ kind: 'restart', deathsInWindow: 2 });
    expect(s.died()).toMatchObject({ kind: 'give_up', why: 'too_many_deaths', deathsInWindow: 3 });
  });

  it('never restarts against a data folder another service holds', () => {
    const { s } = supervisor();
    expect(s.died({ folderLocked: true })).toEqual({ kind: 'give_up', why: 'data_folder_locked', deathsInWindow: 1, retryAfterMs: DEFAULT_SUPERVISOR_POLICY.coolDownMs });
  });

  it('is never failed for good: after a give-up and its cool-down, the deaths before no longer count', () => {
    const { s, advance } = supervisor({ maxDeaths: 1 });
    s.died();
    const gaveUp = s.died();
    expect(gaveUp).toMatchObject({ kind: 'give_up', retryAfterMs: DEFAULT_SUPERVISOR_POLICY.coolDownMs });
    expect(DEFAULT_SUPERVISOR_POLICY.coolDownMs).toBeGreaterThan(DEFAULT_SUPERVISOR_POLICY.windowMs);
    advance(gaveUp.kind === 'give_up' ? gaveUp.retryAfterMs : 0);
    expect(s.died()).toEqual({ kind: 'restart', afterMs: DEFAULT_SUPERVISOR_POLICY.firstDelayMs, deathsInWindow: 1 });
  });

  it('caps a wait at maxDelayMs', () => {
    const { s } = supervisor({ maxDeaths: 100, maxDelayMs: 3_000 });
    const waits = Array.from({ length: 6 }, () => s.died()).map((step) => (step.kind === 'restart' ? step.afterMs : null));
    expect(waits).toEqual([500, 1_000, 2_000, 3_000, 3_000, 3_000]);
  });
});
