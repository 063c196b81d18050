// `service -- logs` as a child process against a real service on loopback: the ledger as JSON lines, oldest first,
// found through the data folder; --follow prints what arrives later; a refused filter exits 2.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { useTestService } from './test-support.ts';

const svc = useTestService();
const children: ChildProcessWithoutNullStreams[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

function logs(args: string[]): { child: ChildProcessWithoutNullStreams; lines: () => Array<Record<string, unknown>>; exit: Promise<number | null> } {
  const child = spawn(process.execPath, ['src-service/cli.ts', 'logs', '--data', svc.dataDir, ...args], {
    cwd: process.cwd(),
    env: { ...process.env, STUDIO_ADMIN_TOKEN: svc.adminToken },
  });
  children.push(child);
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const exit = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  const lines = () => out.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
  return { child, lines, exit };
}

async function call(key: string): Promise<string> {
  const res = await svc.api('/api/v1/image-pack-publications/424242', { key });
  return res.headers.get('x-request-id')!;
}

describe('service -- logs', () => {
  it('prints the entries of an account as JSON lines, oldest first, and exits 0', async () => {
    const { id, key } = await svc.account();
    const first = await call(key);
    const second = await call(key);
    await new Promise((r) => setTimeout(r, 100));
    const run = logs(['--account-id', id]);
    expect(await run.exit).toBe(0);
    expect(run.lines().map((e) => e.request_id)).toEqual([first, second]);
    expect(run.lines()[0]).toMatchObject({ status: 404, error_code: 'not_found', route: 'publication', account_id: id });
  });

  it('--follow prints entries as they arrive', async () => {
    const { id, key } = await svc.account();
    const before = await call(key);
    const run = logs(['--follow', '--account-id', id]);
    const deadline = Date.now() + 10_000;
    while (run.lines().length < 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const later = [await call(key), await call(key)];
    while (run.lines().length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(run.lines().map((e) => e.request_id)).toEqual([before, ...later]);
    run.child.kill('SIGTERM');
    await run.exit;
  });

  it('exits 2 on a filter the service refuses', async () => {
    const run = logs(['--status', 'teapot']);
    expect(await run.exit).toBe(2);
  });
});
