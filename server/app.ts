/**
 * buildServer: Fastify hosting tRPC at /trpc (batching, superjson, SSE subscriptions), /healthz,
 * and the built client with an SPA fallback. No other HTTP routes (BRIEF §2). A coarse per-IP
 * limit on tRPC mutations answers 429 in tRPC's own error shape (docs/decisions/0008).
 */
import { existsSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyCookie from '@fastify/cookie';
import fastifyHelmet from '@fastify/helmet';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import { fastifyTRPCPlugin, type FastifyTRPCPluginOptions } from '@trpc/server/adapters/fastify';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { MSG } from '../shared/messages';
import { pingDatabase } from './db/client';
import { DEFAULT_MUTATIONS_PER_MINUTE, type TrustProxy } from './env';
import { createFastifyContextFactory, type AppDeps } from './trpc/context';
import { trpcErrorBody } from './trpc/http-errors';
import { appRouter, type AppRouter } from './trpc/router';

export const clientDist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist/client');

export interface BuildServerOptions {
  deps: AppDeps;
  logger: Logger;
  /** Folder of the built client; default dist/client. Missing folder: API only. */
  clientDir?: string;
  /** Fastify `trustProxy` (env TRUST_PROXY); default false: the client IP is the connection's. */
  trustProxy?: TrustProxy;
  /** Per-IP limit on tRPC mutations per minute (env RATE_LIMIT_MUTATIONS_PER_MINUTE); default 300. */
  mutationsPerMinute?: number;
}

/** Builds (does not start) the HTTP server. */
export async function buildServer({
  deps,
  logger,
  clientDir = clientDist,
  trustProxy = false,
  mutationsPerMinute = DEFAULT_MUTATIONS_PER_MINUTE,
}: BuildServerOptions): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: logger as unknown as FastifyBaseLogger,
    routerOptions: { maxParamLength: 5000 },
    trustProxy,
  });

  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: deps.secureCookies ? [] : null,
      },
    },
    hsts: deps.secureCookies,
  });
  await app.register(fastifyCookie);

  // Coarse flood guard, per IP and per process: tRPC mutations only (POST /trpc/...). Queries,
  // subscriptions and static files are never limited here; the fine-grained login and email
  // throttles live in the services (server/auth/throttle.ts).
  await app.register(fastifyRateLimit, { global: false });
  const countMutation = app.createRateLimit({ max: mutationsPerMinute, timeWindow: 60_000 });
  app.addHook('onRequest', async (req, reply) => {
    if (req.method !== 'POST' || !req.url.startsWith('/trpc/')) return;
    const limit = await countMutation(req);
    if (limit.isAllowed || !limit.isExceeded) return;
    const { httpStatus, body } = trpcErrorBody(req.url, 'TOO_MANY_REQUESTS', MSG.tooManyAttempts);
    return reply.code(httpStatus).header('retry-after', limit.ttlInSeconds).send(body);
  });

  // Live-update streams (SSE) never end on their own, so app.close() would wait for them forever.
  // On close they are cut (after the server stops accepting), which also makes browsers reconnect
  // to another worker or to the restarted server; other requests in flight are drained as usual.
  const streams = new Set<ServerResponse>();
  app.addHook('onRequest', async (req, reply) => {
    if (!req.headers.accept?.includes('text/event-stream')) return;
    const res = reply.raw;
    streams.add(res);
    res.once('close', () => streams.delete(res));
  });
  app.addHook('preClose', async () => {
    for (const res of streams) res.destroy();
  });

  await app.register(fastifyTRPCPlugin, {
    prefix: '/trpc',
    trpcOptions: {
      router: appRouter,
      createContext: createFastifyContextFactory(deps),
      onError({ error, path: procedure }) {
        if (error.code === 'INTERNAL_SERVER_ERROR')
          logger.error({ err: error.cause ?? error, procedure }, 'tRPC error');
      },
    } satisfies FastifyTRPCPluginOptions<AppRouter>['trpcOptions'],
  });

  app.get('/healthz', async (_req, reply) => {
    try {
      await pingDatabase(deps.db);
      return { status: 'ok' };
    } catch (err) {
      logger.error({ err }, 'health check failed');
      return reply.code(503).send({ status: 'unavailable' });
    }
  });

  const hasClient = existsSync(path.join(clientDir, 'index.html'));
  if (hasClient) {
    await app.register(fastifyStatic, { root: clientDir, index: 'index.html' });
  }
  app.setNotFoundHandler((req, reply) => {
    const accepts = req.headers.accept ?? '';
    if (hasClient && req.method === 'GET' && !req.url.startsWith('/trpc') && accepts.includes('text/html')) {
      return reply.type('text/html').sendFile('index.html');
    }
    return reply.code(404).send({ error: 'Not Found' });
  });

  app.setErrorHandler((err: { statusCode?: number; message?: string }, req, reply) => {
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    if (status >= 500) req.log.error({ err }, 'request failed');
    return reply.code(status).send({ error: status >= 500 ? 'Internal Server Error' : 'Bad Request' });
  });

  return app;
}
