/**
 * `npm run dev`: the API server on PORT (default 3000, restarted on change by tsx watch) and the
 * Vite dev server with hot reload on 5173, which proxies /trpc/ and /healthz to the API.
 */
import { spawn } from 'node:child_process';

const apiPort = process.env.PORT ?? '3000';

const children = [
  spawn('npx', ['tsx', 'watch', 'server/index.ts'], {
    stdio: 'inherit',
    // One worker under the supervisor: tsx watch restarts the whole tree on a change anyway
    // (docs/decisions/0028); WEB_CONCURRENCY still overrides it.
    env: {
      ...process.env,
      APP_URL: process.env.APP_URL ?? 'http://localhost:5173',
      WEB_CONCURRENCY: process.env.WEB_CONCURRENCY ?? '1',
    },
  }),
  spawn('npx', ['vite'], {
    stdio: 'inherit',
    env: { ...process.env, VITE_BACKEND_URL: process.env.VITE_BACKEND_URL ?? `http://127.0.0.1:${apiPort}` },
  }),
];
const stop = () => {
  for (const c of children) c.kill('SIGTERM');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const c of children) c.on('exit', (code) => (code ? (stop(), process.exit(code)) : undefined));
