// The whole IPC contract: every method the renderer may call and every event main may send.
import type { z } from 'zod';
import { appMethods } from './app.ts';
import { batchMethods } from './batch.ts';
import { batchRerunMethods } from './batch-reruns.ts';
import { batchBoardMethods } from './batch-board.ts';
import { exportMethods, type ExportProgress } from './export.ts';
import type { IpcMethod, IpcResult, MethodInput, MethodOutput } from './contract.ts';
import { generationMethods, type GenerationProgress } from './generation.ts';
import { inspectorMethods } from './inspector.ts';
import { libraryMethods } from './library.ts';
import { localConsoleMethods } from './local-console.ts';
import { settingsMethods, type ServiceStatus } from './settings.ts';

export const IPC_METHODS = {
  ...settingsMethods,
  ...generationMethods,
  ...libraryMethods,
  ...localConsoleMethods,
  ...inspectorMethods,
  ...appMethods,
  ...exportMethods,
  ...batchMethods,
  ...batchRerunMethods,
  ...batchBoardMethods,
} as const;

export type IpcMethods = typeof IPC_METHODS;
export type IpcMethodName = keyof IpcMethods;

export interface DownloadProgress {
  imageId: string;
  turnId: string;
  receivedBytes: number;
  totalBytes: number | null;
  state: 'downloading' | 'done' | 'failed';
  error?: string;
  /** On `failed`: how many attempts failed in a row in this run. */
  attempts?: number;
  /** On `failed` when the download will be tried again by itself: when (epoch ms). Absent: not in this run. */
  nextAttemptAt?: number;
}

/** Main → renderer events, named `domain:event`; they never carry secrets. */
export interface IpcEvents {
  'generation:progress': GenerationProgress;
  'download:progress': DownloadProgress;
  /**
   * Something in the library changed. `board` / `smart_board`: a board (its name, its images) or a smart board
   * was created, changed or deleted. `ids`: a batch (library:mark) names every image it changed; `id` is then
   * the first of them.
   */
  'library:changed': { kind: 'turn' | 'image' | 'session' | 'board' | 'smart_board'; id: string; ids?: string[] };
  'service:status': { status: ServiceStatus; baseUrl: string | null; error: string | null };
  'inspector:delivery': { requestId: string; deliveryId: string | null };
  'settings:changed': Record<string, never>;
  'export:progress': ExportProgress;
  /** A batch changed (state, pause, a job's status); `jobId` names the job when one changed. */
  'batch:changed': { batchId: string; jobId?: string };
  /** The notices `app:notices` answers changed after start (a backup failed, or succeeded after a failure). */
  'app:notices-changed': Record<string, never>;
}
export type IpcEventName = keyof IpcEvents;
export const IPC_EVENT_NAMES = [
  'generation:progress',
  'download:progress',
  'library:changed',
  'service:status',
  'inspector:delivery',
  'settings:changed',
  'export:progress',
  'batch:changed',
  'app:notices-changed',
] as const satisfies readonly IpcEventName[];

export type ImageKind = 'thumb' | 'full';
/** What an image URL can name: one image's file, or a sheet of several images' thumbnails side by side (its id
 *  the images' ids joined by dots; main's files/thumbnail-sheet.ts). */
export type ImageUrlKind = ImageKind | 'sheet';

/**
 * The bridge (the preload, and the harness's client like it) asks main for the settings as the window opens; the
 * renderer's first settingsGet() without input within this time takes that answer (docs/decisions.md "Start-up").
 */
export const EARLY_SETTINGS_MS = 10_000;

/** What the preload exposes as window.api (and the harness's client builds the same way). */
export type StudioApi = {
  [K in IpcMethodName]: (input: MethodInput<IpcMethods[K]>) => Promise<IpcResult<MethodOutput<IpcMethods[K]>>>;
} & {
  on<E extends IpcEventName>(event: E, listener: (payload: IpcEvents[E]) => void): () => void;
  /** URL of an image file (or a sheet of thumbnails) through the app's one protocol (DESIGN.md §2 rule 5). */
  imageUrl(kind: ImageUrlKind, imageId: string): string;
};

/** Looks a method up by channel, for the handler side. */
export function methodByChannel(channel: string): { name: IpcMethodName; method: IpcMethod<z.ZodType, unknown> } | null {
  for (const [name, m] of Object.entries(IPC_METHODS)) {
    if (m.channel === channel) return { name: name as IpcMethodName, method: m as IpcMethod<z.ZodType, unknown> };
  }
  return null;
}

export type { IpcError, IpcResult } from './contract.ts';
export * from './generation.ts';
export * from './library.ts';
export * from './local-console.ts';
export * from './settings.ts';
export * from './inspector.ts';
export * from './app.ts';
export * from './export.ts';
export * from './batch.ts';
export * from './batch-reruns.ts';
export * from './batch-board.ts';
