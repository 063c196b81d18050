// Benchmark of the webhook inspector under a flood (docs/benchmarks.md "Webhook inspector"): the real app core
// (createStudioApp, the bundled local service as a child process) with the inspector connected to the local
// webhook and an "open inspector screen" (every inspector:delivery event calls inspector:list through the IPC
// dispatch, as the renderer's query invalidation does). A separate process (bench/inspector-sender.ts) sends
// 5,000 validly signed deliveries over loopback HTTP in phases of different concurrency while this process
// measures its own event-loop delay (perf_hooks.monitorEventLoopDelay). Target: p99 < 50 ms.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createStudioApp } from '../src-main/app/create-app.ts';
import { NodeLocalServiceHost } from '../src-main/service-host/node-service-host.ts';
import { RecordingShell } from '../src-main/ports/desktop-shell.ts';
import { AdminClient } from '../src-main/clients/admin-client.ts';
import { machineLine, median, must, percentile, writeSection } from './report.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const PHASES = (process.env.BENCH_PHASES ?? '1000@1 2000@8 2000@64').split(' ');
const DELIVERIES = PHASES.reduce((sum, p) => sum + Number(p.split('@')[0]), 0);
const ADMIN = `adm_${'I'.repeat(32)}`;
const TARGET_P99_MS = 50;

interface RunResult {
  p50: number;
  p99: number;
  max: number;
  wallMs: number;
  statuses: Record<string, number>;
  events: number;
  lists: number;
  listP50: number;
  listMax: number;
  kept: number;
  dbBytes: number;
  files: string;
}

function sizeOf(file: string): number {
  return existsSync(file) ? statSync(file).size : 0;
}

function runSender(url: string, secret: string): Promise<{ sent: number; wallMs: number; statuses: Record<string, number> }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['bench/inspector-sender.ts', ...PHASES], {
      env: { ...process.env, INSPECTOR_URL: url, INSPECTOR_SECRET: secret },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out.trim()) as { sent: number; wallMs: number; statuses: Record<string, number> }) : reject(new Error(`sender exited ${code}`))));
  });
}

async function oneRun(): Promise<RunResult> {
  const dataDir = mkdtempSync(join(tmpdir(), 'studio-bench-inspector-'));
  const host = new NodeLocalServiceHost({ dataDir: join(dataDir, 'local-service'), adminToken: ADMIN });
  const app = await createStudioApp({ dataDir, shell: new RecordingShell(), localService: host, secretStore: 'memory', testing: { pauseDownloads: true } });
  try {
    // Connected the way the user does it (one click), then the secret read back from the service's admin API
    // (a PUT with the same URL returns the current secret) for the load generator.
    const status = await must<{ url: string | null; secretStored: boolean }>(app.invoke('inspectorConnectLocal', {}));
    if (!status.url || !status.secretStored) throw new Error('inspector not connected');
    const local = await must<{ baseUrl: string }>(app.invoke('localStatus', {}));
    const { local: localSettings } = JSON.parse(readFileSync(join(dataDir, 'settings.json'), 'utf8')) as { local: { accountId: string } };
    const { secret } = await new AdminClient(local.baseUrl, ADMIN).setWebhook(localSettings.accountId, { url: status.url, enabled: true });

    // The open inspector screen: each change event refetches the list (no de-duplication, as a query
    // invalidation while a fetch is in flight starts another one).
    let events = 0;
    const listMs: number[] = [];
    const pending = new Set<Promise<unknown>>();
    const off = app.on('inspector:delivery', () => {
      events++;
      const started = performance.now();
      const p = app.invoke('inspectorList', { limit: 200 }).then(() => listMs.push(performance.now() - started));
      pending.add(p);
      void p.finally(() => pending.delete(p));
    });

    const histogram = monitorEventLoopDelay({ resolution: 1 });
    histogram.enable();
    const sent = await runSender(status.url, secret);
    // Let the last coalesced event and its list call land inside the measurement.
    await new Promise((r) => setTimeout(r, 400));
    await Promise.all(pending);
    histogram.disable();
    off();

    const list = await must<{ total: number }>(app.invoke('inspectorList', { limit: 1 }));
    const files = ['inspector.db', 'inspector.db-wal', 'library.db', 'library.db-wal'].filter((f) => existsSync(join(dataDir, f)));
    const dbBytes = files.filter((f) => f.startsWith('inspector.db')).reduce((sum, f) => sum + sizeOf(join(dataDir, f)), 0);
    return {
      p50: histogram.percentile(50) / 1e6,
      p99: histogram.percentile(99) / 1e6,
      max: histogram.max / 1e6,
      wallMs: sent.wallMs,
      statuses: sent.statuses,
      events,
      lists: listMs.length,
      listP50: percentile(listMs, 0.5),
      listMax: Math.max(0, ...listMs),
      kept: list.total,
      dbBytes,
      files: files.map((f) => `${f} ${(sizeOf(join(dataDir, f)) / 2 ** 20).toFixed(1)} MiB`).join(', '),
    };
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const runs: RunResult[] = [];
  for (let i = 0; i < RUNS; i++) {
    const r = await oneRun();
    runs.push(r);
    console.log(
      `run ${i + 1}: loop delay p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms, max ${r.max.toFixed(1)} ms; ${DELIVERIES} deliveries in ${(r.wallMs / 1000).toFixed(2)} s ${JSON.stringify(r.statuses)}; ${r.events} events, ${r.lists} list calls (median ${r.listP50.toFixed(1)} ms, max ${r.listMax.toFixed(1)} ms); kept ${r.kept}; ${r.files}`,
    );
  }
  const m = (pick: (r: RunResult) => number) => median(runs.map(pick));
  const list = (pick: (r: RunResult) => number, digits = 1) => runs.map((r) => pick(r).toFixed(digits)).join(', ');
  const p99 = m((r) => r.p99);
  const wall = m((r) => r.wallMs);
  writeSection(
    'inspector',
    `## Webhook inspector under a flood

Machine: ${machineLine()}
Command: \`npm run bench -- inspector\` (bench/inspector.bench.ts; ${RUNS} runs, medians). Each run starts the real app core
(createStudioApp, bundled local service as a child process), connects the inspector to the local webhook, and keeps an
"open inspector screen": every \`inspector:delivery\` event calls \`inspector:list\` (limit 200) through the IPC dispatch.
A separate process sends ${DELIVERIES.toLocaleString('en-US')} validly signed deliveries over loopback HTTP in phases
\`${PHASES.join(' ')}\` (count@concurrent connections). Event-loop delay of main: \`monitorEventLoopDelay\` (1 ms resolution, so an idle loop reads about 1 ms)
over the whole send.

| measure | result (median) | runs | target |
|---|---|---|---|
| main event-loop delay p99 | **${p99.toFixed(1)} ms** | ${list((r) => r.p99)} | < ${TARGET_P99_MS} ms ${p99 < TARGET_P99_MS ? '✔' : '✘'} |
| main event-loop delay p50 / max | ${m((r) => r.p50).toFixed(1)} ms / ${m((r) => r.max).toFixed(1)} ms | max: ${list((r) => r.max)} | |
| wall time for ${DELIVERIES.toLocaleString('en-US')} deliveries | ${(wall / 1000).toFixed(2)} s (${Math.round(DELIVERIES / (wall / 1000)).toLocaleString('en-US')} deliveries/s) | ${list((r) => r.wallMs / 1000, 2)} s | |
| answers | ${JSON.stringify(runs[Math.floor(runs.length / 2)]?.statuses)} | | all 200 |
| change events / list calls during the send | ${m((r) => r.events).toFixed(0)} / ${m((r) => r.lists).toFixed(0)} (list median ${m((r) => r.listP50).toFixed(1)} ms, max ${m((r) => r.listMax).toFixed(1)} ms) | events: ${list((r) => r.events, 0)} | |
| captures kept (groups) | ${m((r) => r.kept).toFixed(0)} | | row cap 1000 |
| inspector.db + -wal at the end | ${(m((r) => r.dbBytes) / 2 ** 20).toFixed(1)} MiB | ${list((r) => r.dbBytes / 2 ** 20)} MiB | |`,
  );
  console.log(`median p99 ${p99.toFixed(1)} ms (target < ${TARGET_P99_MS} ms)`);
  // A missed target fails `npm run bench` (the figure is still written): the finding must not come back quietly.
  if (p99 >= TARGET_P99_MS) {
    console.error(`inspector flood: main's event-loop p99 ${p99.toFixed(1)} ms is over the ${TARGET_P99_MS} ms target`);
    process.exitCode = 1;
  }
}

await main();
