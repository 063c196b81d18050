// Handlers for every method of the IPC contract (src-shared/ipc). Inputs arrive parsed (dispatch.ts);
// handlers delegate to the services and never return a key, secret or admin token.
import type { SettingsState } from '../../src-shared/ipc/settings.ts';
import { StudioError, renderError } from '../domain/errors.ts';
import { fromServiceAnswer } from '../generation/runner.ts';
import type { GenerationRunner } from '../generation/runner.ts';
import type { DesktopShell } from '../ports/desktop-shell.ts';
import type { Environments } from '../environments/environments.ts';
import type { SettingsStore } from '../environments/settings-store.ts';
import { createExporter } from '../export/exporter.ts';
import { existingCachePath, type CacheDirs } from '../files/image-cache.ts';
import type { InspectorHandlers } from '../inspector/handlers.ts';
import type { createBatchHandlers } from '../batch/handlers.ts';
import { isValidCursor, type LibraryRepo } from '../library/library-repo.ts';
import type { LocalConsole } from '../local-console/local-console.ts';
import { problemText, type SecretStore } from '../secrets/secret-store.ts';
import type { Emit } from '../ports/context.ts';
import type { IpcHandlers } from './dispatch.ts';
import type { StartupNotices } from '../app/startup-notices.ts';
import type { Language } from '../../src-shared/language.ts';


export interface HandlerServices {
  settings: SettingsStore;
  secrets: SecretStore;
  environments: Environments;
  runner: GenerationRunner;
  repo: LibraryRepo;
  dirs: CacheDirs;
  shell: DesktopShell;
  localConsole: LocalConsole;
  inspector: Omit<InspectorHandlers, 'ready' | 'close'>;
  /** Catalog production: products, shot lists, batches (src-main/batch/handlers.ts). */
  batch: ReturnType<typeof createBatchHandlers>;
  emit: Emit;
  language: () => Language;
  /** http(s) URLs the app itself made and may open in the browser. */
  externalUrlAllowed: (url: string) => boolean;
  /** What this start has to tell the user (damaged files kept aside, backups restored). */
  notices: StartupNotices;
}

export async function settingsState(s: Pick<HandlerServices, 'settings' | 'secrets' | 'environments'>): Promise<SettingsState> {
  const stored = s.settings.get();
  const local = s.environments.localState;
  const status = s.secrets.status();
  return {
    language: stored.language,
    theme: stored.theme,
    environment: stored.environment,
    environments: {
      local: { ...(await s.environments.info('local')), serviceStatus: local.status, serviceError: local.error },
      remote: await s.environments.info('remote'),
    },
    keychain: { available: status.available, backend: status.backend, problem: problemText(status, stored.language) },
  };
}

export function createIpcHandlers(s: HandlerServices): IpcHandlers {
  const state = () => settingsState(s);
  const changed = async (): Promise<SettingsState> => {
    s.emit('settings:changed', {});
    return state();
  };
  const notFound = (what: 'image' | 'session' | 'turn', id: string): never => {
    throw new StudioError('not_found', { what, id });
  };
  const fullPath = (imageId: string): string => {
    const image = s.repo.getImage(imageId) ?? notFound('image', imageId);
    const file = image.download === 'done' ? existingCachePath(s.dirs, 'full', image.id) : null;
    if (!file) {
      throw new StudioError('file_not_ready', { imageId });
    }
    return file;
  };
  const exporter = createExporter({
    repo: s.repo,
    dirs: s.dirs,
    shell: s.shell,
    emit: s.emit,
    language: s.language,
    boardImageIds: (boardId) => s.repo.boardImageIds(boardId),
  });

  return {
    ...s.inspector,
    ...s.batch,

    // ---- this start's notices (docs/main-process.md "Recovery of local data") ----
    appNotices: async () => s.notices.list(),
    appDismissNotice: async ({ id }) => s.notices.dismiss(id),

    // ---- settings and environments ----
    settingsGet: state,
    settingsSetLanguage: async ({ language }) => {
      s.settings.update((d) => void (d.language = language));
      return changed();
    },
    settingsSetTheme: async ({ theme }) => {
      s.settings.update((d) => void (d.theme = theme));
      return changed();
    },
    environmentSelect: async ({ environment }) => {
      s.settings.update((d) => void (d.environment = environment));
      return changed();
    },
    environmentSetRemote: async ({ baseUrl }) => {
      await s.environments.setRemoteBaseUrl(baseUrl);
      return changed();
    },
    keySet: async ({ environment, key, memoryOnly }) => {
      await s.environments.setKey(environment, key, memoryOnly ?? false);
      return changed();
    },
    keyClear: async ({ environment }) => {
      await s.environments.clearKey(environment);
      return changed();
    },
    keyTest: async ({ environment }) => {
      const started = Date.now();
      const client = await s.environments.client(environment, s.language());
      const result = await client.testKey();
      const latencyMs = Date.now() - started;
      if (result.ok) return { ok: true, latencyMs, error: null };
      if (result.kind === 'network') {
        // The designer reads a sentence in the UI language; the socket error stays as the technical cause.
        const code = result.failure === 'unreachable' ? 'connection_unreachable' : 'connection_no_answer';
        const error = renderError({ code, params: { cause: result.message }, details: { failure: result.failure } }, s.language());
        return { ok: false, latencyMs, error: { ...error, code: 'service_unreachable' } };
      }
      return { ok: false, latencyMs, error: renderError(fromServiceAnswer(result.error, s.language()), s.language()) };
    },

    // ---- generation ----
    generateStart: (input) => s.runner.start(input),
    generateCancel: async ({ turnId }) => s.runner.cancel(turnId),
    generateStopWaiting: async ({ turnId }) => s.runner.stopWaiting(turnId),
    generateRetry: ({ turnId }) => s.runner.retry(turnId),
    generateRunning: async () => s.runner.runningTurns(),

    // ---- library and files ----
    libraryGallery: async ({ filters, cursor, limit }) => {
      if (!isValidCursor(cursor)) throw new StudioError('invalid_input', { field: 'cursor' });
      return s.repo.gallery(filters, cursor, limit);
    },
    librarySessions: async ({ cursor, limit }) => {
      if (!isValidCursor(cursor)) throw new StudioError('invalid_input', { field: 'cursor' });
      return s.repo.listSessions(cursor, limit);
    },
    libraryGetSession: async ({ sessionId }) => s.repo.sessionSummary(sessionId) ?? notFound('session', sessionId),
    libraryListTurns: async ({ sessionId }) => {
      if (!s.repo.sessionRow(sessionId)) notFound('session', sessionId);
      return s.repo.listTurns(sessionId).map((t) => s.runner.present(t));
    },
    libraryGetTurn: async ({ turnId }) => {
      const turn = s.repo.getTurn(turnId);
      return turn ? s.runner.present(turn) : notFound('turn', turnId);
    },
    libraryGetImage: async ({ imageId }) => {
      const detail = s.repo.imageDetail(imageId);
      return detail ? { ...detail, turn: s.runner.present(detail.turn) } : notFound('image', imageId);
    },
    libraryStar: async ({ imageId, starred }) => {
      if (!s.repo.setStarred(imageId, starred)) notFound('image', imageId);
      s.emit('library:changed', { kind: 'image', id: imageId });
      return s.repo.getImage(imageId) ?? notFound('image', imageId);
    },
    // ---- culling, boards and the library at scale (docs/main-process.md "Culling, boards and the library at scale") ----
    libraryMark: async ({ imageIds, starred, rating, rejected }) => {
      const images = s.repo.mark(imageIds, { starred, rating, rejected });
      const ids = images.map((i) => i.id);
      s.emit('library:changed', { kind: 'image', id: ids[0] as string, ids });
      return images;
    },
    libraryNeighbors: async ({ filters, imageId }) => s.repo.neighbors(filters, imageId) ?? notFound('image', imageId),
    libraryImageIds: async ({ filters, limit }) => s.repo.imageIds(filters, limit),
    boardList: async () => s.repo.boards.list(),
    boardCreate: async ({ name }) => {
      const board = s.repo.boards.create(name, Date.now());
      s.emit('library:changed', { kind: 'board', id: board.id });
      return board;
    },
    boardRename: async ({ boardId, name }) => {
      const board = s.repo.boards.rename(boardId, name, Date.now());
      s.emit('library:changed', { kind: 'board', id: boardId });
      return board;
    },
    boardDelete: async ({ boardId }) => {
      s.repo.boards.delete(boardId);
      s.emit('library:changed', { kind: 'board', id: boardId });
      return { deleted: true as const };
    },
    boardAdd: async ({ boardId, imageIds }) => {
      const board = s.repo.boards.add(boardId, imageIds, Date.now(), (ids) => s.repo.requireImages(ids));
      s.emit('library:changed', { kind: 'board', id: boardId, ids: [...new Set(imageIds)] });
      return board;
    },
    boardRemove: async ({ boardId, imageIds }) => {
      const board = s.repo.boards.remove(boardId, imageIds, Date.now(), (ids) => s.repo.requireImages(ids));
      s.emit('library:changed', { kind: 'board', id: boardId, ids: [...new Set(imageIds)] });
      return board;
    },
    smartBoardList: async () => s.repo.boards.smartList(),
    smartBoardSave: async (input) => {
      const board = s.repo.boards.smartSave(input, Date.now());
      s.emit('library:changed', { kind: 'smart_board', id: board.id });
      return board;
    },
    smartBoardDelete: async ({ id }) => {
      s.repo.boards.smartDelete(id);
      s.emit('library:changed', { kind: 'smart_board', id });
      return { deleted: true as const };
    },
    libraryRenameSession: async ({ sessionId, title }) => {
      if (!s.repo.renameSession(sessionId, title)) notFound('session', sessionId);
      s.emit('library:changed', { kind: 'session', id: sessionId });
      return s.repo.sessionSummary(sessionId) ?? notFound('session', sessionId);
    },
    filesExport: async ({ imageId }) => {
      const file = fullPath(imageId);
      const image = s.repo.getImage(imageId);
      const target = await s.shell.showSaveDialog({
        title: s.language() === 'en' ? 'Export image' : '导出图片',
        defaultPath: image?.filename ?? `${imageId}.png`,
        filters: [{ name: 'PNG', extensions: ['png'] }],
      });
      if (!target) return { path: null };
      const { copyFile } = await import('node:fs/promises');
      await copyFile(file, target);
      return { path: target };
    },
    // ---- export (docs/main-process.md "Export") ----
    exportRun: (input) => exporter.run(input),
    filesStartDrag: async ({ imageIds }) => {
      const files = imageIds.map(fullPath);
      const icon = existingCachePath(s.dirs, 'thumb', imageIds[0] as string) ?? (files[0] as string);
      s.shell.startDrag(files, icon);
      return { started: true };
    },
    shellOpenExternal: async ({ url }) => {
      if (!s.externalUrlAllowed(url)) {
        throw new StudioError('link_not_allowed');
      }
      await s.shell.openExternal(url);
      return { opened: true };
    },

    // ---- local console ----
    localStatus: () => s.localConsole.status(),
    localTopUp: ({ credits }) => s.localConsole.topUp(credits),
    localUpdateAccount: (input) => s.localConsole.updateAccount(input),
    localCreateKey: async (input) => {
      const result = await s.localConsole.createKey(input);
      if (result.usedByApp) s.emit('settings:changed', {});
      return result;
    },
    localRevokeKey: ({ keyId }) => s.localConsole.revokeKey(keyId),
    localSetKeyRateLimit: ({ keyId, ratePer24h }) => s.localConsole.setKeyRateLimit(keyId, ratePer24h),
    localSetFaults: (faults) => s.localConsole.setFaults(faults),
    localAdvanceClock: ({ seconds }) => s.localConsole.advanceClock(seconds),
    localSetSettings: (settings) => s.localConsole.setSettings(settings),
    localWebhookSet: ({ url, enabled }) => s.localConsole.webhookSet(url, enabled),
    localWebhookRegenerate: () => s.localConsole.webhookRegenerate(),
    localWebhookPing: () => s.localConsole.webhookPing(),
    localPackCreate: ({ styleCode, imageIds }) => s.localConsole.packCreate(styleCode, imageIds),
    localPackUpdate: (input) => s.localConsole.packUpdate(input),
    localPackPublish: ({ packId, idempotencyKey }) => s.localConsole.packPublish(packId, idempotencyKey),
    localDeleteImage: ({ imageId }) => s.localConsole.deleteImage(imageId),
  };
}
