// Where the Electron binary is, without the `electron` package's own lookup (which tries to download it when
// missing). Used by `npm start` and the Electron e2e spec to decide whether Electron can run here at all.
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

/** Why no window can open here, or null when a display looks available. */
export function missingDisplay(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string | null {
  if (platform !== 'linux' && platform !== 'freebsd' && platform !== 'openbsd') return null;
  if (env.DISPLAY || env.WAYLAND_DISPLAY) return null;
  return 'there is no display (neither DISPLAY nor WAYLAND_DISPLAY is set)';
}
