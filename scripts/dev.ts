/**
 * `npm run dev`: the whole product in one process on PORT (default 3000): the server from the
 * sources under tsx watch (restarted when server code changes), with Vite inside it serving the
 * client with hot reload and rendering pages exactly as production does.
 */
import { spawn } from 'node:child_process';

const child = spawn(
  'npx',
  ['tsx', 'watch', '--exclude', 'client/**', '--exclude', 'vite.config.ts.timestamp-*', 'server/index.ts'],
  {
    stdio: 'inherit',
    // One worker under the supervisor: tsx watch restarts the whole tree on a change anyway;
    // WEB_CONCURRENCY still overrides it.
    env: { ...process.env, PAGES: 'vite', WEB_CONCURRENCY: process.env.WEB_CONCURRENCY ?? '1' },
  },
);
const stop = () => child.kill('SIGTERM');
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
child.on('exit', (code) => process.exit(code ?? 0));
