/**
 * Shutdown of the HTTP server (docs/decisions/0028): app.close() returns only once every handler
 * has finished, including one whose client hung up, so the worker never closes the database under
 * a request half-way through its queries.
 */
import http from 'node:http';
import { Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { buildServer } from './app';
import { createLogger } from './logger';
import type { AppDeps } from './trpc/context';

describe('app.close()', () => {
  it('waits for the handler of a request whose client has gone', async () => {
    // /healthz's database ping takes 300 ms; the client hangs up after 50 ms, close() is called at 100 ms.
    let pingDone = false;
    const db = {
      execute: () => new Promise<void>((resolve) => setTimeout(() => ((pingDone = true), resolve()), 300)),
    };
    const deps = { db, hub: {}, appOrigin: 'http://localhost', now: () => new Date() } as unknown as AppDeps;
    const app = await buildServer({ deps, logger: createLogger('silent', false), clientDir: '/nonexistent' });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as AddressInfo;
    const req = http.get(`http://127.0.0.1:${port}/healthz`);
    req.on('error', () => {});
    await new Promise((r) => setTimeout(r, 50));
    req.destroy();
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
    const deps = { db: {}, hub: {}, appOrigin: 'http://localhost', now: () => new Date() } as unknown as AppDeps;
    const app = await buildServer({
      deps,
      logger: createLogger('info', false, destination),
      clientDir: '/nonexistent',
    });
    let thrown!: () => void;
    const handlerThrew = new Promise<void>((resolve) => (thrown = resolve));
    // As a page render does: it stops when its client goes away, and its promise rejects.
    app.get('/gone', async (_req, reply) => {
      await new Promise((resolve) => reply.raw.once('close', resolve));
      setImmediate(thrown);
      throw new DOMException('This operation was aborted', 'AbortError');
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as AddressInfo;
    const req = http.get(`http://127.0.0.1:${port}/gone`);
    req.on('error', () => {});
    await new Promise((r) => setTimeout(r, 50));
    req.destroy();
    await handlerThrew;
    await app.close();
    expect(lines.filter((l) => l.level >= 50)).toEqual([]);
    expect(lines.map((l) => l.msg)).toContain('request ended: the client went away');
  });
});
