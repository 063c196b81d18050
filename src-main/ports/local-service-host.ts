// How main runs the bundled local service: a utilityProcess in Electron (electron/utility-service-host.ts), a
// child process in the harness and tests (service-host/node-service-host.ts). Environments starts and stops it.
import type { ServiceRecovery } from '../../src-service/start.ts';

export type LocalServiceStatus = { status: 'starting' | 'running' | 'restarting' | 'stopped' | 'failed'; baseUrl: string | null; error: string | null };

export interface LocalServiceHost {
  start(): Promise<{ baseUrl: string; adminToken: string }>;
  stop(): Promise<void>;
  /** Called when the service dies unexpectedly; the host restarts it. */
  onStatus(listener: (status: LocalServiceStatus) => void): void;
  /** Each time a start found service.db damaged or lost and rebuilt it (docs/local-service.md), once it is ready. */
  onRecovery?(listener: (recovery: ServiceRecovery) => void): void;
}
