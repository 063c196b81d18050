// The Electron implementation of DesktopShell (DESIGN.md §2 rule 4): dialogs, drag-out, notifications,
// openExternal and the clipboard. Everything else in main only sees the interface.
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { app, clipboard, dialog, nativeImage, Notification, shell, type BrowserWindow } from 'electron';
import type { ChooseFolderRequest, DesktopShell, SaveDialogRequest } from '../ports/desktop-shell.ts';
import { externalLinkKey } from '../domain/external-links.ts';

export interface ElectronShellOptions {
  window: () => BrowserWindow | null;
  /** Used as the drag icon when the image's own thumbnail is missing. */
  fallbackIcon: string;
}

export class ElectronDesktopShell implements DesktopShell {
  private readonly options: ElectronShellOptions;

  constructor(options: ElectronShellOptions) {
    this.options = options;
  }

  async showSaveDialog(request: SaveDialogRequest): Promise<string | null> {
    const win = this.options.window();
    const defaultPath = isAbsolute(request.defaultPath) ? request.defaultPath : join(picturesFolder(), request.defaultPath);
    const dialogOptions = { title: request.title, defaultPath, filters: request.filters, properties: ['createDirectory' as const, 'showOverwriteConfirmation' as const] };
    const result = win ? await dialog.showSaveDialog(win, dialogOptions) : await dialog.showSaveDialog(dialogOptions);
    return result.canceled || !result.filePath ? null : result.filePath;
  }

  async chooseFolder(request: ChooseFolderRequest): Promise<string | null> {
    const win = this.options.window();
    const defaultPath = request.defaultPath && isAbsolute(request.defaultPath) ? request.defaultPath : picturesFolder();
    // createDirectory: macOS offers "New Folder"; Windows and Linux choosers always do.
    const dialogOptions = { title: request.title, defaultPath, properties: ['openDirectory' as const, 'createDirectory' as const] };
    const result = win ? await dialog.showOpenDialog(win, dialogOptions) : await dialog.showOpenDialog(dialogOptions);
    return result.canceled ? null : (result.filePaths[0] ?? null);
  }

  startDrag(files: string[], iconPath: string): void {
    const win = this.options.window();
    const [first] = files;
    if (!win || first === undefined) return;
    // An empty icon makes startDrag throw on macOS: fall back to the app icon.
    let icon = existsSync(iconPath) ? nativeImage.createFromPath(iconPath) : nativeImage.createEmpty();
    if (icon.isEmpty()) icon = nativeImage.createFromPath(this.options.fallbackIcon);
    icon = icon.resize({ width: 96 });
    win.webContents.startDrag({ file: first, files, icon });
  }

  notify(title: string, body: string): void {
    if (!Notification.isSupported()) return;
    const notification = new Notification({ title, body });
    notification.on('click', () => {
      const win = this.options.window();
      if (!win) return;
      if (win.isMinimized()) win.restore();
      win.show();
      win.focus();
    });
    notification.show();
  }

  isWindowFocused(): boolean {
    const win = this.options.window();
    return win !== null && !win.isDestroyed() && win.isFocused();
  }

  async openExternal(url: string): Promise<void> {
    // The core passes only links on its environments' own origins; nothing but plain http(s) ever reaches
    // the OS (no file:, smb:, custom schemes).
    if (externalLinkKey(url) === null) throw new Error(`Refused to open a link that is not plain http(s): ${url}`);
    await shell.openExternal(url);
  }

  readonly clipboardReachesUser = true;

  writeClipboard(text: string): Promise<void> {
    return clipboard.writeText(text);
  }

  readClipboard(): Promise<string> {
    return clipboard.readText();
  }

  clearClipboard(): void {
    clipboard.clear();
  }
}

function picturesFolder(): string {
  try {
    return app.getPath('pictures');
  } catch {
    return homedir();
  }
}
