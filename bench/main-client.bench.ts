// Benchmarks of the main-process client (DESIGN.md §5), all on 127.0.0.1 against the real local service:
// 1. download of n=4 4K images through the client's Downloader against `curl -L` of the same files, in one
//    run, alternating (target: client at least 0.9 of curl's speed);
// 2. client overhead of a generation: time in the client (generate:start → turn recorded) minus the
//    service's duration_ms, before downloads (target under 50 ms);
// 3. thumbnail throughput (WebP, long side 512) from the 4K PNGs.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServiceClient } from '../src-main/clients/service-client.ts';
import { createStudioApp } from '../src-main/app/create-app.ts';
import { NodeLocalServiceHost } from '../src-main/service-host/node-service-host.ts';
import { RecordingShell } from '../src-main/ports/desktop-shell.ts';
import { Downloader, makeThumbnail } from '../src-main/files/downloader.ts';
import { cacheDirs, cachePath } from '../src-main/files/image-cache.ts';
import { openLibraryDatabase } from '../src-main/library/database.ts';
import { LibraryRepo } from '../src-main/library/library-repo.ts';
import { AdminClient } from '../src-main/clients/admin-client.ts';
import type { GenerationProgress, TurnRecord } from '../src-shared/ipc/index.ts';
import { machineLine, median, must, writeSection } from './report.ts';

const ROUNDS = Number(process.env.BENCH_RUNS ?? 11);
const GENERATIONS = Number(process.env.BENCH_GENERATIONS ?? 20);
const ADMIN = `adm_${'B'.repeat(32)}`;

function p95(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)] ?? 0;
}

function curlAll(urls: string[], key: string, dir: string): Promise<number> {
  const started = performance.now();
  return Promise.all(
    urls.map(
      (url, i) =>
        new Promise<void>((resolve, reject) => {
          const p = spawn('curl', ['-sS', '-L', '-o', join(dir, `curl-${i}.png`), '-H', `Authorization: Bearer ${key}`, url], { stdio: 'inherit' });
          p.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`curl exited ${code}`))));
        }),
    ),
  ).then(() => performance.now() - started);
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'studio-bench-'));
  const host = new NodeLocalServiceHost({ dataDir: join(dataDir, 'local-service'), adminToken: ADMIN });
  const app = await createStudioApp({ dataDir, shell: new RecordingShell(), localService: host, secretStore: 'memory', testing: { pauseDownloads: true } });
  try {
    // ---- 2. client overhead ----
    const recordedAt = new Map<string, number>();
    app.on('generation:progress', (p: GenerationProgress) => {
      if (p.phase === 'downloading') recordedAt.set(p.turnId, performance.now());
    });
    const overheads: number[] = [];
    for (let i = 0; i < GENERATIONS; i++) {
      const started = performance.now();
      const { turnId } = await must<{ turnId: string }>(app.invoke('generateStart', { request: { prompt: `bench ${i}`, model: 'nano-banana-2', resolution: '1K' } }));
      await app.whenGenerationsSettled();
      const turn = await must<TurnRecord>(app.invoke('libraryGetTurn', { turnId }));
      if (turn.status !== 'succeeded' || turn.durationMs === null) throw new Error(`generation failed: ${JSON.stringify(turn.error)}`);
      overheads.push((recordedAt.get(turnId) as number) - started - turn.durationMs);
    }

    // ---- 1. download of n=4 4K ----
    const { turnId } = await must<{ turnId: string }>(app.invoke('generateStart', { request: { prompt: 'bench 4K', model: 'nano-banana-2', resolution: '4K', n: 4 } }));
    await app.whenGenerationsSettled();
    const turn = await must<TurnRecord>(app.invoke('libraryGetTurn', { turnId }));
    if (turn.images.length !== 4) throw new Error('expected 4 images');
    const settings = JSON.parse(readFileSync(join(dataDir, 'settings.json'), 'utf8')) as { local: { accountId: string } };
    const status = await must<{ baseUrl: string }>(app.invoke('localStatus', {}));
    const admin = new AdminClient(status.baseUrl, ADMIN);
    const { key } = await admin.createApiKey(settings.local.accountId, { name: 'bench', scopes: ['assets:read'] });
    await admin.updateAccount(settings.local.accountId, {});

    const benchDir = mkdtempSync(join(tmpdir(), 'studio-bench-dl-'));
    const db = openLibraryDatabase(join(benchDir, 'library.db'));
    const repo = new LibraryRepo(db);
    repo.createSession('ls_bench', 'local', 1);
    repo.createTurn({ id: 'lt_bench', sessionId: 'ls_bench', environment: 'local', request: turn.request, estimate: turn.estimate, startedAt: 1, retryOf: null, referenceImageIds: [] });
    repo.insertImages({ id: 'lt_bench', sessionId: 'ls_bench', environment: 'local', model: 'nano-banana-2', purpose: 'free', prompt: '' }, turn.images, 1);
    const dirs = cacheDirs(benchDir);
    const client = new ServiceClient({ environment: 'local', baseUrl: status.baseUrl, apiKey: key, language: 'en' });
    // No retries: a failed download fails the bench instead of hiding a retry's wait in a sample.
    const downloader = new Downloader({ repo, dirs, clientFor: async () => client, onProgress: () => undefined, onDone: () => undefined, concurrency: 4, thumbnails: false, retryDelaysMs: [] });
    const clientMs: number[] = [];
    const curlMs: number[] = [];
    const urls = turn.images.map((image) => `${status.baseUrl}/api/file/${image.filename}`);
    for (let round = 0; round < ROUNDS; round++) {
      for (const image of turn.images) {
        repo.setDownload(image.id, 'pending');
        rmSync(cachePath(dirs, 'full', image.id) as string, { force: true });
      }
      const viaClient = async (): Promise<void> => {
        const started = performance.now();
        downloader.resumePending();
        await downloader.whenIdle();
        clientMs.push(performance.now() - started);
        if (turn.images.some((image) => repo.getImage(image.id)?.download !== 'done')) throw new Error('client download failed');
      };
      const viaCurl = async (): Promise<void> => void curlMs.push(await curlAll(urls, key, benchDir));
      // Alternate who goes first, so neither always gets a warm cache.
      if (round % 2 === 0) {
        await viaClient();
        await viaCurl();
      } else {
        await viaCurl();
        await viaClient();
      }
    }
    const totalBytes = turn.images.reduce((sum, image) => sum + statSync(cachePath(dirs, 'full', image.id) as string).size, 0);

    // ---- 3. thumbnails ----
    const thumbMs: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      for (const image of turn.images) {
        const started = performance.now();
        await makeThumbnail(cachePath(dirs, 'full', image.id) as string, join(benchDir, `${image.id}-${round}.webp`));
        thumbMs.push(performance.now() - started);
      }
    }
    db.close();

    const mb = totalBytes / 2 ** 20;
    const clientMed = median(clientMs);
    const curlMed = median(curlMs);
    const ratio = curlMed / clientMed;
    const size = `${turn.images[0]?.width}×${turn.images[0]?.height}`;
    writeSection(
      'main-client',
      `## Main-process client (DESIGN.md §5)

Machine: ${machineLine()}. Local service as a child process on 127.0.0.1; ${ROUNDS} rounds, medians.

| measure | result | target |
|---|---|---|
| download n=4 4K (${size}, ${mb.toFixed(1)} MiB in all), client Downloader (4 at once, key only on the API request, PNG header check, rename; no thumbnail) | ${clientMed.toFixed(0)} ms (${(mb / (clientMed / 1000)).toFixed(0)} MiB/s) | |
| same 4 files with 4 parallel \`curl -sS -L\` | ${curlMed.toFixed(0)} ms (${(mb / (curlMed / 1000)).toFixed(0)} MiB/s) | |
| client speed ÷ curl speed | **${ratio.toFixed(2)}** | ≥ 0.9 ${ratio >= 0.9 ? '✔' : '✘'} |
| client overhead of a generation (generate:start → turn recorded, minus the service's duration_ms; 1K n=1, ${GENERATIONS} runs) | median **${median(overheads).toFixed(1)} ms**, p95 ${p95(overheads).toFixed(1)} ms | < 50 ms ${median(overheads) < 50 ? '✔' : '✘'} |
| thumbnail (WebP, long side 512) from a ${size} PNG | median ${median(thumbMs).toFixed(0)} ms, ${(1000 / median(thumbMs)).toFixed(1)} images/s on one thread | |

The overhead includes validation, the estimate, two SQLite transactions (turn, then images) and the
HTTP round trip on loopback; the service's own time is excluded by its \`duration_ms\`.`,
    );
    console.log(`download client ${clientMed.toFixed(0)} ms vs curl ${curlMed.toFixed(0)} ms (ratio ${ratio.toFixed(2)}); overhead median ${median(overheads).toFixed(1)} ms; thumb ${median(thumbMs).toFixed(0)} ms`);
  } finally {
    await app.close();
  }
}

await main();
