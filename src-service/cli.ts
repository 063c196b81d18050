// `npm run service -- [--host 127.0.0.1] [--port 8420] [--data DIR] [--admin-token TOKEN] [--seed]`
// (DESIGN.md §4): one ready line of JSON on stdout, logs on stderr, clean stop on SIGTERM/SIGINT.
import { parseServiceArgs } from './cli-options.ts';
import { readyLine, startService, type RunningService } from './start.ts';

let service: RunningService | null = null;
let stopRequested: string | null = null;

function stop(signal: string): void {
  if (stopRequested) return;
  stopRequested = signal;
  process.stderr.write(`local service: ${signal}, stopping\n`);
  if (!service) return; // still starting: main() stops it as soon as it is up
  service.close().then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`local service: stop failed: ${String(error)}\n`);
      process.exit(1);
    },
  );
}

// Handlers go in before the ready line: a parent may signal the moment it reads that line.
process.on('SIGTERM', () => stop('SIGTERM'));
process.on('SIGINT', () => stop('SIGINT'));

async function main(): Promise<void> {
  let options;
  try {
    options = parseServiceArgs(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`local service: ${(error as Error).message}\n`);
    process.exit(2);
  }
  service = await startService(options);
  if (stopRequested) {
    const signal = stopRequested;
    stopRequested = null;
    stop(signal);
    return;
  }
  process.stdout.write(`${JSON.stringify(readyLine(service))}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`local service: failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
