// The seam between the main-process core (keychain, client, library, files, IPC handlers) and its two hosts:
// the Electron shell (src-main/electron/) and the browser harness (src-main/harness/). Both create the app
// with createStudioApp (src-main/app/create-app.ts) and route IPC calls and events through this interface.
import type { IpcResult } from '../../src-shared/ipc/contract.ts';
import type { ImageKind, IpcEventName, IpcEvents, IpcMethodName } from '../../src-shared/ipc/index.ts';
import type { DesktopShell } from '../ports/desktop-shell.ts';
import type { ThumbnailSheet } from '../files/index.ts';
import type { GenerationPolicy } from '../generation/index.ts';
import type { LocalServiceHost } from '../ports/local-service-host.ts';

export interface StudioAppOptions {
  /** The app data folder: library database, image cache, settings. */
  dataDir: string;
  shell: DesktopShell;
  /**
   * How the bundled local service is run: in Electron a utilityProcess, in the harness and tests a child
   * process or in-process server. Resolves with its base URL and admin token when it is ready.
   */
  localService: LocalServiceHost;
  /** Overrides for tests: the secret store backend ("keychain" by default) and its service name. */
  secretStore?: 'keychain' | 'memory';
  keychainService?: string;
  /** Test and benchmark knobs; the app never sets these. */
  testing?: {
    /** Shorter timeouts and back-off for tests (e.g. a generate timeout of 2 s against the latency fault). */
    generation?: Partial<GenerationPolicy>;
    /** Leave downloads pending (to prove they resume at the next start). */
    pauseDownloads?: boolean;
    downloadConcurrency?: number;
    /** The quick waits before a failed download is tried again (2 s, 10 s, 30 s in the app; then doubling up to 5 minutes). */
    downloadRetryDelaysMs?: number[];
    /** How long a copied key stays on the clipboard (60 s in the app). */
    clipboardClearMs?: number;
    /** The clock of the generation runner (back-off waits), so a test can pass a wait without sleeping. */
    now?: () => number;
  };
}

export interface StudioApp {
  /** Calls one IPC method: parses the input with the contract's schema, never throws. */
  invoke(method: IpcMethodName, input: unknown): Promise<IpcResult<unknown>>;
  /** Subscribes to main → renderer events. */
  on<E extends IpcEventName>(event: E, listener: (payload: IpcEvents[E]) => void): () => void;
  /** The file behind an image URL of the app's protocol (thumbnail or full PNG), or null. */
  imageFile(kind: ImageKind, imageId: string): Promise<string | null>;
  /** Several downloaded images' thumbnails side by side in one image (thumbnail-sheet.ts), for an image URL of kind
   *  `sheet`; an image without a thumbnail on disk gets a blank tile. */
  imageSheet(imageIds: readonly string[]): Promise<ThumbnailSheet>;
  close(): Promise<void>;
}

/** What createStudioApp returns: the seam plus waits that tests and benchmarks use. */
export interface CoreStudioApp extends StudioApp {
  /** Resolves when no download is queued or running. */
  whenDownloadsIdle(): Promise<void>;
  /** Resolves when no generation is running. */
  whenGenerationsSettled(): Promise<void>;
}
