// A full disk under the app's data folder (a real tmpfs where this process may mount one; otherwise the test
// says why it is skipped): one run fails with a specific disk_full error that keeps the charge visible and
// says how much room it needs, main keeps serving, and once room is freed the outcome is written.
import { execFileSync, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TurnRecord } from '../../src-shared/ipc/generation.ts';
import { RecordingShell } from '../ports/desktop-shell.ts';
import { createStudioApp } from './create-app.ts';
import { NodeLocalServiceHost } from '../service-host/node-service-host.ts';
import type { CoreStudioApp } from './studio-app.ts';
import { ipcCalls } from './ipc-calls.test-support.ts';

const mountPoint = mkdtempSync(join(tmpdir(), 'studio-fulldisk-'));
const mounted = process.platform === 'linux' && spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=24m', 'tmpfs', mountPoint]).status === 0;

/** Fills the file system until a write fails with ENOSPC; returns the filler files. */
function fillDisk(dir: string): string[] {
  const files: string[] = [];
  const chunk = Buffer.alloc(256 * 1024, 7);
  for (let i = 0; ; i++) {
    const file = join(dir, `filler-${i}`);
    try {
      writeFileSync(file, chunk);
      files.push(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
      // The last few kilobytes too, so a SQLite page write cannot fit either.
      for (const size of [64 * 1024, 4096, 512]) {
        try {
          writeFileSync(join(dir, `filler-tail-${size}`), Buffer.alloc(size, 7));
        } catch {
          // already full at this size
        }
      }
      return files;
    }
  }
}

describe.skipIf(!mounted)('a full disk (tmpfs of 24 MB as the app data folder; skipped where this process may not mount one)', () => {
  let app: CoreStudioApp;
  const serviceDir = mkdtempSync(join(tmpdir(), 'studio-fulldisk-service-'));
  const dataDir = join(mountPoint, 'app');

  const { call, ok } = ipcCalls(() => app);

  beforeAll(async () => {
    mkdirSync(dataDir, { recursive: true });
    app = await createStudioApp({
      dataDir,
      shell: new RecordingShell(() => join(dataDir, 'export.png')),
      // The service keeps its own data elsewhere: this is about the app's disk.
      localService: new NodeLocalServiceHost({ dataDir: serviceDir }),
      keychainService: `image-studio-test-${randomUUID()}`,
      secretStore: 'memory',
    });
  });

  afterAll(async () => {
    await app?.close();
    execFileSync('umount', [mountPoint]);
    rmSync(mountPoint, { recursive: true, force: true });
    rmSync(serviceDir, { recursive: true, force: true });
  });

  it('fails the run with disk_full (charge visible, room needed), keeps serving, and writes the outcome once room is freed', async () => {
    // The disk fills while the service works on the run (latency fault), after the turn was recorded.
    await ok('localSetFaults', { generate: { latency_ms: 1500 } });
    const { turnId } = await ok<{ turnId: string }>('generateStart', { request: { prompt: 'a vase', model: 'nano-banana-2', resolution: '1K' } });
    const fillers = fillDisk(mountPoint);
    await app.whenGenerationsSettled();

    const turn = await ok<TurnRecord>('libraryGetTurn', { turnId });
    expect(turn.status).toBe('failed');
    expect(turn.error?.code).toBe('disk_full');
    // What was charged stays visible, and the message says how much room to free.
    expect(turn.creditsCharged).toBe(12);
    expect(turn.error?.message).toMatch(/\d+ MB/);
    // A paid run is never offered as a retry (it would be paid twice).
    expect(turn.actions.retry.offer).toBe('never');

    // Main is still serving; a new run on the full disk is refused before anything is sent or charged.
    expect((await call('settingsGet', {})).ok).toBe(true);
    const balance = async (): Promise<number> => (await ok<{ account: { credits: number } }>('localStatus', {})).account.credits;
    const credits = await balance();
    const refused = await call('generateStart', { request: { prompt: 'a second vase', model: 'nano-banana-2', resolution: '1K' } });
    expect(refused.ok ? null : refused.error.code).toBe('disk_full');
    expect(await balance()).toBe(credits);

    // Room again: the outcome reaches the database (the runner retries the write every few seconds).
    for (const f of fillers) rmSync(f);
    for (const size of [64 * 1024, 4096, 512]) rmSync(join(mountPoint, `filler-tail-${size}`), { force: true });
    const deadline = Date.now() + 15_000;
    for (;;) {
      // Read the file itself: the runner shows an unsaved outcome from memory, so only the row proves it.
      const db = new DatabaseSync(join(dataDir, 'library.db'), { readOnly: true });
      const row = db.prepare('SELECT status, error_json FROM turns WHERE id = ?').get(turnId) as { status: string; error_json: string | null };
      db.close();
      if (row.status === 'failed' && row.error_json?.includes('disk_full')) break;
      if (Date.now() > deadline) throw new Error('the disk_full outcome was never written');
      await new Promise((r) => setTimeout(r, 250));
    }
  }, 60_000);
});
