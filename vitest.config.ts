import { defineConfig } from 'vitest/config';

/**
 * Unit tests (shared/, client/, server/) and router-level integration tests (tests/integration) on
 * a real database: PostgreSQL when TEST_DATABASE_URL or DATABASE_URL is set (one database per test
 * file, cloned from a migrated template), in-memory PGlite otherwise. Playwright runs separately.
 */
export default defineConfig({
  test: {
    include: [
      'shared/**/*.test.ts',
      'client/**/*.test.ts',
      'server/**/*.test.ts',
      'tests/integration/**/*.test.ts',
      'tests/faults/**/*.test.ts',
      'bench/**/*.test.ts',
    ],
    globalSetup: ['tests/setup/global-setup.ts'],
    environment: 'node',
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 20_000,
    hookTimeout: 60_000,
    // CI also writes a JSON report that .ci/run sums into its closing line.
    reporters: process.env.CI ? ['default', 'json'] : ['default'],
    outputFile: process.env.CI ? { json: '.tmp/vitest-report.json' } : undefined,
  },
});
