// ESLint flat config. The import boundaries of DESIGN.md §2 and STYLE.md are enforced here, per folder.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { builtinModules } from 'node:module';
import { layers } from './scripts/layers.js';

const nodeBuiltins = [...builtinModules.filter((m) => !m.startsWith('_')), ...builtinModules.map((m) => `node:${m}`)];

const ZOD_AT_START =
  'The renderer imports these for types only: their values build zod schemas at start-up. Take lists and limits from src-shared/limits.ts, or import() what needs zod when it is needed (docs/decisions.md "Start-up").';

/** Boundary rules: which folders of ours, and which runtimes, a folder may not import. */
function forbid({ folders = [], runtimes = [], message, extra = [] }) {
  return {
    'no-restricted-imports': [
      'error',
      {
        paths: runtimes.map((name) => ({ name, message })),
        patterns: [
          ...folders.map((f) => ({ group: [`**/${f}`, `**/${f}/**`], message })),
          { group: ['node:*'], message: runtimes.includes('node:*') ? message : undefined },
          ...extra,
        ].filter((p) => p.message !== undefined),
      },
    ],
  };
}

export default tseslint.config(
  { ignores: ['node_modules/', '.tools/', 'out/', 'dist/', 'release/', 'test-results/', 'playwright-report/', '.local-service/', '.tmp/', 'e2e/fixtures/lint/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2024, sourceType: 'module', globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['src-shared/**/*.ts'],
    ignores: ['src-shared/**/*.test.ts'],
    languageOptions: { globals: {} },
    rules: {
      ...forbid({
        folders: ['src-main', 'src-service', 'src-renderer', 'src-preload'],
        runtimes: ['node:*', 'electron', 'react', 'react-dom', ...nodeBuiltins],
        message: 'src-shared is the contract: pure TypeScript, no runtime (node, DOM, electron) and nothing else of ours (DESIGN.md §2).',
      }),
      'no-restricted-globals': [
        'error',
        ...['window', 'document', 'process', 'Buffer', 'require', 'navigator', 'localStorage', '__dirname'].map((name) => ({
          name,
          message: 'src-shared runs everywhere: use only Web Crypto and the text codecs.',
        })),
      ],
    },
  },
  {
    files: ['src-renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...forbid({
        folders: ['src-main', 'src-service', 'src-preload'],
        runtimes: ['node:*', 'electron', ...nodeBuiltins],
        message: 'The renderer imports only src-shared and browser libraries; it talks to main through lib/desktop.ts (DESIGN.md §2).',
      }),
      // The studio's start-up evaluates no zod schemas (docs/decisions.md "Start-up"): the contract's values
      // come from src-shared/limits.ts; what needs zod is loaded on demand (generation-data-reader.ts).
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'zod', allowTypeImports: true, message: ZOD_AT_START }],
          patterns: [
            {
              group: ['**/src-shared/ipc/**', '**/src-shared/api.ts', '**/src-shared/admin.ts', '**/src-shared/generation-data.ts'],
              allowTypeImports: true,
              message: ZOD_AT_START,
            },
          ],
        },
      ],
    },
  },
  {
    // Loaded with import() on the first dropped file; the one place zod is configured for the renderer.
    files: ['src-renderer/features/compose/generation-data-reader.ts', 'src-renderer/lib/zod-jitless.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': 'off' },
  },
  {
    files: ['src-preload/**/*.ts'],
    rules: forbid({
      folders: ['src-main', 'src-service', 'src-renderer'],
      message: 'The preload imports only src-shared and electron (DESIGN.md §2).',
    }),
  },
  {
    files: ['src-service/**/*.ts'],
    rules: forbid({
      folders: ['src-main', 'src-renderer', 'src-preload'],
      runtimes: ['electron'],
      message: 'The local service imports only src-shared; it must run headless under plain Node (DESIGN.md §2).',
    }),
  },
  {
    files: ['src-main/**/*.ts'],
    ignores: ['src-main/electron/**', 'src-main/**/*.electron.ts'],
    rules: forbid({
      folders: ['src-renderer', 'src-preload'],
      runtimes: ['electron'],
      extra: [
        {
          group: ['**/src-service/**', '!**/src-service/start.ts', '!**/src-service/sqlite', '**/src-service/sqlite/*', '!**/src-service/sqlite/index.ts'],
          message: 'Main may use the local service only through its start-up API, src-service/start.ts, and the shared SQLite bootstrap, src-service/sqlite/index.ts (DESIGN.md §2 rule 1).',
        },
      ],
      message: 'Only src-main/electron/ (or *.electron.ts) may import electron; the rest of main runs in plain Node behind DesktopShell (DESIGN.md §2 rule 4).',
    }),
  },
  {
    files: ['src-main/electron/**/*.ts', 'src-main/**/*.electron.ts'],
    rules: forbid({
      folders: ['src-renderer', 'src-preload'],
      extra: [
        {
          group: ['**/src-service/**', '!**/src-service/start.ts', '!**/src-service/sqlite', '**/src-service/sqlite/*', '!**/src-service/sqlite/index.ts'],
          message: 'Main may use the local service only through its start-up API, src-service/start.ts, and the shared SQLite bootstrap, src-service/sqlite/index.ts (DESIGN.md §2 rule 1).',
        },
      ],
      message: 'Main never imports renderer or preload code (DESIGN.md §2).',
    }),
  },
  {
    // The domain layer decides (errors, spec §7 policy, turn actions) and does no I/O: no runtime. What of main it
    // may import (nothing) is its allow-list in scripts/layers.js, like every other room's.
    files: ['src-main/domain/**/*.ts'],
    ignores: ['src-main/domain/**/*.test.ts'],
    rules: forbid({
      folders: ['src-renderer', 'src-preload', 'src-service'],
      runtimes: ['node:*', 'electron', ...nodeBuiltins],
      message: 'src-main/domain holds decisions only: no I/O, no runtime (docs/architecture.md).',
    }),
  },
  // Each room of main and each renderer feature names what it may import (docs/architecture.md).
  ...layers,
);
