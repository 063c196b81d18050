/* eslint-disable @typescript-eslint/no-explicit-any -- tests read response bodies field by field */
// The service on a small tmpfs whose disk fills and frees (docs/local-service.md "A full disk"): it never exits,
// a generation that cannot be recorded answers 500 and costs nothing, the per-key usage counts are kept in memory
// and written once space returns, and generating works again. Mounting a tmpfs needs root on Linux; the test is
// skipped (and says so) anywhere else.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { ServiceReadyLineSchema, type ServiceReadyLine } from '../src-shared/api.ts';
import { canMountSmallDisk, fillDisk, smallDisk } from './test-support.ts';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const fn of cleanups.splice(0).reverse()) fn();
});

/** The CLI on `dataDir`; `log()` answers the messages of its JSON log lines so far. */
function startCli(dataDir: string): Promise<{ child: ChildProcessWithoutNullStreams; ready: ServiceReadyLine; log(): string[] }> {
  const child = spawn(process.execPath, ['src-service/cli.ts', '--port', '0', '--seed', '--data', dataDir], { cwd: process.cwd() });
  cleanups.push(() => void (child.exitCode === null && child.kill('SIGKILL')));
  let out = '';
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const log = (): string[] =>
    err
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => String((JSON.parse(line) as { msg?: unknown }).msg));
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve({ child, log, ready: ServiceReadyLineSchema.parse(JSON.parse(out.slice(0, out.indexOf('\n')))) });
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

describe.skipIf(!canMountSmallDisk)('a full disk (needs root on Linux to mount a tmpfs)', () => {
  it('keeps serving while the disk is full, refunds what it cannot record, and writes the usage once space returns', { timeout: 60_000 }, async () => {
    const disk = smallDisk(8);
    cleanups.push(disk.remove);
    const dataDir = disk.dir;
    const { child, ready, log } = await startCli(dataDir);
    const filler = fillDisk(dataDir);

    const whileFull = [];
    for (let i = 0; i < 3; i++) whileFull.push(await generate(ready));
    for (const answer of whileFull) expect([answer.status, answer.body.error?.code]).toEqual([500, 'internal_error']);
    // The usage flush (every second, then backing off) fails while the disk stays full, logged once.
    await sleep(4_000);
    expect(child.exitCode).toBeNull();
    expect(await account(ready)).toMatchObject({ credits: 10_000 });
    const outage = 'per-key usage counts cannot be written; kept and tried again with back-off';
    expect(log().filter((msg) => msg === outage)).toHaveLength(1);
    expect(usageCount(dataDir)).toBe(0);

    rmSync(filler);
    // The counts of the requests made while the disk was full were kept and are written at the next try (the
    // back-off is at most 30 s; after 4 s of failures it is 2 s).
    const deadline = Date.now() + 35_000;
    while (usageCount(dataDir) < 3 && Date.now() < deadline) await sleep(250);
    expect(usageCount(dataDir)).toBeGreaterThanOrEqual(3);
    expect(log().filter((msg) => msg === 'per-key usage counts written again')).toHaveLength(1);
    const after = await generate(ready);
    expect(after.status).toBe(200);
    expect(await account(ready)).toMatchObject({ credits: 10_000 - after.body.credits_charged, reserved: 0 });
    expect(child.exitCode).toBeNull();

    child.kill('SIGTERM');
    expect(await new Promise((resolve) => child.once('exit', resolve))).toBe(0);
  });
});
