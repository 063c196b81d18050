// createStudioApp: the one composition root of main. It builds each room in dependency order and hands each
// what it needs (library data, environments, downloads, generation, batches, inspector, local console), merges
// their IPC handler tables, and gives either host (Electron shell or harness) the StudioApp seam.
import { mkdirSync } from 'node:fs';
import type { ImageKind } from '../../src-shared/ipc/index.ts';
import type { Language } from '../../src-shared/language.ts';
import { BatchRepo, createBatch, type Batch } from '../batch/index.ts';
import { Environments, SettingsStore, createSettingsHandlers } from '../environments/index.ts';
import { createExportHandlers } from '../export/index.ts';
import { Downloader, ThumbnailSheets, cacheDirs, createFileHandlers, existingCachePath, type CacheDirs } from '../files/index.ts';
import { GenerationRunner, bringBackSentTurns, createGenerationHandlers, reconcileLocalTurns } from '../generation/index.ts';
import { createInspectorHandlers, type InspectorContext, type InspectorHandlers } from '../inspector/index.ts';
import { dispatch, mergeHandlerTables } from '../ipc/index.ts';
import { AppMeta, LibraryBackups, LibraryRepo, PRIVATE_FOLDER, SendJournal, createLibraryHandlers, listBackups, narrowDataFolder, openLibraryWithRecovery, type LibraryDatabase } from '../library/index.ts';
import { LocalConsole, createLocalConsoleHandlers } from '../local-console/index.ts';
import type { Emit } from '../ports/events.ts';
import type { IpcHandlers } from '../ports/ipc-table.ts';
import { openSecretStore, type SecretStore } from '../secrets/index.ts';
import { createAppHandlers } from './app-handlers.ts';
import { ScreenedEvents } from './screened-events.ts';
import { StartupNotices, broughtBackParams, serviceRecoveryNotice } from './startup-notices.ts';
import type { CoreStudioApp, StudioAppOptions } from './studio-app.ts';

export const DEFAULT_KEYCHAIN_SERVICE = 'Image Studio';

/** Problems the user learns about through the UI; the log keeps the technical cause. */
function logTrouble(message: string, error: unknown): void {
  process.stderr.write(`image-studio: ${message}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
}

/** What main keeps on this machine: keychain, settings, library.db and the image cache. */
interface LocalData {
  secrets: SecretStore;
  notices: StartupNotices;
  settings: SettingsStore;
  db: LibraryDatabase;
  appMeta: AppMeta;
  repo: LibraryRepo;
  dirs: CacheDirs;
  language: () => Language;
}

/** Opens the local data; damaged files are kept aside and the user is told (docs/main-process.md "Recovery of local data"). */
async function openLocalData(options: StudioAppOptions): Promise<LocalData> {
  const { dataDir } = options;
  mkdirSync(dataDir, { recursive: true, mode: PRIVATE_FOLDER });
  narrowDataFolder(dataDir);
  const secrets = await openSecretStore({ backend: options.secretStore ?? 'keychain', service: options.keychainService ?? DEFAULT_KEYCHAIN_SERVICE });
  const notices = new StartupNotices();
  const settings = new SettingsStore(dataDir);
  if (settings.recovery) notices.add(settings.recovery.code, settings.recovery.params);
  const { db, recovery } = openLibraryWithRecovery(dataDir);
  if (recovery) notices.add(recovery.code, recovery.params);
  const appMeta = new AppMeta(db);
  appMeta.rememberLocalAccount(settings.get().local);
  settings.onChange((s) => appMeta.rememberLocalAccount(s.local));
  const language = (): Language => settings.get().language;
  return { secrets, notices, settings, db, appMeta, repo: new LibraryRepo(db), dirs: cacheDirs(dataDir), language };
}

function openEnvironments(options: StudioAppOptions, data: LocalData): Environments {
  options.localService.onRecovery?.((recovery) => {
    const notice = serviceRecoveryNotice(recovery);
    data.notices.add(notice.code, notice.params);
  });
  return new Environments({
    settings: data.settings,
    secrets: data.secrets,
    localService: options.localService,
    rememberedLocalAccount: () => data.appMeta.localAccount(),
    onLocalAccountRecovered: (accountId) => data.notices.add('local_account_recovered', { accountId }),
  });
}

/** Every secret main holds: what the keychain gave or took this run, and the local service's admin token. */
function knownSecrets(secrets: SecretStore, environments: Environments): Iterable<string> {
  const token = environments.localAdminToken();
  return token ? [...secrets.knownValues(), token] : secrets.knownValues();
}

/** On Local, the account's balance (credits net of reservations); null on Remote or when the service cannot say. */
async function localBalance(data: LocalData, environments: Environments): Promise<number | null> {
  if (data.settings.get().environment !== 'local') return null;
  const admin = environments.localAdmin();
  const accountId = data.settings.get().local.accountId;
  if (!admin || !accountId) return null;
  return (await admin.account(accountId)).credits;
}

/** What the inspector may touch (inspector/context.ts). */
function inspectorContext(options: StudioAppOptions, data: LocalData, environments: Environments, emit: Emit): InspectorContext {
  return {
    dataDir: options.dataDir,
    db: data.db,
    secrets: data.secrets,
    emit,
    language: data.language,
    localAdmin: async () => {
      const admin = environments.localAdmin();
      const accountId = data.settings.get().local.accountId;
      const token = environments.localAdminToken();
      return admin && accountId && token ? { baseUrl: admin.baseUrl, adminToken: token, accountId } : null;
    },
    // The inspector's publication fetch uses the key too: the same checks as every API call (origin binding).
    currentApi: async () => {
      const env = data.settings.get().environment;
      return { ...(await environments.credentials(env)), environment: env };
    },
  };
}

/** The rooms that do the work, each built from what it needs. */
interface Features {
  downloader: Downloader;
  runner: GenerationRunner;
  batch: Batch;
  inspector: InspectorHandlers;
  localConsole: LocalConsole;
  /** Generations a restore had lost, recorded again from the send journal, and their batch jobs. */
  broughtBack: { turnIds: string[]; jobIds: string[] };
}

function buildFeatures(options: StudioAppOptions, data: LocalData, environments: Environments, emit: Emit): Features {
  const { repo, settings, language } = data;
  const testing = options.testing ?? {};
  const clock = testing.now ? { now: testing.now } : {};
  const environment = () => settings.get().environment;
  const downloader = new Downloader({
    repo,
    dirs: data.dirs,
    clientFor: (env) => environments.client(env, language()),
    onProgress: (p) => emit('download:progress', p),
    onDone: (id) => emit('library:changed', { kind: 'image', id }),
    ...(testing.downloadConcurrency ? { concurrency: testing.downloadConcurrency } : {}),
    ...(testing.downloadRetryDelaysMs ? { retryDelaysMs: testing.downloadRetryDelaysMs } : {}),
  });
  const journal = new SendJournal(options.dataDir);
  const runner = new GenerationRunner({
    db: data.db,
    repo,
    shell: options.shell,
    language,
    environment,
    clientFor: (env, overrides) => environments.client(env, language(), overrides),
    onProgress: (p) => emit('generation:progress', p),
    onTurnChanged: (id) => emit('library:changed', { kind: 'turn', id }),
    onImageChanged: (id) => emit('library:changed', { kind: 'image', id }),
    onImagesReady: (turn) => {
      if (!testing.pauseDownloads) downloader.enqueue(repo.pendingDownloads().filter((d) => d.turnId === turn.id));
    },
    dataDir: options.dataDir,
    sendJournal: journal,
    onTrouble: logTrouble,
    ...(testing.generation ? { policy: testing.generation } : {}),
    ...clock,
  });
  // Requests sent since the backup a restored library came from are recorded again, never sent again.
  const relinked: string[] = [];
  const relinkJob = (jobId: string, turnId: string, sent: Parameters<BatchRepo['markSent']>[2]): boolean => {
    const linked = new BatchRepo(data.db).markSent(jobId, turnId, sent);
    if (linked) relinked.push(jobId);
    return linked;
  };
  const broughtBack = { turnIds: bringBackSentTurns({ db: data.db, repo, journal, relinkJob, onTrouble: logTrouble }), jobIds: relinked };
  forgetSendsBeforeBackups(journal, options.dataDir);
  runner.recoverInterrupted();
  // Catalog production: batches run their jobs through the same runner (src-main/batch/).
  const batch = createBatch({
    db: data.db,
    repo,
    runner,
    dirs: data.dirs,
    shell: options.shell,
    language,
    environment,
    balance: () => localBalance(data, environments),
    changed: (batchId, jobId) => emit('batch:changed', jobId ? { batchId, jobId } : { batchId }),
    onTrouble: logTrouble,
    ...clock,
  });
  const inspector = createInspectorHandlers(inspectorContext(options, data, environments, emit));
  const localConsole = new LocalConsole({
    environments,
    settings,
    secrets: data.secrets,
    shell: options.shell,
    repo,
    language,
    // The inspector keeps the webhook secret and its history; regenerating goes through it.
    regenerateWebhookSecret: () => inspector.inspectorRegenerateLocal({}),
    // The inspector reads the secret from the store when it has none cached; a changed one it learns through
    // its own connect/regenerate paths.
    adoptWebhookSecret: (secret) => data.secrets.set('inspector:webhook-secret', secret),
    ...(testing.clipboardClearMs ? { clipboardClearMs: testing.clipboardClearMs } : {}),
  });
  return { downloader, runner, batch, inspector, localConsole, broughtBack };
}

/** After a restore, the user is told what became of the generations sent since the backup (once reconciled). */
function noticeBroughtBack(data: LocalData, broughtBack: Features['broughtBack']): void {
  const batches = new BatchRepo(data.db);
  const batchIds = new Set(broughtBack.jobIds.map((id) => batches.getJob(id)?.batchId));
  const paused = [...batchIds].flatMap((id) => {
    const batch = id ? batches.getBatch(id) : null;
    return batch?.state === 'paused' ? [batch.name] : [];
  });
  const params = broughtBackParams(broughtBack.turnIds.map((id) => data.repo.getTurn(id)), paused);
  if (params) data.notices.add('sends_brought_back', params);
}

/** The journal keeps what any kept backup may lack: entries from a day before the oldest backup on. */
function forgetSendsBeforeBackups(journal: SendJournal, dataDir: string): void {
  const oldest = listBackups(dataDir).at(-1);
  if (!oldest) return;
  try {
    journal.keepFrom(Date.parse(oldest.takenAt) - 86_400_000);
  } catch (error) {
    logTrouble('could not shorten the send journal', error);
  }
}

/** One handler table from the rooms' tables (ipc/ checks that every method is answered exactly once). */
function handlerTable(options: StudioAppOptions, data: LocalData, environments: Environments, emit: Emit, f: Features): IpcHandlers {
  const { repo, dirs, settings, secrets, notices, language } = data;
  const { shell } = options;
  const { ready: _ready, close: _close, ...inspector } = f.inspector;
  return mergeHandlerTables(
    createAppHandlers({ notices, shell, environmentBaseUrls: () => [environments.baseUrl('local'), environments.baseUrl('remote')] }),
    createSettingsHandlers({ settings, secrets, environments, emit, language }),
    createGenerationHandlers(f.runner),
    createLibraryHandlers({ repo, emit, language, present: (turn) => f.runner.present(turn) }),
    createFileHandlers({ repo, dirs, shell, language }),
    createExportHandlers({ repo, dirs, shell, emit, language, boardImageIds: (boardId) => repo.boardImageIds(boardId) }),
    createLocalConsoleHandlers(f.localConsole, emit),
    inspector,
    f.batch.handlers,
  );
}

/** Local turns a crash left "outcome unknown" are settled from the service (docs/main-process.md). */
async function reconcileLocal(data: LocalData, environments: Environments, runner: GenerationRunner, emit: Emit): Promise<void> {
  const admin = environments.localAdmin();
  const accountId = data.settings.get().local.accountId;
  if (!admin || !accountId) return;
  const report = await reconcileLocalTurns({ repo: data.repo, runner, accountTurns: (since) => admin.accountTurns(accountId, since), now: Date.now, onTrouble: logTrouble });
  for (const id of [...report.failed, ...report.neverArrived]) emit('library:changed', { kind: 'turn', id });
}

export async function createStudioApp(options: StudioAppOptions): Promise<CoreStudioApp> {
  const data = await openLocalData(options);
  const environments = openEnvironments(options, data);
  // Replies and events pass the one secret screen with every secret main holds (domain/secret-screen.ts).
  const secretsNow = () => knownSecrets(data.secrets, environments);
  const events = new ScreenedEvents(secretsNow);
  environments.onServiceStatus((s) => events.emit('service:status', { status: s.status, baseUrl: s.baseUrl, error: s.error }));
  const features = buildFeatures(options, data, environments, events.emit);
  const handlers = handlerTable(options, data, environments, events.emit, features);
  const { downloader, runner, batch, inspector, localConsole } = features;

  // Backups run in the background (SQLite online backup, in steps): at start, after changes, and at quit.
  // A failed backup is told, not only logged; the next good one takes the notice away.
  data.notices.onChange(() => events.emit('app:notices-changed', {}));
  const backups = new LibraryBackups(data.db, options.dataDir, {
    onTrouble: logTrouble,
    onOutcome: (failure) => (failure ? data.notices.replace('library_backup_failed', { ...failure }) : data.notices.clear('library_backup_failed')),
  });
  void backups.start();
  // The Local environment works with no set-up (DESIGN.md §1). A service that cannot start leaves the app
  // usable with Remote; its status says why.
  await environments.startLocal().catch(() => undefined);
  await reconcileLocal(data, environments, runner, events.emit).catch((error: unknown) => logTrouble('could not reconcile Local turns with the local service', error));
  noticeBroughtBack(data, features.broughtBack);
  if (!options.testing?.pauseDownloads) downloader.resumePending();

  let closed = false;
  const imageFile = async (kind: ImageKind, imageId: string) => {
    const image = data.repo.getImage(imageId);
    if (!image || image.download !== 'done') return null;
    return existingCachePath(data.dirs, kind, image.id);
  };
  const sheets = new ThumbnailSheets((imageId) => imageFile('thumb', imageId));
  return {
    invoke: (method, input) => dispatch(handlers, method, input, data.language(), secretsNow),
    on: (event, listener) => events.on(event, listener),
    imageFile,
    imageSheet: (imageIds) => sheets.sheet(imageIds),
    whenDownloadsIdle: () => downloader.whenIdle(),
    whenGenerationsSettled: async () => {
      await runner.settle();
      await batch.runner.settle();
    },
    close: async () => {
      if (closed) return;
      closed = true;
      downloader.close();
      await localConsole.close();
      await batch.runner.close();
      await runner.close();
      await inspector.close().catch(() => undefined);
      await environments.stop().catch(() => undefined);
      await backups.close();
      data.db.close();
    },
  };
}
