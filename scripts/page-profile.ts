/**
 * CPU per request of a server-rendered public page against the tRPC call that reads the same data,
 * on the built server in production mode (one worker). Not a test and not the bench: a quick reading
 * for bench/README.md's "Render profile".
 *
 *   npm run build
 *   tsx scripts/page-profile.ts --db postgres://postgres@127.0.0.1:5432/<db with demo data> \
 *     [--slug demo-salon] [--port 3411] [--seconds 10] [--connections 8] [--profile-dir .tmp/prof] \
 *     [--root .tmp/before]
 *
 * Rows: `page, rendered` (a query string each time, so the visitor page cache is bypassed and every
 * request renders; the public page data cache is warm, as for the tRPC call), `page, visitor cache`
 * (the same path each time) and `bySlug` (the tRPC call as the browser sends it). CPU is the user +
 * system time of the server's whole process tree over the load, from /proc. With --profile-dir the
 * server runs under `node --cpu-prof` (one .cpuprofile per process, written when it stops); --only
 * <text> measures only the rows whose name contains it (a profile of one kind of request). --root
 * <dir> runs the build in <dir>/dist instead of the project's (a copy of an earlier build, with
 * package.json and drizzle/ beside it, for a before/after measured back to back).
 */
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { processCpuMicros, repoRoot } from '../bench/targets';
import { batchQueryPath } from '../bench/wire';

const { values } = parseArgs({
  options: {
    db: { type: 'string' },
    slug: { type: 'string', default: 'demo-salon' },
    port: { type: 'string', default: '3411' },
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '8' },
    'profile-dir': { type: 'string' },
    only: { type: 'string' },
    root: { type: 'string' },
  },
});
if (!values.db) throw new Error('--db <postgres url of a database with the demo data> is required');
const base = `http://127.0.0.1:${values.port}`;
const seconds = Number(values.seconds);
const connections = Number(values.connections);
const root = values.root ? path.resolve(values.root) : repoRoot;

const server = spawn(
  process.execPath,
  [
    ...(values['profile-dir'] ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(values['profile-dir'])}`] : []),
    'dist/server/index.js',
  ],
  {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      NODE_ENV: 'production',
      APP_URL: 'https://bench.lastslot.test',
      RESEND_API_KEY: 're_profile_unused',
      DATABASE_URL: values.db,
      PORT: values.port,
      WEB_CONCURRENCY: '1',
      LOG_LEVEL: 'warn',
    },
  },
);

async function ready(): Promise<void> {
  for (let i = 0; i < 360; i++) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error('the server did not start');
}

/** Requests per second and CPU µs per request of the server's process tree for `path`. */
async function measure(path: string, headers: Record<string, string>) {
  const run = (duration: number) =>
    autocannon({ url: base + path, connections, duration, headers, idReplacement: true });
  await run(2);
  const before = processCpuMicros(server.pid!)!;
  const result = await run(seconds);
  const cpu = processCpuMicros(server.pid!)! - before;
  const bad = result.non2xx + result.errors;
  if (bad > 0) console.warn(`${path}: ${bad} answers not 2xx`);
  return { rps: result.requests.average, cpuPerRequest: cpu / result.requests.total };
}

try {
  await ready();
  const html = { accept: 'text/html', 'accept-encoding': 'gzip, br' };
  const requests: Record<string, [string, Record<string, string>]> = {
    'page, rendered': [`/${values.slug}?v=[<id>]`, html],
    'page, visitor cache': [`/${values.slug}`, html],
    bySlug: [batchQueryPath(['businesses.bySlug'], [{ slug: values.slug }]), { 'accept-encoding': 'gzip, br' }],
  };
  const rows: Record<string, { rps: number; cpuPerRequest: number }> = {};
  for (const [name, [path, headers]] of Object.entries(requests))
    if (!values.only || name.includes(values.only)) rows[name] = await measure(path, headers);
  const call = rows.bySlug?.cpuPerRequest ?? NaN;
  console.log(
    `load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  for (const [name, { rps, cpuPerRequest }] of Object.entries(rows))
    console.log(
      `${name.padEnd(20)} ${rps.toFixed(0).padStart(6)}/s ${cpuPerRequest.toFixed(0).padStart(7)} µs/req ` +
        `${(cpuPerRequest / call).toFixed(1)}x bySlug`,
    );
} finally {
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
}
