import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type UserConfig } from 'electron-vite';
import type { Plugin } from 'vite';
import { DEV_CONTENT_SECURITY_POLICY, replaceMetaPolicy } from './src-main/electron/content-security-policy.ts';

// Custom folders (DESIGN.md §2): main and the bundled service's utilityProcess entry build together; the
// preload is CommonJS because a sandboxed preload cannot be an ES module, and it bundles its dependencies
// (zod, the contract) because a sandboxed preload cannot require packages.
// STUDIO_BUILD_TARGETS=renderer (comma-separated) builds only some targets: the browser harness needs only
// the renderer, and should not fail because main does not build at this moment.
const targets = new Set((process.env.STUDIO_BUILD_TARGETS ?? 'main,preload,renderer').split(',').map((t) => t.trim()));

// Dev server only: index.html's CSP <meta> (the build's) would block the <style> elements Vite injects CSS
// with, so the served page gets DEV_CONTENT_SECURITY_POLICY; a build never does (content-security-policy.ts).
const devCsp: Plugin = {
  name: 'studio:dev-csp',
  apply: 'serve',
  transformIndexHtml: { order: 'post', handler: (html) => replaceMetaPolicy(html, DEV_CONTENT_SECURITY_POLICY) },
};

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
    plugins: [react(), devCsp],
    build: {
      // The harness builds into a side folder and swaps it in, so a running harness never serves half a build.
      outDir: resolve(process.env.STUDIO_RENDERER_OUT_DIR ?? 'out/renderer'),
      // Minified: V8 parses and compiles less at start-up (first thumbnails −35 to −73 ms; docs/decisions.md).
      // STUDIO_MINIFY=0 keeps names, for reading a benchmark's CPU profile (BOARD_BENCH_PROFILE).
      minify: process.env.STUDIO_MINIFY !== '0',
      rolldownOptions: { input: { index: resolve('src-renderer/index.html') } },
    },
  },
};

export default defineConfig({
  ...(targets.has('main') ? { main: config.main } : {}),
  ...(targets.has('preload') ? { preload: config.preload } : {}),
  ...(targets.has('renderer') ? { renderer: config.renderer } : {}),
});
