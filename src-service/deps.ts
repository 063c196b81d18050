// Everything a route module needs, built once by start.ts (the composition root) and handed to createApp and
// every register*Routes function.
import type { MiddlewareHandler } from 'hono';
import type { DatabaseSync } from 'node:sqlite';
import type { ApiScope } from '../src-shared/api.ts';
import type { ErrorCode, ErrorParams } from '../src-shared/errors.ts';
import type { Language } from '../src-shared/language.ts';
import type { Clock } from './clock.ts';
import type { FaultStore } from './faults.ts';
import type { FileStore } from './files.ts';
import type { Logger } from './logger.ts';
import type { SettingsStore } from './settings.ts';
import type { RequestLedger } from './services/request-ledger.ts';
import type { SnapshotStore } from './services/snapshots.ts';
import type { WebhookService } from './services/webhooks.ts';
import type { Context } from 'hono';

/** Who is calling, set by the API-key middleware (c.get('auth')). */
export interface AuthContext {
  accountId: string;
  keyId: string;
  scopes: readonly string[];
}

/** The Hono environment of every route: c.get('requestId'), c.get('auth'), c.get('errorCode') once an error is rendered. */
export type AppEnv = { Variables: { requestId: string; auth: AuthContext; errorCode: ErrorCode } };

export interface Lifecycle {
  /** Runs on close (before the database closes), in reverse order of registration. */
  onClose(fn: () => void | Promise<void>): void;
}

export interface ServiceDeps {
  db: DatabaseSync;
  clock: Clock;
  logger: Logger;
  settings: SettingsStore;
  faults: FaultStore;
  /** The data folder (service.db and files/ live here). */
  dataDir: string;
  files: FileStore;
  lifecycle: Lifecycle;
  /** The request ledger (services/request-ledger.ts): what each request under /api did, for GET /admin/requests. */
  requests: RequestLedger;
  /** Named snapshots of the whole state, restore and reset (services/snapshots.ts). */
  snapshots: SnapshotStore;
  /** The one webhook service and its dispatcher, started by start.ts (packs notify through it). */
  webhooks: WebhookService;
  /** Accept-Language → 'zh' | 'en' (DESIGN.md §3). */
  languageOf(c: Context): Language;
  /** Throws the domain error that the app renders as the spec §7 body (or plain text on /api/file). */
  fail(code: ErrorCode, params?: ErrorParams, headers?: Record<string, string>): never;
  /** Bearer API key auth with scope check and per-key rate limit (spec §5, DESIGN.md §3). */
  requireApiKey(scope: ApiScope): MiddlewareHandler<AppEnv>;
  /** Bearer admin-token auth for /admin (DESIGN.md §4). */
  requireAdmin: MiddlewareHandler<AppEnv>;
  /** The service's own base URL (known once it listens); absolute links are built from it, never from Host. */
  baseUrl(): string;
  /** The direct-link origin's base URL (a second port of the same host), where GET /api/file redirects. */
  directBaseUrl(): string;
  testing: ServiceTestingHooks;
}

/** Test seams of StartServiceOptions.testing; empty in the CLI. */
export interface ServiceTestingHooks {
  /** Called before a reservation is settled or refunded; a throw stands in for a failing write (SQLITE_FULL). */
  beforeCreditClose?: (turnId: string) => void;
  /** Back-off of the refund retry; default the service's write back-off (write-retry.ts: 250 ms doubling to 30 s). */
  settleRetryDelaysMs?: readonly number[];
  /** Smaller bounds of the request ledger, so a test can see pruning without 50,000 requests. */
  requestLedgerBounds?: { rows?: number; bytes?: number };
}
