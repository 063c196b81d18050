import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src-*/**/*.test.ts', 'scripts/**/*.test.ts'],
    exclude: ['node_modules/**', 'out/**', 'e2e/**'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Suites start real servers and keychains; two cores, so keep files from starving each other.
    maxWorkers: 2,
  },
});
