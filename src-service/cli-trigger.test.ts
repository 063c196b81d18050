// `service -- trigger` as a child process: every deliberate breakage reaches an independent Python receiver
// (test-support/webhook_receiver.py, written from the signature rules alone) and fails at exactly the step it
// names; --account takes the URL and secret of an account's webhook in a running service; bad flags exit 2.
import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { BREAKAGE_FAILS_AT, WEBHOOK_BREAKAGES } from '../src-shared/webhook-breakage.ts';
import { useTestService } from './test-support.ts';

const svc = useTestService();
const SECRET = `whsec_${'t'.repeat(32)}`;
const PREVIOUS = `whsec_${'p'.repeat(32)}`;

function trigger(args: string[]): Promise<{ code: number | null; line: Record<string, unknown> | null; stderr: string }> {
  const child = spawn(process.execPath, ['src-service/cli.ts', 'trigger', ...args], { env: { ...process.env, STUDIO_ADMIN_TOKEN: svc.adminToken } });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve) =>
    child.on('exit', (code) => resolve({ code, line: out.trim() ? (JSON.parse(out.trim()) as Record<string, unknown>) : null, stderr: err })),
  );
}

const python = spawn('python3', ['test-support/webhook_receiver.py', SECRET], { stdio: ['ignore', 'pipe', 'inherit'] });
const pythonUrl = new Promise<string>((resolve) => python.stdout.once('data', (d: Buffer) => resolve(`http://127.0.0.1:${d.toString().trim()}/hook`)));
afterAll(() => {
  python.kill('SIGKILL');
});

describe('service -- trigger', () => {
  it('each breakage fails at exactly its step in an independent receiver (and the correct ones pass)', async () => {
    const url = await pythonUrl;
    const runs = await Promise.all(
      WEBHOOK_BREAKAGES.map((breakage) => trigger(['--url', url, '--secret', SECRET, '--previous-secret', PREVIOUS, '--event', 'ping', '--break', breakage])),
    );
    WEBHOOK_BREAKAGES.forEach((breakage, i) => {
      const run = runs[i];
      const expected = BREAKAGE_FAILS_AT[breakage];
      expect(run?.code, `${breakage}: ${run?.stderr}`).toBe(0);
      expect(run?.line, breakage).toMatchObject({ breakage, fails_at: expected, status: expected === null ? 200 : 401 });
      expect(JSON.parse(String(run?.line?.response)), breakage).toEqual(expected === null ? { ok: true } : { reason: expected });
    });
  });

  it('--account sends to the account webhook, signed with its secret, with field overrides', async () => {
    const got: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
    const receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        got.push({ headers: req.headers, body });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    try {
      await svc.admin('PUT', '/admin/settings', { allow_loopback_webhooks: true });
      const { id } = await svc.account();
      const hook = await svc.admin('PUT', `/admin/accounts/${id}/webhook`, { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`, enabled: true });
      expect(hook.status).toBe(200);
      const run = await trigger(['--account', id, '--admin-url', svc.baseUrl, '--set', 'publication.version=7', '--set', 'style_code=AW27']);
      expect(run.code, run.stderr).toBe(0);
      expect(run.line).toMatchObject({ status: 204, fails_at: null, event: 'image_pack.published' });
      expect(got).toHaveLength(1);
      const body = JSON.parse(got[0]?.body ?? '') as { publication: { version: number; style_code: string } };
      expect(body.publication).toMatchObject({ version: 7, style_code: 'AW27' });
      const ts = String(got[0]?.headers['x-service-timestamp']);
      const expected = createHmac('sha256', hook.body.secret as string).update(`${ts}.${got[0]?.body}`).digest('hex');
      expect(got[0]?.headers['x-service-signature']).toBe(`v1=${expected}`);
    } finally {
      receiver.close();
    }
  });

  it('exits 2 with a clear reason on bad flags, and sends nothing', async () => {
    for (const args of [['--url', 'http://127.0.0.1:9/x'], ['--url', 'http://127.0.0.1:9/x', '--secret', SECRET, '--break', 'melted'], ['--url', 'http://127.0.0.1:9/x', '--secret', 'nope'], ['--url', 'http://127.0.0.1:9/x', '--secret', SECRET, '--break', 'previous_secret']]) {
      const run = await trigger(args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.line).toBeNull();
      expect(run.stderr).toMatch(/^local service trigger: /);
    }
  });

  it('exits 1 when the receiver does not answer, and says so', async () => {
    // A port that was free a moment ago: nothing listens there.
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const run = await trigger(['--url', `http://127.0.0.1:${port}/x`, '--secret', SECRET]);
    expect(run.code).toBe(1);
    expect(run.line).toMatchObject({ status: null });
    expect(String(run.line?.error)).toMatch(/ECONNREFUSED/);
  });
});
