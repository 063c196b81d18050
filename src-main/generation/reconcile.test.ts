// Reconciliation decides what a crash left: these cases are about never calling a charged run "never arrived"
// (which would offer a paid retry). The service's turn list is given as data here; the end-to-end path against
// the real service is e2e/crash-restart.spec.ts.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AdminTurn } from '../../src-shared/admin.ts';
import { estimateCredits } from '../../src-shared/pricing.ts';
import { RecordingShell } from '../ports/desktop-shell.ts';
import { openLibraryDatabase } from '../library/database.ts';
import { LibraryRepo } from '../library/library-repo.ts';
import { GenerationRunner } from './runner.ts';
import { reconcileLocalTurns } from './reconcile.ts';

function setup() {
  const db = openLibraryDatabase(join(mkdtempSync(join(tmpdir(), 'reconcile-')), 'library.db'));
  const repo = new LibraryRepo(db);
  const runner = new GenerationRunner({
    db,
    repo,
    shell: new RecordingShell(),
    language: () => 'en',
    environment: () => 'local',
    clientFor: async () => {
      throw new Error('reconciliation never calls the service API');
    },
    onProgress: () => {},
    onTurnChanged: () => {},
    onImagesReady: () => {},
  });
  repo.createSession('ls_aaaaaaaaaa', 'local', 1_000);
  const unknownTurn = (id: string, startedAt: number, legacy = false): void => {
    const request = { prompt: 'p', model: 'nano-banana-2' as const, resolution: '1K' as const };
    repo.createTurn({ id, sessionId: 'ls_aaaaaaaaaa', environment: 'local', request, estimate: estimateCredits({ ...request, referenceCount: 0 }), startedAt, retryOf: null, referenceImageIds: [] });
    repo.updateTurn(id, { status: 'outcome_unknown', outcome: { code: 'outcome_unknown', params: { why: 'crashed' } } });
    if (legacy) db.prepare('UPDATE turns SET client_id_sent = 0 WHERE id = ?').run(id);
  };
  return { db, repo, runner, unknownTurn };
}

const remote = (clientTurnId: string, createdAt: number, status: AdminTurn['status'] = 'succeeded'): AdminTurn => ({
  turn_id: `t_${clientTurnId.slice(3)}`,
  session_id: 's_aaaaaaaaaa',
  client_turn_id: clientTurnId,
  status,
  credits_charged: status === 'succeeded' ? 12 : 0,
  reserved: 0,
  warnings: [],
  created_at: createdAt,
  finished_at: createdAt + 1,
  images: status === 'succeeded' ? [{ id: `img_${clientTurnId.slice(3, 11)}`, filename: `${clientTurnId.slice(3, 11)}.png`, url: `/api/file/${clientTurnId.slice(3, 11)}.png`, width: 1024, height: 1024 }] : [],
});

describe('reconciling Local turns after a crash', () => {
  it('settles a found success with its charge and images, and a turn the service never saw as not_on_service', async () => {
    const { repo, runner, unknownTurn } = setup();
    unknownTurn('lt_found00001', 2_000_000);
    unknownTurn('lt_missing001', 2_000_000);
    const report = await reconcileLocalTurns({ repo, runner, now: () => 3_000_000, accountTurns: async () => [remote('lt_found00001', 2_000)] });
    expect(report).toMatchObject({ succeeded: ['lt_found00001'], neverArrived: ['lt_missing001'] });
    expect(repo.getTurn('lt_found00001')).toMatchObject({ status: 'succeeded', creditsCharged: 12, error: null });
    expect(repo.getTurn('lt_found00001')?.images).toHaveLength(1);
    expect(repo.getTurn('lt_missing001')).toMatchObject({ status: 'failed', error: { code: 'not_on_service' } });
  });

  it('leaves a turn of an earlier version (sent without its id) unknown instead of calling it never arrived', async () => {
    const { repo, runner, unknownTurn } = setup();
    unknownTurn('lt_legacy0001', 2_000_000, true);
    const report = await reconcileLocalTurns({ repo, runner, now: () => 3_000_000, accountTurns: async () => [] });
    expect(report.neverArrived).toEqual([]);
    expect(repo.getTurn('lt_legacy0001')?.status).toBe('outcome_unknown');
  });

  it('reads every page of the service list before deciding a turn never arrived', async () => {
    const { repo, runner, unknownTurn } = setup();
    unknownTurn('lt_old0000001', 1_000_000);
    unknownTurn('lt_cutoff0001', 9_000_000);
    // 500 older turns fill the first page; the cut-off one is on the second.
    const older = Array.from({ length: 500 }, (_, i) => remote(`lt_filler${String(i).padStart(4, '0')}`, 1_000 + i));
    const all = [...older, remote('lt_old0000001', 1_000, 'failed'), remote('lt_cutoff0001', 9_000)];
    const asked: number[] = [];
    const report = await reconcileLocalTurns({
      repo,
      runner,
      now: () => 10_000_000,
      accountTurns: async (since) => {
        asked.push(since);
        return all.filter((t) => t.created_at >= since).sort((a, b) => a.created_at - b.created_at).slice(0, 500);
      },
    });
    expect(asked.length).toBeGreaterThan(1);
    expect(report.succeeded).toEqual(['lt_cutoff0001']);
    expect(report.failed).toEqual(['lt_old0000001']);
    expect(report.neverArrived).toEqual([]);
  });

  it('leaves turns unknown when the list cannot be read to the end (a full page within one second)', async () => {
    const { repo, runner, unknownTurn } = setup();
    unknownTurn('lt_cutoff0002', 2_000_000);
    const stuck = Array.from({ length: 500 }, (_, i) => remote(`lt_same${String(i).padStart(6, '0')}`, 1_000));
    const report = await reconcileLocalTurns({ repo, runner, now: () => 3_000_000, accountTurns: async () => stuck });
    expect(report.neverArrived).toEqual([]);
    expect(repo.getTurn('lt_cutoff0002')?.status).toBe('outcome_unknown');
  });
});
