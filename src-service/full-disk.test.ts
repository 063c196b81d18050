/* eslint-disable @typescript-eslint/no-explicit-any -- tests read response bodies field by field */
// The service on a small tmpfs whose disk fills and frees (docs/local-service.md "A full disk"): it never exits,
// a generation that cannot be recorded answers 500 and costs nothing, the per-key usage counts are kept in memory
// and written once space returns, and generating works again. Mounting a tmpfs needs root on Linux; the test is
// skipped (and says so) anywhere else.
import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { ServiceReadyLineSchema, type ServiceReadyLine } from '../src-shared/api.ts';

const canMount = process.platform === 'linux' && process.getuid?.() === 0;
const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const fn of cleanups.splice(0).reverse()) fn();
});

function smallDisk(megabytes: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-full-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${megabytes}m`, 'tmpfs', dir]);
  cleanups.push(() => {
    execFileSync('umount', ['-l', dir]);
    rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

/** Writes a file until the disk answers ENOSPC; returns it so it can be removed to free the disk. */
function fillDisk(dir: string): string {
  const file = join(dir, 'filler');
  const fd = openSync(file, 'w');
  const chunk = Buffer.alloc(64 * 1024, 1);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
  return file;
}

function startCli(dataDir: string): Promise<{ child: ChildProcessWithoutNullStreams; ready: ServiceReadyLine }> {
  const child = spawn(process.execPath, ['src-service/cli.ts', '--port', '0', '--seed', '--data', dataDir], { cwd: process.cwd() });
  cleanups.push(() => void (child.exitCode === null && child.kill('SIGKILL')));
  let out = '';
  child.stderr.resume();
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve({ child, ready: ServiceReadyLineSchema.parse(JSON.parse(out.slice(0, out.indexOf('\n')))) });
    });
    child.once('exit', (code) => reject(new Error(`service exited with ${code}`)));
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function generate(ready: ServiceReadyLine): Promise<{ status: number; body: any }> {
  const res = await fetch(`${ready.base_url}/api/v1/generate`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${ready.api_key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ prompt: 'a bottle', resolution: '1K' }),
  });
  return { status: res.status, body: await res.json() };
}

async function account(ready: ServiceReadyLine): Promise<any> {
  const res = await fetch(`${ready.base_url}/admin/accounts/${ready.account_id}`, { headers: { Authorization: `Bearer ${ready.admin_token}` } });
  return res.json();
}

function usageCount(dataDir: string): number {
  const db = new DatabaseSync(join(dataDir, 'service.db'), { readOnly: true });
  try {
    return (db.prepare('SELECT COALESCE(SUM(count), 0) AS n FROM key_usage').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

describe.skipIf(!canMount)('a full disk (needs root on Linux to mount a tmpfs)', () => {
  it('keeps serving while the disk is full, refunds what it cannot record, and writes the usage once space returns', async () => {
    const dataDir = smallDisk(8);
    const { child, ready } = await startCli(dataDir);
    const filler = fillDisk(dataDir);

    const whileFull = [];
    for (let i = 0; i < 3; i++) whileFull.push(await generate(ready));
    for (const answer of whileFull) expect([answer.status, answer.body.error?.code]).toEqual([500, 'internal_error']);
    // The usage flush runs every second: three of them fail while the disk stays full.
    await sleep(3_200);
    expect(child.exitCode).toBeNull();
    expect(await account(ready)).toMatchObject({ credits: 10_000 });

    rmSync(filler);
    await sleep(1_500);
    // The counts of the requests made while the disk was full were kept and are written now.
    expect(usageCount(dataDir)).toBeGreaterThanOrEqual(3);
    const after = await generate(ready);
    expect(after.status).toBe(200);
    expect(await account(ready)).toMatchObject({ credits: 10_000 - after.body.credits_charged, reserved: 0 });
    expect(child.exitCode).toBeNull();

    child.kill('SIGTERM');
    expect(await new Promise((resolve) => child.once('exit', resolve))).toBe(0);
  });
});
