// `npm run -s service -- exec [--seed] [--data DIR] [--import PATH] [--log-level warn] -- COMMAND [ARGS…]`: a fresh service for one
// command (a test suite in CI). The service runs in this process on a free loopback port, on a temporary data folder
// (removed afterwards) unless --data names one, starting from an export with --import; the command runs with STUDIO_BASE_URL and STUDIO_ADMIN_TOKEN, and with
// --seed STUDIO_ACCOUNT_ID and STUDIO_API_KEY (absent without --seed), its stdio passed through. Exit code: the
// command's (a signal n: 128 + n); 2 bad flags or no command; 127 the command cannot be started; 1 and 3 as the
// service's own start (docs/local-service.md "Run your tests against a fresh service (CI)").
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { constants, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ADMIN_TOKEN_ENV, reportStartFailure } from './cli-options.ts';
import { snapshotFolderOf } from './services/snapshots.ts';
import { DATA_FOLDER_IN_USE_EXIT_CODE, DataFolderInUseError, startService, type RunningService } from './start.ts';

/** What the command reads to reach the service; the last two only with --seed. */
export const EXEC_ENV = { baseUrl: 'STUDIO_BASE_URL', adminToken: ADMIN_TOKEN_ENV, accountId: 'STUDIO_ACCOUNT_ID', apiKey: 'STUDIO_API_KEY' } as const;
const USAGE = 'usage: service -- exec [--seed] [--data DIR] [--import PATH] [--log-level LEVEL] -- COMMAND [ARGS…]';
/** The shell's code for a command that could not be found or started. */
const COMMAND_NOT_STARTED_EXIT_CODE = 127;

class UsageError extends Error {}

export interface ExecOptions {
  seed: boolean;
  /** Null: a temporary folder, removed afterwards. */
  dataDir: string | null;
  /** An export or snapshot folder to start from (`--import`), checked like the service's own flag. */
  importFrom: string | null;
  logLevel: string;
  adminToken: string | undefined;
  command: string;
  args: string[];
}

export function parseExecArgs(argv: readonly string[], env: NodeJS.ProcessEnv): ExecOptions {
  const split = argv.indexOf('--');
  const [command, ...args] = split === -1 ? [] : argv.slice(split + 1);
  if (!command) throw new UsageError(`exec needs a command after --; ${USAGE}`);
  const { values } = parseArgs({
    args: argv.slice(0, split),
    options: {
      seed: { type: 'boolean', default: false },
      data: { type: 'string' },
      import: { type: 'string' },
      // The command's own output is what a CI log is read for: the service says only what went wrong.
      'log-level': { type: 'string', default: 'warn' },
    },
    strict: true,
    allowPositionals: false,
  });
  const importFrom = values.import === undefined ? null : snapshotFolderOf(values.import);
  return { seed: values.seed, dataDir: values.data ?? null, importFrom, logLevel: values['log-level'], adminToken: env[ADMIN_TOKEN_ENV] || undefined, command, args };
}

/** The command's environment: ours, with the service's variables set and stale account ones dropped. */
function commandEnv(service: RunningService, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...env, [EXEC_ENV.baseUrl]: service.baseUrl, [EXEC_ENV.adminToken]: service.adminToken };
  delete out[EXEC_ENV.accountId];
  delete out[EXEC_ENV.apiKey];
  if (service.accountId) out[EXEC_ENV.accountId] = service.accountId;
  if (service.apiKey) out[EXEC_ENV.apiKey] = service.apiKey;
  return out;
}

/** Runs the command to its end; SIGTERM/SIGINT sent to us are passed on so it can stop, then the service stops. */
function runCommand(options: ExecOptions, env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(options.command, options.args, { stdio: 'inherit', env });
    const forward = (signal: NodeJS.Signals) => child.kill(signal);
    process.on('SIGTERM', forward);
    process.on('SIGINT', forward);
    child.once('error', (error) => {
      process.stderr.write(`local service exec: cannot start ${options.command}: ${error.message}\n`);
      resolve(COMMAND_NOT_STARTED_EXIT_CODE);
    });
    child.once('exit', (code, signal) => {
      process.off('SIGTERM', forward);
      process.off('SIGINT', forward);
      resolve(code ?? 128 + (signal ? constants.signals[signal] : 0));
    });
  });
}

export async function runExec(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  let options: ExecOptions;
  try {
    options = parseExecArgs(argv, env);
  } catch (error) {
    const message = error instanceof UsageError ? error.message : `${(error as Error).message}; ${USAGE}`;
    process.stderr.write(`local service exec: ${message}\n`);
    return 2;
  }
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'studio-exec-'));
  let service: RunningService | null = null;
  try {
    service = await startService({
      port: 0,
      dataDir,
      seed: options.seed,
      logLevel: options.logLevel,
      ...(options.importFrom !== null ? { importFrom: options.importFrom } : {}),
      ...(options.adminToken ? { adminToken: options.adminToken } : {}),
    });
    return await runCommand(options, commandEnv(service, env));
  } catch (error) {
    if (error instanceof DataFolderInUseError) {
      process.stderr.write(`local service: ${error.message}\n`);
      return DATA_FOLDER_IN_USE_EXIT_CODE;
    }
    reportStartFailure(error, (text) => process.stderr.write(text));
    return 1;
  } finally {
    await service?.close();
    if (options.dataDir === null) rmSync(dataDir, { recursive: true, force: true });
  }
}
