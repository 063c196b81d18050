/* eslint-disable @typescript-eslint/no-explicit-any -- tests read response bodies field by field */
// Test helpers: a real service on a loopback port with a fresh data folder, and small HTTP helpers.
import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { API_SCOPES } from '../src-shared/api.ts';
import { createLogger } from './logger.ts';
import { startService, type RunningService, type ServiceTimeouts } from './start.ts';

export interface TestService extends RunningService {
  dataDir: string;
  admin(method: string, path: string, body?: unknown): Promise<{ status: number; body: any; headers: Headers }>;
  /** A fresh account (default: 10000 credits, 30 days old) with a key of the given scopes. */
  account(options?: { credits?: number; age_days?: number; scopes?: string[] }): Promise<{ id: string; key: string; keyId: string }>;
  api(path: string, init?: { method?: string; key?: string | null; body?: unknown; raw?: string; headers?: Record<string, string> }): Promise<{
    status: number;
    body: any;
    text: string;
    headers: Headers;
  }>;
  stop(): Promise<void>;
}

export async function startTestService(options: { dataDir?: string } = {}): Promise<TestService> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'svc-test-'));
  const service = await startService({ port: 0, dataDir, adminToken: 'test-admin-token', logger: createLogger('silent') });
  const admin: TestService['admin'] = async (method, path, body) => {
    const res = await fetch(service.baseUrl + path, {
      method,
      headers: { Authorization: `Bearer ${service.adminToken}`, 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
  };
  return {
    ...service,
    dataDir,
    admin,
    async account(opts = {}) {
      const account = await admin('POST', '/admin/accounts', { credits: opts.credits ?? 10_000, age_days: opts.age_days ?? 30 });
      const key = await admin('POST', `/admin/accounts/${account.body.id}/api-keys`, { name: 'test', scopes: opts.scopes ?? [...API_SCOPES] });
      return { id: account.body.id as string, key: key.body.key as string, keyId: key.body.id as string };
    },
    async api(path, init = {}) {
      const headers: Record<string, string> = { ...(init.headers ?? {}) };
      if (init.key) headers.Authorization = `Bearer ${init.key}`;
      if (init.body !== undefined || init.raw !== undefined) headers['Content-Type'] ??= 'application/json';
      const res = await fetch(service.baseUrl + path, {
        method: init.method ?? (init.body !== undefined || init.raw !== undefined ? 'POST' : 'GET'),
        headers,
        redirect: 'manual',
        ...(init.raw !== undefined ? { body: init.raw } : init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
      });
      const text = await res.text();
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = null;
      }
      return { status: res.status, body, text, headers: res.headers };
    },
    async stop() {
      await service.close();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * One test service for a whole file: started in beforeAll, stopped in afterAll. The answer forwards to it, so a
 * file can name it at its top; use it inside tests and hooks.
 */
export function useTestService(): TestService {
  let started: TestService | undefined;
  beforeAll(async () => {
    started = await startTestService();
  });
  afterAll(async () => {
    await started?.stop();
  });
  return new Proxy({} as TestService, {
    get(_target, name) {
      if (!started) throw new Error('the test service starts in beforeAll; use it inside a test or hook');
      const value: unknown = Reflect.get(started, name);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(started) : value;
    },
  });
}

/** The admin API of a running service, called with its own token; answers the parsed JSON body. */
export function adminApi(service: RunningService): (method: string, path: string, body?: unknown) => Promise<any> {
  return (method, path, body) =>
    fetch(service.baseUrl + path, {
      method,
      headers: { Authorization: `Bearer ${service.adminToken}`, 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }).then((r) => r.json());
}

/** A real service with its own admin token and short slow-client limits, in a fresh data folder the caller removes. */
export async function startServiceWithLimits(adminToken: string, timeouts: Partial<ServiceTimeouts>): Promise<{ service: RunningService; dataDir: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-limits-'));
  const service = await startService({ port: 0, dataDir, adminToken, logger: createLogger('silent'), timeouts });
  return { service, dataDir };
}

/** Whether this machine lets a test mount a small tmpfs (root on Linux); full-disk tests are skipped elsewhere. */
export const canMountSmallDisk = process.platform === 'linux' && process.getuid?.() === 0;

/** A tmpfs of `megabytes` to fill; remove() unmounts it and removes its folder. */
export function smallDisk(megabytes: number): { dir: string; remove(): void } {
  const parent = mkdtempSync(join(tmpdir(), 'svc-full-'));
  // Mounted one level down, so whatever removes the data folder inside never meets a busy mount point.
  const dir = join(parent, 'disk');
  mkdirSync(dir);
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${megabytes}m`, 'tmpfs', dir]);
  return {
    dir,
    remove() {
      execFileSync('umount', ['-l', dir]);
      rmSync(parent, { recursive: true, force: true });
    },
  };
}

/** Appends `chunkBytes` at a time to `file` until the disk answers ENOSPC. */
function appendUntilFull(file: string, chunkBytes: number): void {
  const fd = openSync(file, 'a');
  const chunk = Buffer.alloc(chunkBytes, 1);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
}

/** Writes a file until the disk answers ENOSPC; returns it so it can be removed to free the disk. */
export function fillDisk(dir: string): string {
  const file = join(dir, 'filler');
  appendUntilFull(file, 64 * 1024);
  // Smaller writes take the last partial blocks.
  appendUntilFull(file, 512);
  return file;
}
