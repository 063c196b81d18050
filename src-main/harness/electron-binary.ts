// Where the Electron binary is, and getting it on first use. Used by `npm start`, `npm run dev` and the
// Electron e2e spec.
//
// The electron package (45+) has no install script: its binary is downloaded on first use by the package's own
// install.js (@electron/get, which honours ELECTRON_MIRROR, electron_config_cache, electron_use_remote_checksums,
// force_no_cache and the checksums shipped in the package). ensureElectronBinary runs that script with this Node
// and the caller's environment, so every setting the electron package documents works here too
// (docs/decisions.md, "Electron on first start").
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export type ElectronBinary = { ok: true; path: string } | { ok: false; reason: string };

export function findElectronBinary(root: string, env: NodeJS.ProcessEnv = process.env): ElectronBinary {
  const moduleDir = join(root, 'node_modules', 'electron');
  const pathFile = join(moduleDir, 'path.txt');
  const relative = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : null;
  if (env.ELECTRON_OVERRIDE_DIST_PATH) {
    const path = join(env.ELECTRON_OVERRIDE_DIST_PATH, relative ?? (process.platform === 'win32' ? 'electron.exe' : 'electron'));
    return existsSync(path) ? { ok: true, path } : { ok: false, reason: `ELECTRON_OVERRIDE_DIST_PATH is set but ${path} does not exist` };
  }
  if (!existsSync(moduleDir)) return { ok: false, reason: 'the electron package is not installed (run npm install)' };
  if (relative === null) return { ok: false, reason: 'the Electron binary was never downloaded (node_modules/electron/path.txt is missing)' };
  const path = join(moduleDir, 'dist', relative);
  return existsSync(path) ? { ok: true, path } : { ok: false, reason: `the Electron binary is missing (${path})` };
}

export interface EnsureOptions {
  env?: NodeJS.ProcessEnv;
  /** What to run again after fixing the cause, named in the failure reason. */
  retryCommand?: string;
  /** The download and extraction together; about 100 MB. */
  timeoutMs?: number;
  /** Where the one "Downloading…" line goes. */
  log?: (line: string) => void;
}

const DEFAULT_TIMEOUT_MS = 15 * 60_000;

// Loaded into install.js's Node with --import. Node's fetch reports every network failure as "fetch failed" and
// keeps the reason (DNS, refused, TLS, proxy) in `cause`, which install.js's `console.error(err.stack)` drops;
// this puts the URL and the cause into the stack line it prints. It changes no behaviour, only that message.
const FETCH_CAUSE_PRELOAD = `
const originalFetch = globalThis.fetch;
globalThis.fetch = async (input, init) => {
  try {
    return await originalFetch(input, init);
  } catch (err) {
    const cause = err && err.cause;
    if (cause) {
      const url = typeof input === 'string' ? input : input && input.url ? input.url : String(input);
      err.stack = (err.name || 'Error') + ': could not fetch ' + url + ': ' + (cause.message || String(cause));
    }
    throw err;
  }
};
`;

/**
 * The Electron binary, downloading it first (one line on `log`) when the electron package is installed but its
 * binary is not. A failed download comes back as `ok: false` whose reason is one line: what failed, without a
 * stack, and how to retry.
 */
export async function ensureElectronBinary(root: string, options: EnsureOptions = {}): Promise<ElectronBinary> {
  const env = options.env ?? process.env;
  const found = findElectronBinary(root, env);
  // ELECTRON_OVERRIDE_DIST_PATH names a binary elsewhere on purpose; downloading would not put one there.
  if (found.ok || env.ELECTRON_OVERRIDE_DIST_PATH) return found;
  const moduleDir = join(root, 'node_modules', 'electron');
  const installScript = join(moduleDir, 'install.js');
  if (!existsSync(installScript)) return found;

  let version = '';
  try {
    version = (JSON.parse(readFileSync(join(moduleDir, 'package.json'), 'utf8')) as { version?: string }).version ?? '';
  } catch {
    /* named without a version below */
  }
  const what = version ? `Electron ${version}` : 'Electron';
  const retry = `check the network or set ELECTRON_MIRROR to a reachable mirror, then run \`${options.retryCommand ?? 'npm start'}\` again`;
  (options.log ?? ((line: string) => process.stdout.write(`${line}\n`)))(`Downloading ${what} (first start)…`);

  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const outcome = await runInstallScript(installScript, moduleDir, env, timeoutMs);
  if (outcome.timedOut) return { ok: false, reason: `downloading ${what} did not finish within ${formatDuration(timeoutMs)}; ${retry}` };
  if (outcome.code !== 0) return { ok: false, reason: `downloading ${what} failed (${errorEssence(outcome.output)}); ${retry}` };
  const after = findElectronBinary(root, env);
  return after.ok ? after : { ok: false, reason: `${what} was downloaded but ${after.reason}; ${retry}` };
}

interface InstallOutcome {
  code: number | null;
  timedOut: boolean;
  output: string;
}

function runInstallScript(script: string, cwd: string, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<InstallOutcome> {
  return new Promise((resolve) => {
    const preload = `data:text/javascript,${encodeURIComponent(FETCH_CAUSE_PRELOAD)}`;
    const child = spawn(process.execPath, ['--import', preload, script], {
      cwd,
      // install.js only prints a progress bar on a TTY, and its failure is a stack: both stay here.
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...env, ELECTRON_GET_NO_PROGRESS: '1' },
    });
    let output = '';
    let timedOut = false;
    const collect = (chunk: Buffer): void => {
      if (output.length < 64_000) output += chunk.toString('utf8');
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      resolve({ code: 1, timedOut: false, output: err.message });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, timedOut, output });
    });
  });
}

/** The first line that says what went wrong, without the error class and without stack frames. */
export function errorEssence(output: string): string {
  const lines = output
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('at ') && !/^\^+$/.test(line) && !/^node:internal\//.test(line));
  const line = lines.find((l) => /error/i.test(l) && !l.startsWith('(Use `node --trace')) ?? lines[0] ?? 'no error message';
  const text = line.replace(/^(?:[A-Z][A-Za-z]*)?Error: /, '');
  return text.length > 300 ? `${text.slice(0, 297)}…` : text;
}

function formatDuration(ms: number): string {
  return ms >= 60_000 && ms % 60_000 === 0 ? `${ms / 60_000} minutes` : `${Math.round(ms / 1000)} s`;
}

/** Why no window can open here, or null when a display looks available. */
export function missingDisplay(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string | null {
  if (platform !== 'linux' && platform !== 'freebsd' && platform !== 'openbsd') return null;
  if (env.DISPLAY || env.WAYLAND_DISPLAY) return null;
  return 'there is no display (neither DISPLAY nor WAYLAND_DISPLAY is set)';
}
