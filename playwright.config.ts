import { defineConfig, devices } from '@playwright/test';

/**
 * End-to-end tests in Debian's Chromium (/usr/bin/chromium; never a downloaded browser) against
 * the production build (`npm run test:e2e` builds first) served by the real server. The server
 * uses E2E_DATABASE_URL when set (CI: a fresh PostgreSQL database), else a fresh embedded PGlite
 * folder. With PostgreSQL a second server process on the same database serves E2E_SECOND_URL, for
 * the test that crosses processes.
 */
const PORT = Number(process.env.E2E_PORT ?? 3210);
const baseURL = `http://localhost:${PORT}`;
const pgliteDir = `.tmp/e2e-pglite-${Date.now()}`;
const databaseUrl = process.env.E2E_DATABASE_URL ?? '';
const SECOND_PORT = PORT + 1;
export const secondURL = databaseUrl ? `http://localhost:${SECOND_PORT}` : null;
// For the journeys' helpers, which call the server outside a page (tests/e2e/helpers.ts signIn).
process.env.E2E_BASE_URL = baseURL;
process.env.E2E_SECOND_URL = secondURL ?? '';

function server(port: number) {
  const url = `http://localhost:${port}`;
  return {
    command: 'tsx server/index.ts',
    url: `${url}/healthz`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
    env: {
      NODE_ENV: 'development',
      HOST: '127.0.0.1',
      PORT: String(port),
      APP_URL: url,
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
      // The suite signs dozens of accounts up from 127.0.0.1 within minutes.
      RATE_LIMIT_EMAIL_REQUESTS_PER_IP: '10000',
      // Alert emails in rounds of 2 seconds rather than 15 minutes (tests/e2e/discover-alerts.spec.ts).
      ALERT_EMAIL_INTERVAL_SECONDS: '2',
      DATABASE_URL: databaseUrl,
      PGLITE_DIR: pgliteDir,
      RESEND_API_KEY: '',
      // Another client build (vite build --outDir ...), so parallel runs do not share dist/client.
      CLIENT_DIST_DIR: process.env.E2E_CLIENT_DIST ?? '',
    },
  };
}

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
  webServer: secondURL ? [server(PORT), server(SECOND_PORT)] : [server(PORT)],
});
