// `npm run service -- [--host 127.0.0.1] [--port 8420] [--data DIR] [--admin-token TOKEN] [--seed]`
// (DESIGN.md §4): one ready line of JSON on stdout, logs on stderr, clean stop on SIGTERM/SIGINT.
// Environment (docs/local-service.md): STUDIO_ADMIN_TOKEN instead of --admin-token; STUDIO_PARENT_PID makes it
// stop when that process dies. Exit codes: 0 clean stop, 1 failure, 2 bad flags, 3 data folder in use.
// `npm run -s service -- logs [--follow] [filters]`: the request ledger of a running service (cli-logs.ts).
// `npm run -s service -- exec [--seed] [--data DIR] -- COMMAND …`: a fresh service for one command (cli-exec.ts).
// `npm run -s service -- trigger …`: one signed (or deliberately broken) webhook delivery to a receiver (cli-trigger.ts).
import { ADMIN_TOKEN_ENV, parseServiceArgs, reportStartFailure, writeReadyFile } from './cli-options.ts';
import { exitSoon, parentPidFromEnv, watchParent } from './parent-watch.ts';
import { DATA_FOLDER_IN_USE_EXIT_CODE, DataFolderInUseError, readyLine, startService, type RunningService } from './start.ts';

let service: RunningService | null = null;
let stopRequested: string | null = null;

function stop(reason: string, options: { soon?: boolean } = {}): void {
  if (stopRequested) return;
  stopRequested = reason;
  // The parent is gone: within 2 s this process must be too, whatever the close is doing.
  if (options.soon) exitSoon();
  process.stderr.write(`local service: ${reason}, stopping\n`);
  if (!service) return; // still starting: main() stops it as soon as it is up
  service.close().then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`local service: stop failed: ${String(error)}\n`);
      process.exit(1);
    },
  );
}

// A dead parent leaves our stdout and stderr pipes without a reader: a failed log write must not crash the
// clean stop (running generations still answer 500 and are refunded).
for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined);

// `… service -- logs …` reads the request ledger of a running service (cli-logs.ts); `… exec …` runs a command
// against a fresh one (cli-exec.ts); anything else starts one.
const readsLogs = process.argv[2] === 'logs';
const runsCommand = process.argv[2] === 'exec';
const triggers = process.argv[2] === 'trigger';

// Handlers go in before the ready line: a parent may signal the moment it reads that line.
if (!readsLogs && !runsCommand && !triggers) {
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

async function main(): Promise<void> {
  let options;
  let parentPid;
  try {
    options = parseServiceArgs(process.argv.slice(2), process.env);
    parentPid = parentPidFromEnv(process.env);
  } catch (error) {
    process.stderr.write(`local service: ${(error as Error).message}\n`);
    process.exit(2);
  }
  // Read once; nothing this process starts needs to inherit it.
  delete process.env[ADMIN_TOKEN_ENV];
  if (parentPid !== null) {
    watchParent(parentPid, (why) => stop(why, { soon: true }), { watchStdin: true });
  }
  try {
    service = await startService(options);
  } catch (error) {
    if (error instanceof DataFolderInUseError) {
      process.stderr.write(`local service: ${error.message}\n`);
      process.exit(DATA_FOLDER_IN_USE_EXIT_CODE);
    }
    throw error;
  }
  if (stopRequested) {
    const reason = stopRequested;
    stopRequested = null;
    stop(reason);
    return;
  }
  const line = `${JSON.stringify(readyLine(service))}\n`;
  // The file first: whoever has read the ready line can read the ready file too.
  if (options.readyFile !== undefined) writeReadyFile(options.readyFile, line);
  process.stdout.write(line);
}

function startCommand(): void {
  main().catch((error: unknown) => {
    reportStartFailure(error, (text) => process.stderr.write(text));
    process.exit(1);
  });
}

if (readsLogs) {
  void import('./cli-logs.ts')
    .then(({ runLogs }) => runLogs(process.argv.slice(3), process.env, (line) => process.stdout.write(line)))
    .then((code) => process.exit(code));
} else if (runsCommand) {
  void import('./cli-exec.ts')
    .then(({ runExec }) => runExec(process.argv.slice(3), process.env))
    .then(
      (code) => process.exit(code),
      (error: unknown) => {
        process.stderr.write(`local service exec: ${String(error)}\n`);
        process.exit(1);
      },
    );
} else if (triggers) {
  void import('./cli-trigger.ts')
    .then(({ runTrigger }) => runTrigger(process.argv.slice(3), process.env, (line) => process.stdout.write(line)))
    .then((code) => process.exit(code));
} else startCommand();
