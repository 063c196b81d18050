// The app core on a fresh data folder with the real local service (child process), for the batch tests
// (batch.test.ts, reruns.test.ts): IPC calls, a batch's detail until it settles, products and shot lists.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { BatchDetail, BatchSummary, LocalConsoleState, Product, ShotList } from '../../src-shared/ipc/index.ts';
import { RecordingShell } from '../ports/desktop-shell.ts';
import { createStudioApp } from '../app/create-app.ts';
import { NodeLocalServiceHost } from '../service-host/node-service-host.ts';
import type { CoreStudioApp } from '../app/studio-app.ts';
import { ipcCalls, until } from '../app/ipc-calls.test-support.ts';

export type Shot = ShotList['shots'][number];
/** A cheap shot (seedream 1K, n=1: 6 credits) named after itself. */
export const cheap = (name: string, extra: Partial<Shot> = {}): Shot => ({ name, purpose: 'free', model: 'seedream-5-0-pro', ratio: '1:1', resolution: '1K', n: 1, promptAddition: name, ...extra });

export async function openApp(dataDir: string, options: { now?: () => number; downloads?: boolean } = {}): Promise<CoreStudioApp> {
  const app = await createStudioApp({
    dataDir,
    shell: new RecordingShell(() => join(dataDir, 'saved.png')),
    secretStore: 'memory',
    localService: new NodeLocalServiceHost({ dataDir: join(dataDir, 'local-service'), restartDelayMs: 100 }),
    testing: {
      generation: { generateTimeoutMs: 20_000, authRetryDelaysMs: [50, 50, 50], rateLimitBaseMs: 1000 },
      pauseDownloads: options.downloads !== true,
      ...(options.now ? { now: options.now } : {}),
    },
  });
  return app;
}

export function client(get: () => CoreStudioApp) {
  const { call, ok } = ipcCalls(get);
  const account = async () => (await ok<LocalConsoleState>('localStatus', {})).account;
  const batch = (batchId: string) => ok<BatchDetail>('batchGet', { batchId });
  const settled = (batchId: string, state: BatchSummary['state'] | BatchSummary['state'][] = ['done', 'cancelled']) =>
    until(`batch ${batchId} to be ${String(state)}`, async () => {
      const b = await batch(batchId);
      return (Array.isArray(state) ? state : [state]).includes(b.state) && b.counts.running === 0 ? b : null;
    }, 60_000);
  const products = async (count: number, prefix: string): Promise<Product[]> => {
    const out: Product[] = [];
    for (let i = 1; i <= count; i++) {
      out.push(await ok<Product>('productSave', { sku: `${prefix}-${i}`, name: `${prefix} product ${i}`, prompt: `a ceramic mug number ${i}, studio light` }));
    }
    return out;
  };
  const list = (name: string, shots: Shot[]) => ok<ShotList>('shotListSave', { name, shots });
  return { call, ok, account, until, batch, settled, products, list };
}

/** An English app on a fresh data folder for one describe block: opened before its tests, closed after them. */
export function useEnglishApp(folderPrefix: string, options: Parameters<typeof openApp>[1] = {}) {
  let app: CoreStudioApp | undefined;
  let dataDir = '';
  const current = (): CoreStudioApp => {
    if (!app) throw new Error('the app opens in beforeAll; use it inside a test');
    return app;
  };
  const c = client(current);
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), folderPrefix));
    app = await openApp(dataDir, options);
    await c.ok('settingsSetLanguage', { language: 'en' });
  });
  afterAll(async () => {
    await app?.close();
  });
  return { c, app: current, dataDir: () => dataDir };
}

