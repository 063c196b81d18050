import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type UserConfig } from 'electron-vite';

// Custom folders (DESIGN.md §2): main and the bundled service's utilityProcess entry build together; the
// preload is CommonJS because a sandboxed preload cannot be an ES module, and it bundles its dependencies
// (zod, the contract) because a sandboxed preload cannot require packages.
// STUDIO_BUILD_TARGETS=renderer (comma-separated) builds only some targets: the browser harness needs only
// the renderer, and should not fail because main does not build at this moment.
const targets = new Set((process.env.STUDIO_BUILD_TARGETS ?? 'main,preload,renderer').split(',').map((t) => t.trim()));

const config: UserConfig = {
  main: {
    build: {
      outDir: 'out/main',
      // Native and large dependencies (keytar, sharp, node:sqlite users) stay in node_modules.
      externalizeDeps: true,
      rolldownOptions: {
        input: {
          index: resolve('src-main/electron/main.ts'),
          service: resolve('src-service/utility-entry.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      externalizeDeps: false,
      rolldownOptions: {
        input: { index: resolve('src-preload/index.ts') },
        external: ['electron'],
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve('src-renderer'),
    plugins: [react()],
    build: {
      // The harness builds into a side folder and swaps it in, so a running harness never serves half a build.
      outDir: resolve(process.env.STUDIO_RENDERER_OUT_DIR ?? 'out/renderer'),
      rolldownOptions: { input: { index: resolve('src-renderer/index.html') } },
    },
  },
};

export default defineConfig({
  ...(targets.has('main') ? { main: config.main } : {}),
  ...(targets.has('preload') ? { preload: config.preload } : {}),
  ...(targets.has('renderer') ? { renderer: config.renderer } : {}),
});
