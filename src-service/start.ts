// The start-up API of the local service: the only module main may import (DESIGN.md §2 rule 1).
// Used by the CLI, the Electron utilityProcess entry, tests and benchmarks.
import { readdirSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { DatabaseSync } from 'node:sqlite';
import { join, resolve } from 'node:path';
import { getRequestListener } from '@hono/node-server';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { Scenario } from '../src-shared/admin.ts';
import { API_SCOPES } from '../src-shared/api.ts';
import { isFilename, randomAlphanumeric } from '../src-shared/ids.ts';
import { createApp } from './app.ts';
import { createClock, type Clock } from './clock.ts';
import type { Lifecycle, ServiceDeps, ServiceTestingHooks } from './deps.ts';
import { createFaultStore } from './faults.ts';
import { createFileStore } from './files.ts';
import { lockDataFolder, type DataFolderLock } from './lock.ts';
import { createAdminAuth, createApiKeyAuth, createRateLimiter, startUsageFlush, type RateLimiter } from './http/auth.ts';
import { fail, languageOf } from './http/errors.ts';
import { answerClientErrors, unbuildableRequestAnswer } from './http/transport.ts';
import { createDirectLinkApp } from './routes/files.ts';
import { createLogger, type Logger } from './logger.ts';
import { scheduleServiceBackups, type BackupSchedule } from './recovery/backups.ts';
import { openServiceDatabase, type ServiceRecovery } from './recovery/index.ts';
import { createApiKeysRepo } from './repos/api-keys.ts';
import { createImagesRepo } from './repos/images.ts';
import { createTurnsRepo } from './repos/turns.ts';
import { createAccountService } from './services/accounts.ts';
import { createCreditService } from './services/credits.ts';
import { createRequestLedger, type RequestLedger } from './services/request-ledger.ts';
import { createSnapshotStore, type LiveState } from './services/snapshots.ts';
import { createWebhookService, type WebhookService } from './services/webhooks.ts';
import { createSettingsStore, type SettingsStore } from './settings.ts';

export interface StartServiceOptions {
  host?: string;
  /** 0 picks a free port. Default 8420. */
  port?: number;
  dataDir: string;
  adminToken?: string;
  /** Create an account with 10000 credits, older than 7 days, and a key with every scope. */
  seed?: boolean;
  /** The fault scenario to start with (`--scenario FILE`, docs/local-service.md "Fault scenarios"). */
  scenario?: Scenario;
  /** `--import PATH`: the state to start with, an export or snapshot folder (or its service.db), replacing the folder's. */
  importFrom?: string;
  /** `--export-on-exit PATH`: the folder the state is written to when the service stops. */
  exportOnExit?: string;
  logLevel?: string;
  logger?: Logger;
  /** Slow-client limits (slowloris); defaults in DEFAULT_TIMEOUTS. Tests shorten them. */
  timeouts?: Partial<ServiceTimeouts>;
  /** Test seams; the CLI never sets these. */
  testing?: ServiceTestingHooks;
}

export interface ServiceTimeouts {
  /** All request headers must arrive within this time (node:http headersTimeout). */
  headersMs: number;
  /**
   * The whole request (headers and body) must arrive within this time. It stops counting once the body is
   * in, so a generation waiting up to 5 minutes for its answer (spec §1) is never cut off.
   */
  requestMs: number;
  /** How often node:http checks the two limits above. */
  checkIntervalMs: number;
}

export const DEFAULT_TIMEOUTS: ServiceTimeouts = { headersMs: 30_000, requestMs: 60_000, checkIntervalMs: 5_000 };

export {
  DataFolderInUseError,
  DATA_FOLDER_IN_USE_EXIT_CODE,
  freeDataFolder,
  probeDataFolder,
  readLockHolder,
  type FreeDataFolderResult,
  type LockHolder,
} from './lock.ts';

export { readServiceRecoveries, type ServiceRecovery } from './recovery/index.ts';

export interface RunningService {
  baseUrl: string;
  /** The direct-link origin (a second port of the same host) where GET /api/file's 302 points. */
  directBaseUrl?: string;
  adminToken: string;
  accountId?: string;
  apiKey?: string;
  close(): Promise<void>;
}

/** The ready object as the CLI prints it (DESIGN.md §4). */
export function readyLine(service: RunningService): Record<string, string> {
  return {
    event: 'ready',
    base_url: service.baseUrl,
    admin_token: service.adminToken,
    ...(service.directBaseUrl ? { direct_url: service.directBaseUrl } : {}),
    ...(service.accountId ? { account_id: service.accountId } : {}),
    ...(service.apiKey ? { api_key: service.apiKey } : {}),
  };
}

function removeOrphanFiles(db: DatabaseSync, dir: string): number {
  const known = createImagesRepo(db).allFilenames();
  let removed = 0;
  for (const name of readdirSync(dir)) {
    if (isFilename(name) && !known.has(name)) {
      rmSync(join(dir, name), { force: true });
      removed++;
    }
  }
  return removed;
}

/**
 * Starts the service on its data folder. Throws DataFolderInUseError, before service.db is opened, when
 * another service holds the folder (docs/local-service.md "The data folder lock").
 */
export async function startService(options: StartServiceOptions): Promise<RunningService> {
  const lock = lockDataFolder(options.dataDir);
  try {
    return await startLocked(options, lock);
  } catch (error) {
    lock.release();
    throw error;
  }
}

async function startLocked(options: StartServiceOptions, lock: DataFolderLock): Promise<RunningService> {
  const host = options.host ?? '127.0.0.1';
  const dataDir = resolve(options.dataDir);
  const logger = options.logger ?? createLogger(options.logLevel ?? 'info');
  // A damaged, emptied or lost service.db is moved aside and rebuilt from what can be read (recovery/).
  const { db, recovery } = openServiceDatabase(dataDir);
  if (recovery) logRecovery(logger, recovery);
  const clock = createClock(db);
  const settings = createSettingsStore(db);
  const faults = createFaultStore(options.scenario);
  const files = createFileStore(dataDir, db);
  const adminToken = options.adminToken ?? `adm_${randomAlphanumeric(32)}`;
  const closers: Array<() => void | Promise<void>> = [];
  const lifecycle: Lifecycle = { onClose: (fn) => void closers.push(fn) };
  let ownBaseUrl: string | null = null;
  let ownDirectBaseUrl: string | null = null;

  // DESIGN.md §3 crash safety: a run cut off by a crash left its reservation pending; refund it now.
  const turns = createTurnsRepo(db);
  const refunded = createCreditService(db, clock).refundPendingAfterCrash((turnId) =>
    turns.finish(turnId, 'failed', 0, null, clock.now()),
  );
  if (refunded > 0) {
    // The cut-off runs may have left PNG files that no image row points to.
    const removed = removeOrphanFiles(db, files.dir);
    logger.warn({ refunded, orphan_files_removed: removed }, 'refunded reservations left pending by an earlier crash');
  }

  const keys = createApiKeysRepo(db);
  const limiter = createRateLimiter(keys, clock, db);
  const usageFlush = startUsageFlush(limiter, logger);
  lifecycle.onClose(() => usageFlush.stop());

  // The webhook dispatcher is started here, once the service listens (below), and stopped on close.
  const webhooks = createWebhookService({ db, clock, settings, logger, faults });
  lifecycle.onClose(() => webhooks.dispatcher.close());

  // The request ledger: entries still queued get one last write at stop (docs/local-service.md "Look a request up").
  const requests = createRequestLedger({ db, logger, bounds: options.testing?.requestLedgerBounds });
  lifecycle.onClose(() => requests.close());

  // Snapshots, restore and reset (docs/local-service.md "Snapshots and reset"); the backups start once it listens.
  let backups: BackupSchedule | null = null;
  const snapshots = createSnapshotStore({ db, dataDir, filesDir: files.dir, clock, live: liveStateOf({ clock, settings, limiter, requests, webhooks, backups: () => backups }) });
  if (options.importFrom !== undefined) await snapshots.importFrom(options.importFrom);

  const deps: ServiceDeps = {
    db,
    requests,
    clock,
    logger,
    settings,
    faults,
    dataDir,
    files,
    lifecycle,
    webhooks,
    snapshots,
    languageOf,
    fail,
    requireApiKey: createApiKeyAuth({ keys, clock, faults, settings, limiter }),
    requireAdmin: createAdminAuth(adminToken),
    baseUrl: () => {
      if (ownBaseUrl === null) throw new Error('the service is not listening yet');
      return ownBaseUrl;
    },
    directBaseUrl: () => {
      if (ownDirectBaseUrl === null) throw new Error('the direct-link origin is not listening yet');
      return ownDirectBaseUrl;
    },
    testing: options.testing ?? {},
  };
  const app = createApp(deps);

  let accountId: string | undefined;
  let apiKey: string | undefined;
  if (options.seed) {
    const accounts = createAccountService(db, clock, () => settings.get().default_rate_limit_per_24h);
    const account = accounts.create({ credits: 10_000, age_days: 30 });
    accountId = account.id;
    apiKey = accounts.createKey(account.id, { name: 'seed', scopes: [...API_SCOPES] }).key;
  }

  const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  const server = createServiceServer(app.fetch, host, timeouts);
  // Answers still being written when close() runs (the 500 of a cut-off generation) are let out first.
  const answering = new Set<ServerResponse>();
  server.on('request', (_req, res: ServerResponse) => {
    answering.add(res);
    res.once('close', () => answering.delete(res));
  });
  const baseUrl = await listen(server, host, options.port ?? 8420);
  ownBaseUrl = baseUrl;
  // The direct-link origin: its own port (any free one), so a client that sends the key there is caught.
  const directServer = createServiceServer(createDirectLinkApp(deps).fetch, host, timeouts);
  let directBaseUrl: string;
  try {
    directBaseUrl = await listen(directServer, host, 0);
  } catch (error) {
    server.close();
    throw error;
  }
  ownDirectBaseUrl = directBaseUrl;
  lock.describe(baseUrl);
  logger.info({ base_url: baseUrl, data_dir: dataDir }, 'local service listening');
  // A restart resumes the deliveries the last run left pending (DESIGN.md §4).
  webhooks.dispatcher.resume();
  // What a damaged or lost service.db is rebuilt from: a backup now, while it changes, and at the stop.
  backups = scheduleServiceBackups(db, dataDir, (error) => logger.warn({ err: error }, 'service.db backup failed; tried again later'));

  let closing: Promise<void> | null = null;
  return {
    baseUrl,
    directBaseUrl,
    adminToken,
    ...(accountId ? { accountId } : {}),
    ...(apiKey ? { apiKey } : {}),
    close() {
      closing ??= (async () => {
        // Stop accepting, let closers cut running generations short (they refund and answer 500),
        // then drop whatever connections remain.
        const closed = new Promise<void>((done) => server.close(() => done()));
        const directClosed = new Promise<void>((done) => directServer.close(() => done()));
        server.closeIdleConnections();
        directServer.closeAllConnections();
        for (const fn of closers.reverse()) await fn();
        await waitForAnswers(answering, 2_000);
        server.closeAllConnections();
        await Promise.all([closed, directClosed]);
        // After the closers: cut generations are refunded and the ledger written, so the export holds them. A failed
        // export still closes everything, then fails the stop (exit 1).
        const exported = options.exportOnExit === undefined ? null : await snapshots.exportTo(options.exportOnExit).then(() => null, (error: unknown) => error);
        await backups?.close();
        db.close();
        lock.release();
        logger.flush();
        if (exported !== null) throw new Error(`--export-on-exit ${options.exportOnExit}: ${String(exported)}`, { cause: exported });
      })();
      return closing;
    },
  };
}

/**
 * What the service holds in memory beside service.db: written out before a snapshot copies it, read again after a
 * restore or a reset replaced it (the clock offset, settings, usage windows, ledger counts, pending deliveries), and a
 * backup of the new state taken at once.
 */
function liveStateOf(parts: {
  clock: Clock;
  settings: SettingsStore;
  limiter: RateLimiter;
  requests: RequestLedger;
  webhooks: WebhookService;
  backups: () => BackupSchedule | null;
}): LiveState {
  return {
    flush() {
      parts.requests.flushNow();
      parts.limiter.flush();
    },
    reload() {
      parts.clock.reload();
      parts.settings.reload();
      parts.limiter.forget();
      parts.requests.recount();
      parts.webhooks.dispatcher.resume();
      void parts.backups()?.takeNow();
    },
  };
}

/** One line on stderr saying what a recovery of service.db did (the app reads the record in recoveries.jsonl). */
function logRecovery(logger: Logger, recovery: ServiceRecovery): void {
  logger.warn(
    {
      reason: recovery.reason,
      damaged_path: recovery.damaged_path,
      backup_taken_at: recovery.backup_taken_at,
      salvaged: recovery.salvaged,
      from_backup: recovery.from_backup,
      unreadable: recovery.unreadable,
      accounts: recovery.accounts.length,
    },
    'service.db was damaged: kept aside and rebuilt from what could be read',
  );
}

/**
 * A node:http server for one of the service's origins. A client that trickles its headers or never sends its body
 * is cut off; requestTimeout covers only the receiving of the request, so a generation waiting up to 5 minutes for
 * its answer (spec §1) is not. Parse errors answer with the spec §7 body (http/transport.ts).
 */
function createServiceServer(fetchHandler: (request: Request) => Response | Promise<Response>, host: string, timeouts: ServiceTimeouts): Server {
  const listener = getRequestListener(fetchHandler, { hostname: host, errorHandler: unbuildableRequestAnswer });
  const server = createServer({ connectionsCheckingInterval: timeouts.checkIntervalMs }, listener);
  server.headersTimeout = timeouts.headersMs;
  server.requestTimeout = timeouts.requestMs;
  server.keepAliveTimeout = 65_000;
  answerClientErrors(server);
  return server;
}

/** Listens on host:port (0: any free port) and answers the base URL. */
async function listen(server: Server, host: string, port: number): Promise<string> {
  await new Promise<void>((resolveListen, rejectListen) => {
    server.once('error', rejectListen);
    server.listen(port, host, () => {
      server.off('error', rejectListen);
      resolveListen();
    });
  });
  const address = server.address() as AddressInfo;
  return `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
}

/** Resolves when every answer in flight has been written (or after `limitMs`). */
async function waitForAnswers(answering: Set<unknown>, limitMs: number): Promise<void> {
  const until = Date.now() + limitMs;
  while (answering.size > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
}
