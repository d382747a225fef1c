/**
 * `npm run dev`: the API server on PORT (default 3000, restarted on change by tsx watch) and the
 * Vite dev server with hot reload on 5173, which proxies /trpc/ and /healthz to the API.
 */
import { spawn } from 'node:child_process';

const apiPort = process.env.PORT ?? '3000';

const children = [
  spawn('npx', ['tsx', 'watch', 'server/index.ts'], {
    stdio: 'inherit',
    env: { ...process.env, APP_URL: process.env.APP_URL ?? 'http://localhost:5173' },
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
