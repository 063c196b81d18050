// The Node guard: every npm script starts with scripts/check-node.cjs, which stops an old Node with one line
// (instead of ERR_UNKNOWN_FILE_EXTENSION and a stack from the first .ts script); npm install refuses through
// .npmrc's engine-strict. The scripts are run for real under an old Node when this machine has one.
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string }; scripts: Record<string, string> };
const GUARD = 'node scripts/check-node.cjs && ';
const { problem } = createRequire(import.meta.url)('./check-node.cjs') as { problem: (version: string, range: string) => string | null };
/** The lowest version the range admits (the first clause), e.g. [22, 18]. */
const minimum = /^\^?(?:>=)?(\d+)\.(\d+)/.exec(pkg.engines.node);

function older(version: string, major: number, minor: number): boolean {
  const [a = 0, b = 0] = version.split('.').map(Number);
  return a < major || (a === major && b < minor);
}

function nodeVersion(path: string): string | null {
  const out = spawnSync(path, ['-p', 'process.versions.node'], { encoding: 'utf8', timeout: 10_000 });
  return out.status === 0 ? out.stdout.trim() : null;
}

/** A Node older than the minimum on this machine, with an npm beside it or on PATH. */
function findOldNode(): { dir: string; version: string } | null {
  if (!minimum) return null;
  const dirs = [...new Set([...(process.env.PATH ?? '').split(delimiter), '/usr/bin', '/usr/local/bin'])].filter(Boolean);
  for (const dir of dirs) {
    const node = join(dir, process.platform === 'win32' ? 'node.exe' : 'node');
    if (!existsSync(node) || !statSync(node).isFile()) continue;
    const version = nodeVersion(node);
    if (version && older(version, Number(minimum[1]), Number(minimum[2]))) return { dir, version };
  }
  return null;
}

describe('Node version guard', () => {
  it('reads the range: 22 from 22.18, no 23 (it cannot run .ts scripts before 23.6 and is end of life), 24 and later', () => {
    expect(pkg.engines.node).toBe('^22.18.0 || >=24');
    const range = pkg.engines.node;
    for (const ok of ['22.18.0', '22.21.1', '24.0.0', '24.21.0', '26.1.0']) expect(problem(ok, range)).toBeNull();
    expect(problem('20.20.2', range)).toBe('Image Studio needs Node 22.18 or newer; this is Node 20.20.2');
    expect(problem('22.13.0', range)).toBe('Image Studio needs Node 22.18 or newer; this is Node 22.13.0');
    expect(problem('23.5.0', range)).toBe('Image Studio needs Node 22.18 or newer (Node 23 cannot run it; use ^22.18.0 || >=24); this is Node 23.5.0');
    expect(problem('24.0.0', '>=22.13')).toBeNull();
    expect(problem('22.0.0', 'latest')).toMatch(/engines\.node must read like/);
  });

  it('package.json, .npmrc and .nvmrc agree on the minimum', () => {
    const npmrc = readFileSync(join(ROOT, '.npmrc'), 'utf8');
    expect(npmrc.split(/\r?\n/).map((l) => l.trim())).toContain('engine-strict=true');
    const nvmrc = readFileSync(join(ROOT, '.nvmrc'), 'utf8').trim();
    expect(nvmrc).toMatch(/^\d+(\.\d+){0,2}$/);
    expect(older(nvmrc.includes('.') ? nvmrc : `${nvmrc}.999`, Number(minimum![1]), Number(minimum![2]))).toBe(false);
  });

  it('every npm script runs the guard first', () => {
    const unguarded = Object.entries(pkg.scripts).filter(([, command]) => !command.startsWith(GUARD));
    expect(unguarded).toEqual([]);
  });

  it('lets this Node through silently', () => {
    const run = spawnSync(process.execPath, ['scripts/check-node.cjs'], { cwd: ROOT, encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(run.stdout + run.stderr).toBe('');
  });

  const old = findOldNode();
  it.skipIf(!old)(
    `under an old Node every npm script stops at once with one line${old ? ` (Node ${old.version} from ${old.dir})` : ' (skipped: no Node older than the minimum on this machine)'}`,
    async () => {
      const { dir, version } = old!;
      const expected = `Image Studio needs Node ${minimum![1]}.${minimum![2]} or newer; this is Node ${version}`;
      const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));
      env.PATH = [dir, env.PATH].join(delimiter);
      const runs = await Promise.all(
        Object.keys(pkg.scripts).map(
          (name) =>
            new Promise<{ name: string; code: number | null; stdout: string; stderr: string }>((done) => {
              const child = spawn('npm', ['run', name], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
              let stdout = '';
              let stderr = '';
              child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
              child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
              child.on('error', (err) => done({ name, code: -1, stdout, stderr: `${stderr}${err.message}` }));
              child.on('close', (code) => done({ name, code, stdout, stderr }));
            }),
        ),
      );
      for (const run of runs) {
        const lines = run.stderr.split('\n').filter((line) => line.trim() !== '' && !/^npm warn /.test(line));
        expect({ script: run.name, failed: run.code !== 0, lines }).toEqual({ script: run.name, failed: true, lines: [expected] });
        // npm's own banner (`> image-studio@… name`, `> command`) is all that goes to stdout.
        expect(run.stdout.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('> '))).toEqual([]);
        expect(run.stdout + run.stderr).not.toMatch(/^\s+at |ERR_[A-Z_]+/m);
      }
    },
  );
});
