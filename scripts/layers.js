// The rooms of main and of the renderer, and what each may import: allow-lists, read by the `layering/rooms` lint
// rule (scripts/eslint-layering.js). docs/architecture.md draws them and says why. A folder that is not listed
// here is refused by the lint until it is placed.
import { layering } from './eslint-layering.js';

const TESTS = ['**/*.test.ts', '**/*.test.tsx', '**/*.test-support.ts', '**/test-support.ts', '**/test-context.ts'];

/** Main: each folder is a room. Leaves first; a room may import only rooms listed for it. */
const MAIN_ALLOW = {
  domain: [],
  ports: ['domain'],
  clients: ['domain'],
  secrets: ['domain', 'ports'],
  library: ['domain', 'ports'],
  files: ['domain', 'ports', 'clients', 'library'],
  generation: ['domain', 'ports', 'clients', 'library', 'files'],
  export: ['domain', 'ports', 'library', 'files'],
  batch: ['domain', 'ports', 'clients', 'library', 'files', 'generation', 'export'],
  inspector: ['domain', 'ports', 'clients'],
  environments: ['domain', 'ports', 'clients', 'library', 'secrets'],
  'local-console': ['domain', 'ports', 'clients', 'library', 'secrets', 'environments'],
  'service-host': ['domain', 'ports'],
  ipc: ['domain', 'ports'],
  // The composition root knows every room; only the two hosts import it.
  app: ['domain', 'ports', 'clients', 'secrets', 'library', 'files', 'generation', 'export', 'batch', 'inspector', 'environments', 'local-console', 'service-host', 'ipc'],
  electron: ['domain', 'ports', 'service-host', 'app'],
  harness: ['domain', 'ports', 'service-host', 'app', 'electron'],
};

/** Rooms entered from outside only through their front door (tests may reach inside what they test). */
const MAIN_DOORS = Object.fromEntries(
  ['secrets', 'library', 'files', 'generation', 'export', 'batch', 'inspector', 'environments', 'local-console', 'ipc'].map((room) => [room, 'index.ts']),
);

const FEATURE_LEAVES = ['lib', 'ui', 'i18n', 'styles'];
const features = (...names) => names.map((n) => `features/${n}`);

/**
 * The renderer: each feature is a room; lib, ui and i18n are shared leaves that import no feature; '.' is App.tsx and
 * main.tsx, which mount the features. The lists are today's imports, so a new arrow between features must be
 * written here first; scripts/architecture.test.ts refuses any cycle between features. State several features share
 * (selection, filters, the viewer, the grid's view) lives in lib/library-state, not in one of them.
 */
const RENDERER_ALLOW = {
  // i18n is the bottom leaf (texts, the UI language, its formats); lib and ui build on it, never the reverse.
  i18n: [],
  lib: ['i18n'],
  ui: ['lib', 'i18n'],
  styles: [],
  ...Object.fromEntries(
    Object.entries({
      settings: [],
      notices: [],
      export: [],
      inspector: ['settings'],
      'local-console': ['settings'],
      money: ['settings'],
      compose: ['money', 'settings'],
      runs: ['compose', 'export', 'settings'],
      boards: ['export'],
      library: ['boards', 'gallery'],
      gallery: ['boards', 'compose', 'export', 'local-console', 'settings'],
      viewer: ['compose', 'gallery', 'local-console', 'runs', 'settings'],
      batch: ['gallery', 'viewer'],
    }).map(([name, uses]) => [`features/${name}`, [...FEATURE_LEAVES, ...features(...uses)]]),
  ),
  '.': [...FEATURE_LEAVES, ...features('batch', 'compose', 'export', 'gallery', 'inspector', 'library', 'local-console', 'money', 'notices', 'runs', 'settings', 'viewer')],
};

/**
 * Features entered from outside (other features, App.tsx, main.tsx) only through their front door `index.ts`; a
 * feature is switched on by naming it here. A lazy tab's page is behind its door as a loader (`loadSettingsPage`),
 * so it keeps its own chunk. Every feature has one.
 */
const RENDERER_DOORS = Object.fromEntries(
  ['batch', 'boards', 'compose', 'export', 'gallery', 'inspector', 'library', 'local-console', 'money', 'notices', 'runs', 'settings', 'viewer'].map((name) => [`features/${name}`, 'index.ts']),
);

/** The same rooms, each allowed every other: for tests, which may reach anything but must live in a placed room. */
function everything(allow) {
  const rooms = Object.keys(allow);
  return Object.fromEntries(rooms.map((room) => [room, rooms]));
}

export const layers = [
  {
    files: ['src-main/**/*.ts'],
    plugins: { layering },
    rules: { 'layering/rooms': ['error', { base: 'src-main', allow: MAIN_ALLOW, doors: MAIN_DOORS }] },
  },
  {
    // A test may reach any room (whole-app tests build the app); its room must still be placed.
    files: TESTS.map((t) => `src-main/${t}`),
    rules: { 'layering/rooms': ['error', { base: 'src-main', allow: everything(MAIN_ALLOW) }] },
  },
  {
    files: ['src-renderer/**/*.{ts,tsx}'],
    plugins: { layering },
    rules: { 'layering/rooms': ['error', { base: 'src-renderer', depth: 2, allow: RENDERER_ALLOW, doors: RENDERER_DOORS }] },
  },
  {
    files: TESTS.map((t) => `src-renderer/${t}`),
    rules: { 'layering/rooms': ['error', { base: 'src-renderer', depth: 2, allow: everything(RENDERER_ALLOW) }] },
  },
];
