import http from 'node:http';
import { initTRPC } from '@trpc/server';
import { fastifyTRPCPlugin } from '@trpc/server/adapters/fastify';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';

/**
 * The request signal tRPC's Fastify adapter gives procedures: aborted when the client goes away
 * before its answer is finished.
 */
describe('request signal of a tRPC call over Fastify', () => {
  let app: FastifyInstance | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  /** A server with `slow`, which answers when `release` is called. */
  async function start() {
    const t = initTRPC.create();
    const signals: AbortSignal[] = [];
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let markStarted: () => void = () => {};
    const started = new Promise<void>((resolve) => (markStarted = resolve));
    const router = t.router({
      slow: t.procedure.query(async ({ signal }) => {
        if (signal) signals.push(signal);
        markStarted();
        await held;
        return 'late';
      }),
    });
    app = Fastify();
    // Each resolves once every 'close' listener of its response has run (tRPC's included).
    const closed: Promise<void>[] = [];
    app.server.on('request', (_req: http.IncomingMessage, res: http.ServerResponse) => {
      closed.push(new Promise((resolve) => res.once('close', () => setImmediate(resolve))));
    });
    await app.register(fastifyTRPCPlugin, { prefix: '/trpc', trpcOptions: { router } });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const port = (app.server.address() as { port: number }).port;
    return { port, signals, closed, release: () => release(), started };
  }

  it('is aborted when the client goes away before the answer', async () => {
    const { port, signals, closed, release, started } = await start();
    const req = http.get({ host: '127.0.0.1', port, path: '/trpc/slow' });
    req.on('error', () => {});
    await started;
    req.destroy();
    await Promise.all(closed);
    expect(signals).toHaveLength(1);
    expect(signals[0]!.aborted).toBe(true);
    release();
  });
});
