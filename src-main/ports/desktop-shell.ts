// DESIGN.md §2 rule 4: everything Electron-only sits behind this one interface, so every other main-process
// module runs and is tested in plain Node. The Electron implementation lives in src-main/electron/; the
// browser harness uses a recording implementation.

export interface SaveDialogRequest {
  title: string;
  defaultPath: string;
  filters: Array<{ name: string; extensions: string[] }>;
}

export interface ChooseFolderRequest {
  title: string;
  /** Where the chooser opens; the Pictures folder when omitted. */
  defaultPath?: string;
}

export interface DesktopShell {
  /** Asks where to save; resolves null when the user cancels. */
  showSaveDialog(request: SaveDialogRequest): Promise<string | null>;
  /** Asks for a folder (new folders may be created in the chooser); resolves null when the user cancels. */
  chooseFolder(request: ChooseFolderRequest): Promise<string | null>;
  /** Starts an OS drag of files out of the window (webContents.startDrag). */
  startDrag(files: string[], iconPath: string): void;
  /** An OS notification, e.g. when a long generation ends while the window is in the background. */
  notify(title: string, body: string): void;
  /** Whether the app window is focused (notifications are for the background only). */
  isWindowFocused(): boolean;
  /** Opens an http(s) link the app itself made, in the user's browser. */
  openExternal(url: string): Promise<void>;
  /**
   * Whether writeClipboard reaches a clipboard the user can paste from. The harness has none (its page runs
   * in a browser the shell cannot reach), so a new key is shown once in its dialog instead.
   */
  readonly clipboardReachesUser: boolean;
  /** Puts text on the clipboard (used for a newly created key, which the renderer must not receive). */
  writeClipboard(text: string): Promise<void>;
  /** The clipboard's text now (to clear a key only while it is still there). */
  readClipboard(): Promise<string>;
  clearClipboard(): void;
}

/** One call the recording shell saw, for tests and the harness. */
export type ShellCall =
  | { kind: 'showSaveDialog'; request: SaveDialogRequest }
  | { kind: 'chooseFolder'; request: ChooseFolderRequest }
  | { kind: 'startDrag'; files: string[]; iconPath: string }
  | { kind: 'notify'; title: string; body: string }
  | { kind: 'openExternal'; url: string }
  | { kind: 'writeClipboard'; length: number }
  | { kind: 'clearClipboard' };

/**
 * A DesktopShell that records every call instead of touching the OS. Save dialogs answer with the path
 * `saveTo` returns (by default a file in `saveDir`), so exports can be checked on disk.
 */
export class RecordingShell implements DesktopShell {
  readonly calls: ShellCall[] = [];
  focused = true;
  /** Clipboard text is kept here for tests of the main process only; it never goes to the renderer. */
  clipboard = '';
  /** What chooseFolder answers (the harness sets it through POST /harness/shell-answers); null = cancelled. */
  chooseFolderAnswer: string | null = null;
  readonly clipboardReachesUser: boolean;
  private readonly saveTo: (request: SaveDialogRequest) => string | null;

  /** `clipboardReachesUser: false` is the harness: nothing it writes reaches the user's clipboard. */
  constructor(saveTo: (request: SaveDialogRequest) => string | null = () => null, options: { clipboardReachesUser?: boolean } = {}) {
    this.saveTo = saveTo;
    this.clipboardReachesUser = options.clipboardReachesUser ?? true;
  }

  showSaveDialog(request: SaveDialogRequest): Promise<string | null> {
    this.calls.push({ kind: 'showSaveDialog', request });
    return Promise.resolve(this.saveTo(request));
  }
  chooseFolder(request: ChooseFolderRequest): Promise<string | null> {
    this.calls.push({ kind: 'chooseFolder', request });
    return Promise.resolve(this.chooseFolderAnswer);
  }
  startDrag(files: string[], iconPath: string): void {
    this.calls.push({ kind: 'startDrag', files, iconPath });
  }
  notify(title: string, body: string): void {
    this.calls.push({ kind: 'notify', title, body });
  }
  isWindowFocused(): boolean {
    return this.focused;
  }
  openExternal(url: string): Promise<void> {
    this.calls.push({ kind: 'openExternal', url });
    return Promise.resolve();
  }
  writeClipboard(text: string): Promise<void> {
    this.clipboard = text;
    this.calls.push({ kind: 'writeClipboard', length: text.length });
    return Promise.resolve();
  }
  readClipboard(): Promise<string> {
    return Promise.resolve(this.clipboard);
  }
  clearClipboard(): void {
    this.clipboard = '';
    this.calls.push({ kind: 'clearClipboard' });
  }
}
