import { defineConfig } from 'vitest/config';

/**
 * The multi-instance suite (tests/multi-instance, docs/decisions/0112): two instances of the
 * production build behind HAProxy over one PostgreSQL database. It starts and stops everything
 * itself; `npm run test:multi` builds first. One file, one fork: the suite's processes already
 * fill a 2-core machine.
 */
export default defineConfig({
  test: {
    include: ['tests/multi-instance/**/*.test.ts'],
    // Stops and drops whatever a worker ended early left behind.
    globalSetup: ['tests/multi-instance/global-setup.ts'],
    environment: 'node',
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    testTimeout: 120_000,
    // Generous: on a loaded 2-core machine an instance's cold start has taken two minutes.
    hookTimeout: 600_000,
    // CI also writes a JSON report that .ci/run adds to its closing line.
    reporters: process.env.CI ? ['default', 'json'] : ['default'],
    outputFile: process.env.CI ? { json: '.tmp/vitest-multi-report.json' } : undefined,
  },
});
