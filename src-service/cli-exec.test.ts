// `service -- exec` as a child process: the command reaches a fresh service on loopback with the variables exec
// gives it, exec exits with the command's code, and neither the service nor its temporary data folder is left.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { processRunning } from '../test-support/processes.ts';
import { createLogger } from './logger.ts';
import { startService } from './start.ts';
import { adminApi } from './test-support.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

interface Run {
  code: number | null;
  pid: number;
  stdout: string;
  stderr: string;
}

function exec(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  const child = spawn(process.execPath, ['src-service/cli.ts', 'exec', ...args], { cwd: process.cwd(), env: { ...process.env, ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, pid: child.pid!, stdout, stderr })));
}

/** A node script, run as the command, that prints its variables and what the service answered with them as JSON. */
const CALLS_THE_SERVICE = `
const env = process.env;
const get = (path, token) => fetch(env.STUDIO_BASE_URL + path, { headers: { Authorization: 'Bearer ' + token } });
(async () => {
  const health = (await get('/healthz', '')).status;
  const account = await (await get('/admin/accounts/' + env.STUDIO_ACCOUNT_ID, env.STUDIO_ADMIN_TOKEN)).json();
  const gen = await fetch(env.STUDIO_BASE_URL + '/api/v1/generate', {
    method: 'POST',
    headers: { Authorization: 'Bearer ' + env.STUDIO_API_KEY, 'Content-Type': 'application/json' },
    body: JSON.stringify({ prompt: 'a bottle', resolution: '1K' }),
  });
  console.log(JSON.stringify({ base: env.STUDIO_BASE_URL, health, credits: account.credits, generate: gen.status }));
  process.exit(7);
})();
`;

/** exec's temporary data folders now in the system's temporary folder. */
function execFolders(): string[] {
  return readdirSync(tmpdir()).filter((name) => name.startsWith('studio-exec-'));
}

describe('service -- exec', () => {
  it('runs the command against a fresh seeded service, exits with its code and leaves no service or folder', async () => {
    const before = execFolders();
    const run = await exec(['--seed', '--', process.execPath, '-e', CALLS_THE_SERVICE], { STUDIO_API_KEY: 'sk_stale' });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(7);
    const seen = JSON.parse(run.stdout) as { base: string; health: number; credits: number; generate: number };
    expect(seen).toMatchObject({ health: 200, credits: 10_000, generate: 200 });
    expect(seen.base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(processRunning(run.pid)).toBe(false);
    await expect(fetch(`${seen.base}/healthz`)).rejects.toThrow();
    expect(execFolders().filter((name) => !before.includes(name))).toEqual([]);
  });

  it('without --seed gives no account variables, keeps a --data folder and exits 0 with the command', async () => {
    const data = mkdtempSync(join(tmpdir(), 'svc-exec-'));
    dirs.push(data);
    const script = 'console.log(JSON.stringify([process.env.STUDIO_BASE_URL, process.env.STUDIO_ADMIN_TOKEN, process.env.STUDIO_API_KEY ?? null, process.env.STUDIO_ACCOUNT_ID ?? null]))';
    const run = await exec(['--data', data, '--', process.execPath, '-e', script], { STUDIO_ADMIN_TOKEN: 'adm_chosen', STUDIO_ACCOUNT_ID: 'acc_stale' });
    expect(run.code).toBe(0);
    const [base, token, key, account] = JSON.parse(run.stdout) as Array<string | null>;
    expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect([token, key, account]).toEqual(['adm_chosen', null, null]);
    expect(existsSync(join(data, 'service.db'))).toBe(true);
  });

  it('--import starts the fresh service from an export: the command sees its accounts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-exec-import-'));
    dirs.push(dir);
    const fixture = await startService({ port: 0, dataDir: join(dir, 'build'), adminToken: 'adm_fixture', logger: createLogger('silent'), exportOnExit: join(dir, 'fixture') });
    const account = await adminApi(fixture)('POST', '/admin/accounts', { credits: 123 });
    await fixture.close();
    const script = `fetch(process.env.STUDIO_BASE_URL + '/admin/accounts/${account.id}', { headers: { Authorization: 'Bearer ' + process.env.STUDIO_ADMIN_TOKEN } }).then((r) => r.json()).then((a) => console.log(a.credits))`;
    const run = await exec(['--import', join(dir, 'fixture'), '--', process.execPath, '-e', script]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe('123');
    const bad = await exec(['--import', join(dir, 'nothing'), '--', process.execPath, '-e', '']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--import .*service\.db/);
  });

  it('gives 128 + n when the command dies of signal n', async () => {
    const run = await exec(['--', process.execPath, '-e', 'process.kill(process.pid, "SIGTERM")']);
    expect(run.code).toBe(128 + 15);
  });

  it('is a usage error, one line and exit 2, without a command after --', async () => {
    for (const args of [[], ['--seed', '--']]) {
      const run = await exec(args);
      expect(run.code).toBe(2);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stdout).toBe('');
    }
  });
});
