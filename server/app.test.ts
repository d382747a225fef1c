/**
 * Shutdown of the HTTP server (docs/decisions/0028): app.close() returns only once every handler
 * has finished, including one whose client hung up, so the worker never closes the database under
 * a request half-way through its queries.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { describe, expect, it } from 'vitest';
import { isReservedSlug } from '../shared/reserved-slugs';
import { buildServer } from './app';
import { PROJECT_ROOT } from './core/paths';
import { createLogger } from './logger';
import type { AppDeps } from './trpc/context';

/** A server on `db` (only what the request under test reads), without a client build. */
function appOn(db: object, logger: Logger = createLogger('silent', false)) {
  const deps = { db, hub: {}, appOrigin: 'http://localhost', now: () => new Date() } as unknown as AppDeps;
  return buildServer({ deps, logger, clientDir: '/nonexistent' });
}

/** Sends GET `path` to the listening `app` and hangs up `afterMs` ms later, without waiting for the answer. */
async function hangUp(app: Awaited<ReturnType<typeof appOn>>, path: string, afterMs: number): Promise<void> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  const req = http.get(`http://127.0.0.1:${port}${path}`);
  req.on('error', () => {});
  await new Promise((r) => setTimeout(r, afterMs));
  req.destroy();
}

describe('app.close()', () => {
  it('waits for the handler of a request whose client has gone', async () => {
    // /healthz's database ping takes 300 ms; the client hangs up after 50 ms, close() is called at 100 ms.
    let pingDone = false;
    const app = await appOn({
      execute: () => new Promise<void>((resolve) => setTimeout(() => ((pingDone = true), resolve()), 300)),
    });
    await hangUp(app, '/healthz', 50);
    await new Promise((r) => setTimeout(r, 50));
    await app.close();
    expect(pingDone).toBe(true);
  });
});

describe('a request whose client went away', () => {
  it('is logged as ended, not as a failure, when its handler then throws', async () => {
    const lines: { level: number; msg: string }[] = [];
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    const app = await appOn({}, createLogger('info', false, destination));
    let thrown!: () => void;
    const handlerThrew = new Promise<void>((resolve) => (thrown = resolve));
    // As a page render does: it stops when its client goes away, and its promise rejects.
    app.get('/gone', async (_req, reply) => {
      await new Promise((resolve) => reply.raw.once('close', resolve));
      setImmediate(thrown);
      throw new DOMException('This operation was aborted', 'AbortError');
    });
    await hangUp(app, '/gone', 50);
    await handlerThrew;
    await app.close();
    expect(lines.filter((l) => l.level >= 50)).toEqual([]);
    expect(lines.map((l) => l.msg)).toContain('request ended: the client went away');
  });
});

describe('business usernames', () => {
  it("may be no first path segment of the server's routes or the client's screens", async () => {
    const app = await appOn({});
    await app.ready();
    const serverPaths = [...app.printRoutes({ commonPrefix: false }).matchAll(/(\/[^\s]*)/g)].map((m) => m[1]!);
    await app.close();
    const routeTree = readFileSync(path.join(PROJECT_ROOT, 'client', 'routeTree.gen.ts'), 'utf8');
    const fullPaths = /fullPaths:([^:]*)fileRoutesByTo/.exec(routeTree)![1]!;
    const clientPaths = [...fullPaths.matchAll(/'(\/[^']*)'/g)].map((m) => m[1]!);
    const segments = new Set([...serverPaths, ...clientPaths].map((p) => p.split('/')[1]!));
    // The root and the public page itself; 'assets' is where a build's files are served.
    segments.delete('');
    segments.delete('$slug');
    segments.add('assets');
    expect(segments.size).toBeGreaterThan(15);
    expect([...segments].filter((segment) => !isReservedSlug(segment))).toEqual([]);
  });
});
