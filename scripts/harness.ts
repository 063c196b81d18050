// `npm run harness -- --port P --data DIR [--host 127.0.0.1] [--memory-keys]`: serves the built renderer and
// the real main-process handlers to a browser on this machine (DESIGN.md §2 rule 6). Prints one JSON line
// starting with {"event":"ready"} holding "url" (with the per-run token); SIGTERM stops app and service.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadHarnessCore } from '../src-main/harness/core.ts';
import { HarnessStartError, runHarness } from '../src-main/harness/run-harness.ts';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    data: { type: 'string' },
    host: { type: 'string', default: '127.0.0.1' },
    'memory-keys': { type: 'boolean', default: false },
  },
  allowPositionals: false,
});

function fail(line: string): never {
  process.stderr.write(`harness: ${line}\n`);
  process.exit(1);
}

const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be a port number (0 picks a free one), not "${values.port}".`);
if (values.host !== '127.0.0.1' && values.host !== 'localhost' && values.host !== '::1') {
  fail('--host must be a loopback address: the harness can reach the keychain and must not be reachable from the network.');
}
const dataDir = values.data ?? mkdtempSync(join(tmpdir(), 'studio-harness-'));

try {
  const harness = await runHarness(
    { root: process.cwd(), port, dataDir, host: values.host, ...(values['memory-keys'] ? { secretStore: 'memory' as const } : {}) },
    loadHarnessCore(),
  );
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    const force = setTimeout(() => {
      process.stderr.write(`harness: did not stop within 10 s of ${signal}; exiting.\n`);
      process.exit(1);
    }, 10_000);
    force.unref();
    harness.stop().then(
      () => process.exit(0),
      (err: unknown) => {
        process.stderr.write(`harness: error while stopping: ${err instanceof Error ? err.message : String(err)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
} catch (err) {
  if (err instanceof HarnessStartError) fail(err.message);
  fail(`could not start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
}
