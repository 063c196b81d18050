// Entry of the bundled service inside Electron's utilityProcess (built as out/main/service.js).
// Options come from argv (the CLI's flags); the ready object goes to the parent over parentPort when there
// is one, else to stdout like the CLI. `electron` may not be imported here, so parentPort is typed locally.
import { parseServiceArgs } from './cli-options.ts';
import { readyLine, startService, type RunningService } from './start.ts';

interface ParentPortLike {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (event: { data: unknown }) => void): void;
}

const parentPort = (process as unknown as { parentPort?: ParentPortLike }).parentPort;
let service: RunningService | null = null;
let stopRequested = false;

function stop(): void {
  if (stopRequested && service === null) return;
  stopRequested = true;
  if (!service) return; // still starting: main() stops it as soon as it is up
  service.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
}

// Handlers go in before the ready message: a parent may ask to stop the moment it reads it.
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
parentPort?.on('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'stop') stop();
});

async function main(): Promise<void> {
  service = await startService(parseServiceArgs(process.argv.slice(2)));
  if (stopRequested) return stop();
  const ready = readyLine(service);
  if (parentPort) parentPort.postMessage(ready);
  else process.stdout.write(`${JSON.stringify(ready)}\n`);
}

main().catch((error: unknown) => {
  const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
  if (parentPort) parentPort.postMessage({ event: 'error', message });
  process.stderr.write(`local service: failed to start: ${message}\n`);
  process.exit(1);
});
