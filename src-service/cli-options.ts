// The flags of `npm run service` (DESIGN.md §4), shared by the CLI and the utilityProcess entry. The admin token
// may also come from STUDIO_ADMIN_TOKEN (preferred: a command line is visible to every user of the machine).
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ScenarioSchema, type Scenario } from '../src-shared/admin.ts';
import { fsyncPath } from './recovery/backups.ts';
import { snapshotFolderOf } from './services/snapshots.ts';
import type { StartServiceOptions } from './start.ts';

export const ADMIN_TOKEN_ENV = 'STUDIO_ADMIN_TOKEN';

/** The flags as startService takes them, and `--ready-file` (the CLI writes it). */
export type ServiceArgs = StartServiceOptions & { readyFile?: string };

export function parseServiceArgs(argv: readonly string[], env: NodeJS.ProcessEnv = {}): ServiceArgs {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      host: { type: 'string', default: '127.0.0.1' },
      port: { type: 'string', default: '8420' },
      data: { type: 'string', default: './.local-service' },
      'admin-token': { type: 'string' },
      seed: { type: 'boolean', default: false },
      'log-level': { type: 'string', default: 'info' },
      scenario: { type: 'string' },
      import: { type: 'string' },
      'export-on-exit': { type: 'string' },
      'ready-file': { type: 'string' },
    },
    strict: true,
    allowPositionals: false,
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be an integer 0..65535, got ${values.port}`);
  const adminToken = values['admin-token'] || env[ADMIN_TOKEN_ENV] || undefined;
  return {
    host: values.host,
    port,
    dataDir: values.data,
    ...(adminToken ? { adminToken } : {}),
    seed: values.seed,
    logLevel: values['log-level'],
    ...(values.scenario !== undefined ? { scenario: readScenarioFile(values.scenario) } : {}),
    ...(values.import !== undefined ? { importFrom: snapshotFolderOf(values.import) } : {}),
    ...(values['export-on-exit'] ? { exportOnExit: values['export-on-exit'] } : {}),
    ...(values['ready-file'] ? { readyFile: values['ready-file'] } : {}),
  };
}

/**
 * `--scenario FILE`: a fault scenario as PUT /admin/scenario takes it (ScenarioSchema). A file that cannot be read,
 * is not JSON or fails the schema is a bad flag (exit 2) naming the field, like the admin API's 400.
 */
export function readScenarioFile(path: string): Scenario {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, 'utf8')) as unknown;
  } catch (error) {
    const why = error instanceof SyntaxError ? 'not JSON' : ((error as NodeJS.ErrnoException).code ?? String(error));
    throw new Error(`--scenario ${path}: ${why}`, { cause: error });
  }
  const parsed = ScenarioSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`--scenario ${path}: ${issue?.path.join('.') || 'scenario'}: ${issue?.message ?? 'invalid'}`);
  }
  return parsed.data;
}

/**
 * `--ready-file PATH`: the ready line written whole or not at all (a temporary file beside it, flushed, then renamed),
 * owner-only since it holds the admin token, so a CI step that waits for the file never reads half a line.
 */
export function writeReadyFile(path: string, line: string): void {
  const partial = `${path}.partial-${process.pid}`;
  try {
    writeFileSync(partial, line, { mode: 0o600 });
    fsyncPath(partial);
    renameSync(partial, path);
  } finally {
    rmSync(partial, { force: true });
  }
}

/**
 * A start failure as the one line a host shows the user (`local service: failed to start: …`), written last on stderr;
 * the stack before it is for the log (docs/local-service.md "Exit codes").
 */
export function reportStartFailure(error: unknown, write: (text: string) => void): string {
  const message = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
  if (error instanceof Error && error.stack) write(`${error.stack}\n`);
  write(`local service: failed to start: ${message}\n`);
  return message;
}
