// The app window and its security (DESIGN.md §2; STYLE.md, Actual Budget's security.ts): sandboxed renderer with context isolation and no Node,
// CSP header, navigation and new windows blocked (a link leaves the app only through shell:open-external),
// webviews refused, every permission request denied, every file:// request refused (the renderer comes from
// app://studio/, app-protocol.ts). Closing or reloading it with unsaved work asks first (leave-unsaved.ts).
import { BrowserWindow, dialog, nativeTheme, session, type App, type Session } from 'electron';
import type { Language } from '../../src-shared/language.ts';
import { CONTENT_SECURITY_POLICY } from './content-security-policy.ts';
import { choseToLeave, leaveUnsavedBox } from './leave-unsaved.ts';
import { isTrustedRendererUrl, type TrustedRenderer } from './sender-policy.ts';

export interface WindowOptions {
  preload: string;
  icon: string;
  trusted: TrustedRenderer;
  /** The UI language now, for the window's own questions (it may change while the window is open). */
  language: () => Language;
}

let sessionHardened = false;

/** Session-wide rules; applied once to the default session the window uses. */
export function hardenSession(target: Session, options: { cspHeader: boolean }): void {
  if (sessionHardened) return;
  sessionHardened = true;
  target.setPermissionRequestHandler((_webContents, _permission, callback) => callback(false));
  target.setPermissionCheckHandler(() => false);
  target.setDevicePermissionHandler(() => false);
  // Not over the dev server, whose hot-reload preamble is an inline script; the <meta> CSP still applies.
  if (options.cspHeader) {
    target.webRequest.onHeadersReceived((details, callback) => {
      callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] } });
    });
  }
  // The renderer is served from app://studio/ and reads images through studio-image://: nothing needs file://.
  target.webRequest.onBeforeRequest({ urls: ['file://*/*'] }, (_details, callback) => {
    callback({ cancel: true });
  });
}

export function createMainWindow(options: WindowOptions): BrowserWindow {
  hardenSession(session.defaultSession, { cspHeader: !options.trusted.devServerUrl });
  const win = new BrowserWindow({
    width: 1440,
    height: 900,
    minWidth: 960,
    minHeight: 600,
    show: false,
    title: 'Image Studio',
    icon: options.icon,
    // The page's own background (theme.css --bg), so nothing flashes before the first paint.
    backgroundColor: nativeTheme.shouldUseDarkColors ? '#141414' : '#f5f5f4',
    webPreferences: {
      preload: options.preload,
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
      navigateOnDragDrop: false,
    },
  });
  win.once('ready-to-show', () => win.show());

  const contents = win.webContents;
  contents.on('will-navigate', (event, url) => {
    if (isTrustedRendererUrl(url, options.trusted) && url.split('#')[0] === contents.getURL().split('#')[0]) return;
    event.preventDefault();
  });
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  askBeforeLosingUnsavedWork(win, options.language);
  return win;
}

/**
 * The renderer holds a close or reload through `beforeunload` while it has unsaved work (its leave guard decides);
 * Electron would then keep the window silently. Ask instead; only "leave without saving" lets the unload go on.
 */
function askBeforeLosingUnsavedWork(win: BrowserWindow, language: () => Language): void {
  win.webContents.on('will-prevent-unload', (event) => {
    if (choseToLeave(dialog.showMessageBoxSync(win, leaveUnsavedBox(language())))) event.preventDefault();
  });
}

/**
 * Defence in depth for any web contents the app ever gets (a future window, a devtools-opened page): no new
 * windows, no webviews, no navigation. The main window adds its own handlers on top.
 */
export function lockDownAllWebContents(app: App): void {
  app.on('web-contents-created', (_event, contents) => {
    contents.setWindowOpenHandler(() => ({ action: 'deny' }));
    contents.on('will-attach-webview', (event) => event.preventDefault());
  });
}
