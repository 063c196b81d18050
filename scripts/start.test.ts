// `npm start` on a fresh checkout: the Electron binary is not there yet, so start.ts has the electron package's
// own install.js download it. Here the download comes from a loopback mirror (ELECTRON_MIRROR) that serves a
// stand-in Electron: a shell script that records how it was launched. The project is a temp copy of the layout
// whose node_modules links to the real packages except electron, a real copy without dist/ and path.txt.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'node_modules', 'electron', 'package.json'), 'utf8')) as { version: string }).version;
const ZIP_NAME = `electron-v${VERSION}-${process.platform}-${process.arch}.zip`;
// Where the binary sits inside the zip (install.js's getPlatformPath).
const BINARY_IN_ZIP = process.platform === 'darwin' ? 'Electron.app/Contents/MacOS/Electron' : 'electron';

/** A zip with stored (uncompressed) entries and Unix modes, enough for the extractor install.js uses. */
function makeZip(entries: Array<{ name: string; data: Buffer; mode: number }>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const crc = crc32(entry.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(0, 8); // stored
    local.writeUInt32LE(0, 10); // time, date
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(entry.data.length, 18);
    local.writeUInt32LE(entry.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4); // made by Unix, so the external attributes carry the mode
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(0, 10);
    central.writeUInt32LE(0, 12);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(entry.data.length, 20);
    central.writeUInt32LE(entry.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt16LE(0, 30); // extra
    central.writeUInt16LE(0, 32); // comment
    central.writeUInt16LE(0, 34); // disk
    central.writeUInt16LE(0, 36); // internal attributes
    central.writeUInt32LE(((0o100000 | entry.mode) << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, entry.data);
    centrals.push(central, name);
    offset += local.length + name.length + entry.data.length;
  }
  const centralSize = centrals.reduce((n, b) => n + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, ...centrals, end]);
}

// The stand-in Electron: records its arguments, its working folder and whether package.json's main file is
// there (what the real binary would load for '.'), then exits 0 without opening anything.
const STAND_IN = `#!/bin/sh
main=$(sed -n 's/.*"main"[[:space:]]*:[[:space:]]*"\\([^"]*\\)".*/\\1/p' package.json)
if [ -f "$main" ]; then main_ok=yes; else main_ok=no; fi
printf 'argv=%s\\ncwd=%s\\nmain=%s\\nmain_exists=%s\\n' "$*" "$(pwd -P)" "$main" "$main_ok" > "$STUDIO_STAND_IN_RECORD"
exit 0
`;

interface Mirror {
  url: string;
  requests: string[];
  close: () => Promise<void>;
}

function startMirror(mode: 'serve' | 'missing'): Promise<Mirror> {
  const zip = makeZip([
    { name: BINARY_IN_ZIP, data: Buffer.from(STAND_IN), mode: 0o755 },
    { name: 'version', data: Buffer.from(`v${VERSION}`), mode: 0o644 },
  ]);
  const shasums = `${createHash('sha256').update(zip).digest('hex')} *${ZIP_NAME}\n`;
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(req.url ?? '');
    const body = mode === 'missing' ? null : req.url === `/v${VERSION}/${ZIP_NAME}` ? zip : req.url === `/v${VERSION}/SHASUMS256.txt` ? Buffer.from(shasums) : null;
    if (!body) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, { 'content-length': body.length, 'content-type': 'application/octet-stream' }).end(body);
  });
  return new Promise((resolveMirror) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolveMirror({ url: `http://127.0.0.1:${port}/`, requests, close: () => new Promise((r) => server.close(() => r())) });
    });
  });
}

/** A fresh project: the real sources by link, built output that is newer than them, electron without its binary. */
/** Runs `use` against a fresh mirror and closes the mirror however `use` ends. */
async function withMirror(mode: 'serve' | 'missing', use: (mirror: Mirror) => Promise<void>): Promise<void> {
  const mirror = await startMirror(mode);
  try {
    await use(mirror);
  } finally {
    await mirror.close();
  }
}

function makeProject(base: string): string {
  const project = join(base, 'project');
  mkdirSync(join(project, 'node_modules'), { recursive: true });
  for (const entry of ['package.json', 'scripts', 'src-main', 'src-service', 'src-shared', 'src-preload', 'src-renderer', 'electron.vite.config.ts']) {
    symlinkSync(join(ROOT, entry), join(project, entry));
  }
  for (const entry of readdirSync(join(ROOT, 'node_modules'))) {
    if (entry !== 'electron') symlinkSync(join(ROOT, 'node_modules', entry), join(project, 'node_modules', entry));
  }
  cpSync(join(ROOT, 'node_modules', 'electron'), join(project, 'node_modules', 'electron'), {
    recursive: true,
    filter: (src) => !['dist', 'path.txt'].includes(src.slice(join(ROOT, 'node_modules', 'electron').length + 1)),
  });
  // Its own out/ (never the real one, which a build here would overwrite), dated after every source so that
  // buildIfStale has nothing to do.
  const future = new Date(Date.now() + 365 * 24 * 3600_000);
  for (const file of ['out/main/index.js', 'out/main/service.js', 'out/preload/index.cjs', 'out/renderer/index.html']) {
    const path = join(project, file);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, '// stand-in build output\n');
    utimesSync(path, future, future);
  }
  return project;
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function npmStart(project: string, env: NodeJS.ProcessEnv, script = 'scripts/start.ts'): Promise<Run> {
  // The settings @electron/get would read instead of ours (npm config, an outer mirror) are left out.
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !/^(npm_config_|npm_package_config_|ELECTRON_|electron_|force_no_cache$)/i.test(key)),
  );
  return new Promise((resolveRun) => {
    const child = spawn(process.execPath, [script], { cwd: project, env: { ...clean, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('close', (code) => resolveRun({ code, stdout, stderr }));
  });
}

describe.skipIf(process.platform === 'win32')('npm start on a fresh checkout (Electron not downloaded yet)', () => {
  let base: string;

  beforeAll(() => {
    base = mkdtempSync(join(tmpdir(), 'studio-first-start-'));
  });
  afterAll(() => {
    rmSync(base, { recursive: true, force: true });
  });

  it('downloads Electron from ELECTRON_MIRROR through install.js, then launches it on the project', async () => {
    const project = makeProject(join(base, 'ok'));
    const record = join(base, 'ok', 'stand-in.txt');
    await withMirror('serve', async (mirror) => {
      const run = await npmStart(project, {
        ELECTRON_MIRROR: mirror.url,
        electron_config_cache: join(base, 'ok', 'cache'),
        electron_use_remote_checksums: '1',
        DISPLAY: ':99',
        STUDIO_STAND_IN_RECORD: record,
      });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toContain(`Downloading Electron ${VERSION} (first start)…`);
      expect(mirror.requests).toContain(`/v${VERSION}/${ZIP_NAME}`);
      expect(mirror.requests).toContain(`/v${VERSION}/SHASUMS256.txt`);
      const launched = Object.fromEntries(
        readFileSync(record, 'utf8')
          .trim()
          .split('\n')
          .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
      );
      expect(launched.argv).toBe('.');
      expect(launched.cwd).toBe(project);
      expect(launched.main).toBe('out/main/index.js');
      expect(launched.main_exists).toBe('yes');
      // install.js finished its job: the next start finds the binary without asking the mirror again.
      expect(readFileSync(join(project, 'node_modules', 'electron', 'path.txt'), 'utf8')).toBe(BINARY_IN_ZIP);
      // No build ran: the stand-in output is untouched.
      expect(readFileSync(join(project, 'out', 'main', 'index.js'), 'utf8')).toBe('// stand-in build output\n');
      const before = mirror.requests.length;
      const again = await npmStart(project, { ELECTRON_MIRROR: mirror.url, DISPLAY: ':99', STUDIO_STAND_IN_RECORD: record });
      expect(again.code).toBe(0);
      expect(again.stdout).not.toContain('Downloading');
      expect(mirror.requests.length).toBe(before);
    });
  });

  it('when the mirror has no such file, says why in one line, how to retry and that the harness works', async () => {
    const project = makeProject(join(base, 'missing'));
    await withMirror('missing', async (mirror) => {
      const run = await npmStart(project, {
        ELECTRON_MIRROR: mirror.url,
        electron_config_cache: join(base, 'missing', 'cache'),
        DISPLAY: ':99',
        STUDIO_STAND_IN_RECORD: join(base, 'missing', 'stand-in.txt'),
      });
      expect(run.code).not.toBe(0);
      expect(mirror.requests).toContain(`/v${VERSION}/${ZIP_NAME}`);
      const lines = run.stderr.split('\n').filter((line) => line !== '');
      expect(lines).toHaveLength(1);
      const line = lines[0]!;
      expect(line).toContain(`downloading Electron ${VERSION} failed`);
      expect(line).toContain('404');
      expect(line).toContain('ELECTRON_MIRROR');
      expect(line).toContain('`npm start` again');
      expect(line).toContain('npm run harness');
      expect(run.stderr).not.toMatch(/^\s+at /m);
      expect(existsSync(join(project, 'node_modules', 'electron', 'path.txt'))).toBe(false);
      expect(existsSync(join(base, 'missing', 'stand-in.txt'))).toBe(false);
    });
  });

  it('npm run dev takes the same first-start step and, when it fails, names `npm run dev` for the retry', async () => {
    const project = makeProject(join(base, 'dev'));
    await withMirror('missing', async (mirror) => {
      const run = await npmStart(project, { ELECTRON_MIRROR: mirror.url, electron_config_cache: join(base, 'dev', 'cache'), DISPLAY: ':99' }, 'scripts/dev.ts');
      expect(run.code).not.toBe(0);
      expect(run.stdout).toContain(`Downloading Electron ${VERSION} (first start)…`);
      expect(mirror.requests).toContain(`/v${VERSION}/${ZIP_NAME}`);
      const lines = run.stderr.split('\n').filter((line) => line !== '');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain('`npm run dev` again');
      expect(lines[0]).toContain('npm run harness');
      // electron-vite never started: nothing was built over the stand-in output.
      expect(readFileSync(join(project, 'out', 'main', 'index.js'), 'utf8')).toBe('// stand-in build output\n');
    });
  });

  it('when the mirror cannot be reached, the line carries the network error instead of "fetch failed"', async () => {
    const project = makeProject(join(base, 'refused'));
    // A port that was just free: nothing listens there.
    const gone = await startMirror('missing');
    await gone.close();
    const run = await npmStart(project, { ELECTRON_MIRROR: gone.url, electron_config_cache: join(base, 'refused', 'cache'), DISPLAY: ':99' });
    expect(run.code).not.toBe(0);
    const lines = run.stderr.split('\n').filter((line) => line !== '');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/could not fetch http:\/\/127\.0\.0\.1:\d+\/v[\d.]+\/electron-v[^ ]+\.zip: connect ECONNREFUSED/);
    expect(lines[0]).toContain('npm run harness');
  });
});

// Keeps the zip writer above honest on its own: the system's unzip, where there is one, lists what it wrote.
it.skipIf(!existsSync('/usr/bin/unzip'))('the test zip writer produces a zip that unzip reads', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'studio-zip-'));
  try {
    const zipPath = join(dir, 'a.zip');
    writeFileSync(zipPath, makeZip([{ name: 'x/run', data: Buffer.from('#!/bin/sh\n'), mode: 0o755 }]));
    chmodSync(zipPath, 0o644);
    const out = await new Promise<string>((r) => {
      const child = spawn('/usr/bin/unzip', ['-Z', zipPath]);
      let text = '';
      child.stdout.on('data', (c: Buffer) => (text += c.toString()));
      child.on('close', () => r(text));
    });
    expect(out).toMatch(/-rwxr-xr-x.*x\/run/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
