// Re-runs inside a batch through the app core's IPC against the real local service (child process) and real
// SQLite: a failed job retried by hand after two 500s, a cell re-shot with a prompt tweak, an over-budget job
// finished by raising the budget, "only what is missing" never sending a done shot, and bad inputs refused with
// nothing changed. Each re-run is a new job with its own price, request id and turn; the books balance.
// (kill -9 mid re-run is e2e/catalog-rerun.spec.ts: it needs the app as a process.)
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BatchDetail, BatchReport, BatchSummary, FinishAnswer, RerunAnswer } from '../../src-shared/ipc/index.ts';
import { cheap, useEnglishApp } from './batch-app.test-support.ts';

describe('re-runs inside a batch, against the real local service', () => {
  const { c, dataDir } = useEnglishApp('studio-reruns-');
  const charges = (b: BatchDetail) => b.jobs.reduce((s, j) => s + (j.creditsCharged ?? 0), 0);
  const settledBalance = () => c.until('reservations settled', async () => {
    const a = await c.account();
    return a.reserved === 0 ? a : null;
  });

  it('a job failed after a 500 twice is retried by hand as a new job of the batch; the old one keeps its record', async () => {
    const [p] = await c.products(1, 'RETRY');
    const l = await c.list('retry', [cheap('main'), cheap('side')]);
    const before = (await settledBalance()).credits;
    await c.ok('localSetFaults', { generate: { fail: 2 } });
    const created = await c.ok<BatchDetail>('batchCreate', { productIds: [p!.id], shotListId: l.id, concurrency: 1 });
    const done = await c.settled(created.id, 'done');
    const failed = done.jobs.find((j) => j.shotName === 'main')!;
    expect(failed).toMatchObject({ status: 'failed', origin: 'plan', replacedBy: null, error: { code: 'internal_error' } });
    expect(failed.turnIds).toHaveLength(2);
    // The domain allows one more send by hand (the queue's resend was the spec's one retry; both were refunded).
    expect(failed.retry).toMatchObject({ allowed: true, reason: null });
    expect(done.jobs.find((j) => j.shotName === 'side')!.retry).toMatchObject({ allowed: false, reason: 'succeeded' });

    const answer = await c.ok<RerunAnswer>('batchRetryJob', { batchId: created.id, jobId: failed.id });
    expect(answer.estimate).toBe(failed.estimate);
    expect(answer.left).toBeNull();
    const after = await c.settled(created.id, 'done');
    const retry = after.jobs.find((j) => j.id === answer.jobId)!;
    expect(retry).toMatchObject({ status: 'succeeded', origin: 'retry', replaces: failed.id, sessionId: failed.sessionId, shotName: 'main', sku: failed.sku });
    expect(retry.requestId).toMatch(/^req_/);
    expect(retry.requestId).not.toBe(failed.requestId);
    expect(retry.turnIds).toHaveLength(1);
    // The old job keeps its record, now pointing at its retry, which may not be retried again.
    const old = after.jobs.find((j) => j.id === failed.id)!;
    expect(old).toMatchObject({ status: 'failed', replacedBy: retry.id, turnIds: failed.turnIds, requestId: failed.requestId, retry: { allowed: false, reason: 'replaced' } });
    const again = await c.call('batchRetryJob', { batchId: created.id, jobId: failed.id });
    expect(again.ok ? null : again.error).toMatchObject({ code: 'batch_retry_refused', details: { reason: 'replaced' } });
    expect((await c.batch(created.id)).jobs).toHaveLength(3);
    // The progress counts the retry, not the failure it stands in for: 2 done of 2, nothing failed.
    expect(after.counts).toMatchObject({ succeeded: 2, failed: 0, replaced: 1 });
    expect([after.jobCount, after.done, after.failed, after.remaining]).toEqual([2, 2, 0, 0]);
    // The totals include it: the plan's price is what was charged (the failed job cost nothing, its retry its price).
    expect(after.reruns).toEqual({ jobs: 1, retried: 1, reshot: 0, estimated: retry.estimate, charged: retry.estimate });
    expect(after.spent).toBe(charges(after));
    expect(after.spent).toBe(after.planned);
    expect(before - (await settledBalance()).credits).toBe(after.spent);
    const report = await c.ok<BatchReport>('batchReport', { batchId: created.id });
    expect(report.total).toMatchObject({ jobs: 3, succeeded: 2, failed: 1, reruns: 1, charged: after.spent });
    // The CSV names each job's origin and the job a retry replaces.
    const { file } = await c.ok<{ file: string }>('batchReportCsv', { batchId: created.id, folder: dataDir() });
    const lines = readFileSync(file, 'utf8').replace(/^\uFEFF/, '').trim().split(/\r?\n/);
    expect(lines[0]).toMatch(/,turn_id,origin,replaces$/);
    expect(lines.filter((line) => line.endsWith(`,retry,${failed.id}`))).toHaveLength(1);
    expect(lines.filter((line) => line.startsWith('job,') && line.endsWith(',plan,'))).toHaveLength(2);
  });

  it('a cell is re-shot with a prompt tweak, priced first: a new job in the product session; plan total + re-runs = charges', async () => {
    const [p] = await c.products(1, 'TWEAK');
    const l = await c.list('tweak', [cheap('main'), cheap('detail', { n: 2 })]);
    const before = (await settledBalance()).credits;
    const created = await c.ok<BatchDetail>('batchCreate', { productIds: [p!.id], shotListId: l.id, concurrency: 2 });
    const done = await c.settled(created.id, 'done');
    const main = done.jobs.find((j) => j.shotName === 'main')!;
    const cell = { batchId: created.id, productId: p!.id, shotName: 'main' };

    // Priced before sending: the same price as the plan's job (nothing is added).
    const priced = await c.ok<RerunAnswer>('batchRerunCell', { ...cell, promptTweak: 'softer light', dryRun: true });
    expect(priced).toMatchObject({ jobId: null, estimate: main.estimate, left: null });
    expect((await c.batch(created.id)).jobs).toHaveLength(2);
    // Another setting has its own price (n: 2 costs twice).
    expect((await c.ok<RerunAnswer>('batchRerunCell', { ...cell, settings: { n: 2 }, dryRun: true })).estimate).toBe(2 * main.estimate);

    const answer = await c.ok<RerunAnswer>('batchRerunCell', { ...cell, promptTweak: '  softer light ' });
    const after = await c.settled(created.id, 'done');
    const shot = after.jobs.find((j) => j.id === answer.jobId)!;
    expect(shot).toMatchObject({ status: 'succeeded', origin: 'rerun', replaces: null, sessionId: main.sessionId, shotName: 'main', estimate: main.estimate });
    expect(shot.request.prompt).toBe(`${main.request.prompt}\nsofter light`);
    expect({ ...shot.request, prompt: main.request.prompt }).toEqual(main.request);
    expect(shot.imageIds).toHaveLength(1);
    expect(shot.requestId).not.toBe(main.requestId);
    // The first result stays: a re-shoot adds a candidate, it replaces nothing.
    expect(after.jobs.find((j) => j.id === main.id)).toMatchObject({ status: 'succeeded', imageIds: main.imageIds, replacedBy: null });
    // Journaled before it went out, like every job (the send journal brings it back after a restore: never sent twice).
    const journal = readFileSync(join(dataDir(), 'sends.jsonl'), 'utf8').split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line) as { batchJobId: string | null; turnId: string; request: { prompt?: string } });
    expect(journal.filter((e) => e.batchJobId === shot.id)).toEqual([expect.objectContaining({ turnId: shot.turnId, request: expect.objectContaining({ prompt: shot.request.prompt }) })]);
    expect(after.reruns).toEqual({ jobs: 1, retried: 0, reshot: 1, estimated: main.estimate, charged: main.estimate });
    expect(after.planned + after.reruns.estimated).toBe(charges(after));
    expect(after.spent).toBe(charges(after));
    expect(before - (await settledBalance()).credits).toBe(after.spent);
    const report = await c.ok<BatchReport>('batchReport', { batchId: created.id });
    expect(report.total).toMatchObject({ jobs: 3, succeeded: 3, reruns: 1, estimated: after.planned + main.estimate, charged: after.spent });
  });

  it('raising the budget sends the over-budget job in the same batch; it is never lowered below what is spent', async () => {
    const [p] = await c.products(1, 'RAISE');
    const l = await c.list('raise', [cheap('a'), cheap('b')]);
    const created = await c.ok<BatchDetail>('batchCreate', { productIds: [p!.id], shotListId: l.id, concurrency: 1, budget: 6 });
    const done = await c.settled(created.id, 'done');
    expect(done.counts).toMatchObject({ succeeded: 1, overBudget: 1 });
    // Every job is in one part of the progress, the over-budget one too: the parts add up to the job count.
    expect(done.parts).toEqual({ done: 1, failed: 0, unknown: 0, overBudget: 1, cancelled: 0, remaining: 0, unsent: 1 });
    expect([done.jobCount, done.done, done.failed, done.remaining]).toEqual([2, 1, 0, 0]);
    const over = done.jobs.find((j) => j.status === 'over_budget')!;
    expect(over.retry).toMatchObject({ allowed: false, reason: 'over_budget' });
    // A re-shoot the budget cannot take is refused with its price and what is left.
    const refused = await c.call('batchRerunCell', { batchId: created.id, productId: p!.id, shotName: 'a' });
    expect(refused.ok ? null : refused.error).toMatchObject({ code: 'batch_over_budget' });
    if (!refused.ok) expect(refused.error.message).toContain('6 credits and the budget has 0 left');

    const lower = await c.call('batchRaiseBudget', { batchId: created.id, budget: 5 });
    expect(lower.ok ? null : lower.error.code).toBe('batch_budget_below_spent');
    expect((await c.batch(created.id)).budget).toBe(6);

    const raised = await c.ok<BatchSummary>('batchRaiseBudget', { batchId: created.id, budget: 12 });
    expect(raised.budget).toBe(12);
    const after = await c.settled(created.id, 'done');
    expect(after.counts).toMatchObject({ succeeded: 2, overBudget: 0 });
    expect(after.parts).toEqual({ done: 2, failed: 0, unknown: 0, overBudget: 0, cancelled: 0, remaining: 0, unsent: 0 });
    // The same job, sent once: it was never sent before, so it keeps its place and plan price.
    expect(after.jobs).toHaveLength(2);
    expect(after.jobs.find((j) => j.id === over.id)).toMatchObject({ status: 'succeeded', origin: 'plan' });
    expect(after.jobs.find((j) => j.id === over.id)!.turnIds).toHaveLength(1);
    expect(after.spent).toBe(12);
  });

  it('raising the budget does not send the plan job of an over-budget cell already re-shot (the cell is not paid twice)', async () => {
    const [p] = await c.products(1, 'RESHOT');
    const l = await c.list('reshot', [cheap('a'), cheap('b', { n: 2 })]);
    const created = await c.ok<BatchDetail>('batchCreate', { productIds: [p!.id], shotListId: l.id, concurrency: 1, budget: 12 });
    const done = await c.settled(created.id, 'done');
    expect(done.counts).toMatchObject({ succeeded: 1, overBudget: 1 });
    // The over-budget cell re-shot at one image fits what is left (6 of 12).
    const answer = await c.ok<RerunAnswer>('batchRerunCell', { batchId: created.id, productId: p!.id, shotName: 'b', settings: { n: 1 } });
    expect((await c.settled(created.id, 'done')).jobs.find((j) => j.id === answer.jobId)).toMatchObject({ status: 'succeeded' });

    await c.ok<BatchSummary>('batchRaiseBudget', { batchId: created.id, budget: 100 });
    const after = await c.settled(created.id, 'done');
    // Shot b has its result: its never-sent plan job stays unsent, so nothing more is charged.
    expect(after.jobs.filter((j) => j.shotName === 'b' && j.turnIds.length > 0)).toHaveLength(1);
    expect(after.spent).toBe(12);
  });

  it('"only what is missing" tells count and price first, then sends only cells with no result, never a done shot', async () => {
    const [p] = await c.products(1, 'FINISH');
    const l = await c.list('finish', [cheap('a'), cheap('b'), cheap('c')]);
    const before = (await settledBalance()).credits;
    // a: 500 twice (failed, refunded); b: done; c: over the budget.
    await c.ok('localSetFaults', { generate: { fail: 2 } });
    const created = await c.ok<BatchDetail>('batchCreate', { productIds: [p!.id], shotListId: l.id, concurrency: 1, budget: 6 });
    const done = await c.settled(created.id, 'done');
    expect(done.jobs.map((j) => j.status)).toEqual(['failed', 'succeeded', 'over_budget']);

    const ask = await c.ok<FinishAnswer>('batchFinish', { batchId: created.id, dryRun: true });
    expect(ask).toMatchObject({ dryRun: true, missing: 2, jobs: 2, total: 12, requeued: 1, retried: 1, left: 0, withinBudget: 0, skipped: [] });
    expect((await c.batch(created.id)).jobs.map((j) => j.status)).toEqual(['failed', 'succeeded', 'over_budget']);

    await c.ok('batchRaiseBudget', { batchId: created.id, budget: 100 });
    await c.settled(created.id, 'done');
    const ask2 = await c.ok<FinishAnswer>('batchFinish', { batchId: created.id, dryRun: true });
    expect(ask2).toMatchObject({ jobs: 1, total: 6, requeued: 0, retried: 1, left: 100 - 12, withinBudget: 1 });
    const finished = await c.ok<FinishAnswer>('batchFinish', { batchId: created.id });
    expect(finished).toMatchObject({ dryRun: false, jobs: 1, total: 6 });
    const after = await c.settled(created.id, 'done');
    expect(after.counts.succeeded).toBe(3);
    // Every cell has its one result; b was sent once, and nothing more is missing.
    expect(after.jobs).toHaveLength(4);
    expect(after.jobs.filter((j) => j.shotName === 'b').map((j) => j.turnIds.length)).toEqual([1]);
    expect(await c.ok<FinishAnswer>('batchFinish', { batchId: created.id, dryRun: true })).toMatchObject({ jobs: 0, total: 0 });
    const none = await c.ok<FinishAnswer>('batchFinish', { batchId: created.id });
    expect(none.jobs).toBe(0);
    expect((await c.batch(created.id)).jobs).toHaveLength(4);
    expect(before - (await settledBalance()).credits).toBe(18);
  });

  it('"only what is missing" with shots lacking a result that cannot be sent says so per cell, not "nothing missing"', async () => {
    const [p] = await c.products(1, 'USEDUP');
    const l = await c.list('usedup', [cheap('a'), cheap('b')]);
    // a: 500 twice (failed, refunded), its retry by hand 500 again: its retry is used up. b: done.
    await c.ok('localSetFaults', { generate: { fail: 2 } });
    const created = await c.ok<BatchDetail>('batchCreate', { productIds: [p!.id], shotListId: l.id, concurrency: 1 });
    const done = await c.settled(created.id, 'done');
    const failed = done.jobs.find((j) => j.shotName === 'a')!;
    await c.ok('localSetFaults', { generate: { fail: 2 } });
    const retry = await c.ok<RerunAnswer>('batchRetryJob', { batchId: created.id, jobId: failed.id });
    const afterRetry = await c.settled(created.id, 'done');
    await c.ok('localSetFaults', { generate: { fail: 0 } });
    expect(afterRetry.jobs.find((j) => j.id === retry.jobId)).toMatchObject({ status: 'failed', retry: { allowed: false, reason: 'limit_reached' } });
    expect(afterRetry.parts).toMatchObject({ done: 1, failed: 1, unsent: 0 });

    const ask = await c.ok<FinishAnswer>('batchFinish', { batchId: created.id, dryRun: true });
    expect(ask).toMatchObject({ missing: 1, jobs: 0, total: 0 });
    expect(ask.skipped.map((x) => [x.sku, x.shotName, x.reason])).toEqual([['USEDUP-1', 'a', 'limit_reached']]);
    expect(ask.skipped[0]!.message).not.toBe('');

    // A re-shoot gives the cell its result: nothing is missing any more.
    await c.ok<RerunAnswer>('batchRerunCell', { batchId: created.id, productId: p!.id, shotName: 'a' });
    expect((await c.settled(created.id, 'done')).parts).toMatchObject({ done: 2, failed: 1 });
    expect(await c.ok<FinishAnswer>('batchFinish', { batchId: created.id, dryRun: true })).toMatchObject({ missing: 0, jobs: 0, skipped: [] });
  });

  it('a batch cancelled before it sent anything: "only what is missing" sends its jobs in the same batch', async () => {
    const [p] = await c.products(1, 'CANCEL');
    const l = await c.list('cancel', [cheap('a'), cheap('b')]);
    const created = await c.ok<BatchDetail>('batchCreate', { productIds: [p!.id], shotListId: l.id, concurrency: 1, start: false });
    const cancelled = await c.ok<BatchSummary>('batchCancel', { batchId: created.id });
    expect([cancelled.state, cancelled.counts.cancelled]).toEqual(['cancelled', 2]);
    expect(cancelled.parts).toMatchObject({ done: 0, cancelled: 2, remaining: 0, unsent: 2 });
    const finished = await c.ok<FinishAnswer>('batchFinish', { batchId: created.id });
    expect(finished).toMatchObject({ jobs: 2, requeued: 2, retried: 0, total: 12 });
    const after = await c.settled(created.id, 'done');
    expect(after.jobs.map((j) => [j.id, j.status, j.turnIds.length])).toEqual(created.jobs.map((j) => [j.id, 'succeeded', 1]));
    expect(after.spent).toBe(after.planned);
  });

  it('bad inputs are refused with a specific error and change nothing', async () => {
    const [p] = await c.products(1, 'BAD');
    const l = await c.list('bad', [cheap('a')]);
    const created = await c.ok<BatchDetail>('batchCreate', { productIds: [p!.id], shotListId: l.id, concurrency: 1 });
    const done = await c.settled(created.id, 'done');
    const job = done.jobs[0]!;
    const refusals: Array<[string, unknown, string]> = [
      ['batchRetryJob', { batchId: created.id, jobId: 'bj_nope' }, 'batch_job_not_found'],
      ['batchRetryJob', { batchId: 'bt_nope', jobId: job.id }, 'batch_not_found'],
      ['batchRetryJob', { batchId: created.id, jobId: job.id }, 'batch_retry_refused'],
      ['batchRetryJob', { batchId: created.id }, 'invalid_input'],
      ['batchRerunCell', { batchId: created.id, productId: p!.id, shotName: 'nope' }, 'batch_cell_not_found'],
      ['batchRerunCell', { batchId: created.id, productId: p!.id, shotName: 'a', settings: { resolution: '4K' } }, 'invalid_resolution'],
      ['batchRerunCell', { batchId: created.id, productId: p!.id, shotName: 'a', settings: { n: 3 } }, 'invalid_input'],
      ['batchRerunCell', { batchId: created.id, productId: p!.id, shotName: 'a', prompt: 'x' }, 'invalid_input'],
      ['batchRaiseBudget', { batchId: created.id, budget: 0 }, 'invalid_input'],
      ['batchRaiseBudget', { batchId: created.id }, 'invalid_input'],
      ['batchFinish', { batchId: 'bt_nope' }, 'batch_not_found'],
    ];
    for (const [method, input, code] of refusals) {
      const answer = await c.call(method as 'batchFinish', input);
      expect(answer.ok ? `${method} answered ok` : answer.error.code, `${method} ${JSON.stringify(input)}`).toBe(code);
    }
    const retryRefused = await c.call('batchRetryJob', { batchId: created.id, jobId: job.id });
    if (!retryRefused.ok) expect(retryRefused.error.message).toContain('re-shoot the cell');
    const after = await c.batch(created.id);
    expect(after.jobs).toEqual(done.jobs);
    expect({ ...after, jobs: [] }).toEqual({ ...done, jobs: [] });
  });
});
