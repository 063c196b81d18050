// The Electron host's supervision in plain Node: the real utility entry (src-service/utility-entry.ts) runs in
// a Node child whose parentPort is Node's IPC channel (the shim below), forked through the same ForkService
// seam electron/utility-service-host.ts fills with utilityProcess.fork. Deaths are counted on a test clock.
import { fork as nodeFork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { LocalServiceStatus } from '../ports/local-service-host.ts';
import { ForkedServiceHost, type ForkService, type ForkedService } from './forked-service-host.ts';

const ENTRY = fileURLToPath(new URL('../../src-service/utility-entry.ts', import.meta.url));
/** Electron's process.parentPort, made of Node's IPC channel. */
const PARENT_PORT_SHIM = `data:text/javascript,${encodeURIComponent(
  'process.parentPort = { postMessage: (m) => process.send(m), on: (e, l) => process.on("message", (data) => l({ data })) };',
)}`;

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

function nodeForkOf(children: ChildProcess[]): ForkService {
  return (entry, args, options) => {
    const child = nodeFork(entry, args, { env: options.env, stdio: ['pipe', 'pipe', 'pipe', 'ipc'], execArgv: ['--import', PARENT_PORT_SHIM] });
    children.push(child);
    cleanups.push(() => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    });
    const exitCode = (listener: (code: number) => void) => (code: number | null) => listener(code ?? -1);
    const forked: ForkedService = {
      stdout: child.stdout,
      stderr: child.stderr,
      on: (event: 'message' | 'exit', listener: (value: never) => void) =>
        event === 'exit' ? child.on('exit', exitCode(listener as (code: number) => void)) : child.on('message', listener as (message: unknown) => void),
      once: (_event: 'exit', listener: (code: number) => void) => child.once('exit', exitCode(listener)),
      kill: () => child.kill(),
      // As Electron's utilityProcess: a message to a child that is exiting is dropped, not an error (its exit says so).
      postMessage: (message) => {
        if (child.connected) child.send(message as object, () => undefined);
      },
    };
    return forked;
  };
}

function startHost(maxDeaths: number, coolDownMs?: number) {
  const dataDir = mkdtempSync(join(tmpdir(), 'forked-host-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const children: ChildProcess[] = [];
  // The clock stands still: every death falls inside the policy's window.
  const host = new ForkedServiceHost({ entry: ENTRY, dataDir, fork: nodeForkOf(children), policy: { maxDeaths, firstDelayMs: 10, ...(coolDownMs ? { coolDownMs } : {}) }, now: () => 0 });
  const statuses: LocalServiceStatus[] = [];
  host.onStatus((s) => statuses.push(s));
  cleanups.push(() => host.stop());
  return { host, statuses, children };
}

async function until(what: string, probe: () => boolean): Promise<void> {
  for (let i = 0; i < 600 && !probe(); i++) await new Promise((r) => setTimeout(r, 50));
  if (!probe()) throw new Error(`never saw ${what}`);
}

describe('ForkedServiceHost (the Electron host without Electron)', () => {
  it('restarts a service killed with kill -9 on the same address with the same admin token', async () => {
    const { host, statuses, children } = startHost(5);
    const { baseUrl, adminToken } = await host.start();
    children[0]!.kill('SIGKILL');
    await until('the restart', () => statuses.filter((s) => s.status === 'running').length === 2);
    expect(statuses.map((s) => s.status)).toEqual(['starting', 'running', 'restarting', 'running']);
    expect(statuses[3]!.baseUrl).toBe(baseUrl);
    expect((await fetch(`${baseUrl}/admin/settings`, { headers: { Authorization: `Bearer ${adminToken}` } })).status).toBe(200);
  });

  it('gives up, and says so, when the service dies more often than the policy allows within its window', async () => {
    const { host, statuses, children } = startHost(1);
    await host.start();
    children[0]!.kill('SIGKILL');
    await until('the restart', () => statuses.filter((s) => s.status === 'running').length === 2);
    children[1]!.kill('SIGKILL');
    await until('the end', () => statuses.some((s) => s.status === 'failed'));
    expect(statuses.map((s) => s.status)).toEqual(['starting', 'running', 'restarting', 'running', 'failed']);
    expect(statuses[4]!.error).toContain('stopped 2 times within a minute');
    expect(children).toHaveLength(2);
  });

  it('is never failed for good: after giving up it starts the service again once its cool-down has passed', async () => {
    const { host, statuses, children } = startHost(0, 300);
    const { baseUrl } = await host.start();
    children[0]!.kill('SIGKILL');
    await until('the give-up', () => statuses.some((s) => s.status === 'failed'));
    expect(statuses.find((s) => s.status === 'failed')!.error).toBe('The local service stopped (exit code -1). Local tries again in 1 s.');
    await until('the start after the cool-down', () => statuses.filter((s) => s.status === 'running').length === 2);
    expect(statuses.map((s) => s.status)).toEqual(['starting', 'running', 'failed', 'running']);
    expect(statuses[3]!.baseUrl).toBe(baseUrl);
    expect(children).toHaveLength(2);
  });
});
