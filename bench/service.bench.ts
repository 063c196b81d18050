/* eslint-disable @typescript-eslint/no-explicit-any -- admin answers are read field by field */
// Benchmarks of the local service (DESIGN.md §5): requests per second on a 400 path and on a 1K n=1
// generation, latency and peak RSS of n=4 at 4K 3:4, and the same 400-path request against Prism serving
// docs/openapi.yaml, side by side in one run. Everything on 127.0.0.1; the service runs as the CLI child
// so its RSS is measured alone (/proc/<pid>/status VmHWM). Several runs; medians go to docs/benchmarks.md.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { machineLine, median, writeSection } from './report.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const LOAD_SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 32;
const ADMIN = 'bench-admin-token';

interface Child {
  proc: ChildProcess;
  baseUrl: string;
}

function startService(dataDir: string): Promise<Child> {
  const proc = spawn(process.execPath, ['src-service/cli.ts', '--port', '0', '--data', dataDir, '--admin-token', ADMIN, '--log-level', 'warn'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    proc.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const nl = out.indexOf('\n');
      if (nl >= 0) resolve({ proc, baseUrl: (JSON.parse(out.slice(0, nl)) as { base_url: string }).base_url });
    });
    proc.once('exit', (code) => reject(new Error(`service exited ${code}`)));
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const done = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await done;
}

async function admin(baseUrl: string, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(baseUrl + path, {
    method,
    headers: { Authorization: `Bearer ${ADMIN}`, 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return res.json();
}

async function seedKey(baseUrl: string): Promise<string> {
  const account = await admin(baseUrl, 'POST', '/admin/accounts', { credits: 1e11, age_days: 30 });
  const key = await admin(baseUrl, 'POST', `/admin/accounts/${account.id}/api-keys`, { name: 'bench', scopes: ['generate:write', 'assets:read'] });
  await admin(baseUrl, 'PATCH', `/admin/api-keys/${key.id}`, { rate_limit_per_24h: 1e12 });
  return key.key as string;
}

/** A bounded closed-loop load generator: `connections` keep-alive workers, each one request at a time. */
async function load(url: string, headers: Record<string, string>, body: string, seconds: number, connections: number): Promise<{ rps: number; statuses: Record<number, number>; p50: number }> {
  const target = new URL(url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const statuses: Record<number, number> = {};
  const latencies: number[] = [];
  const deadline = performance.now() + seconds * 1000;
  let done = 0;
  const one = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const started = performance.now();
      const req = http.request(
        { host: target.hostname, port: target.port, path: target.pathname, method: 'POST', agent, headers: { ...headers, 'Content-Length': Buffer.byteLength(body) } },
        (res) => {
          res.resume();
          res.on('end', () => {
            statuses[res.statusCode ?? 0] = (statuses[res.statusCode ?? 0] ?? 0) + 1;
            if (latencies.length < 200_000) latencies.push(performance.now() - started);
            done++;
            resolve();
          });
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  const begun = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < deadline) await one();
    }),
  );
  const elapsed = (performance.now() - begun) / 1000;
  agent.destroy();
  return { rps: done / elapsed, statuses, p50: median(latencies) };
}

function vmHwmMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

async function generate(baseUrl: string, key: string, body: unknown): Promise<{ ms: number; serviceMs: number }> {
  const started = performance.now();
  const res = await fetch(`${baseUrl}/api/v1/generate`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as { duration_ms: number };
  if (res.status !== 200) throw new Error(`generate answered ${res.status}: ${JSON.stringify(json)}`);
  return { ms: performance.now() - started, serviceMs: json.duration_ms };
}

/**
 * Prism is fetched when the bench runs, not installed with the project: its package requires Node 24.18+, and
 * with engine-strict that would refuse `npm install` on every older supported Node (docs/decisions.md).
 */
export const PRISM_PACKAGE = '@stoplight/prism-cli@5.16.0';

async function startPrism(port: number): Promise<ChildProcess> {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const proc = spawn(npm, ['exec', '--yes', `--package=${PRISM_PACKAGE}`, '--', 'prism', 'mock', '-h', '127.0.0.1', '-p', String(port), 'docs/openapi.yaml'], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('prism did not start within 60 s')), 60_000);
    const onData = (d: Buffer): void => {
      if (/Prism is listening/i.test(d.toString())) {
        clearTimeout(timer);
        resolve(proc);
      }
    };
    proc.stdout?.on('data', onData);
    proc.stderr?.on('data', onData);
    proc.once('exit', (code) => reject(new Error(`prism exited ${code}`)));
  });
}

const fmt = (n: number, digits = 0): string => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-'));
  const badBody = JSON.stringify({ prompt: 'a bottle', model: 'not-a-model' });
  const rows: string[] = [];
  try {
    // 1) 400 path and 1K n=1 generation on one service.
    const svc = await startService(join(dataDir, 'a'));
    const key = await seedKey(svc.baseUrl);
    const headers = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' };
    await load(`${svc.baseUrl}/api/v1/generate`, headers, badBody, 1, CONNECTIONS); // warm-up
    const bad: number[] = [];
    let badStatuses: Record<number, number> = {};
    for (let i = 0; i < RUNS; i++) {
      const r = await load(`${svc.baseUrl}/api/v1/generate`, headers, badBody, LOAD_SECONDS, CONNECTIONS);
      bad.push(r.rps);
      badStatuses = r.statuses;
      console.log(`400 path run ${i + 1}: ${fmt(r.rps)} req/s ${JSON.stringify(r.statuses)}`);
    }
    const genBody = JSON.stringify({ prompt: 'a bottle', resolution: '1K', ratio: '3:4' });
    await generate(svc.baseUrl, key, JSON.parse(genBody)); // warm-up
    const oneK: number[] = [];
    const oneKService: number[] = [];
    for (let i = 0; i < 10; i++) {
      const g = await generate(svc.baseUrl, key, JSON.parse(genBody));
      oneK.push(g.ms);
      oneKService.push(g.serviceMs);
    }
    const genRps: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const r = await load(`${svc.baseUrl}/api/v1/generate`, headers, genBody, LOAD_SECONDS, 4);
      genRps.push(r.rps);
      console.log(`1K n=1 run ${i + 1}: ${fmt(r.rps, 1)} req/s ${JSON.stringify(r.statuses)}`);
    }
    await stop(svc.proc);

    // 2) n=4 at 4K 3:4: latency and peak RSS, each run in a fresh service process.
    const big: number[] = [];
    const bigRss: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const s = await startService(join(dataDir, `big${i}`));
      const k = await seedKey(s.baseUrl);
      const g = await generate(s.baseUrl, k, { prompt: 'a bottle', resolution: '4K', ratio: '3:4', n: 4 });
      big.push(g.ms);
      bigRss.push(vmHwmMb(s.proc.pid ?? 0));
      console.log(`n=4 4K 3:4 run ${i + 1}: ${fmt(g.ms)} ms, peak RSS ${fmt(bigRss.at(-1) ?? 0)} MB`);
      await stop(s.proc);
    }

    // 3) Prism, same 400-path request.
    let prismLine: string;
    let prismMedian = 0;
    if (!existsSync('docs/openapi.yaml')) {
      prismLine = '| Prism 5 mock, same 400-path request | skipped: docs/openapi.yaml is not there yet | |';
    } else {
      const port = 20_000 + Math.floor(Math.random() * 20_000);
      const prism = await startPrism(port);
      try {
        const url = `http://127.0.0.1:${port}/api/v1/generate`;
        await load(url, headers, badBody, 1, CONNECTIONS);
        const runs: number[] = [];
        let statuses: Record<number, number> = {};
        for (let i = 0; i < RUNS; i++) {
          const r = await load(url, headers, badBody, LOAD_SECONDS, CONNECTIONS);
          runs.push(r.rps);
          statuses = r.statuses;
          console.log(`prism run ${i + 1}: ${fmt(r.rps)} req/s ${JSON.stringify(r.statuses)}`);
        }
        prismMedian = median(runs);
        prismLine = `| Prism 5 mock (docs/openapi.yaml), same 400-path request | **${fmt(prismMedian)} req/s** (runs: ${runs.map((r) => fmt(r)).join(', ')}; statuses ${JSON.stringify(statuses)}) | — |`;
      } finally {
        await stop(prism);
      }
    }

    const badMedian = median(bad);
    rows.push(
      `| 400 path (\`invalid_model\`, valid key), ${CONNECTIONS} keep-alive connections | **${fmt(badMedian)} req/s** (runs: ${bad.map((r) => fmt(r)).join(', ')}; statuses ${JSON.stringify(badStatuses)}) | ≥ 5,000 req/s and ≥ 3× Prism |`,
      prismLine,
      `| ratio local service / Prism on the 400 path | **${prismMedian > 0 ? `${fmt(badMedian / prismMedian, 1)}×` : 'n/a'}** | ≥ 3× |`,
      `| 1K n=1 generation, one at a time (client-side latency; service \`duration_ms\`) | **${fmt(median(oneK))} ms** (service ${fmt(median(oneKService))} ms; 10 calls) | < 100 ms |`,
      `| 1K n=1 generation, 4 connections | **${fmt(median(genRps), 1)} req/s** (runs: ${genRps.map((r) => fmt(r, 1)).join(', ')}) | — |`,
      `| n=4 at 4K 3:4, latency | **${fmt(median(big))} ms** (runs: ${big.map((r) => fmt(r)).join(', ')}) | < 3,000 ms |`,
      `| n=4 at 4K 3:4, peak RSS of the service process (VmHWM) | **${fmt(median(bigRss))} MB** (runs: ${bigRss.map((r) => fmt(r)).join(', ')}) | < 400 MB |`,
    );
    writeSection(
      'service',
      `## Local service

Machine: ${machineLine()}
Command: \`npm run bench -- service\` (bench/service.bench.ts; ${RUNS} runs of ${LOAD_SECONDS} s each, medians; load generator and service share the machine)

| measure | result (median) | target |
|---|---|---|
${rows.join('\n')}
`,
    );
    console.log(rows.join('\n'));
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
