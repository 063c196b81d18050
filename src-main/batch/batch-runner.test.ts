// The batch runner's reads, on a real library.db: one read of the batch row per step, and the Local balance
// asked of the admin API when a run starts and before a pause for credits, not per job (between those the
// runner keeps it from its sends and the service's credits_charged). Sends go through a stand-in runner that
// records turns as the real one does, so the queue, its transactions and its SQL are the real ones.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { GenerateRequest } from '../../src-shared/api.ts';
import { estimateCredits } from '../../src-shared/pricing.ts';
import type { StoredError } from '../domain/errors.ts';
import type { GenerationRunner } from '../generation/index.ts';
import { LibraryRepo, openLibraryDatabase, transaction, type TurnPatch } from '../library/index.ts';
import { BatchRepo, type BatchRow } from './batch-repo.ts';
import { BatchRunner } from './batch-runner.ts';

const request: GenerateRequest = { prompt: 'a mug', model: 'seedream-5-0-pro', ratio: '1:1', resolution: '1K', n: 1 };
const estimate = estimateCredits({ model: 'seedream-5-0-pro', prompt: 'a mug', referenceCount: 0, resolution: '1K', n: 1 });
const PRICE = estimate.total;

/** Counts the runner's batch-row reads (the test's own look is `peek`). */
class CountingBatchRepo extends BatchRepo {
  reads = 0;
  override getBatch(id: string): BatchRow | null {
    this.reads++;
    return super.getBatch(id);
  }
  peek(id: string): BatchRow | null {
    return super.getBatch(id);
  }
}

function setUp(jobCount: number, credits: number) {
  const db = openLibraryDatabase(join(mkdtempSync(join(tmpdir(), 'studio-batch-runner-')), 'library.db'));
  const repo = new LibraryRepo(db);
  const batches = new CountingBatchRepo(db);
  repo.createSession('ls_1', 'local', 0);
  batches.createBatch(
    { id: 'b_1', name: 'b', environment: 'local', shotListId: 'sl', shotListName: 'sl', state: 'paused', pause: null, budget: null, concurrency: 1, planned: jobCount * PRICE, createdAt: 0, updatedAt: 0 },
    Array.from({ length: jobCount }, (_, i) => ({
      id: `j_${i}`, position: i, productId: 'p', sku: 'S', productName: 'P', shotIndex: i, shotName: `s${i}`, purpose: 'free' as const, sessionId: 'ls_1', request, estimate: PRICE,
    })),
  );
  // The account as the service keeps it: each success charges the price.
  const account = { credits, balanceReads: 0 };
  const settled = new Map<string, Promise<void>>();
  let sent = 0;
  const runner = {
    start: async (input: { request: GenerateRequest; sessionId?: string }, retryOf: string | null, hooks: { inTransaction?: (id: string) => void }) => {
      const id = `lt_${sent++}`;
      transaction(db, () => {
        repo.createTurn({ id, sessionId: input.sessionId ?? 'ls_1', environment: 'local', request: input.request, estimate, startedAt: 0, retryOf, referenceImageIds: [] });
        hooks.inTransaction?.(id);
      });
      const outcome: TurnPatch = { status: 'succeeded', creditsCharged: PRICE, finishedAt: 1 };
      settled.set(id, Promise.resolve().then(() => {
        account.credits -= PRICE;
        repo.updateTurn(id, outcome);
      }));
      return { turnId: id };
    },
    whenSettled: async (id: string) => settled.get(id),
  } as unknown as GenerationRunner;
  const batchRunner = new BatchRunner({
    repo,
    batches,
    runner,
    environment: () => 'local',
    balance: async () => {
      account.balanceReads++;
      return account.credits;
    },
    language: () => 'en',
    changed: () => undefined,
    now: () => 1_000,
  });
  return { batchRunner, batches, account, repo, db, sends: () => sent };
}

async function until(what: string, probe: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !probe(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!probe()) throw new Error(`never saw ${what}`);
}

describe('BatchRunner reads', () => {
  it('asks the admin API for the balance once for a whole run, and reads the batch row once per step', async () => {
    const { batchRunner, batches, account, sends } = setUp(6, 1_000);
    batchRunner.start('b_1');
    await until('the batch to finish', () => batches.peek('b_1')?.state === 'done');
    await batchRunner.settle();
    expect(sends()).toBe(6);
    expect(account.balanceReads).toBe(1);
    // Per job: the step that sends it and the judgement of its end; plus Start's and the last step's.
    expect(batches.reads).toBe(6 * 2 + 2);
    expect(batchRunner.summary('b_1').counts.succeeded).toBe(6);
  });

  it('pauses for credits on the service figure when its own reckoning runs short, and only then asks again', async () => {
    const { batchRunner, batches, account, sends } = setUp(4, 2 * PRICE + 1);
    batchRunner.start('b_1');
    await until('the pause', () => batches.peek('b_1')?.state === 'paused');
    await batchRunner.settle();
    expect(sends()).toBe(2);
    expect(account.balanceReads).toBe(2);
    expect(batches.peek('b_1')?.pause).toMatchObject({ reason: 'insufficient_credits', needed: PRICE, params: { balance: 1 } });
  });
});

/** Job 0 was sent and its turn ended with `error` while the batch was paused; nobody judged it yet. */
function endedUnjudged({ repo, batches, db }: ReturnType<typeof setUp>, error: StoredError): void {
  transaction(db, () => {
    repo.createTurn({ id: 'lt_old', sessionId: 'ls_1', environment: 'local', request, estimate, startedAt: 0, retryOf: null, referenceImageIds: [] });
    batches.markSent('j_0', 'lt_old', { request, estimate: estimate.total });
  });
  repo.updateTurn('lt_old', { status: 'failed', error, finishedAt: 1 });
}

describe('BatchRunner resume', () => {
  it("keeps a pause its own judging decides: a job that ended refused for its key holds the batch instead of sending the next", async () => {
    const set = setUp(3, 1_000);
    const { batchRunner, batches, sends } = set;
    endedUnjudged(set, { code: 'invalid_api_key', status: 401 });

    const resumed = batchRunner.resume('b_1');
    expect(resumed.state).toBe('paused');
    expect(resumed.pause).toMatchObject({ reason: 'problem', params: { code: 'invalid_api_key' } });
    await batchRunner.settle();
    await new Promise((r) => setTimeout(r, 50));
    expect(sends()).toBe(0);
    expect(batches.peek('b_1')?.state).toBe('paused');
  });

  it('lifts a pause for credits its judging decides: Resume is the top-up answer, and the balance is read afresh', async () => {
    const set = setUp(2, 1_000);
    const { batchRunner, batches, sends } = set;
    endedUnjudged(set, { code: 'insufficient_credits', status: 402 });

    expect(batchRunner.resume('b_1').state).toBe('running');
    await until('the batch to finish', () => batches.peek('b_1')?.state === 'done');
    await batchRunner.settle();
    expect(sends()).toBe(2);
  });
});
