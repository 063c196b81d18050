// kill -9 of the app (the harness: the same main-process core as Electron) while a batch job is on its way to the
// service, then a damaged library.db restored from a backup taken before that send (docs/main-process.md "Recovery
// of local data", issue 25): the send journal beside library.db makes the restarted app know the job was sent, so
// Resume never sends it again and nothing is paid twice.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { startHarness, type Harness } from './fixtures/harness.ts';
import { ipc, until } from './support/ipc.ts';

interface Job {
  id: string;
  status: string;
  turnId: string | null;
  turnIds: string[];
  creditsCharged: number | null;
}
interface Batch {
  id: string;
  name: string;
  state: string;
  jobs: Job[];
}
interface Account {
  account: { credits: number; reserved: number };
}

const batch = (h: Harness, batchId: string) => ipc<Batch>(h, 'batch:get', { batchId });

/** Two products, one shot: a batch of two jobs, created while the account has no credits, so nothing is sent yet. */
async function batchWaitingForCredits(h: Harness): Promise<Batch> {
  const productIds: string[] = [];
  for (let i = 1; i <= 2; i++) productIds.push((await ipc<{ id: string }>(h, 'product:save', { sku: `KILL-${i}`, name: `kill ${i}`, prompt: `a brass lamp number ${i}` })).id);
  const list = await ipc<{ id: string }>(h, 'shotlist:save', {
    name: 'kill',
    shots: [{ name: 'front', purpose: 'free', model: 'seedream-5-0-pro', ratio: '1:1', resolution: '1K', n: 1, promptAddition: 'front' }],
  });
  await ipc(h, 'local:update-account', { credits: 0 });
  const created = await ipc<Batch>(h, 'batch:create', { productIds, shotListId: list.id, concurrency: 1 });
  return until('the batch to pause for credits', async () => {
    const b = await batch(h, created.id);
    return b.state === 'paused' ? b : null;
  });
}

test('kill -9 mid-send, then a restore from before the send: Resume never sends that job again', async ({ page }) => {
  test.setTimeout(240_000);
  const dataDir = mkdtempSync(join(tmpdir(), 'studio-kill-send-'));
  try {
    // 1. The batch, all jobs queued; a clean quit takes the backup the restore will come from.
    const first = await startHarness({ dataDir });
    const waiting = await batchWaitingForCredits(first.harness);
    expect(waiting.jobs.map((j) => j.status)).toEqual(['queued', 'queued']);
    await first.stop();
    expect(readdirSync(join(dataDir, 'backups')).filter((f) => f.endsWith('.db')).length).toBeGreaterThanOrEqual(1);

    // 2. Credits come, Resume sends the first job; the app dies while the service works on it.
    const second = await startHarness({ dataDir });
    const h2 = second.harness;
    await ipc(h2, 'local:top-up', { credits: 1_000 });
    await ipc(h2, 'local:set-faults', { generate: { latency_ms: 4_000 } });
    await ipc(h2, 'batch:resume', { batchId: waiting.id });
    await until('the service to hold the first job', async () => ((await ipc<Account>(h2, 'local:status')).account.reserved > 0 ? true : null));
    const sent = await batch(h2, waiting.id);
    const firstJob = sent.jobs[0] as Job;
    expect(firstJob.turnId).not.toBeNull();
    second.child.kill('SIGKILL');
    await new Promise<void>((resolve) => (second.child.exitCode !== null || second.child.signalCode !== null ? resolve() : second.child.once('exit', () => resolve())));

    // 3. The library is damaged: the restart restores the backup of step 1, where that job was still queued.
    writeFileSync(join(dataDir, 'library.db'), randomBytes(20_000));
    const third = await startHarness({ dataDir });
    try {
      const h3 = third.harness;
      await ipc(h3, 'local:set-faults', { generate: { latency_ms: 0 } });
      const notices = await ipc<Array<{ code: string; params: Record<string, string> }>>(h3, 'app:notices');
      expect(notices.map((n) => n.code)).toEqual(expect.arrayContaining(['library_restored', 'sends_brought_back']));
      // The designer reads it in the UI language (zh by default): one generation recorded again, its batch paused.
      await page.goto(h3.url);
      const told = page.locator('[data-testid="startup-notice"][data-code="sends_brought_back"]');
      await expect(told).toContainText('恢复的图库不知道备份之后发出的 1 次生成');
      await expect(told.getByTestId('startup-notice-detail')).toHaveText([`批量任务 ${waiting.name} 已暂停。点“继续”只会发送尚未发送的任务，不会重发这些。`]);
      const restored = await batch(h3, waiting.id);
      // Known again from the send journal: sent with the very turn that went out, never queued.
      expect(restored.jobs[0]).toMatchObject({ id: firstJob.id, turnIds: [firstJob.turnId] });
      expect(restored.jobs[0]?.status).not.toBe('queued');
      const creditsBefore = (await ipc<Account>(h3, 'local:status')).account.credits;

      await ipc(h3, 'batch:resume', { batchId: waiting.id });
      const done = await until('the batch to finish', async () => {
        const b = await batch(h3, waiting.id);
        return b.state === 'done' ? b : null;
      }, 60_000);
      // The first job was not sent again: still its one turn; only the second job ran and was charged.
      expect(done.jobs[0]?.turnIds).toEqual([firstJob.turnId]);
      expect(done.jobs[1]?.status).toBe('succeeded');
      const spent = creditsBefore - (await ipc<Account>(h3, 'local:status')).account.credits;
      expect(spent).toBe(done.jobs[1]?.creditsCharged);
    } finally {
      await third.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
