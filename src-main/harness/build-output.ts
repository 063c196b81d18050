// Whether the built app in out/ is older than its sources, and building it when so. Used by the harness
// (which serves out/renderer) and by `npm start` (which launches out/main). Two runs at once (several test
// workers, several people) take turns through a lock folder, so one build never erases another's output.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

export type BuildTarget = 'main' | 'preload' | 'renderer';

const OUTPUTS: Record<BuildTarget, string[]> = {
  main: ['out/main/index.js', 'out/main/service.js'],
  preload: ['out/preload/index.cjs'],
  renderer: ['out/renderer/index.html'],
};
const SOURCES: Record<BuildTarget, string[]> = {
  main: ['src-main', 'src-service', 'src-shared'],
  preload: ['src-preload', 'src-shared'],
  renderer: ['src-renderer', 'src-shared'],
};
const SHARED_INPUTS = ['electron.vite.config.ts', 'package.json'];

function newestSourceMtime(path: string): number {
  let info;
  try {
    info = statSync(path);
  } catch {
    return 0;
  }
  if (!info.isDirectory()) return /\.test\.tsx?$/.test(path) ? 0 : info.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry.startsWith('.')) continue;
    newest = Math.max(newest, newestSourceMtime(join(path, entry)));
  }
  return newest;
}

function oldestOutputMtime(root: string, target: BuildTarget): number | null {
  let oldest = Infinity;
  for (const file of OUTPUTS[target]) {
    try {
      oldest = Math.min(oldest, statSync(join(root, file)).mtimeMs);
    } catch {
      return null;
    }
  }
  return oldest;
}

/** The targets whose output is missing or older than a source file. */
export function staleTargets(root: string, targets: BuildTarget[]): BuildTarget[] {
  return targets.filter((target) => {
    const built = oldestOutputMtime(root, target);
    if (built === null) return true;
    const sources = [...SOURCES[target], ...SHARED_INPUTS].map((p) => newestSourceMtime(join(root, p)));
    return Math.max(...sources) > built;
  });
}

async function withBuildLock<T>(root: string, work: () => Promise<T>): Promise<T> {
  const lock = join(root, '.tmp', 'build.lock');
  mkdirSync(join(root, '.tmp'), { recursive: true });
  const deadline = Date.now() + 10 * 60_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // A lock older than ten minutes belongs to a build that died.
      try {
        if (Date.now() - statSync(lock).mtimeMs > 10 * 60_000) rmSync(lock, { recursive: true, force: true });
      } catch {
        /* it went away meanwhile */
      }
      if (Date.now() > deadline) throw new Error('Timed out waiting for another build of out/ to finish (.tmp/build.lock).');
      await new Promise((r) => setTimeout(r, 300));
    }
  }
  try {
    return await work();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/**
 * Builds the given targets with electron-vite when stale. Build output goes to stderr, so a script's stdout
 * keeps only its own lines (the harness's ready line). Resolves with the build's exit code (0 when fresh).
 */
export function buildIfStale(root: string, targets: BuildTarget[]): Promise<number> {
  if (staleTargets(root, targets).length === 0) return Promise.resolve(0);
  return withBuildLock(root, () => {
    // Another run may have built it while this one waited for the lock.
    const stale = staleTargets(root, targets);
    if (stale.length === 0) return Promise.resolve(0);
    // The renderer alone is built beside out/renderer and swapped in: a harness serving it meanwhile sees
    // either the old build or the new one, never an emptied folder.
    const sideDir = stale.length === 1 && stale[0] === 'renderer' ? join(root, 'out', `.renderer-build-${process.pid}`) : null;
    return runElectronVite(root, stale, sideDir).then((code) => {
      if (code === 0 && sideDir) swapIn(sideDir, join(root, 'out', 'renderer'));
      else if (sideDir) rmSync(sideDir, { recursive: true, force: true });
      return code;
    });
  });
}

function runElectronVite(root: string, targets: BuildTarget[], rendererOutDir: string | null): Promise<number> {
  return new Promise<number>((resolveBuild) => {
    const cli = join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js');
    const child = spawn(process.execPath, [cli, 'build'], {
      cwd: root,
      stdio: ['ignore', process.stderr, process.stderr],
      env: {
        ...process.env,
        STUDIO_BUILD_TARGETS: targets.join(','),
        ...(rendererOutDir ? { STUDIO_RENDERER_OUT_DIR: rendererOutDir } : {}),
      },
    });
    child.on('error', () => resolveBuild(1));
    child.on('exit', (code) => resolveBuild(code ?? 1));
  });
}

function swapIn(built: string, target: string): void {
  const old = `${target}.old-${process.pid}`;
  if (existsSync(target)) renameSync(target, old);
  renameSync(built, target);
  rmSync(old, { recursive: true, force: true });
}
