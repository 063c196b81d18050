// Electron main entry (out/main/index.js). Wires the main-process core (createStudioApp) to Electron: the
// window and its security, IPC with sender checks, the image protocol, the menu, the DesktopShell, and the
// bundled local service in a utilityProcess. Everything else in main runs in plain Node behind these seams.
import { join } from 'node:path';
import { app, BrowserWindow, dialog, ipcMain, Menu, nativeTheme, shell } from 'electron';
import { IPC_EVENT_NAMES } from '../../src-shared/ipc/index.ts';
import type { Language } from '../../src-shared/language.ts';
import { createStudioApp } from '../app/create-app.ts';
import { describeError, installCrashGuard } from '../app/crash-guard.ts';
import type { StudioApp } from '../app/studio-app.ts';
import { ElectronDesktopShell } from './electron-shell.ts';
import { APP_INDEX_URL } from './app-request.ts';
import { handleAppProtocol } from './app-protocol.ts';
import { handleImageProtocol, registerAppSchemes } from './image-protocol.ts';
import { registerIpcHandlers } from './ipc-handlers.ts';
import { menuTemplate } from './menu.ts';
import type { TrustedRenderer } from './sender-policy.ts';
import { UtilityServiceHost } from './utility-service-host.ts';
import { createMainWindow, lockDownAllWebContents } from './window.ts';

const outDir = join(import.meta.dirname, '..');
const rendererDir = join(outDir, 'renderer');
const devServerUrl = !app.isPackaged ? (process.env.ELECTRON_RENDERER_URL ?? null) : null;
const trusted: TrustedRenderer = { devServerUrl };
const appIcon = join(app.getAppPath(), 'resources', 'icon.png');

// Nothing ends the app by accident (docs/main-process.md): errors go to the log and the app keeps serving.
const guard = installCrashGuard(join(app.getPath('logs'), 'main.log'));

let mainWindow: BrowserWindow | null = null;
let studio: StudioApp | null = null;
let quitting = false;
/** The UI language as last read from the settings (the window's questions are asked synchronously). */
let uiLanguage: Language = 'zh';

// Every renderer is sandboxed, whatever a future window forgets to set.
app.enableSandbox();
lockDownAllWebContents(app);
// Tests (e2e/electron.spec.ts) run on a throwaway data folder; a packaged app ignores this.
if (!app.isPackaged && process.env.STUDIO_USER_DATA_DIR) app.setPath('userData', process.env.STUDIO_USER_DATA_DIR);

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  registerAppSchemes();
  app.on('second-instance', () => {
    if (!mainWindow) return;
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.focus();
  });
  app.whenReady().then(start).catch((err: unknown) => fatal(err));
}

/** A failure during start shows a dialog naming the log, never a silent exit. */
function fatal(err: unknown): void {
  guard.log('Image Studio could not start', err);
  const firstLine = describeError(err).split('\n')[0] ?? '';
  dialog.showErrorBox(
    'Image Studio could not start / Image Studio 无法启动',
    `${firstLine}\n\nThe details are in the log / 详细信息见日志:\n${guard.logFile}`,
  );
  app.exit(1);
}

async function start(): Promise<void> {
  const dataDir = app.getPath('userData');
  const desktopShell = new ElectronDesktopShell({ window: () => mainWindow, fallbackIcon: appIcon });
  const localService = new UtilityServiceHost({ entry: join(import.meta.dirname, 'service.js'), dataDir: join(dataDir, 'local-service') });

  const studioApp = await createStudioApp({ dataDir, shell: desktopShell, localService });
  studio = studioApp;
  registerIpcHandlers(ipcMain, studioApp, trusted);
  handleImageProtocol(studioApp, dataDir);
  handleAppProtocol(rendererDir);
  // Main → renderer events go to the app window only; the core passed them through the secret screen.
  for (const event of IPC_EVENT_NAMES) {
    studioApp.on(event, (payload) => {
      if (mainWindow && !mainWindow.isDestroyed()) mainWindow.webContents.send(event, payload);
    });
  }

  // The UI language names the menu's items and words the window's own questions.
  const applyLanguage = async () => {
    const settings = await studioApp.invoke('settingsGet', {});
    const language: Language = settings.ok ? (settings.value as { language: Language }).language : 'zh';
    uiLanguage = language;
    const template = menuTemplate(language, process.platform, {
      openDataFolder: () => void shell.openPath(dataDir),
      openLogsFolder: () => void shell.openPath(app.getPath('logs')),
      about: () => app.showAboutPanel(),
    }, { developer: !app.isPackaged });
    Menu.setApplicationMenu(Menu.buildFromTemplate(template));
  };
  await applyLanguage();
  studioApp.on('settings:changed', () => void applyLanguage());
  // The theme chosen in Settings drives prefers-color-scheme in the renderer, so the first paint already has it.
  const applyTheme = async () => {
    const settings = await studioApp.invoke('settingsGet', {});
    const theme = settings.ok ? (settings.value as { theme?: 'system' | 'light' | 'dark' }).theme : undefined;
    nativeTheme.themeSource = theme ?? 'system';
  };
  await applyTheme();
  studioApp.on('settings:changed', () => void applyTheme());

  openWindow();
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) openWindow();
  });
}

function openWindow(): void {
  mainWindow = createMainWindow({
    preload: join(outDir, 'preload', 'index.cjs'),
    icon: appIcon,
    trusted,
    language: () => uiLanguage,
  });
  mainWindow.on('closed', () => {
    mainWindow = null;
  });
  if (devServerUrl) void mainWindow.loadURL(devServerUrl);
  else void mainWindow.loadURL(APP_INDEX_URL);
}

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});

// Close the core (library database, downloads, the local service) before the process goes: once every window has
// closed, not before, since a window with unsaved work may answer "stay" and cancel the quit (docs/main-process.md).
app.on('will-quit', (event) => {
  if (quitting || !studio) return;
  event.preventDefault();
  quitting = true;
  studio.close().finally(() => app.quit());
});
