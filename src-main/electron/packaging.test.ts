// The packaged app's hardening in electron-builder.yml: the Electron fuses, the macOS entitlements, and keytar's
// install-time helpers kept out of app.asar. The file patterns are evaluated with electron-builder's own matcher
// (the function it uses for node_modules) against the real files in node_modules, and the list of install-time
// packages is derived from package-lock.json, so drift in either direction fails here.
import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, resolve } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..', '..');
const config = parse(readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8')) as {
  asar?: boolean;
  files: Array<string | object>;
  electronFuses?: Record<string, boolean>;
  mac?: { entitlements?: string; entitlementsInherit?: string; files?: unknown };
  linux?: { files?: unknown };
  win?: { files?: unknown };
};

describe('Electron fuses', () => {
  const REQUIRED: Record<string, boolean> = {
    runAsNode: false,
    enableNodeOptionsEnvironmentVariable: false,
    enableNodeCliInspectArguments: false,
    enableCookieEncryption: true,
    enableEmbeddedAsarIntegrityValidation: true,
    onlyLoadAppFromAsar: true,
    // The renderer comes from app://studio/, so file:// needs no extra privileges.
    grantFileProtocolExtraPrivileges: false,
  };

  it('are all set the hardened way', () => {
    expect(config.electronFuses).toMatchObject(REQUIRED);
  });

  it('use names electron-builder knows (a misspelt fuse is silently ignored)', () => {
    const declarations = readFileSync(join(ROOT, 'node_modules', 'app-builder-lib', 'out', 'configuration.d.ts'), 'utf8');
    const body = /export interface FuseOptionsV1 \{([\s\S]*?)\n\}/.exec(declarations)?.[1] ?? '';
    const known = [...body.matchAll(/^\s+(\w+)\?: boolean;/gm)].map((m) => m[1]);
    expect(known).toContain('runAsNode');
    expect(Object.keys(config.electronFuses ?? {}).filter((name) => !known.includes(name))).toEqual([]);
  });

  it('onlyLoadAppFromAsar has an app.asar to load', () => {
    expect(config.asar).not.toBe(false);
  });
});

describe('macOS entitlements', () => {
  // Each one kept has its reason in docs/decisions.md.
  const ALLOWED = new Set(['com.apple.security.cs.allow-jit']);
  const FORBIDDEN = [
    'com.apple.security.cs.disable-library-validation',
    'com.apple.security.cs.allow-unsigned-executable-memory',
    'com.apple.security.cs.allow-dyld-environment-variables',
  ];

  function keys(file: string): string[] {
    const text = readFileSync(join(ROOT, file), 'utf8').replace(/<!--[\s\S]*?-->/g, '');
    return [...text.matchAll(/<key>\s*([^<]+?)\s*<\/key>/g)].map((m) => m[1]!);
  }

  it('sets both the app and the inherited file (electron-builder falls back to a permissive template)', () => {
    expect(config.mac?.entitlements).toBeTruthy();
    expect(config.mac?.entitlementsInherit).toBeTruthy();
  });

  it('grant nothing beyond the allow-list', () => {
    const files = [...new Set([config.mac!.entitlements!, config.mac!.entitlementsInherit!, ...readdirSync(join(ROOT, 'resources')).filter((f) => /^entitlements.*\.plist$/.test(f)).map((f) => `resources/${f}`)])];
    for (const file of files) {
      const granted = keys(file);
      expect(granted, file).toContain('com.apple.security.cs.allow-jit');
      expect(granted.filter((key) => FORBIDDEN.includes(key)), file).toEqual([]);
      expect(granted.filter((key) => !ALLOWED.has(key)), file).toEqual([]);
    }
  });
});

// electron-builder's own matcher for node_modules: only the `!` patterns of `files` apply there, after `**/*`.
type FilterStats = ReturnType<typeof lstatSync> & { moduleFullFilePath?: string };
type NodeModuleMatcher = { createFilter(): (file: string, stat: FilterStats) => boolean };
const { getNodeModuleFileMatcher } = createRequire(import.meta.url)('app-builder-lib/out/fileMatcher') as {
  getNodeModuleFileMatcher(appDir: string, destination: string, macroExpander: (s: string) => string, platformOptions: object, packager: object): NodeModuleMatcher;
};
const filters = (['linux', 'mac', 'win'] as const).map((platform) => ({
  platform,
  filter: getNodeModuleFileMatcher(ROOT, join(ROOT, 'app'), (s) => s, config[platform] ?? {}, { config, debugLogger: { isEnabled: false } }).createFilter(),
}));

/** Whether electron-builder would copy this path (relative to the project, under node_modules) into the app. */
function shipped(path: string, filter: (file: string, stat: FilterStats) => boolean): boolean {
  const absolute = join(ROOT, path);
  const stat: FilterStats = lstatSync(absolute);
  stat.moduleFullFilePath = path;
  return filter(absolute, stat);
}

/** The files of a package that would ship: a directory the filter refuses is not walked (as electron-builder does). */
function shippedFiles(packageDir: string, filter: (file: string, stat: FilterStats) => boolean): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(join(ROOT, dir)).sort()) {
      const path = `${dir}/${name}`;
      if (!shipped(path, filter)) continue;
      if (lstatSync(join(ROOT, path)).isDirectory()) walk(path);
      else out.push(relative(packageDir, path));
    }
  };
  walk(packageDir);
  return out;
}

/** Lock paths of the production dependency tree, leaving out what is reachable only through `cut`. */
function productionTree(cut: Set<string>): Set<string> {
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { dependencies?: Record<string, string>; optionalDependencies?: Record<string, string> }>;
  };
  const find = (from: string, name: string): string | null => {
    for (let dir = from; ; ) {
      const candidate = `${dir ? `${dir}/` : ''}node_modules/${name}`;
      if (lock.packages[candidate]) return candidate;
      if (!dir) return null;
      const at = dir.lastIndexOf('/node_modules/');
      dir = at < 0 ? '' : dir.slice(0, at);
    }
  };
  const seen = new Set<string>();
  const queue = Object.keys(lock.packages['']!.dependencies ?? {}).map((name) => find('', name));
  while (queue.length > 0) {
    const path = queue.pop();
    if (!path || seen.has(path) || cut.has(path)) continue;
    seen.add(path);
    const entry = lock.packages[path]!;
    for (const name of Object.keys({ ...entry.dependencies, ...entry.optionalDependencies })) queue.push(find(path, name));
  }
  return seen;
}

describe("keytar's install-time helpers stay out of app.asar", () => {
  const keytarDeps = Object.keys((JSON.parse(readFileSync(join(ROOT, 'node_modules', 'keytar', 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies);

  it("keytar's run-time code loads nothing but its own binding", () => {
    const requires = readdirSync(join(ROOT, 'node_modules', 'keytar', 'lib'))
      .filter((f) => f.endsWith('.js'))
      .flatMap((f) => [...readFileSync(join(ROOT, 'node_modules', 'keytar', 'lib', f), 'utf8').matchAll(/require\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1]));
    expect(requires).toEqual(['../build/Release/keytar.node']);
    // So its dependencies (prebuild-install, node-addon-api) serve only its install step.
    expect(keytarDeps.sort()).toEqual(['node-addon-api', 'prebuild-install']);
  });

  for (const { platform, filter } of filters) {
    it(`${platform}: keytar ships its lib/ and keytar.node and none of its sources or build leftovers`, () => {
      const files = shippedFiles('node_modules/keytar', filter);
      expect(files).toContain('lib/keytar.js');
      expect(files).toContain(join('build', 'Release', 'keytar.node'));
      const allowed = (file: string): boolean =>
        file.startsWith(`lib${'/'}`) || file === join('build', 'Release', 'keytar.node') || ['package.json', 'LICENSE.md', 'README.md'].includes(file);
      expect(files.filter((file) => !allowed(file))).toEqual([]);
    });

    it(`${platform}: the packages only keytar's install step needs are left out, and every run-time package stays`, () => {
      const all = productionTree(new Set());
      const runtime = productionTree(new Set(keytarDeps.map((name) => `node_modules/${name}`)));
      const installOnly = [...all].filter((path) => !runtime.has(path));
      expect(installOnly).toContain('node_modules/prebuild-install');
      expect(installOnly).toContain('node_modules/node-addon-api');
      const leaking = installOnly.filter((path) => shipped(path, filter) || shippedFiles(path, filter).length > 0);
      expect(leaking).toEqual([]);
      // An exclusion that hits a package something else needs at run time would break the packaged app.
      // (Optional packages for other platforms are not installed here.)
      const missing = [...runtime].filter((path) => existsSync(join(ROOT, path))).filter((path) => !shipped(path, filter) || !shipped(`${path}/package.json`, filter));
      expect(missing).toEqual([]);
    });
  }
});
