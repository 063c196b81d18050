import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src-*/**/*.test.ts', 'scripts/**/*.test.ts'],
    // scripts/test-all.ts runs the *.slow.test.ts files (minutes of waiting, little CPU) in a vitest of their own beside
    // this one, so they are not queued behind everything else.
    exclude: ['node_modules/**', 'out/**', 'e2e/**', ...(process.env.STUDIO_SLOW_TESTS_APART === '1' ? ['**/*.slow.test.ts'] : [])],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Suites start real servers and keychains; two cores, so keep files from starving each other.
    maxWorkers: 2,
  },
});
