// A service whose app died always exits within 2 s (docs/local-service.md "STUDIO_PARENT_PID"): 30 times, an
// app process starts the CLI with pipes, puts 4 slow generations in flight, and is killed with SIGKILL; 2 s later
// no service may be alive, however its stderr pipe (now without a reader) and its clean stop behave.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { processRunning as alive } from '../test-support/processes.ts';

const RUNS = 30;
const survivors: number[] = [];
afterEach(() => {
  for (const pid of survivors.splice(0)) if (alive(pid)) process.kill(pid, 'SIGKILL');
});

// The "app": starts the service as the hosts do (STUDIO_PARENT_PID, stdin/stdout/stderr pipes), arms a slow
// generation fault, sends 4 generations without waiting for them, and prints the service's pid once all 4 hold
// their reservations.
const APP = `
const { spawn } = require('node:child_process');
const service = spawn(process.execPath, ['src-service/cli.ts', '--port', '0', '--seed', '--data', process.argv[1], '--log-level', 'debug'], {
  env: { ...process.env, STUDIO_PARENT_PID: String(process.pid) }, stdio: ['pipe', 'pipe', 'pipe'],
});
service.stderr.resume();
let out = '';
service.stdout.on('data', async (d) => {
  out += d;
  if (!out.includes('\\n') || out.startsWith('done')) return;
  const ready = JSON.parse(out.slice(0, out.indexOf('\\n')));
  out = 'done';
  const admin = { Authorization: 'Bearer ' + ready.admin_token, 'Content-Type': 'application/json' };
  await fetch(ready.base_url + '/admin/faults', { method: 'PUT', headers: admin, body: JSON.stringify({ generate: { latency_ms: 60000 } }) });
  for (let i = 0; i < 4; i++) {
    fetch(ready.base_url + '/api/v1/generate', {
      method: 'POST', headers: { Authorization: 'Bearer ' + ready.api_key, 'Content-Type': 'application/json' },
      body: JSON.stringify({ prompt: 'a bottle', resolution: '1K' }),
    }).catch(() => {});
  }
  for (;;) {
    const { turns } = await (await fetch(ready.base_url + '/admin/accounts/' + ready.account_id + '/turns?since=0', { headers: admin })).json();
    if (turns.filter((t) => t.status === 'running').length >= 4) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  process.stdout.write(String(service.pid) + '\\n');
});
`;

/** Starts the app; resolves with it and its service's pid once 4 generations are in flight. */
function startApp(dataDir: string): Promise<{ app: ReturnType<typeof spawn>; servicePid: number }> {
  const app = spawn(process.execPath, ['-e', APP, dataDir], { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  return new Promise((resolve, reject) => {
    app.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve({ app, servicePid: Number(out.trim()) });
    });
    app.once('exit', (code) => reject(new Error(`the app exited with ${code} before its service was busy`)));
  });
}

describe('kill -9 of the app with generations in flight', () => {
  it(`leaves no service alive 2 s later, ${RUNS} runs out of ${RUNS}`, async () => {
    const left: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const { app, servicePid } = await startApp(mkdtempSync(join(tmpdir(), 'svc-orphan-')));
      survivors.push(servicePid);
      app.kill('SIGKILL');
      await new Promise((r) => setTimeout(r, 2_000));
      if (alive(servicePid)) left.push(servicePid);
    }
    expect(left).toEqual([]);
  }, 240_000);
});
