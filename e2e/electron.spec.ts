// The packaged-shape Electron app through Playwright's Electron driver. It runs wherever a display is available
// and an Electron binary exists or can be downloaded the way `npm start` does on first start
// (node_modules/electron/dist, ELECTRON_OVERRIDE_DIST_PATH, ELECTRON_MIRROR); otherwise it is skipped with the
// reason. Checks the window, the bridge's exact shape, that navigation and new windows are blocked, that the
// renderer has no Node, that a generation completes against the bundled service, and that closing the window with
// unsaved edits asks natively (docs/main-process.md "Closing the window with unsaved work").
import { _electron as electron, expect, test, type ElectronApplication, type Page } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { IPC_METHODS, type ShotList } from '../src-shared/ipc/index.ts';
import type { Language } from '../src-shared/language.ts';
import { leaveUnsavedBox } from '../src-main/electron/leave-unsaved.ts';
import { buildIfStale } from '../src-main/harness/build-output.ts';
import { ensureElectronBinary, missingDisplay, type ElectronBinary } from '../src-main/harness/electron-binary.ts';

const ROOT = resolve(import.meta.dirname, '..');
const noDisplay = missingDisplay();
// Without a display nothing is downloaded; with one, a missing binary is fetched once here (in the worker that
// runs this file, not while Playwright lists the tests).
let binary: ElectronBinary | null = null;
async function electronSkipReason(): Promise<string | null> {
  if (noDisplay) return `Electron cannot open a window here: ${noDisplay}`;
  binary ??= await ensureElectronBinary(ROOT, { retryCommand: 'npm run test:e2e', log: (line) => console.log(line) });
  return binary.ok ? null : `Electron cannot run on this machine: ${binary.reason}`;
}

type Api = Record<string, (input?: unknown) => Promise<{ ok: boolean; value?: unknown; error?: { code: string; message: string } }>>;

test.describe('Electron app', () => {
  test.skip(noDisplay !== null, `Electron cannot open a window here: ${noDisplay}`);

  let app: ElectronApplication;
  let page: Page;
  let userData: string;

  test.beforeAll(async () => {
    // A first download of Electron (about 100 MB) comes out of this budget too.
    test.setTimeout(900_000);
    const skipReason = await electronSkipReason();
    test.skip(skipReason !== null, skipReason ?? '');
    expect(await buildIfStale(ROOT, ['main', 'preload', 'renderer'])).toBe(0);
    userData = mkdtempSync(join(tmpdir(), 'studio-electron-'));
    app = await electron.launch({
      executablePath: binary?.ok ? binary.path : '',
      // Chromium's OS sandbox cannot start as root (containers, CI); the renderer stays sandboxed by webPreferences.
      args: process.getuid?.() === 0 ? ['.', '--no-sandbox'] : ['.'],
      cwd: ROOT,
      env: { ...process.env, STUDIO_USER_DATA_DIR: userData, ELECTRON_RUN_AS_NODE: '' },
    });
    page = await app.firstWindow();
    await page.waitForLoadState('domcontentloaded');
  });

  test.afterAll(async () => {
    await app?.close();
    if (userData) rmSync(userData, { recursive: true, force: true });
  });

  test('the window loads the renderer from the built files, served as app://studio/ (never file://)', async () => {
    await expect(page).toHaveTitle('Image Studio');
    expect(page.url()).toBe('app://studio/index.html');
    await expect(page.locator('#root > *').first()).toBeAttached();
  });

  test('window.api has exactly the contract functions and the renderer has no Node', async () => {
    const shape = await page.evaluate(() => {
      const g = globalThis as unknown as { api: Record<string, unknown>; require?: unknown; process?: unknown };
      return { keys: Object.keys(g.api).sort(), require: typeof g.require, process: typeof g.process };
    });
    expect(shape.keys).toEqual([...Object.keys(IPC_METHODS), 'on', 'imageUrl'].sort());
    expect(shape.require).toBe('undefined');
    expect(shape.process).toBe('undefined');
  });

  test('navigation away and new windows are blocked', async () => {
    const before = page.url();
    await page.evaluate(() => {
      (globalThis as unknown as { location: { href: string } }).location.href = 'https://example.com/';
    });
    await page.waitForTimeout(500);
    expect(page.url()).toBe(before);
    const opened = await page.evaluate(() => (globalThis as unknown as { open(u: string): unknown }).open('https://example.com/') === null);
    expect(opened).toBe(true);
    expect(app.windows()).toHaveLength(1);
  });

  test('a generation on the bundled local service completes and its image is served', async () => {
    const outcome = await page.evaluate(async () => {
      const api = (globalThis as unknown as { api: Api }).api;
      const started = await api.generateStart!({ request: { prompt: 'a ceramic mug on a wooden table', model: 'seedream-5-0-pro', n: 1 } });
      if (!started.ok) return { error: started.error };
      const { turnId } = started.value as { turnId: string };
      for (let i = 0; i < 600; i++) {
        const turn = await api.libraryGetTurn!({ turnId });
        const value = turn.value as { status: string; images: Array<{ id: string; download: string }> } | undefined;
        if (value && value.status !== 'running' && value.images.every((img) => img.download !== 'pending')) return { turn: value };
        await new Promise((r) => setTimeout(r, 250));
      }
      return { error: { code: 'timeout', message: 'the turn did not finish' } };
    });
    expect(outcome.error).toBeUndefined();
    expect(outcome.turn?.status).toBe('succeeded');
    const imageId = outcome.turn?.images[0]?.id ?? '';
    // Loaded the way the renderer shows images: an <img> on the studio-image:// protocol.
    const size = await page.evaluate(async (id) => {
      const api = (globalThis as unknown as { api: { imageUrl(k: string, i: string): string } }).api;
      const Img = (globalThis as unknown as { Image: new () => { src: string; naturalWidth: number; onload: () => void; onerror: () => void } }).Image;
      const load = (kind: string) =>
        new Promise<number>((resolve) => {
          const img = new Img();
          img.onload = () => resolve(img.naturalWidth);
          img.onerror = () => resolve(-1);
          img.src = api.imageUrl(kind, id);
        });
      return { full: await load('full'), thumb: await load('thumb'), bogus: await load('../../etc') };
    }, imageId);
    expect(size.full).toBeGreaterThan(512);
    expect(size.thumb).toBeGreaterThan(0);
    expect(size.thumb).toBeLessThanOrEqual(512);
    expect(size.bogus).toBe(-1);
  });

  // Last: it leaves a shot list behind. The native box would block main, so a stand-in answers it and records it.
  test('closing the window with an unsaved shot-list edit asks natively; Stay keeps the window and the edit, Leave goes', async () => {
    await answerLeaveBox(app, 'stay');
    try {
      const list = await page.evaluate(async (shot) => {
        const api = (globalThis as unknown as { api: Api }).api;
        return (await api.shotListSave!({ name: 'close list', shots: [shot] })).value as ShotList;
      }, { name: 'main', purpose: 'free', model: 'seedream-5-0-pro', ratio: '1:1', resolution: '1K', n: 1, promptAddition: '' });
      const firstN = page.getByTestId('shot-row').first().getByTestId('shot-n');
      await page.getByTestId('open-batch').click();
      await page.getByTestId('shot-list-select').selectOption(list.id);
      await firstN.selectOption('4');
      await expect(page.getByTestId('shot-list-unsaved')).toBeVisible();

      await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]?.close());
      await expect.poll(() => askedBoxes(app)).toHaveLength(1);
      const language = await page.evaluate(async () => ((await (globalThis as unknown as { api: Api }).api.settingsGet!()).value as { language: Language }).language);
      expect((await askedBoxes(app))[0]).toEqual(leaveUnsavedBox(language));
      expect(app.windows()).toHaveLength(1);
      await expect(firstN).toHaveValue('4');

      // Leave without saving: a reload goes on and the edit is gone.
      await answerLeaveBox(app, 'leave');
      await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]?.webContents.reload());
      await expect.poll(() => askedBoxes(app)).toHaveLength(2);
      await page.getByTestId('open-batch').click();
      await page.getByTestId('shot-list-select').selectOption(list.id);
      await expect(firstN).toHaveValue('1');
      await expect(page.getByTestId('shot-list-unsaved')).toHaveCount(0);
    } finally {
      // Whatever happened, the app must be able to quit after the tests.
      await answerLeaveBox(app, 'leave');
    }
  });
});

type MainGlobal = { leaveBoxes?: unknown[]; leaveAnswer?: number };

/** Replaces the native box with one that answers Stay (1) or Leave without saving (0) and records what it asked. */
async function answerLeaveBox(app: ElectronApplication, answer: 'stay' | 'leave'): Promise<void> {
  await app.evaluate(({ dialog }, index) => {
    const g = globalThis as unknown as MainGlobal;
    g.leaveBoxes ??= [];
    g.leaveAnswer = index;
    dialog.showMessageBoxSync = ((_window: unknown, options: unknown) => {
      g.leaveBoxes?.push(options);
      return g.leaveAnswer ?? 1;
    }) as typeof dialog.showMessageBoxSync;
  }, answer === 'stay' ? 1 : 0);
}

async function askedBoxes(app: ElectronApplication): Promise<unknown[]> {
  return app.evaluate(() => (globalThis as unknown as MainGlobal).leaveBoxes ?? []);
}
