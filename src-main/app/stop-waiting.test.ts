// "Stop waiting" against "abort", IPC-level against the real local service (child process) with its latency
// fault armed through the admin API (local:set-faults), real SQLite and real files. Stop waiting leaves the
// call running: the turn still ends succeeded with its images downloaded and is notified; abort ends the turn
// cancelled at once, and the service still finishes and charges the run whose images never arrive.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GalleryPage, IpcEventName, LocalConsoleState, SettingsState, TurnRecord } from '../../src-shared/ipc/index.ts';
import { RecordingShell } from '../ports/desktop-shell.ts';
import { createStudioApp } from './create-app.ts';
import { NodeLocalServiceHost } from '../service-host/node-service-host.ts';
import type { CoreStudioApp } from './studio-app.ts';
import { ipcCalls } from './ipc-calls.test-support.ts';

const LATENCY_MS = 1500;

describe('stop waiting vs abort against the real local service', () => {
  let app: CoreStudioApp;
  let shell: RecordingShell;
  let dataDir: string;
  const events: Array<{ event: IpcEventName; payload: unknown }> = [];

  const { call, ok } = ipcCalls(() => app);
  const turn = (turnId: string) => ok<TurnRecord>('libraryGetTurn', { turnId });
  const balance = async () => (await ok<LocalConsoleState>('localStatus', {})).account;
  /** Waits until the service has reserved the run's credits (it is working on it). */
  const untilReserved = async () => {
    for (let i = 0; i < 100; i++) {
      if ((await balance()).reserved > 0) return;
      await new Promise((r) => setTimeout(r, 30));
    }
    throw new Error('the service never reserved the run');
  };
  const untilSettledOnService = async () => {
    for (let i = 0; i < 200; i++) {
      if ((await balance()).reserved === 0) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('the service never settled the run');
  };

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'studio-stop-waiting-'));
    shell = new RecordingShell(() => join(dataDir, 'exported.png'));
    app = await createStudioApp({
      dataDir,
      shell,
      secretStore: 'memory',
      localService: new NodeLocalServiceHost({ dataDir: join(dataDir, 'local-service'), restartDelayMs: 100 }),
      testing: { generation: { generateTimeoutMs: 20_000, authRetryDelaysMs: [100, 100, 100], rateLimitBaseMs: 1000 } },
    });
    for (const event of ['generation:progress', 'library:changed'] as const) app.on(event, (payload) => events.push({ event, payload }));
    await ok('settingsSetLanguage', { language: 'en' });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('stop waiting: the call goes on in the background, the turn ends succeeded with its images downloaded, and is notified', async () => {
    const start = await balance();
    await ok('localSetFaults', { generate: { latency_ms: LATENCY_MS } });
    const { turnId } = await ok<{ turnId: string }>('generateStart', { request: { prompt: 'a slow white mug', model: 'nano-banana-2', resolution: '1K', n: 2 } });
    await untilReserved();
    const before = await turn(turnId);
    expect(before).toMatchObject({ status: 'running', waitingInBackground: false, actions: { stopWaiting: true, abort: true } });

    const eventsBefore = events.length;
    expect(await ok('generateStopWaiting', { turnId })).toEqual({ waitingInBackground: true });
    // The renderer hears about it (the turn changed) and sees it in the background, still running.
    expect(events.slice(eventsBefore).some((e) => e.event === 'library:changed' && (e.payload as { id: string }).id === turnId)).toBe(true);
    const background = await turn(turnId);
    expect(background).toMatchObject({ status: 'running', waitingInBackground: true, actions: { stopWaiting: false, abort: true } });
    expect((await ok<TurnRecord[]>('generateRunning', {})).find((t) => t.id === turnId)?.waitingInBackground).toBe(true);
    // Idempotent while it runs.
    expect(await ok('generateStopWaiting', { turnId })).toEqual({ waitingInBackground: true });

    // The window stays focused: a foreground run would not notify, a background one does.
    shell.focused = true;
    await app.whenGenerationsSettled();
    await app.whenDownloadsIdle();
    await ok('localSetFaults', { generate: { latency_ms: 0 } });
    const done = await turn(turnId);
    expect(done.status).toBe('succeeded');
    expect(done.waitingInBackground).toBe(false);
    expect(done.actions).toMatchObject({ stopWaiting: false, abort: false });
    expect(done.creditsCharged).toBe(24);
    expect(done.images).toHaveLength(2);
    for (const image of done.images) {
      expect(image.download).toBe('done');
      const file = await app.imageFile('full', image.id);
      expect(file && existsSync(file)).toBeTruthy();
      expect(readFileSync(file as string).subarray(1, 4).toString('latin1')).toBe('PNG');
    }
    const gallery = await ok<GalleryPage>('libraryGallery', { filters: {}, cursor: null, limit: 10 });
    expect(gallery.groups.flatMap((g) => g.images.map((i) => i.id))).toEqual(expect.arrayContaining(done.images.map((i) => i.id)));
    expect(shell.calls.filter((c) => c.kind === 'notify')).toEqual([{ kind: 'notify', title: 'Generation finished', body: '2 image(s) ready.' }]);
    expect((await balance()).credits).toBe(start.credits - 24);
    // After the end there is nothing to stop waiting for.
    expect(await ok('generateStopWaiting', { turnId })).toEqual({ waitingInBackground: false });
  });

  it('abort still aborts: the turn ends cancelled with its note, the service finishes and charges, no image arrives', async () => {
    const start = await balance();
    const notifiesBefore = shell.calls.filter((c) => c.kind === 'notify').length;
    await ok('localSetFaults', { generate: { latency_ms: LATENCY_MS } });
    const { turnId } = await ok<{ turnId: string }>('generateStart', { request: { prompt: 'abort me', model: 'nano-banana-2', resolution: '1K' } });
    await untilReserved();
    expect(await ok('generateCancel', { turnId })).toEqual({ cancelled: true });
    await app.whenGenerationsSettled();
    await ok('localSetFaults', { generate: { latency_ms: 0 } });
    const cancelled = await turn(turnId);
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.outcomeNote).toMatch(/may still finish the run and charge/);
    expect(cancelled.images).toEqual([]);
    expect(cancelled.actions).toMatchObject({ stopWaiting: false, abort: false, retry: { offer: 'never' } });
    expect(await ok('generateCancel', { turnId })).toEqual({ cancelled: false });
    // The service did not hear the abort: it finishes the run and charges it; the images never reach the library.
    await untilSettledOnService();
    expect((await balance()).credits).toBe(start.credits - 12);
    expect((await turn(turnId)).images).toEqual([]);
    expect(shell.calls.filter((c) => c.kind === 'notify')).toHaveLength(notifiesBefore);
  });

  it('abort after stop waiting: a background run can still be aborted, and then is not notified', async () => {
    const notifiesBefore = shell.calls.filter((c) => c.kind === 'notify').length;
    await ok('localSetFaults', { generate: { latency_ms: LATENCY_MS } });
    const { turnId } = await ok<{ turnId: string }>('generateStart', { request: { prompt: 'background then abort', model: 'nano-banana-2', resolution: '1K' } });
    await untilReserved();
    await ok('generateStopWaiting', { turnId });
    expect(await ok('generateCancel', { turnId })).toEqual({ cancelled: true });
    await app.whenGenerationsSettled();
    await ok('localSetFaults', { generate: { latency_ms: 0 } });
    expect(await turn(turnId)).toMatchObject({ status: 'cancelled', waitingInBackground: false, images: [] });
    expect(shell.calls.filter((c) => c.kind === 'notify')).toHaveLength(notifiesBefore);
    await untilSettledOnService();
  });

  it('stop waiting refuses bad input and answers false for a turn that is not running', async () => {
    const bad = await call('generateStopWaiting', {});
    expect(bad.ok ? null : bad.error.code).toBe('invalid_input');
    expect(await ok('generateStopWaiting', { turnId: 'lt_unknown123' })).toEqual({ waitingInBackground: false });
  });

  it('keeps the theme in settings.json: system by default, light and dark on request', async () => {
    expect((await ok<SettingsState>('settingsGet', {})).theme).toBe('system');
    expect((await ok<SettingsState>('settingsSetTheme', { theme: 'dark' })).theme).toBe('dark');
    expect(JSON.parse(readFileSync(join(dataDir, 'settings.json'), 'utf8')).theme).toBe('dark');
    expect((await ok<SettingsState>('settingsSetTheme', { theme: 'light' })).theme).toBe('light');
    const bad = await call('settingsSetTheme', { theme: 'sepia' });
    expect(bad.ok ? null : bad.error.code).toBe('invalid_input');
    expect((await ok<SettingsState>('settingsGet', {})).theme).toBe('light');
  });
});
