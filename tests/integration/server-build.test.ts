/**
 * The built server (docs/decisions/0042): `vite build --config vite.server.config.ts` into a
 * folder of its own under .tmp/ gives one JavaScript file that plain node runs, with no
 * TypeScript loader, and that still finds the migrations (drizzle/) and the built client
 * (dist/client) of the project from wherever it was built.
 * Started on PGlite in a temp folder, it migrates, answers /healthz and a tRPC query that reads
 * a migrated table, and stops cleanly on SIGTERM.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../server/core/paths';
import { batchQueryPath } from '../../bench/wire';
import { startServerProcess, waitUntil, type ServerProcess } from '../setup/server-process';

// Deeper than dist/server/, so a path resolved relative to the built file cannot pass by chance.
const buildRoot = path.join(PROJECT_ROOT, '.tmp', `server-build-test-${process.pid}`);
const outDir = path.join(buildRoot, 'server');
let dataDir: string;
let server: ServerProcess;

beforeAll(async () => {
  await promisify(execFile)(
    path.join(PROJECT_ROOT, 'node_modules/.bin/vite'),
    ['build', '--config', 'vite.server.config.ts', '--outDir', outDir, '--logLevel', 'error'],
    { cwd: PROJECT_ROOT, timeout: 120_000 },
  );
  dataDir = mkdtempSync(path.join(tmpdir(), 'lastslot-built-server-'));
  server = await startServerProcess(
    { PGLITE_DIR: path.join(dataDir, 'pglite'), LOG_LEVEL: 'info' },
    { entry: path.join(outDir, 'index.js') },
  );
}, 240_000);

afterAll(async () => {
  await server?.stop();
  rmSync(buildRoot, { recursive: true, force: true });
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('the built server', () => {
  it('is one JavaScript file run by plain node', () => {
    expect(existsSync(path.join(outDir, 'index.js'))).toBe(true);
    const cmdline = readFileSync(`/proc/${server.child.pid}/cmdline`, 'utf8').split('\0');
    expect(cmdline).not.toContain('tsx');
    expect(cmdline).toContain(path.join(outDir, 'index.js'));
  });

  it("looks for the built client in the project's dist/client", async () => {
    const line = await waitUntil(() => server.logs.find((l) => l.clientDir !== undefined), {
      timeoutMs: 10_000,
      message: () => `no client line:\n${server.output()}`,
    });
    expect(line.clientDir).toBe(path.join(PROJECT_ROOT, 'dist', 'client'));
  });

  it('migrates the database and answers a query on a migrated table', async () => {
    const res = await fetch(`${server.url}${batchQueryPath(['businesses.bySlug'], [{ slug: 'no-such-business' }])}`);
    expect(res.status).toBe(404);
    const [body] = (await res.json()) as [{ error: { json: { data: { code: string } } } }];
    expect(body.error.json.data.code).toBe('NOT_FOUND');
    // Its request line arrives a moment later: the log is written asynchronously.
    await waitUntil(() => server.logs.some((l) => l.msg === 'request' && l.statusCode === 404), {
      timeoutMs: 10_000,
      message: () => `no request line:\n${server.output()}`,
    });
  });

  it('stops on SIGTERM with exit code 0', async () => {
    expect(await server.stop()).toBe(0);
    expect(server.logs.at(-1)).toMatchObject({ msg: 'shut down' });
  });
});
