// After a crash, Local turns whose outcome the app never learnt are settled from the bundled service: the app
// sends its own turn id with each generate call (header X-Client-Turn-Id) and the service's admin API lists
// an account's turns with it, so a paid run's images still reach the library and a refunded one says so.
// Remote turns stay "outcome unknown": only the service's website can tell (spec §1, Recent conversations).
import type { AdminTurn } from '../../src-shared/admin.ts';
import type { StoredTurn } from '../domain/turns.ts';
import type { GenerationRunner } from './runner.ts';
import type { LibraryRepo } from '../library/index.ts';

export interface ReconcileDeps {
  repo: LibraryRepo;
  runner: GenerationRunner;
  /** The account's turns on the bundled service since a time (Unix seconds). */
  accountTurns: (sinceUnixS: number) => Promise<AdminTurn[]>;
  now: () => number;
  onTrouble?: (message: string, error: unknown) => void;
}

export interface ReconcileReport {
  succeeded: string[];
  failed: string[];
  neverArrived: string[];
  /** Still running on the service, or not provably settled: left as outcome unknown. */
  stillRunning: string[];
}

/** Settles every Local turn left `outcome_unknown`; returns what it did. Never throws for one turn's sake. */
export async function reconcileLocalTurns(deps: ReconcileDeps): Promise<ReconcileReport> {
  const report: ReconcileReport = { succeeded: [], failed: [], neverArrived: [], stillRunning: [] };
  // Also runs the service finished and charged whose images a full disk kept out of the library.
  const chargedButNotKept = deps.repo.turnsWithStatus('failed').filter((t) => t.error?.code === 'disk_full' && t.images.length === 0 && t.serviceTurnId !== null);
  const open = [...deps.repo.turnsWithStatus('outcome_unknown'), ...chargedButNotKept].filter((t) => t.environment === 'local');
  if (open.length === 0) return report;
  // An hour of slack: the service's clock only runs ahead of ours (its admin clock moves forward only).
  const since = Math.floor(Math.min(...open.map((t) => t.startedAt)) / 1000) - 3600;
  const { turns, complete } = await listSince(deps, since);
  const byClientId = new Map<string, AdminTurn>();
  for (const turn of turns) if (turn.client_turn_id) byClientId.set(turn.client_turn_id, turn);
  for (const turn of open) {
    const remote = byClientId.get(turn.id) ?? null;
    // "Never arrived" needs proof: the turn carried its id, and the service's list was read to the end.
    if (remote === null && (!turn.clientIdSent || !complete)) {
      report.stillRunning.push(turn.id);
      continue;
    }
    try {
      settle(deps, turn, remote, report);
    } catch (error) {
      deps.onTrouble?.(`could not reconcile turn ${turn.id}`, error);
    }
  }
  return report;
}

/** The service answers at most a page (oldest first); read on from the last turn seen. */
async function listSince(deps: ReconcileDeps, since: number): Promise<{ turns: AdminTurn[]; complete: boolean }> {
  const seen = new Map<string, AdminTurn>();
  let from = since;
  for (let page = 0; page < 200; page++) {
    const batch = await deps.accountTurns(from);
    const fresh = batch.filter((t) => !seen.has(t.turn_id));
    for (const t of batch) seen.set(t.turn_id, t);
    if (batch.length < PAGE) return { turns: [...seen.values()], complete: true };
    const last = batch[batch.length - 1] as AdminTurn;
    // A full page of one second gives no way forward; what was not read stays unknown.
    if (fresh.length === 0 || last.created_at === from) return { turns: [...seen.values()], complete: false };
    from = last.created_at;
  }
  return { turns: [...seen.values()], complete: false };
}

/** The page size of GET /admin/accounts/:id/turns (docs/local-service.md). */
const PAGE = 500;

function settle(deps: ReconcileDeps, turn: StoredTurn, remote: AdminTurn | null, report: ReconcileReport): void {
  const { repo, runner } = deps;
  // A disk-full failure is only revisited when the service has its images to give.
  if (turn.status === 'failed' && remote?.status !== 'succeeded') return;
  if (remote === null) {
    // The service never saw it (the app stopped before the request arrived): nothing ran, nothing was charged.
    repo.updateTurn(turn.id, { status: 'failed', error: { code: 'not_on_service' }, outcome: null, finishedAt: deps.now() });
    report.neverArrived.push(turn.id);
    return;
  }
  if (remote.status === 'running') {
    report.stillRunning.push(turn.id);
    return;
  }
  if (remote.status === 'succeeded') {
    runner.recordSuccess(
      turn.id,
      {
        ok: true,
        turn_id: remote.turn_id,
        session_id: remote.session_id,
        credits_charged: remote.credits_charged ?? 0,
        duration_ms: remote.finished_at !== null ? (remote.finished_at - remote.created_at) * 1000 : 0,
        warnings: remote.warnings,
        images: remote.images,
      },
      turn.requestId,
      { code: 'reconciled', params: { status: 'succeeded', charged: remote.credits_charged ?? 0 } },
    );
    report.succeeded.push(turn.id);
    return;
  }
  // Failed on the service: the whole reservation was refunded (spec §4.1 billing rule 2), so one retry is safe.
  repo.updateTurn(turn.id, {
    status: 'failed',
    serviceTurnId: remote.turn_id,
    creditsCharged: remote.credits_charged ?? 0,
    error: { code: 'internal_error' },
    outcome: { code: 'reconciled', params: { status: 'failed' } },
    finishedAt: deps.now(),
  });
  report.failed.push(turn.id);
}
