// The house's walls, checked on the code as it is: no import cycle between main's rooms or between renderer
// features, no production function over the limit, and the layering lint refuses what docs/architecture.md forbids.
import { ESLint } from 'eslint';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_FUNCTION_LINES, PRODUCTION_TOPS, cycles, longFunctions, mainRoom, rendererRoom, roomEdges } from './architecture.ts';

const root = resolve(import.meta.dirname, '..');

describe('the house has no import cycle between rooms', () => {
  it('finds a cycle when there is one (the measure itself can fail)', () => {
    const edges = new Map([
      ['a', new Map([['b', 'a.ts -> b.ts']])],
      ['b', new Map([['c', 'b.ts -> c.ts']])],
      ['c', new Map([['a', 'c.ts -> a.ts']])],
      ['d', new Map([['a', 'd.ts -> a.ts']])],
    ]);
    expect(cycles(edges)).toEqual([['a', 'b', 'c']]);
  });

  it('between the folders of main', () => {
    expect(cycles(roomEdges('src-main', mainRoom))).toEqual([]);
  });

  it('between the features of the renderer', () => {
    expect(cycles(roomEdges('src-renderer', rendererRoom))).toEqual([]);
  });
});

describe(`no production function is longer than ${MAX_FUNCTION_LINES} lines`, () => {
  it('in any process', () => {
    const over = longFunctions(PRODUCTION_TOPS);
    expect(over.map((f) => `${f.file}:${f.line} ${f.name} (${f.lines} lines)`)).toEqual([]);
  });

  it('counts a long function when there is one (the measure itself can fail)', () => {
    expect(longFunctions(['scripts'], 20).map((f) => f.name)).toContain('cycles');
  });
});

describe('the layering lint (allow-lists per room)', () => {
  const eslint = new ESLint({ cwd: root });
  const layeringErrors = async (filePath: string, code: string): Promise<string[]> => {
    const [result] = await eslint.lintText(code, { filePath: resolve(root, filePath) });
    return (result?.messages ?? []).filter((m) => m.ruleId === 'layering/rooms').map((m) => m.message);
  };

  it('refuses an import the importing room does not list (domain may not import the composition root)', async () => {
    const errors = await layeringErrors('src-main/domain/probe.ts', "import { createStudioApp } from '../app/create-app.ts';\nexport const x = createStudioApp;\n");
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/src-main\/domain may not import src-main\/app/);
  });

  it('refuses a feature importing another feature past its front door', async () => {
    const errors = await layeringErrors('src-renderer/features/batch/probe.ts', "import { ImageViewer } from '../viewer/ImageViewer.tsx';\nexport const x = ImageViewer;\n");
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/front door/);
  });

  it('refuses a deep import into any feature that keeps a front door, from a feature or from App.tsx, a lazy page too', async () => {
    const fromFeature = await layeringErrors('src-renderer/features/money/probe.ts', "import { useSettings } from '../settings/queries.ts';\nexport const x = useSettings;\n");
    expect(fromFeature).toEqual([expect.stringMatching(/src-renderer\/features\/settings is entered only through its front door/)]);
    const fromApp = await layeringErrors('src-renderer/probe.tsx', "export const load = () => import('./features/batch/BatchPage.tsx');\n");
    expect(fromApp).toEqual([expect.stringMatching(/src-renderer\/features\/batch is entered only through its front door/)]);
  });

  it('refuses i18n importing ui (ui builds on i18n, never the reverse)', async () => {
    const errors = await layeringErrors('src-renderer/i18n/probe.ts', "import { trapTab } from '../ui/trapTab.ts';\nexport const x = trapTab;\n");
    expect(errors).toEqual([expect.stringMatching(/src-renderer\/i18n may not import src-renderer\/ui/)]);
  });

  it('refuses a new folder until it is placed', async () => {
    const errors = await layeringErrors('src-main/unplaced-room/probe.ts', 'export const x = 1;\n');
    expect(errors).toEqual([expect.stringMatching(/src-main\/unplaced-room is not placed/)]);
  });

  it('accepts an import the room lists, through the front door', async () => {
    expect(await layeringErrors('src-main/batch/probe.ts', "import { retryVerdict } from '../domain/retry-policy.ts';\nexport const x = retryVerdict;\n")).toEqual([]);
    expect(await layeringErrors('src-renderer/features/batch/probe.ts', "import * as viewer from '../viewer/index.ts';\nexport const x = viewer;\n")).toEqual([]);
    expect(await layeringErrors('src-renderer/features/money/probe.ts', "import { useSettings } from '../settings/index.ts';\nexport const x = useSettings;\n")).toEqual([]);
  });
});
