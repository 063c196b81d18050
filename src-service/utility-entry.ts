// Entry of the bundled service inside Electron's utilityProcess (built as out/main/service.js).
// Options come from argv (the CLI's flags); the ready object goes to the parent over parentPort when there
// is one, else to stdout like the CLI. `electron` may not be imported here, so parentPort is typed locally.
// The admin token comes from STUDIO_ADMIN_TOKEN and the app's pid from STUDIO_PARENT_PID (docs/local-service.md).
import { ADMIN_TOKEN_ENV, parseServiceArgs, reportStartFailure } from './cli-options.ts';
import { exitSoon, parentPidFromEnv, watchParent } from './parent-watch.ts';
import { DATA_FOLDER_IN_USE_EXIT_CODE, DataFolderInUseError, readyLine, startService, type RunningService } from './start.ts';

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

// A dead app's pipes answer writes with EPIPE; that must not end the service while it closes (like cli.ts).
for (const stream of [process.stdout, process.stderr]) stream?.on('error', () => undefined);

// Handlers go in before the ready message: a parent may ask to stop the moment it reads it.
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
parentPort?.on('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'stop') stop();
});

async function main(): Promise<void> {
  const options = parseServiceArgs(process.argv.slice(2), process.env);
  delete process.env[ADMIN_TOKEN_ENV];
  const parentPid = parentPidFromEnv(process.env);
  if (parentPid !== null) {
    watchParent(parentPid, (why) => {
      // The app is gone: within 2 s this process must be too (docs/local-service.md).
      exitSoon();
      process.stderr.write(`local service: ${why}, stopping\n`);
      stop();
    });
  }
  try {
    service = await startService(options);
  } catch (error) {
    if (!(error instanceof DataFolderInUseError)) throw error;
    if (parentPort) parentPort.postMessage({ event: 'error', code: error.code, message: error.message });
    process.stderr.write(`local service: ${error.message}\n`);
    process.exit(DATA_FOLDER_IN_USE_EXIT_CODE);
  }
  if (stopRequested) return stop();
  const ready = readyLine(service);
  if (parentPort) parentPort.postMessage(ready);
  else process.stdout.write(`${JSON.stringify(ready)}\n`);
}

main().catch((error: unknown) => {
  // The host shows the message as one sentence; the stack goes to stderr (the log) only.
  const message = reportStartFailure(error, (text) => process.stderr.write(text));
  if (parentPort) parentPort.postMessage({ event: 'error', message });
  process.exit(1);
});
