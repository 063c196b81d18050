// The renderer's start-up evaluates no zod (docs/decisions.md "Start-up"): walks the static value imports from
// main.tsx, as the bundler does (dynamic import() starts another chunk and is not followed; `import type` is
// erased), and checks that zod is not among them. The lint rule refuses direct imports; this also catches one
// brought in through another module.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');

/** The static value imports and re-exports of a source file (specifiers as written). */
function staticImports(source: string): string[] {
  const found: string[] = [];
  // `import … from 'x'`, `export … from 'x'`, `import 'x'`; not `import type …` or `export type …`.
  const pattern = /^\s*(?:import|export)\s+(?!type\s)(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm;
  for (const match of source.matchAll(pattern)) found.push(match[1] ?? '');
  return found;
}

/** Every module start-up evaluates, from `entry`: our files by path, packages by name. */
function startupModules(entry: string): Set<string> {
  const seen = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop() ?? '';
    if (seen.has(file)) continue;
    seen.add(file);
    if (!file.startsWith('/')) continue;
    if (!/\.(ts|tsx)$/.test(file)) continue;
    for (const specifier of staticImports(readFileSync(file, 'utf8'))) {
      queue.push(specifier.startsWith('.') ? resolve(dirname(file), specifier) : specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/'));
    }
  }
  return seen;
}

describe('renderer start-up imports', () => {
  const modules = startupModules(resolve(ROOT, 'src-renderer/main.tsx'));

  it('reach the app, the studio and the shared contract values', () => {
    // The walk itself works: what start-up must evaluate is found.
    expect(modules).toContain(resolve(ROOT, 'src-renderer/App.tsx'));
    expect(modules).toContain(resolve(ROOT, 'src-renderer/features/gallery/GalleryList.tsx'));
    expect(modules).toContain(resolve(ROOT, 'src-shared/limits.ts'));
    expect(modules).toContain('react');
  });

  it('do not include zod: no module start-up evaluates imports it', () => {
    const importsZod = [...modules].filter((m) => m.startsWith('/') && /\.tsx?$/.test(m) && staticImports(readFileSync(m, 'utf8')).includes('zod'));
    expect(importsZod).toEqual([]);
    expect(modules).not.toContain('zod');
  });

  it('leave the lazy parts out: the other tabs and the dropped-file reader', () => {
    for (const lazy of ['features/batch/BatchPage.tsx', 'features/settings/SettingsPage.tsx', 'features/compose/generation-data-reader.ts']) {
      expect(modules).not.toContain(resolve(ROOT, 'src-renderer', lazy));
    }
  });

  it('finds a value import written over several lines, and skips type-only ones', () => {
    expect(staticImports("import {\n  a,\n  b,\n} from './x.ts';\nimport type { C } from 'zod';\nimport './y.css';\nexport { d } from '../z.ts';\n")).toEqual(['./x.ts', './y.css', '../z.ts']);
  });
});
