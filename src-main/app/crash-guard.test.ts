import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const guard = fileURLToPath(new URL('./crash-guard.ts', import.meta.url));

describe('crash guard', () => {
  it('keeps a real process alive through an unhandled rejection and an uncaught exception, and logs both', () => {
    const dir = mkdtempSync(join(tmpdir(), 'crash-guard-'));
    const logFile = join(dir, 'logs', 'main.log');
    const script = join(dir, 'main.mjs');
    writeFileSync(
      script,
      `import { installCrashGuard } from ${JSON.stringify(guard)};
installCrashGuard(${JSON.stringify(logFile)}, () => {});
Promise.reject(new Error('disk full while recording a turn'));
setTimeout(() => { throw new Error('a bug in a timer'); }, 10);
setTimeout(() => { process.stdout.write('still serving'); }, 200);`,
    );
    const run = spawnSync(process.execPath, [script], { encoding: 'utf8', timeout: 10_000 });
    expect(run.stdout).toBe('still serving');
    expect(run.status).toBe(0);
    const log = readFileSync(logFile, 'utf8');
    expect(log).toMatch(/unhandled rejection .*disk full while recording a turn/);
    expect(log).toMatch(/uncaught exception .*a bug in a timer/);
  });
});
