// `npm run service -- [--host 127.0.0.1] [--port 8420] [--data DIR] [--admin-token TOKEN] [--seed]`
// (DESIGN.md §4): one ready line of JSON on stdout, logs on stderr, clean stop on SIGTERM/SIGINT.
import { parseServiceArgs } from './cli-options.ts';
import { readyLine, startService } from './start.ts';

async function main(): Promise<void> {
  let options;
  try {
    options = parseServiceArgs(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`local service: ${(error as Error).message}\n`);
    process.exit(2);
  }
  const service = await startService(options);
  process.stdout.write(`${JSON.stringify(readyLine(service))}\n`);
  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`local service: ${signal}, stopping\n`);
    service.close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`local service: stop failed: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((error: unknown) => {
  process.stderr.write(`local service: failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
