// A product's master reference chosen after a batch was planned, through the app core's IPC against the real local
// service (child process) and a real library.db: jobs sent later from that batch (Resume of queued jobs, a raised
// budget, "only what is missing") go out with the master as chosen then, priced as sent, so the budget check, the
// charges and the balance agree; a retry by hand resends the failed request as it was (spec §7 "retry once as is").
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BatchDetail, BatchJob, BatchReport, FinishAnswer, Product, RerunAnswer } from '../../src-shared/ipc/index.ts';
import { cheap, useEnglishApp } from './batch-app.test-support.ts';

/** gpt-image-2 at low quality: 5 credits, plus 1 per reference (a master added to a product without one costs 1 more). */
const gpt = (name: string) => cheap(name, { model: 'gpt-image-2', quality: 'low' });

describe('a master chosen after the plan, against the real local service', () => {
  const { c, app, dataDir } = useEnglishApp('studio-master-send-', { downloads: true });
  const settledBalance = () => c.until('reservations settled', async () => {
    const a = await c.account();
    return a.reserved === 0 ? a : null;
  });
  const job = (b: BatchDetail, sku: string, shot: string): BatchJob => b.jobs.filter((j) => j.sku === sku && j.shotName === shot).at(-1) as BatchJob;
  const charges = (b: BatchDetail) => b.jobs.reduce((s, j) => s + (j.creditsCharged ?? 0), 0);
  /** What main journaled as sent for a job, before it went out (the request the service got). */
  const journaled = (jobId: string) =>
    readFileSync(join(dataDir(), 'sends.jsonl'), 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as { batchJobId: string | null; request: { ref_image_ids?: string[] }; estimate: { total: number } })
      .filter((e) => e.batchJobId === jobId);

  it('Resume, a raised budget and "only what is missing" send the master chosen meanwhile; a retry by hand resends as it was', async () => {
    const before = (await settledBalance()).credits;
    const [p1, p2] = (await c.products(2, 'LATE')) as [Product, Product];
    // Batch A makes each product a candidate to choose as its master later.
    const look = await c.list('late-look', [cheap('look')]);
    const a = await c.ok<BatchDetail>('batchCreate', { productIds: [p1.id, p2.id], shotListId: look.id, concurrency: 2, start: true });
    const doneA = await c.settled(a.id, 'done');
    await app().whenDownloadsIdle();
    const [m1] = job(doneA, 'LATE-1', 'look').imageIds as [string];
    const [m2] = job(doneA, 'LATE-2', 'look').imageIds as [string];
    // LATE-2 has a CSV reference (an image of the library): its master will take that reference's place.
    await c.ok('productSave', { id: p2.id, sku: p2.sku, name: p2.name, prompt: p2.prompt, notes: p2.notes, referenceImageIds: [m1] });

    // D fails after two 500s (the queue's own resend was the first) before any master is chosen.
    await c.ok('localSetFaults', { generate: { fail: 2 } });
    const d = await c.ok<BatchDetail>('batchCreate', { productIds: [p1.id], shotListId: (await c.list('late-d', [cheap('w')])).id, concurrency: 1, start: true });
    const failed = job(await c.settled(d.id, 'done'), 'LATE-1', 'w');
    expect(failed).toMatchObject({ status: 'failed', retry: { allowed: true } });

    // B and C are planned before the masters exist: B waits paused with a budget of exactly its plan; C is cancelled.
    const listB = await c.list('late-b', [cheap('x'), gpt('g')]);
    const planB = await c.ok<{ total: number }>('batchPlan', { productIds: [p1.id, p2.id], shotListId: listB.id });
    // x: 6 + 6 (seedream has no reference surcharge); g: 5 (LATE-1, no reference) + 6 (LATE-2, one reference).
    expect(planB.total).toBe(23);
    const b = await c.ok<BatchDetail>('batchCreate', { productIds: [p1.id, p2.id], shotListId: listB.id, concurrency: 1, budget: 23, start: false });
    expect(job(b, 'LATE-1', 'g')).toMatchObject({ status: 'queued', estimate: 5 });
    expect(job(b, 'LATE-1', 'g').request.ref_image_ids).toBeUndefined();
    const cBatch = await c.ok<BatchDetail>('batchCreate', { productIds: [p1.id], shotListId: (await c.list('late-c', [gpt('h')])).id, concurrency: 1, start: false });
    await c.ok('batchCancel', { batchId: cBatch.id });

    // The masters are chosen on A's board.
    await c.ok('catalogSetProductMaster', { batchId: a.id, productId: p1.id, imageId: m1 });
    await c.ok('catalogSetProductMaster', { batchId: a.id, productId: p2.id, imageId: m2 });

    // Resume: every job of B goes out with its product's master. LATE-1 · g gains a reference (6, not the planned 5),
    // so LATE-2 · g no longer fits the budget of 23: it is set aside, never sent over the budget.
    await c.ok('batchResume', { batchId: b.id });
    const resumed = await c.settled(b.id, 'done');
    const refs = (sku: string, shot: string) => job(resumed, sku, shot).request.ref_image_ids;
    expect([refs('LATE-1', 'x'), refs('LATE-1', 'g'), refs('LATE-2', 'x')]).toEqual([[m1], [m1], [m2]]);
    expect(['x', 'g'].map((shot) => job(resumed, 'LATE-1', shot)).map((j) => [j.status, j.estimate, j.creditsCharged])).toEqual([
      ['succeeded', 6, 6],
      ['succeeded', 6, 6],
    ]);
    expect(job(resumed, 'LATE-2', 'x')).toMatchObject({ status: 'succeeded', estimate: 6, creditsCharged: 6 });
    expect(job(resumed, 'LATE-2', 'g')).toMatchObject({ status: 'over_budget', estimate: 6 });
    expect(resumed.spent).toBe(18);
    expect(resumed.spent).toBe(charges(resumed));
    // What went out is what the job says, journaled before it was sent (the request and its price).
    for (const shot of ['x', 'g']) {
      const sent = job(resumed, 'LATE-1', shot);
      expect(journaled(sent.id)).toEqual([expect.objectContaining({ request: expect.objectContaining({ ref_image_ids: [m1] }), estimate: expect.objectContaining({ total: sent.estimate }) })]);
    }

    // The raised budget sends LATE-2 · g with its master in its CSV reference's place: the same count, the same price.
    await c.ok('batchRaiseBudget', { batchId: b.id, budget: 24 });
    const raised = await c.settled(b.id, 'done');
    const late2g = job(raised, 'LATE-2', 'g');
    expect(late2g).toMatchObject({ status: 'succeeded', estimate: 6, creditsCharged: 6 });
    expect(late2g.request.ref_image_ids).toEqual([m2]);
    expect(journaled(late2g.id)).toEqual([expect.objectContaining({ request: expect.objectContaining({ ref_image_ids: [m2] }) })]);
    expect([raised.spent, charges(raised)]).toEqual([24, 24]);
    // The report prices each job as it was sent: what it estimates is what was charged, nothing refunded.
    const report = await c.ok<BatchReport>('batchReport', { batchId: b.id });
    expect([report.total.estimated, report.total.charged, report.total.refunded]).toEqual([24, 24, 0]);

    // "Only what is missing" prices C's cancelled job as it will be sent (with the master: 6, planned 5), then sends it so.
    const priced = await c.ok<FinishAnswer>('batchFinish', { batchId: cBatch.id, dryRun: true });
    expect(priced).toMatchObject({ jobs: 1, requeued: 1, total: 6 });
    await c.ok<FinishAnswer>('batchFinish', { batchId: cBatch.id });
    const finished = await c.settled(cBatch.id, 'done');
    expect(job(finished, 'LATE-1', 'h')).toMatchObject({ status: 'succeeded', estimate: 6, creditsCharged: 6 });
    expect(job(finished, 'LATE-1', 'h').request.ref_image_ids).toEqual([m1]);

    // A retry by hand is spec §7's "retry once as is": the failed request again, without the master chosen since.
    const retry = await c.ok<RerunAnswer>('batchRetryJob', { batchId: d.id, jobId: failed.id });
    const retried = (await c.settled(d.id, 'done')).jobs.find((j) => j.id === retry.jobId) as BatchJob;
    expect(retried).toMatchObject({ status: 'succeeded', estimate: failed.estimate, creditsCharged: failed.estimate });
    expect(retried.request).toEqual(failed.request);
    expect(journaled(retried.id)).toEqual([expect.objectContaining({ request: expect.not.objectContaining({ ref_image_ids: expect.anything() }) })]);

    // The books: every batch's charges are what left the balance.
    const spent = [doneA, raised, finished, await c.batch(d.id)].reduce((sum, x) => sum + x.spent, 0);
    expect(before - (await settledBalance()).credits).toBe(spent);
  });
});
