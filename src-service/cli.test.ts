/* eslint-disable @typescript-eslint/no-explicit-any -- tests read response bodies field by field */
// The CLI as a child process (DESIGN.md §4): the ready line, --seed, logs without secrets, clean SIGTERM,
// and crash safety: kill -9 during a slow generation, restart on the same data, the reservation is refunded.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ServiceReadyLineSchema, type ServiceReadyLine } from '../src-shared/api.ts';
import { children, exited, startCli, tempDir } from './cli.test-support.ts';

async function waitForReserved(ready: ServiceReadyLine, accountId: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if ((await admin(ready, 'GET', `/admin/accounts/${accountId}`)).reserved > 0) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the generation never reserved its credits');
}

async function admin(ready: ServiceReadyLine, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(ready.base_url + path, {
    method,
    headers: { Authorization: `Bearer ${ready.admin_token}`, 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return res.json();
}


/** A CLI service on `data` with an account of `credits` and a key of `scopes`, whose generations take `latencyMs`. */
async function cliWithSlowGenerations(data: string, adminToken: string, o: { credits: number; scopes: string[]; latencyMs: number }) {
  const cli = await startCli(['--port', '0', '--data', data, '--admin-token', adminToken]);
  const account = await admin(cli.ready, 'POST', '/admin/accounts', { credits: o.credits, age_days: 30 });
  const key = await admin(cli.ready, 'POST', `/admin/accounts/${account.id}/api-keys`, { name: 'k', scopes: o.scopes });
  await admin(cli.ready, 'PUT', '/admin/faults', { generate: { latency_ms: o.latencyMs } });
  return { cli, accountId: account.id as string, key: key.key as string };
}

/** POST /api/v1/generate with a key and a JSON body, as a client would send it. */
function generate(ready: ServiceReadyLine, key: string, body: unknown): Promise<Response> {
  return fetch(`${ready.base_url}/api/v1/generate`, { method: 'POST', headers: { Authorization: `Bearer ${key}` }, body: JSON.stringify(body) });
}

/** The first line a child prints on stdout (the ready line). */
function firstLine(child: ChildProcessWithoutNullStreams): Promise<string> {
  return new Promise((resolve) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve(out.slice(0, out.indexOf('\n')));
    });
  });
}

describe('npm run service', () => {
  it('prints one ready line with a seeded account and key, logs without secrets on stderr, and stops on SIGTERM', async () => {
    const started = await startCli(['--port', '0', '--seed', '--data', tempDir()]);
    const { ready } = started;
    expect(started.stdout().startsWith('{"event":"ready"')).toBe(true);
    expect(ready.base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(ready.api_key).toMatch(/^sk_[A-Za-z0-9]{32}$/);
    const account = await admin(ready, 'GET', `/admin/accounts/${ready.account_id}`);
    expect(account.credits).toBe(10_000);
    expect(Date.now() / 1000 - account.created_at).toBeGreaterThan(7 * 86_400);

    const res = await fetch(`${ready.base_url}/api/v1/generate`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${ready.api_key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ prompt: 'a bottle', resolution: '1K' }),
    });
    expect(res.status).toBe(200);
    await fetch(`${ready.base_url}/api/v1/generate`, { method: 'POST', headers: { Authorization: `Bearer ${ready.api_key}` }, body: '{' });

    started.child.kill('SIGTERM');
    expect(await exited(started.child)).toBe(0);
    expect(started.stdout().trim().split('\n')).toHaveLength(1);
    expect(started.stderr()).toContain('"msg":"generation finished"');
    expect(started.stderr()).not.toContain(ready.api_key);
    expect(started.stderr()).not.toContain(ready.admin_token);
  });

  it('refunds a reservation left pending when the process is killed during a generation', async () => {
    const data = tempDir();
    const { cli: first, accountId, key } = await cliWithSlowGenerations(data, 'crash-test-token', { credits: 1000, scopes: ['generate:write'], latencyMs: 60_000 });
    const pending = generate(first.ready, key, { prompt: 'slow', n: 4, resolution: '2K' }).catch((error: unknown) => error);
    let during: any;
    for (let i = 0; i < 100; i++) {
      during = await admin(first.ready, 'GET', `/admin/accounts/${accountId}`);
      if (during.reserved > 0) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(during).toMatchObject({ credits: 936, reserved: 64 });

    first.child.kill('SIGKILL');
    await exited(first.child);
    expect(await pending).toBeInstanceOf(Error);

    const second = await startCli(['--port', '0', '--data', data, '--admin-token', 'crash-test-token']);
    const after = await admin(second.ready, 'GET', `/admin/accounts/${accountId}`);
    expect(after).toMatchObject({ credits: 1000, reserved: 0 });
    expect(second.stderr()).toContain('refunded reservations left pending');
    // the key still works after the restart
    const res = await generate(second.ready, key, { prompt: 'x', resolution: '1K' });
    expect(res.status).toBe(200);
  });

  it('on SIGTERM during a slow generation, refunds it, answers 500 and exits cleanly', async () => {
    const data = tempDir();
    const { cli: first, accountId, key } = await cliWithSlowGenerations(data, 'stop-test-token', { credits: 100, scopes: ['generate:write'], latencyMs: 60_000 });
    const pending = generate(first.ready, key, { prompt: 'slow', resolution: '1K' }).then(
      async (res) => ({ status: res.status, body: (await res.json()) as any }),
      (error: unknown) => error,
    );
    for (let i = 0; i < 100; i++) {
      if ((await admin(first.ready, 'GET', `/admin/accounts/${accountId}`)).reserved > 0) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const started = Date.now();
    first.child.kill('SIGTERM');
    expect(await exited(first.child)).toBe(0);
    expect(Date.now() - started).toBeLessThan(30_000);
    // The client gets the real answer (DESIGN.md §3: refunded, 500), not a dropped connection.
    expect(await pending).toMatchObject({ status: 500, body: { error: { code: 'internal_error' } } });

    const second = await startCli(['--port', '0', '--data', data, '--admin-token', 'stop-test-token']);
    expect(await admin(second.ready, 'GET', `/admin/accounts/${accountId}`)).toMatchObject({ credits: 100, reserved: 0 });
    // refunded at stop, so start-up found nothing pending
    expect(second.stderr()).not.toContain('refunded reservations left pending');
  });

  it("refuses a second service on a held data folder, naming folder and pid, and leaves the first service's generation alone", async () => {
    const data = tempDir();
    const { cli: first, accountId, key } = await cliWithSlowGenerations(data, 'lock-test-token', {
      credits: 1000,
      scopes: ['generate:write', 'assets:read'],
      latencyMs: 3_000,
    });
    const generation = generate(first.ready, key, { prompt: 'slow', n: 2, resolution: '2K', model: 'nano-banana-2' }).then(async (res) => ({
      status: res.status,
      body: (await res.json()) as any,
    }));
    await waitForReserved(first.ready, accountId);

    const second = spawn(process.execPath, ['src-service/cli.ts', '--port', '0', '--data', data, '--admin-token', 'lock-test-token'], {
      cwd: process.cwd(),
    });
    children.push(second);
    let out = '';
    let err = '';
    second.stdout.on('data', (d: Buffer) => (out += d.toString()));
    second.stderr.on('data', (d: Buffer) => (err += d.toString()));
    expect(await exited(second)).toBe(3);
    expect(out).toBe('');
    expect(err).toContain(`the data folder ${data} is in use by another local service (pid ${first.child.pid})`);
    expect(err).not.toContain('refunded reservations left pending');

    // The first keeps serving, and its generation settles charged (the second refunded nothing).
    expect(await admin(first.ready, 'GET', `/admin/accounts/${accountId}`)).toMatchObject({ credits: 968, reserved: 32 });
    const settled = await generation;
    expect(settled.status).toBe(200);
    expect(settled.body.credits_charged).toBe(32);
    expect(await admin(first.ready, 'GET', `/admin/accounts/${accountId}`)).toMatchObject({ credits: 968, reserved: 0 });
    const files = await fetch(`${first.ready.base_url}${settled.body.images[0].url}`, { headers: { Authorization: `Bearer ${key}` }, redirect: 'manual' });
    expect(files.status).toBe(302);
    expect((await fetch(files.headers.get('location') ?? '')).status).toBe(200);
  });

  it('starts on a folder whose holder was killed with kill -9 (the OS released the lock)', async () => {
    const data = tempDir();
    const first = await startCli(['--port', '0', '--data', data]);
    first.child.kill('SIGKILL');
    await exited(first.child);
    const second = await startCli(['--port', '0', '--data', data]);
    expect(second.ready.base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(JSON.parse(readFileSync(join(data, 'service.pid'), 'utf8'))).toMatchObject({ pid: second.child.pid, base_url: second.ready.base_url });
  });

  it('reads the admin token from STUDIO_ADMIN_TOKEN when --admin-token is absent', async () => {
    const child = spawn(process.execPath, ['src-service/cli.ts', '--port', '0', '--data', tempDir()], {
      cwd: process.cwd(),
      env: { ...process.env, STUDIO_ADMIN_TOKEN: 'token-from-env' },
    });
    children.push(child);
    const line = await firstLine(child);
    const ready = ServiceReadyLineSchema.parse(JSON.parse(line));
    expect(ready.admin_token).toBe('token-from-env');
    expect((await fetch(`${ready.base_url}/admin/settings`, { headers: { Authorization: 'Bearer token-from-env' } })).status).toBe(200);
  });

  it('runs the utilityProcess entry under plain Node with the same flags and ready line', async () => {
    const child = spawn(process.execPath, ['src-service/utility-entry.ts', '--port', '0', '--seed', '--data', tempDir()], { cwd: process.cwd() });
    children.push(child);
    const line = await firstLine(child);
    const ready = ServiceReadyLineSchema.parse(JSON.parse(line));
    expect(ready.api_key).toMatch(/^sk_/);
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const exit = new Promise<[number | null, string | null]>((resolve) => child.once('exit', (code, signal) => resolve([code, signal])));
    child.kill('SIGTERM');
    expect(await exit, err).toEqual([0, null]);
  });

  it('--ready-file: writes the ready line whole, owner-only, beside the same line first on stdout', async () => {
    const file = join(tempDir(), 'ready.json');
    const started = await startCli(['--port', '0', '--seed', '--data', tempDir(), '--ready-file', file]);
    const line = started.stdout().slice(0, started.stdout().indexOf('\n') + 1);
    for (let i = 0; i < 50 && !existsSync(file); i++) await new Promise((r) => setTimeout(r, 20));
    expect(readFileSync(file, 'utf8')).toBe(line);
    expect(JSON.parse(line)).toEqual(started.ready);
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);
    started.child.kill('SIGTERM');
    expect(await exited(started.child)).toBe(0);
  });

  it('exits with a clear message on an unknown flag', async () => {
    const child = spawn(process.execPath, ['src-service/cli.ts', '--prot', '1'], { cwd: process.cwd() });
    children.push(child);
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    expect(await exited(child)).toBe(2);
    expect(err).toMatch(/--prot/);
  });

  it('on a damaged service.db keeps the ready line as it is, says what happened in one stderr line, and keeps the account', async () => {
    const dir = tempDir();
    const first = await startCli(['--port', '0', '--data', dir, '--seed', '--log-level', 'info']);
    first.child.kill('SIGTERM');
    expect(await exited(first.child)).toBe(0);
    // The header is no longer SQLite's.
    const file = join(dir, 'service.db');
    writeFileSync(file, Buffer.concat([Buffer.from('not a database at all, really'), readFileSync(file).subarray(29)]));
    const second = await startCli(['--port', '0', '--data', dir]);
    expect(Object.keys(second.ready).sort()).toEqual(['admin_token', 'base_url', 'direct_url', 'event']);
    const said = second.stderr().split('\n').filter((line) => line.includes('service.db was damaged'));
    expect(said).toHaveLength(1);
    expect(JSON.parse(said[0]!)).toMatchObject({ reason: 'not_sqlite', damaged_path: expect.stringContaining(`${file}.damaged-`), accounts: 1 });
    expect(await admin(second.ready, 'GET', `/admin/accounts/${first.ready.account_id}`)).toMatchObject({ id: first.ready.account_id, credits: 10_000 });
  });
});
