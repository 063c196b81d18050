// The bundled local service as a forked process that posts {event:'ready', base_url} through its message port:
// in the app a utilityProcess running out/main/service.js (electron/utility-service-host.ts passes
// `utilityProcess.fork`), in tests any fork with the same shape. Everything but the fork lives here, so plain
// Node tests what the app ships.
// If the service dies unexpectedly it is restarted on the same port with the same admin token, so the core's
// base URL and admin token stay valid; when and whether is the one restart policy's (../domain/supervisor-policy.ts).
// Supervision (docs/local-service.md): the admin token and this process's pid go through the environment
// (STUDIO_ADMIN_TOKEN, STUDIO_PARENT_PID: the service exits when the app dies, however it dies); a service left
// behind on the folder is stopped first; a folder that stays locked is a failure, tried again after the cool-down.
import { randomBytes } from 'node:crypto';
import { DATA_FOLDER_IN_USE_EXIT_CODE, freeDataFolder, probeDataFolder, type ServiceRecovery } from '../../src-service/start.ts';
import { ServiceSupervisor, triesAgainIn, type SupervisorPolicy } from '../domain/supervisor-policy.ts';
import type { LocalServiceHost, LocalServiceStatus } from '../ports/local-service-host.ts';
import { RecoveryListeners } from './recoveries.ts';

class DataFolderLockedError extends Error {}

/** What the host needs of a forked service process (Electron's UtilityProcess has this shape). */
export interface ForkedService {
  stdout?: NodeJS.ReadableStream | null;
  stderr?: NodeJS.ReadableStream | null;
  on(event: 'message', listener: (message: unknown) => void): unknown;
  on(event: 'exit', listener: (code: number) => void): unknown;
  once(event: 'exit', listener: (code: number) => void): unknown;
  kill(): boolean;
  postMessage(message: unknown): void;
}

export type ForkService = (entry: string, args: string[], options: { serviceName: string; stdio: 'pipe'; env: NodeJS.ProcessEnv }) => ForkedService;

export interface ForkedServiceHostOptions {
  /** out/main/service.js */
  entry: string;
  /** The service's data folder. */
  dataDir: string;
  fork: ForkService;
  startTimeoutMs?: number;
  /** The restart policy's numbers (tests shorten them) and its clock. */
  policy?: Partial<SupervisorPolicy>;
  now?: () => number;
}

export class ForkedServiceHost implements LocalServiceHost {
  private readonly options: ForkedServiceHostOptions & { startTimeoutMs: number };
  private readonly supervisor: ServiceSupervisor;
  private readonly listeners = new Set<(status: LocalServiceStatus) => void>();
  private readonly adminToken = `adm_${randomBytes(24).toString('hex')}`;
  private child: ForkedService | null = null;
  private port = 0;
  private baseUrl: string | null = null;
  private stopped = false;
  private restartTimer: NodeJS.Timeout | null = null;
  /** Whether the child now running has said it is ready. */
  private up = false;
  private readonly recoveries = new RecoveryListeners();
  /** Each recovery of service.db a start of ours made (recoveries.ts). */
  readonly onRecovery = (listener: (recovery: ServiceRecovery) => void): void => this.recoveries.add(listener);

  constructor(options: ForkedServiceHostOptions) {
    this.options = { startTimeoutMs: 30_000, ...options };
    this.supervisor = new ServiceSupervisor(options.now ?? Date.now, options.policy);
  }

  onStatus(listener: (status: LocalServiceStatus) => void): void {
    this.listeners.add(listener);
  }

  private emit(status: LocalServiceStatus): void {
    for (const l of this.listeners) l(status);
  }

  async start(): Promise<{ baseUrl: string; adminToken: string }> {
    this.stopped = false;
    // It came back by itself after a start that failed: the caller finishes its start with the running one.
    if (this.child && this.up && this.baseUrl) return { baseUrl: this.baseUrl, adminToken: this.adminToken };
    this.emit({ status: 'starting', baseUrl: null, error: null });
    const freed = await freeDataFolder(this.options.dataDir);
    if (!freed.ok) {
      this.restartAfterDeath(-1, new DataFolderLockedError(freed.message));
      throw new Error(freed.message);
    }
    try {
      return await this.spawnOnce();
    } catch (error) {
      // A start that failed is tried again as the policy says, so Local is never failed for good.
      this.port = 0;
      this.restartAfterDeath(-1, error instanceof DataFolderLockedError && probeDataFolder(this.options.dataDir).locked ? error : null, error);
      throw error;
    }
  }

  private spawnOnce(): Promise<{ baseUrl: string; adminToken: string }> {
    const args = ['--host', '127.0.0.1', '--port', String(this.port), '--data', this.options.dataDir];
    const spawnedAt = Date.now();
    const child = this.options.fork(this.options.entry, args, {
      serviceName: 'Image Studio local service',
      stdio: 'pipe',
      env: { ...process.env, STUDIO_ADMIN_TOKEN: this.adminToken, STUDIO_PARENT_PID: String(process.pid) },
    });
    this.child = child;
    child.stdout?.on('data', (chunk: Buffer) => process.stdout.write(chunk));
    child.stderr?.on('data', (chunk: Buffer) => process.stderr.write(chunk));

    return new Promise((resolve, reject) => {
      let ready = false;
      const timer = setTimeout(() => {
        if (ready) return;
        child.kill();
        reject(new Error(`The local service did not start within ${this.options.startTimeoutMs / 1000} s.`));
      }, this.options.startTimeoutMs);

      child.on('message', (message: unknown) => {
        const m = message as { event?: string; base_url?: unknown; message?: string; code?: string } | null;
        if (m?.event === 'ready' && typeof m.base_url === 'string') {
          ready = true;
          this.up = true;
          clearTimeout(timer);
          this.baseUrl = m.base_url;
          this.port = Number(new URL(m.base_url).port) || this.port;
          this.recoveries.tell(this.options.dataDir, spawnedAt);
          this.emit({ status: 'running', baseUrl: m.base_url, error: null });
          resolve({ baseUrl: m.base_url, adminToken: this.adminToken });
        } else if (m?.event === 'error' && !ready) {
          clearTimeout(timer);
          if (m.code === 'data_folder_in_use') reject(new DataFolderLockedError(m.message ?? 'the data folder is in use by another local service'));
          else reject(new Error(`The local service failed to start: ${m.message ?? 'unknown error'}`));
        }
      });

      child.on('exit', (code) => {
        clearTimeout(timer);
        if (this.child === child) {
          this.child = null;
          this.up = false;
        }
        if (!ready) {
          // Exit code 3 is the lock refusal (docs/local-service.md), even if its message was lost: retried only after the cool-down.
          if (code === DATA_FOLDER_IN_USE_EXIT_CODE) reject(new DataFolderLockedError(`the data folder ${this.options.dataDir} is in use by another local service`));
          else reject(new Error(`The local service exited with code ${code} while starting.`));
          return;
        }
        if (!this.stopped) this.restartAfterDeath(code);
      });
    });
  }

  /**
   * After a death (or a failed start or restart, code -1, with its error): the supervisor policy says when to start
   * again; after a give-up that is the cool-down, and the status says so (failed, with why and when Local tries again).
   */
  private restartAfterDeath(code: number, locked: DataFolderLockedError | null = null, failure: unknown = null): void {
    const step = this.supervisor.died({ folderLocked: locked !== null });
    const why = failure instanceof Error ? failure.message : `The local service stopped (exit code ${code}).`;
    if (step.kind === 'give_up') {
      const often = `The local service stopped ${step.deathsInWindow} times within a minute (last exit code ${code}).${failure instanceof Error ? ` ${why}` : ''}`;
      const reason = locked ? locked.message : step.deathsInWindow > 1 ? often : why;
      this.emit({ status: 'failed', baseUrl: null, error: `${reason} ${triesAgainIn(step.retryAfterMs)}` });
    } else {
      this.emit({ status: 'restarting', baseUrl: this.baseUrl, error: `${why} Restarting.` });
    }
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      if (this.stopped) return;
      this.spawnOnce().catch((err: unknown) => {
        // Restarting against a held lock cannot succeed, unless its holder let go meanwhile.
        const held = err instanceof DataFolderLockedError && probeDataFolder(this.options.dataDir).locked ? err : null;
        // Its port may have been taken meanwhile: the next attempt picks a free one.
        this.port = 0;
        if (!held) process.stderr.write(`local service: restart failed: ${err instanceof Error ? err.message : String(err)}\n`);
        this.restartAfterDeath(-1, held, err);
      });
    }, step.kind === 'give_up' ? step.retryAfterMs : step.afterMs);
    // A host waiting out its cool-down does not keep the process alive.
    this.restartTimer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    const child = this.child;
    if (!child) return;
    await new Promise<void>((resolve) => {
      const force = setTimeout(() => child.kill(), 5_000);
      child.once('exit', () => {
        clearTimeout(force);
        resolve();
      });
      // The entry closes its database and server cleanly on this message.
      child.postMessage({ type: 'stop' });
    });
    this.child = null;
    this.emit({ status: 'stopped', baseUrl: null, error: null });
  }
}
