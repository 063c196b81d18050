import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { staleTargets } from './build-output.ts';
import { findElectronBinary, missingDisplay } from './electron-binary.ts';

let root: string;

function file(path: string, ageSeconds: number): void {
  const full = join(root, path);
  mkdirSync(join(full, '..'), { recursive: true });
  writeFileSync(full, 'x');
  const t = Date.now() / 1000 - ageSeconds;
  utimesSync(full, t, t);
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'build-output-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('build freshness', () => {
  it('calls a target stale when its output is missing', () => {
    file('src-renderer/main.tsx', 100);
    expect(staleTargets(root, ['renderer'])).toEqual(['renderer']);
  });

  it('calls a target fresh when its output is newer than every source, and stale after a source changes', () => {
    file('src-renderer/main.tsx', 100);
    file('src-shared/catalog.ts', 100);
    file('out/renderer/index.html', 50);
    expect(staleTargets(root, ['renderer'])).toEqual([]);
    file('src-shared/catalog.ts', 10);
    expect(staleTargets(root, ['renderer'])).toEqual(['renderer']);
  });

  it('ignores test files and judges each target by its own sources', () => {
    file('src-renderer/main.tsx', 100);
    file('src-main/electron/main.ts', 100);
    file('out/renderer/index.html', 50);
    file('out/main/index.js', 50);
    file('out/main/service.js', 50);
    file('src-renderer/x.test.ts', 1);
    expect(staleTargets(root, ['renderer', 'main'])).toEqual([]);
    file('src-main/electron/main.ts', 1);
    expect(staleTargets(root, ['renderer', 'main'])).toEqual(['main']);
  });
});

describe('Electron binary lookup', () => {
  it('reports a missing download without trying to fetch it', () => {
    mkdirSync(join(root, 'node_modules', 'electron'), { recursive: true });
    const found = findElectronBinary(root, {});
    expect(found).toEqual({ ok: false, reason: expect.stringContaining('never downloaded') });
  });

  it('finds the binary named by path.txt, or under ELECTRON_OVERRIDE_DIST_PATH', () => {
    file('node_modules/electron/path.txt', 1);
    writeFileSync(join(root, 'node_modules', 'electron', 'path.txt'), 'electron');
    file('node_modules/electron/dist/electron', 1);
    expect(findElectronBinary(root, {})).toEqual({ ok: true, path: join(root, 'node_modules', 'electron', 'dist', 'electron') });
    file('custom/electron', 1);
    expect(findElectronBinary(root, { ELECTRON_OVERRIDE_DIST_PATH: join(root, 'custom') })).toEqual({ ok: true, path: join(root, 'custom', 'electron') });
    expect(findElectronBinary(root, { ELECTRON_OVERRIDE_DIST_PATH: join(root, 'nowhere') }).ok).toBe(false);
  });

  it('knows when Linux has no display', () => {
    expect(missingDisplay({}, 'linux')).toContain('no display');
    expect(missingDisplay({ DISPLAY: ':99' }, 'linux')).toBeNull();
    expect(missingDisplay({}, 'darwin')).toBeNull();
  });
});
