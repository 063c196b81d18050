import { defineConfig } from '@playwright/test';

// Browser tests run in Debian's Chromium (Playwright's own browsers cannot be downloaded here).
export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  timeout: 120_000,
  expect: { timeout: 15_000 },
  workers: 1,
  fullyParallel: false,
  reporter: 'list',
  outputDir: 'test-results',
  use: {
    headless: true,
    viewport: { width: 1440, height: 900 },
    launchOptions: {
      executablePath: process.env.STUDIO_CHROMIUM ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
      // Real scrollbars, as a designer sees them: headless Chromium hides them by default, and a scrollbar that
      // takes room changes layouts (and screenshots) on every spec.
      ignoreDefaultArgs: ['--hide-scrollbars'],
    },
  },
});
