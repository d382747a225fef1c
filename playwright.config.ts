import { defineConfig, devices } from '@playwright/test';

/**
 * End-to-end tests in Debian's Chromium (/usr/bin/chromium; never a downloaded browser) against
 * the production build served by the real server. The server uses E2E_DATABASE_URL when set
 * (CI: a fresh PostgreSQL database), else a fresh embedded PGlite folder.
 */
const PORT = Number(process.env.E2E_PORT ?? 3210);
const baseURL = `http://localhost:${PORT}`;
const pgliteDir = `.tmp/e2e-pglite-${Date.now()}`;

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 90_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list'], ['json', { outputFile: '.tmp/playwright-report.json' }]] : [['list']],
  use: {
    baseURL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'] } }],
  webServer: {
    command: 'npm run build && tsx server/index.ts',
    url: `${baseURL}/healthz`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      NODE_ENV: 'development',
      HOST: '127.0.0.1',
      PORT: String(PORT),
      APP_URL: baseURL,
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
      DATABASE_URL: process.env.E2E_DATABASE_URL ?? '',
      PGLITE_DIR: pgliteDir,
      RESEND_API_KEY: '',
    },
  },
});
