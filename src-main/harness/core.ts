// Binds the harness to the main-process core: createStudioApp and the Node host of the bundled service.
import type { HarnessCore } from './run-harness.ts';
import { HarnessStartError } from './run-harness.ts';

// The core lands in src-main/core/ alongside this work; until then the harness says so in one line.
const CREATE_APP = '../core/create-app.ts';

export async function loadHarnessCore(): Promise<HarnessCore> {
  let createApp: Partial<HarnessCore>;
  try {
    createApp = (await import(CREATE_APP)) as Partial<HarnessCore>;
  } catch (err) {
    throw new HarnessStartError(`the main-process core (src-main/core/create-app.ts) could not be loaded: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (typeof createApp.createStudioApp !== 'function' || typeof createApp.createLocalServiceHost !== 'function') {
    throw new HarnessStartError('src-main/core/create-app.ts does not export createStudioApp and createLocalServiceHost.');
  }
  return createApp as HarnessCore;
}
