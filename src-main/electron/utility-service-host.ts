// The bundled local service inside Electron: a utilityProcess running out/main/service.js (built from
// src-service/utility-entry.ts), which posts {event:'ready', base_url, admin_token} through parentPort.
// If it dies unexpectedly it is restarted on the same port with the same admin token, so the core's base URL
// and admin token stay valid; after repeated quick deaths it gives up and reports 'failed'.
// Supervision (docs/local-service.md): the admin token and this process's pid go through the environment
// (STUDIO_ADMIN_TOKEN, STUDIO_PARENT_PID: the service exits when the app dies, however it dies); a service left
// behind on the folder is stopped first; a folder that stays locked is a failure that is not retried.
import { randomBytes } from 'node:crypto';
import { utilityProcess, type UtilityProcess } from 'electron';
import { DATA_FOLDER_IN_USE_EXIT_CODE, freeDataFolder, probeDataFolder } from '../../src-service/start.ts';
import type { LocalServiceHost } from '../ports/local-service-host.ts';

class DataFolderLockedError extends Error {}

type Status = Parameters<Parameters<LocalServiceHost['onStatus']>[0]>[0];

export interface UtilityServiceHostOptions {
  /** out/main/service.js */
  entry: string;
  /** The service's data folder. */
  dataDir: string;
  /** Deaths within `crashWindowMs` after which it stops restarting. */
  maxRestarts?: number;
  crashWindowMs?: number;
  startTimeoutMs?: number;
}

export class UtilityServiceHost implements LocalServiceHost {
  private readonly options: Required<UtilityServiceHostOptions>;
  private readonly listeners = new Set<(status: Status) => void>();
  private readonly adminToken = `adm_${randomBytes(24).toString('hex')}`;
  private child: UtilityProcess | null = null;
  private port = 0;
  private baseUrl: string | null = null;
  private stopped = false;
  private deaths: number[] = [];
  private restartTimer: NodeJS.Timeout | null = null;

  constructor(options: UtilityServiceHostOptions) {
    this.options = { maxRestarts: 5, crashWindowMs: 60_000, startTimeoutMs: 30_000, ...options };
  }

  onStatus(listener: (status: Status) => void): void {
    this.listeners.add(listener);
  }

  private emit(status: Status): void {
    for (const l of this.listeners) l(status);
  }

  async start(): Promise<{ baseUrl: string; adminToken: string }> {
    this.stopped = false;
    this.emit({ status: 'starting', baseUrl: null, error: null });
    const freed = await freeDataFolder(this.options.dataDir);
    if (!freed.ok) {
      this.emit({ status: 'failed', baseUrl: null, error: freed.message });
      throw new Error(freed.message);
    }
    try {
      return await this.spawnOnce();
    } catch (error) {
      if (error instanceof DataFolderLockedError) this.emit({ status: 'failed', baseUrl: null, error: error.message });
      throw error;
    }
  }

  private spawnOnce(): Promise<{ baseUrl: string; adminToken: string }> {
    const args = ['--host', '127.0.0.1', '--port', String(this.port), '--data', this.options.dataDir];
    const child = utilityProcess.fork(this.options.entry, args, {
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
          clearTimeout(timer);
          this.baseUrl = m.base_url;
          this.port = Number(new URL(m.base_url).port) || this.port;
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
        if (this.child === child) this.child = null;
        if (!ready) {
          // Exit code 3 is the lock refusal (docs/local-service.md), even if its message was lost: never retried.
          if (code === DATA_FOLDER_IN_USE_EXIT_CODE) reject(new DataFolderLockedError(`the data folder ${this.options.dataDir} is in use by another local service`));
          else reject(new Error(`The local service exited with code ${code} while starting.`));
          return;
        }
        if (!this.stopped) this.restartAfterDeath(code);
      });
    });
  }

  private restartAfterDeath(code: number): void {
    const now = Date.now();
    this.deaths = [...this.deaths.filter((t) => now - t < this.options.crashWindowMs), now];
    if (this.deaths.length > this.options.maxRestarts) {
      this.emit({ status: 'failed', baseUrl: null, error: `The local service stopped ${this.deaths.length} times within a minute (last exit code ${code}).` });
      return;
    }
    const delay = 500 * 2 ** (this.deaths.length - 1);
    this.emit({ status: 'restarting', baseUrl: this.baseUrl, error: `The local service stopped (exit code ${code}); restarting.` });
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      if (this.stopped) return;
      this.spawnOnce().catch((err: unknown) => {
        // Restarting against a held lock cannot succeed, unless its holder let go meanwhile.
        if (err instanceof DataFolderLockedError && probeDataFolder(this.options.dataDir).locked) {
          this.emit({ status: 'failed', baseUrl: null, error: err.message });
          return;
        }
        // Its port may have been taken meanwhile: the next attempt picks a free one.
        this.port = 0;
        process.stderr.write(`local service: restart failed: ${err instanceof Error ? err.message : String(err)}\n`);
        this.restartAfterDeath(-1);
      });
    }, delay);
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
