// createStudioApp: wires the main-process core (keychain, environments, API client, library, downloads,
// generation runner, local console, inspector, IPC handlers) for either host (Electron shell or harness).
import { mkdirSync } from 'node:fs';
import type { IpcEventName, IpcEvents } from '../../src-shared/ipc/index.ts';
import type { Language } from '../../src-shared/language.ts';
import { Environments } from '../environments/environments.ts';
import { SettingsStore } from '../environments/settings-store.ts';
import { Downloader } from '../files/downloader.ts';
import { cacheDirs, existingCachePath } from '../files/image-cache.ts';
import { createInspectorHandlers } from '../inspector/handlers.ts';
import { dispatch } from '../ipc/dispatch.ts';
import { screenValue } from '../domain/secret-screen.ts';
import { createIpcHandlers } from '../ipc/handlers.ts';
import { AppMeta } from '../library/app-meta.ts';
import { backupLibrary, openLibraryWithRecovery } from '../library/recovery.ts';
import { LibraryRepo } from '../library/library-repo.ts';
import { LocalConsole } from '../local-console/local-console.ts';
import { openSecretStore } from '../secrets/secret-store.ts';
import type { StudioContext } from '../ports/context.ts';
import { StartupNotices } from './startup-notices.ts';
import { GenerationRunner } from '../generation/runner.ts';
import { reconcileLocalTurns } from '../generation/reconcile.ts';
import { ExternalLinks, externalLinkAllowed } from '../domain/external-links.ts';
import { BatchRepo } from '../batch/batch-repo.ts';
import { BatchRunner } from '../batch/batch-runner.ts';
import { CatalogRepo } from '../batch/catalog-repo.ts';
import { createBatchHandlers } from '../batch/handlers.ts';
import type { CoreStudioApp, StudioAppOptions } from './studio-app.ts';

export const DEFAULT_KEYCHAIN_SERVICE = 'Image Studio';

/** Problems the user learns about through the UI; the log keeps the technical cause. */
function logTrouble(message: string, error: unknown): void {
  process.stderr.write(`image-studio: ${message}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
}

export async function createStudioApp(options: StudioAppOptions): Promise<CoreStudioApp> {
  const { dataDir, shell } = options;
  mkdirSync(dataDir, { recursive: true });
  const secrets = await openSecretStore({ backend: options.secretStore ?? 'keychain', service: options.keychainService ?? DEFAULT_KEYCHAIN_SERVICE });
  // Recovery of local data (docs/main-process.md): damaged files are kept aside and the user is told.
  const notices = new StartupNotices();
  const settings = new SettingsStore(dataDir);
  if (settings.recovery) notices.add(settings.recovery.code, settings.recovery.params);
  const { db, recovery: libraryRecovery } = openLibraryWithRecovery(dataDir);
  if (libraryRecovery) notices.add(libraryRecovery.code, libraryRecovery.params);
  const appMeta = new AppMeta(db);
  appMeta.rememberLocalAccount(settings.get().local);
  settings.onChange((s) => appMeta.rememberLocalAccount(s.local));
  const repo = new LibraryRepo(db);
  const dirs = cacheDirs(dataDir);
  const language = (): Language => settings.get().language;

  // Every secret main holds: what the keychain gave or took this run, and the local service's admin token.
  // Replies and events pass the one secret screen with these (domain/secret-screen.ts).
  let adminToken: () => string | null = () => null;
  const knownSecrets = (): Iterable<string> => {
    const token = adminToken();
    return token ? [...secrets.knownValues(), token] : secrets.knownValues();
  };
  const listeners = new Map<IpcEventName, Set<(payload: never) => void>>();
  const emit = <E extends IpcEventName>(event: E, payload: IpcEvents[E]): void => {
    const set = listeners.get(event);
    if (!set || set.size === 0) return;
    const screened = screenValue(payload, knownSecrets());
    for (const listener of set) {
      try {
        (listener as (p: IpcEvents[E]) => void)(screened);
      } catch {
        // A faulty listener must not break the core.
      }
    }
  };

  const environments = new Environments({
    settings,
    secrets,
    localService: options.localService,
    onServiceStatus: (s) => emit('service:status', { status: s.status, baseUrl: s.baseUrl, error: s.error }),
    rememberedLocalAccount: () => appMeta.localAccount(),
    onLocalAccountRecovered: (accountId) => notices.add('local_account_recovered', { accountId }),
  });
  adminToken = () => environments.localAdminToken();
  const testing = options.testing ?? {};
  const downloader = new Downloader({
    repo,
    dirs,
    clientFor: (env) => environments.client(env, language()),
    onProgress: (p) => emit('download:progress', p),
    onDone: (id) => emit('library:changed', { kind: 'image', id }),
    ...(testing.downloadConcurrency ? { concurrency: testing.downloadConcurrency } : {}),
    ...(testing.downloadRetryDelaysMs ? { retryDelaysMs: testing.downloadRetryDelaysMs } : {}),
  });
  const runner = new GenerationRunner({
    db,
    repo,
    shell,
    language,
    environment: () => settings.get().environment,
    clientFor: (env, overrides) => environments.client(env, language(), overrides),
    onProgress: (p) => emit('generation:progress', p),
    onTurnChanged: (id) => emit('library:changed', { kind: 'turn', id }),
    onImageChanged: (id) => emit('library:changed', { kind: 'image', id }),
    onImagesReady: (turn) => {
      if (!testing.pauseDownloads) downloader.enqueue(repo.pendingDownloads().filter((d) => d.turnId === turn.id));
    },
    dataDir,
    onTrouble: logTrouble,
    ...(testing.generation ? { policy: testing.generation } : {}),
    ...(testing.now ? { now: testing.now } : {}),
  });
  runner.recoverInterrupted();
  // Catalog production: batches run their jobs through the same runner (src-main/batch/).
  const batches = new BatchRepo(db);
  const catalog = new CatalogRepo(db);
  /** On Local, the account's balance (credits net of reservations); null on Remote or when the service cannot say. */
  const localBalance = async (): Promise<number | null> => {
    if (settings.get().environment !== 'local') return null;
    const admin = environments.localAdmin();
    const accountId = settings.get().local.accountId;
    if (!admin || !accountId) return null;
    return (await admin.account(accountId)).credits;
  };
  const batchChanged = (batchId: string, jobId?: string): void => emit('batch:changed', jobId ? { batchId, jobId } : { batchId });
  const batchRunner = new BatchRunner({
    repo,
    batches,
    runner,
    environment: () => settings.get().environment,
    balance: localBalance,
    language,
    changed: batchChanged,
    onTrouble: logTrouble,
    ...(testing.now ? { now: testing.now } : {}),
  });
  batchRunner.recover();
  let inspectorRegenerate: () => Promise<unknown> = async () => undefined;
  const localConsole = new LocalConsole({
    environments,
    settings,
    secrets,
    shell,
    repo,
    language,
    regenerateWebhookSecret: () => inspectorRegenerate(),
    // The inspector reads the secret from the store when it has none cached; a changed one it learns through
    // its own connect/regenerate paths.
    adoptWebhookSecret: (secret) => secrets.set('inspector:webhook-secret', secret),
    ...(testing.clipboardClearMs ? { clipboardClearMs: testing.clipboardClearMs } : {}),
  });

  const context: StudioContext = {
    dataDir,
    db,
    secrets,
    shell,
    emit,
    settings,
    language,
    localAdminClient: () => environments.localAdmin(),
    localAdmin: async () => {
      const admin = environments.localAdmin();
      const accountId = settings.get().local.accountId;
      const token = environments.localAdminToken();
      return admin && accountId && token ? { baseUrl: admin.baseUrl, adminToken: token, accountId } : null;
    },
    // The inspector's publication fetch uses the key too: the same checks as every API call (origin binding).
    currentApi: async () => {
      const env = settings.get().environment;
      return { ...(await environments.credentials(env)), environment: env };
    },
  };
  const inspector = createInspectorHandlers(context);
  const { ready: _ready, close: closeInspector, ...inspectorHandlers } = inspector;
  inspectorRegenerate = () => inspector.inspectorRegenerateLocal({});

  const handlers = createIpcHandlers({
    notices,
    settings,
    secrets,
    environments,
    runner,
    repo,
    dirs,
    shell,
    localConsole,
    inspector: inspectorHandlers,
    batch: createBatchHandlers({
      db,
      repo,
      catalog,
      batches,
      runner: batchRunner,
      dirs,
      shell,
      language,
      environment: () => settings.get().environment,
      balance: localBalance,
      changed: batchChanged,
      ...(testing.now ? { now: testing.now } : {}),
    }),
    emit,
    language,
    externalUrlAllowed: (url) => externalLinkAllowed(url, options.externalLinks ?? new ExternalLinks(), [environments.baseUrl('local'), environments.baseUrl('remote')]),
  });

  // The daily backup runs in the background (SQLite online backup, in steps); close() waits for it.
  const backedUp = backupLibrary(db, dataDir).catch((error: unknown) => logTrouble('could not back up the library', error));
  // The Local environment works with no set-up (DESIGN.md §1). A service that cannot start leaves the app
  // usable with Remote; its status says why.
  await environments.startLocal().catch(() => undefined);
  // Local turns a crash left "outcome unknown" are settled from the service (docs/main-process.md).
  await reconcileLocal().catch((error: unknown) => logTrouble('could not reconcile Local turns with the local service', error));
  if (!testing.pauseDownloads) downloader.resumePending();

  async function reconcileLocal(): Promise<void> {
    const admin = environments.localAdmin();
    const accountId = settings.get().local.accountId;
    if (!admin || !accountId) return;
    const report = await reconcileLocalTurns({ repo, runner, accountTurns: (since) => admin.accountTurns(accountId, since), now: Date.now, onTrouble: logTrouble });
    for (const id of [...report.failed, ...report.neverArrived]) emit('library:changed', { kind: 'turn', id });
  }

  let closed = false;
  return {
    invoke: (method, input) => dispatch(handlers, method, input, language(), knownSecrets),
    on: (event, listener) => {
      let set = listeners.get(event);
      if (!set) {
        set = new Set();
        listeners.set(event, set);
      }
      set.add(listener as (payload: never) => void);
      return () => set.delete(listener as (payload: never) => void);
    },
    imageFile: async (kind, imageId) => {
      const image = repo.getImage(imageId);
      if (!image || image.download !== 'done') return null;
      return existingCachePath(dirs, kind, image.id);
    },
    whenDownloadsIdle: () => downloader.whenIdle(),
    whenGenerationsSettled: async () => {
      await runner.settle();
      await batchRunner.settle();
    },
    close: async () => {
      if (closed) return;
      closed = true;
      downloader.close();
      await localConsole.close();
      await batchRunner.close();
      await runner.close();
      await closeInspector().catch(() => undefined);
      await environments.stop().catch(() => undefined);
      await backedUp;
      db.close();
    },
  };
}
