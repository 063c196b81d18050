// kill -9 of the app (the harness: the same main-process core as Electron) while a paid generation is in flight
// and while downloads run, then a restart on the same data folder. What must survive (docs/main-process.md):
// one service per data folder, the books (balance delta = charges of succeeded turns), every image row with
// its file, and the interrupted Local turn settled from the service rather than left unknown or resent.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { startHarness, type Harness } from './fixtures/harness.ts';
import { processRunning as alive } from '../test-support/processes.ts';
import { ipc, until } from './support/ipc.ts';

interface Turn {
  id: string;
  status: string;
  creditsCharged: number | null;
  outcomeNote: string | null;
  actions: { retry: { offer: string } };
  images: Array<{ id: string; download: string }>;
}

test('kill -9 of the app mid-generation and mid-download: one service, the books balance, every image has its file, the cut turn is reconciled', async () => {
  test.setTimeout(180_000);
  const dataDir = mkdtempSync(join(tmpdir(), 'studio-crash-'));
  const pidFile = join(dataDir, 'local-service', 'service.pid');
  try {
    const first = await startHarness({ dataDir });
    const before = await ipc<{ account: { credits: number } }>(first.harness, 'local:status');
    // A finished run whose four 4K downloads are still going when the app dies.
    const { turnId: done } = await ipc<{ turnId: string }>(first.harness, 'generate:start', {
      request: { prompt: 'a ceramic mug on white', model: 'nano-banana-2', resolution: '4K', ratio: '1:1', n: 4 },
    });
    await until('the first run to succeed', async () => ((await ipc<Turn>(first.harness, 'library:get-turn', { turnId: done })).status === 'succeeded' ? true : null));
    // A second run the service is still working on (latency fault) when the app is killed.
    await ipc(first.harness, 'local:set-faults', { generate: { latency_ms: 4000 } });
    const { turnId: cut } = await ipc<{ turnId: string }>(first.harness, 'generate:start', { request: { prompt: 'a teapot', model: 'nano-banana-2', resolution: '1K' } });
    // Kill only once the service holds the run's reservation (it is working on it), however loaded the machine.
    await until('the service to reserve the second run', async () => ((await ipc<{ account: { reserved: number } }>(first.harness, 'local:status')).account.reserved > 0 ? true : null));
    const servicePid = (JSON.parse(readFileSync(pidFile, 'utf8')) as { pid: number }).pid;
    expect(alive(servicePid)).toBe(true);

    first.child.kill('SIGKILL');
    // The bundled service notices its app is gone and exits by itself (by design within 2 s; how fast is a
    // measure, not an e2e bound: here only that it goes, polled for up to 10 s).
    await until('the orphaned service to exit', () => (alive(servicePid) ? null : true), 10_000);
    expect(alive(servicePid)).toBe(false);

    const second = await startHarness({ dataDir });
    try {
      const h = second.harness;
      // One service per folder: the new one holds the lock and is not the old pid.
      const newPid = (JSON.parse(readFileSync(pidFile, 'utf8')) as { pid: number }).pid;
      expect(newPid).not.toBe(servicePid);
      expect(alive(newPid)).toBe(true);

      const succeeded = await until('downloads to finish after the restart', async () => {
        const turn = await ipc<Turn>(h, 'library:get-turn', { turnId: done });
        return turn.images.every((i) => i.download === 'done') ? turn : null;
      }, 60_000);
      expect(succeeded.images).toHaveLength(4);
      for (const image of succeeded.images) expect(await imageServed(h, image.id)).toBe(true);

      // The cut run was answered 500 and refunded when its service stopped; the restarted app learnt that
      // from the service's turn list instead of leaving it "outcome unknown" (or resending it).
      const reconciled = await ipc<Turn>(h, 'library:get-turn', { turnId: cut });
      expect(reconciled.status).toBe('failed');
      expect(reconciled.creditsCharged).toBe(0);
      expect(reconciled.outcomeNote).toBeTruthy();

      const after = await ipc<{ account: { credits: number; reserved?: number } }>(h, 'local:status');
      expect(before.account.credits - after.account.credits).toBe(succeeded.creditsCharged);
      expect(succeeded.creditsCharged).toBe(4 * 23);
    } finally {
      await second.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

/** The image through the app's own file route (the cache layout is the core's business). */
async function imageServed(harness: Harness, imageId: string): Promise<boolean> {
  const res = await fetch(`${harness.origin}/studio-image/full/${imageId}`, { headers: { 'x-studio-token': harness.token } });
  return res.ok && (await res.arrayBuffer()).byteLength > 0;
}
