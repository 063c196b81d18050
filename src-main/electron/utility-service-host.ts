// The bundled local service inside Electron: a utilityProcess running out/main/service.js (built from
// src-service/utility-entry.ts). Only the fork is Electron's; supervision (ready message, restarts as the one
// restart policy says, the data-folder lock) is ../service-host/forked-service-host.ts, tested in plain Node.
import { utilityProcess } from 'electron';
import { ForkedServiceHost, type ForkedService } from '../service-host/forked-service-host.ts';

export interface UtilityServiceHostOptions {
  /** out/main/service.js */
  entry: string;
  /** The service's data folder. */
  dataDir: string;
}

export class UtilityServiceHost extends ForkedServiceHost {
  constructor(options: UtilityServiceHostOptions) {
    super({ ...options, fork: (entry, args, forkOptions): ForkedService => utilityProcess.fork(entry, args, forkOptions) });
  }
}
