// The bundled local service as a child process of plain Node (harness, tests, benchmarks): runs
// `node src-service/cli.ts --port 0 --data DIR`, reads its ready line (DESIGN.md §4), restarts it when it
// dies, as the one restart policy says (../domain/supervisor-policy.ts). The Electron shell uses a utilityProcess
// host with the same interface and the same policy.
// Supervision (docs/local-service.md): the admin token goes through the environment, never the command line;
// STUDIO_PARENT_PID and a stdin pipe make the service exit when this process dies, however it dies; a service
// left behind on the data folder is stopped before ours starts, and a folder locked by a service that cannot be
// stopped is a failure, tried again after the policy's cool-down.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { randomAlphanumeric } from '../../src-shared/ids.ts';
import { ServiceReadyLineSchema } from '../../src-shared/api.ts';
import { DATA_FOLDER_IN_USE_EXIT_CODE, freeDataFolder, probeDataFolder, type ServiceRecovery } from '../../src-service/start.ts';
import { ServiceSupervisor, triesAgainIn } from '../domain/supervisor-policy.ts';
import type { LocalServiceHost, LocalServiceStatus } from '../ports/local-service-host.ts';
import { RecoveryListeners } from './recoveries.ts';

/** The service refused to start because another service holds its data folder. */
export class DataFolderLockedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DataFolderLockedError';
  }
}

export interface NodeServiceHostOptions {
  /** The service's data folder (the app uses `<dataDir>/local-service`). */
  dataDir: string;
  nodePath?: string;
  cliPath?: string;
  /** Kept across restarts so the admin client stays valid. */
  adminToken?: string;
  /** Deaths within a minute after which it stops restarting (the supervisor policy's `maxDeaths`). */
  maxRestarts?: number;
  /** The wait before the first restart (the supervisor policy's `firstDelayMs`). */
  restartDelayMs?: number;
  /** After giving up, the wait before trying again (the supervisor policy's `coolDownMs`). */
  coolDownMs?: number;
  /** The clock the restart policy counts deaths with. */
  now?: () => number;
}

const DEFAULT_CLI = fileURLToPath(new URL('../../src-service/cli.ts', import.meta.url));

export class NodeLocalServiceHost implements LocalServiceHost {
  private readonly options: Required<Omit<NodeServiceHostOptions, 'maxRestarts' | 'restartDelayMs' | 'coolDownMs' | 'now'>>;
  private readonly supervisor: ServiceSupervisor;
  private child: ChildProcess | null = null;
  private listeners: Array<(s: LocalServiceStatus) => void> = [];
  private stopping = false;
  private port = 0;
  private baseUrl: string | null = null;
  private stderrTail: string[] = [];
  /** Whether the child now running has printed its ready line. */
  private up = false;
  private retryTimer: NodeJS.Timeout | null = null;
  private readonly recoveries = new RecoveryListeners();
  /** Each recovery of service.db a start of ours made (recoveries.ts). */
  readonly onRecovery = (listener: (recovery: ServiceRecovery) => void): void => this.recoveries.add(listener);

  constructor(options: NodeServiceHostOptions) {
    const { maxRestarts, restartDelayMs, coolDownMs, now, ...rest } = options;
    this.options = { nodePath: process.execPath, cliPath: DEFAULT_CLI, adminToken: `adm_${randomAlphanumeric(32)}`, ...rest };
    this.supervisor = new ServiceSupervisor(now ?? Date.now, {
      ...(maxRestarts !== undefined ? { maxDeaths: maxRestarts } : {}),
      ...(restartDelayMs !== undefined ? { firstDelayMs: restartDelayMs } : {}),
      ...(coolDownMs !== undefined ? { coolDownMs } : {}),
    });
  }

  onStatus(listener: (status: LocalServiceStatus) => void): void {
    this.listeners.push(listener);
  }

  private status(status: LocalServiceStatus): void {
    for (const l of this.listeners) l(status);
  }

  /** The child's pid (tests kill it to prove the restart). */
  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  async start(): Promise<{ baseUrl: string; adminToken: string }> {
    this.stopping = false;
    // It came back by itself after a start that failed: the caller finishes its start with the running one.
    if (this.child && this.up && this.baseUrl) return { baseUrl: this.baseUrl, adminToken: this.options.adminToken };
    const freed = await freeDataFolder(this.options.dataDir);
    if (!freed.ok) {
      void this.restart(freed.message, true);
      throw new DataFolderLockedError(freed.message);
    }
    try {
      const baseUrl = await this.spawnOnce();
      return { baseUrl, adminToken: this.options.adminToken };
    } catch (error) {
      // A start that failed is tried again as the policy says, so Local is never failed for good.
      const locked = error instanceof DataFolderLockedError && probeDataFolder(this.options.dataDir).locked;
      this.port = 0;
      void this.restart(error instanceof Error ? error.message : String(error), locked);
      throw error;
    }
  }

  private spawnOnce(): Promise<string> {
    const { nodePath, cliPath, dataDir, adminToken } = this.options;
    const args = [cliPath, '--host', '127.0.0.1', '--port', String(this.port), '--data', dataDir];
    const spawnedAt = Date.now();
    // stdin stays an open pipe that is never written: its end tells the service this process died.
    const child = spawn(nodePath, args, {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, STUDIO_ADMIN_TOKEN: adminToken, STUDIO_PARENT_PID: String(process.pid) },
    });
    this.child = child;
    this.stderrTail = [];
    createInterface({ input: child.stderr as NodeJS.ReadableStream }).on('line', (line) => {
      this.stderrTail.push(line);
      if (this.stderrTail.length > 20) this.stderrTail.shift();
    });
    return new Promise((resolve, reject) => {
      let ready = false;
      createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
        if (ready || !line.startsWith('{"event":"ready"')) return;
        const parsed = ServiceReadyLineSchema.safeParse(JSON.parse(line));
        if (!parsed.success) return;
        ready = true;
        this.up = true;
        this.baseUrl = parsed.data.base_url;
        this.port = Number(new URL(parsed.data.base_url).port);
        this.recoveries.tell(dataDir, spawnedAt);
        resolve(parsed.data.base_url);
      });
      child.on('error', (error) => {
        if (!ready) reject(error);
      });
      child.on('exit', (code, signal) => {
        if (this.child === child) {
          this.child = null;
          this.up = false;
        }
        const why = exitReason(code, signal, this.stderrTail);
        if (!ready) {
          if (code === DATA_FOLDER_IN_USE_EXIT_CODE) {
            const refusal = this.stderrTail.find((line) => line.includes('is in use by another local service'));
            reject(new DataFolderLockedError(refusal?.replace(/^local service: /, '') ?? why));
          } else reject(new Error(why));
          return;
        }
        if (!this.stopping) void this.restart(why);
      });
    });
  }

  /**
   * After a death (or a failed start): the supervisor policy says when to start again; after a give-up that is the
   * cool-down, and the status says so (failed, with the reason and when Local tries again).
   */
  private async restart(why: string, folderLocked = false): Promise<void> {
    const step = this.supervisor.died({ folderLocked });
    if (step.kind === 'give_up') this.status({ status: 'failed', baseUrl: null, error: `${why} ${triesAgainIn(step.retryAfterMs)}` });
    else this.status({ status: 'restarting', baseUrl: this.baseUrl, error: why });
    await new Promise((r) => {
      this.retryTimer = setTimeout(r, step.kind === 'give_up' ? step.retryAfterMs : step.afterMs);
      // A host waiting out its cool-down does not keep the process alive.
      this.retryTimer.unref();
    });
    if (this.stopping) return;
    try {
      const baseUrl = await this.spawnOnce();
      this.status({ status: 'running', baseUrl, error: null });
    } catch (error) {
      // Another service holds the folder: restarting against the lock cannot succeed, unless it let go meanwhile.
      const locked = error instanceof DataFolderLockedError && probeDataFolder(this.options.dataDir).locked;
      // The old port may be taken now; take any free one.
      this.port = 0;
      void this.restart(error instanceof Error ? error.message : String(error), locked);
    }
  }

  async stop(): Promise<void> {
    this.stopping = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const child = this.child;
    if (!child || child.exitCode !== null) {
      this.status({ status: 'stopped', baseUrl: null, error: null });
      return;
    }
    await new Promise<void>((resolve) => {
      const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
      child.once('exit', () => {
        clearTimeout(kill);
        resolve();
      });
      child.kill('SIGTERM');
    });
    this.status({ status: 'stopped', baseUrl: null, error: null });
  }
}

/**
 * Why the service stopped, as one plain sentence: its own `local service: …` line when it wrote one (the CLI ends
 * every failure with one; the stack frames before it are for the log), else the exit code.
 */
function exitReason(code: number | null, signal: NodeJS.Signals | null, stderrTail: readonly string[]): string {
  const said = stderrTail.findLast((line) => line.startsWith('local service: '));
  const how = signal ?? `code ${code}`;
  return said ? `The local service stopped (${how}): ${said.slice('local service: '.length)}.` : `The local service stopped (${how}).`;
}
