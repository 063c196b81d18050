// The local service's request ledger through main's IPC (localRequests, localRequest): the real core and local
// service; a request made straight to the service is found by its X-Request-Id and in the filtered list.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { IpcResult } from '../../src-shared/ipc/contract.ts';
import type { LocalConsoleState, LocalRequestPage, LocalRequestView } from '../../src-shared/ipc/local-console.ts';
import type { IpcMethodName } from '../../src-shared/ipc/index.ts';
import { RecordingShell } from '../ports/desktop-shell.ts';
import { createStudioApp } from '../app/create-app.ts';
import { NodeLocalServiceHost } from '../service-host/node-service-host.ts';
import type { CoreStudioApp } from '../app/studio-app.ts';

const opened: CoreStudioApp[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((a) => a.close()));
});

async function open(): Promise<CoreStudioApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'studio-ledger-'));
  const app = await createStudioApp({
    dataDir,
    shell: new RecordingShell(),
    localService: new NodeLocalServiceHost({ dataDir: join(dataDir, 'local-service') }),
    secretStore: 'memory',
  });
  opened.push(app);
  return app;
}

async function invoke<T>(app: CoreStudioApp, method: IpcMethodName, input: unknown): Promise<IpcResult<T>> {
  return (await app.invoke(method, input)) as IpcResult<T>;
}

async function value<T>(app: CoreStudioApp, method: IpcMethodName, input: unknown): Promise<T> {
  const result = await invoke<T>(app, method, input);
  if (!result.ok) throw new Error(`${method}: ${JSON.stringify(result.error)}`);
  return result.value;
}

describe('the request ledger in the local console', () => {
  it('finds a request by its X-Request-Id and lists it under its status; an unknown id is not_found', async () => {
    const app = await open();
    const { baseUrl } = await value<LocalConsoleState>(app, 'localStatus', {});
    const answer = await fetch(`${baseUrl}/api/v1/image-pack-publications/1`);
    expect(answer.status).toBe(401);
    const requestId = answer.headers.get('x-request-id')!;

    let entry: LocalRequestView | null = null;
    for (let i = 0; i < 40 && !entry; i++) {
      const result = await invoke<LocalRequestView>(app, 'localRequest', { requestId });
      entry = result.ok ? result.value : null;
    }
    expect(entry).toMatchObject({ request_id: requestId, status: 401, error_code: 'unauthorized', route: 'publication', key_id: null, credits: { reserved: 0, charged: 0, refunded: 0 } });
    const page = await value<LocalRequestPage>(app, 'localRequests', { status: 401 });
    expect(page.requests.map((r) => r.request_id)).toContain(requestId);

    const missing = await invoke(app, 'localRequest', { requestId: 'req_AAAAAAAAAAAAAAAAAAAA' });
    expect(missing).toMatchObject({ ok: false, error: { code: 'not_found' } });
    const refused = await invoke(app, 'localRequests', { status: 42 });
    expect(refused.ok).toBe(false);
  });
});

describe('the service clock in the local console', () => {
  it('shows how far the clock is ahead of real time, and brings it back', async () => {
    const app = await open();
    expect((await value<LocalConsoleState>(app, 'localStatus', {})).clockOffsetS).toBe(0);
    const ahead = await value<LocalConsoleState>(app, 'localAdvanceClock', { seconds: 400 });
    expect(ahead.clockOffsetS).toBeGreaterThanOrEqual(399);
    expect(ahead.clockOffsetS).toBeLessThanOrEqual(400);
    const back = await value<LocalConsoleState>(app, 'localResetClock', {});
    expect(back.clockOffsetS).toBe(0);
    expect(Math.abs(back.now - Date.now() / 1000)).toBeLessThan(5);
  });
});
