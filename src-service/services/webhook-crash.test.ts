/* eslint-disable @typescript-eslint/no-explicit-any -- tests read response bodies field by field */
// spec §6 rule 3 across crashes: an attempt is counted before it is sent, so kill -9 during attempts never
// leads to a fourth. Real CLI processes on one data folder, a loopback receiver that never answers.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { ServiceReadyLineSchema, type ServiceReadyLine } from '../../src-shared/api.ts';
import { startReceiver, waitUntil } from '../routes/packs-webhooks.test-support.ts';

const TOKEN = 'webhook-crash-token';
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

async function startCli(dataDir: string): Promise<{ child: ChildProcessWithoutNullStreams; ready: ServiceReadyLine }> {
  const child = spawn(process.execPath, ['src-service/cli.ts', '--port', '0', '--data', dataDir, '--admin-token', TOKEN], { cwd: process.cwd() });
  cleanups.push(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  child.stderr.resume();
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`service exited with ${code}`)));
  });
  return { child, ready: ServiceReadyLineSchema.parse(JSON.parse(line)) };
}

async function killHard(child: ChildProcessWithoutNullStreams): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

async function admin(ready: ServiceReadyLine, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(ready.base_url + path, {
    method,
    headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return res.json();
}

describe('webhook attempts across crashes (spec §6 rule 3)', () => {
  it('never sends a fourth attempt when the service is killed during each of the three', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-webhook-crash-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    // Holds every request open: the service is killed while each attempt waits for its answer.
    const receiver = await startReceiver(() => undefined);
    cleanups.push(() => receiver.close());

    let life = await startCli(dataDir);
    const account = await admin(life.ready, 'POST', '/admin/accounts', {});
    await admin(life.ready, 'PUT', `/admin/accounts/${account.id}/webhook`, { url: receiver.url, enabled: true });
    const { delivery_id } = await admin(life.ready, 'POST', `/admin/accounts/${account.id}/webhook/ping`);
    for (let attempt = 1; attempt <= 3; attempt++) {
      await receiver.waitFor(attempt, 20_000);
      await killHard(life.child);
      life = await startCli(dataDir);
    }

    // Fourth life: the delivery ends as failed after three attempts, or (the bug) a fourth request arrives.
    const last = await waitUntil(async () => {
      const view = (await admin(life.ready, 'GET', `/admin/accounts/${account.id}/webhook`)).last_delivery;
      return view.outcome !== 'pending' || receiver.requests.length > 3 ? view : null;
    }, 20_000);
    await new Promise((r) => setTimeout(r, 500));
    expect(receiver.requests.length).toBe(3);
    expect(new Set(receiver.requests.map((r) => r.headers['x-service-delivery']))).toEqual(new Set([delivery_id]));
    expect(last).toMatchObject({ delivery_id, attempts: 3, outcome: 'failed' });
    expect(last.status).toBeUndefined();
  });
});
