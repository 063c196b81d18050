import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';

// Custom folders (DESIGN.md §2): main and the bundled service's utilityProcess entry build together; the
// preload is CommonJS because a sandboxed preload cannot be an ES module.
export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
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
      rolldownOptions: {
        input: { index: resolve('src-preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve('src-renderer'),
    plugins: [react()],
    build: {
      outDir: resolve('out/renderer'),
      rolldownOptions: { input: { index: resolve('src-renderer/index.html') } },
    },
  },
});
