// Entry of the bundled service inside Electron's utilityProcess (built as out/main/service.js).
// Options come from argv (the CLI's flags); the ready object goes to the parent over parentPort when there
// is one, else to stdout like the CLI. `electron` may not be imported here, so parentPort is typed locally.
import { parseServiceArgs } from './cli-options.ts';
import { readyLine, startService } from './start.ts';

interface ParentPortLike {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (event: { data: unknown }) => void): void;
}

const parentPort = (process as unknown as { parentPort?: ParentPortLike }).parentPort;

async function main(): Promise<void> {
  const service = await startService(parseServiceArgs(process.argv.slice(2)));
  const ready = readyLine(service);
  if (parentPort) parentPort.postMessage(ready);
  else process.stdout.write(`${JSON.stringify(ready)}\n`);
  const stop = (): void => {
    service.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  parentPort?.on('message', (event) => {
    if ((event.data as { type?: string } | null)?.type === 'stop') stop();
  });
}

main().catch((error: unknown) => {
  const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
  if (parentPort) parentPort.postMessage({ event: 'error', message });
  process.stderr.write(`local service: failed to start: ${message}\n`);
  process.exit(1);
});
