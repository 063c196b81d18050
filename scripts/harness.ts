// `npm run harness -- --port P --data DIR [--memory-keys]`: serves the built renderer and
// the real main-process handlers to a browser on this machine, on 127.0.0.1 only (DESIGN.md §2 rule 6). Prints one JSON line
// starting with {"event":"ready"} holding "url" (with the per-run token); SIGTERM stops app and service.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { installCrashGuard } from '../src-main/app/crash-guard.ts';
import { loadHarnessCore } from '../src-main/harness/core.ts';
import { HarnessStartError, runHarness } from '../src-main/harness/run-harness.ts';

function fail(line: string): never {
  process.stderr.write(`harness: ${line}\n`);
  process.exit(1);
}

function parseCommandLine() {
  try {
    return parseArgs({
      options: {
        port: { type: 'string', default: '0' },
        data: { type: 'string' },
        'memory-keys': { type: 'boolean', default: false },
      },
      allowPositionals: false,
    }).values;
  } catch (err) {
    fail(`${err instanceof Error ? err.message : String(err)} (usage: npm run harness -- --port P --data DIR [--memory-keys])`);
  }
}
const values = parseCommandLine();

const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be a port number (0 picks a free one), not "${values.port}".`);
const dataDir = values.data ?? mkdtempSync(join(tmpdir(), 'studio-harness-'));
// Nothing ends the app by accident (docs/main-process.md): errors go to DATA/logs/main.log and stderr.
installCrashGuard(join(dataDir, 'logs', 'main.log'));

// Signals are taken from the start, so a stop during start-up still closes the app and its service child.
let harness: { stop(): Promise<void> } | null = null;
let stopSignal: string | null = null;
function stop(signal: string): void {
  if (stopSignal !== null) return;
  stopSignal = signal;
  if (harness) finish(harness);
}
function finish(running: { stop(): Promise<void> }): void {
  const force = setTimeout(() => {
    process.stderr.write(`harness: did not stop within 10 s of ${stopSignal}; exiting.\n`);
    process.exit(1);
  }, 10_000);
  force.unref();
  running.stop().then(
    () => process.exit(0),
    (err: unknown) => {
      process.stderr.write(`harness: error while stopping: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    },
  );
}
process.on('SIGTERM', () => stop('SIGTERM'));
process.on('SIGINT', () => stop('SIGINT'));

try {
  harness = await runHarness(
    { root: process.cwd(), port, dataDir, ...(values['memory-keys'] ? { secretStore: 'memory' as const } : {}) },
    loadHarnessCore(),
  );
  if (stopSignal !== null) finish(harness);
} catch (err) {
  if (err instanceof HarnessStartError) fail(err.message);
  fail(`could not start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
}
