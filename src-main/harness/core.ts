// Binds the harness to the main-process core: createStudioApp and the plain-Node host of the bundled service
// (a child process running src-service/cli.ts), the same core the Electron shell wires to a utilityProcess.
import { createStudioApp } from '../app/create-app.ts';
import { NodeLocalServiceHost } from '../service-host/node-service-host.ts';
import type { HarnessCore } from './run-harness.ts';

export function loadHarnessCore(): HarnessCore {
  return {
    createStudioApp,
    createLocalServiceHost: ({ dataDir }) => new NodeLocalServiceHost({ dataDir }),
  };
}
