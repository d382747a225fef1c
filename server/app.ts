/**
 * The HTTP server: tRPC at /trpc, /healthz, plain routes, the client's files and pages. Requests Fastify
 * cannot read get a generic body, never Fastify's codes or texts (docs/decisions/0030).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyCompress from '@fastify/compress';
import fastifyCookie from '@fastify/cookie';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import { fastifyTRPCPlugin, type FastifyTRPCPluginOptions } from '@trpc/server/adapters/fastify';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { DEFAULT_MAP_TILES, type MapTiles } from '../shared/map-tiles';
import { MSG } from '../shared/messages';
import { MAX_BATCH_SIZE } from '../shared/transport';
import { DEFAULT_MUTATIONS_PER_MINUTE, DEFAULT_SEARCHES_PER_MINUTE, type TrustProxy } from './core/env';
import { projectPath } from './core/paths';
import { pingDatabase } from './db/client';
import { registerPages, type PageSource } from './http/pages';
import { plainRoutes } from './http/plain-routes';
import { appHelmetOptions, securityHeaders } from './http/security-headers';
import { stripeRoutes } from './http/stripe-webhook';
import { RequestLogController } from './logger';
import { createFastifyContextFactory, type AppDeps } from './trpc/context';
import { trpcErrorBody } from './trpc/http-errors';
import { appRouter, type AppRouter } from './trpc/router';

/** Largest request body, in bytes; the biggest form (the contact message) is far smaller. */
export const BODY_LIMIT_BYTES = 256 * 1024;

/** How long app.close() waits, at most, for handlers of requests whose client has gone. */
const HANDLER_DRAIN_MS = 10_000;

/** The generic answers of requests refused before tRPC runs (docs/decisions/0030). */
const GENERIC_BODIES = {
  400: { error: MSG.badRequest },
  413: { error: MSG.requestTooLarge },
  500: { error: MSG.generic },
} as const;

function genericBody(status: number) {
  if (status === 413 || status === 500) return GENERIC_BODIES[status];
  return GENERIC_BODIES[400];
}

/** Procedure calls in a tRPC request URL, at most MAX_BATCH_SIZE (tRPC refuses a longer batch whole). */
export function trpcCallCount(url: string): number {
  const [pathname = '', query = ''] = url.split('?', 2);
  if (!new URLSearchParams(query).getAll('batch').includes('1')) return 1;
  const paths = pathname.replace(/^\/trpc\/?/, '').split(',').length;
  return Math.min(Math.max(paths, 1), MAX_BATCH_SIZE);
}

const SEARCH_PROCEDURE = 'discovery.search';

/** Discover search calls in a tRPC GET `url` (a batch may name it several times). */
export function searchCallCount(url: string): number {
  const pathname = url.split('?', 1)[0]!;
  if (!pathname.includes(SEARCH_PROCEDURE)) return 0;
  const calls = pathname.replace(/^\/trpc\/?/, '').split(',');
  return Math.min(calls.filter((p) => p === SEARCH_PROCEDURE).length, MAX_BATCH_SIZE);
}

/** Cache-Control of the built client's hashed files (assets/): a new build gives new names. */
export const IMMUTABLE_CACHE_CONTROL = 'public, max-age=31536000, immutable';

/** `filePath` may be a .br or .gz sibling. */
function isHashedAsset(clientDir: string, filePath: string): boolean {
  return path.relative(clientDir, filePath).split(path.sep)[0] === 'assets';
}

/** The built client (`npm run build:client`). */
export const clientDist = projectPath('dist', 'client');

export interface BuildServerOptions {
  deps: AppDeps;
  logger: Logger;
  /** Folder of the built client; default dist/client. Missing folder: API only. */
  clientDir?: string;
  /** Where pages come from: the built client or Vite's development server (`npm run dev`). */
  pages?: 'build' | 'vite';
  /** Folder of the built server render; default dist/ssr. */
  renderDir?: string;
  /** env TRUST_PROXY. */
  trustProxy?: TrustProxy;
  /** env RATE_LIMIT_MUTATIONS_PER_MINUTE. */
  mutationsPerMinute?: number;
  /** env RATE_LIMIT_SEARCHES_PER_MINUTE. */
  searchesPerMinute?: number;
  /** env MAP_TILE_URL, MAP_TILE_ATTRIBUTION. */
  mapTiles?: MapTiles;
}

/** Builds (does not start) the HTTP server. */
export async function buildServer({
  deps,
  logger,
  clientDir = clientDist,
  pages = 'build',
  renderDir,
  trustProxy = false,
  mutationsPerMinute = DEFAULT_MUTATIONS_PER_MINUTE,
  searchesPerMinute = DEFAULT_SEARCHES_PER_MINUTE,
  mapTiles = DEFAULT_MAP_TILES,
}: BuildServerOptions): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: logger as unknown as FastifyBaseLogger,
    logController: new RequestLogController(),
    routerOptions: { maxParamLength: 5000 },
    trustProxy,
    bodyLimit: BODY_LIMIT_BYTES,
    // A path that cannot be decoded (FST_ERR_BAD_URL) or is too long.
    frameworkErrors(err, req, res) {
      const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? 400 : 500;
      if (status >= 500) req.log.error({ err }, 'request failed');
      const reply = res as unknown as FastifyReply;
      return reply.code(status).send(genericBody(status));
    },
  });

  // Set before any plugin is registered, so every plugin's routes inherit it.
  app.setErrorHandler((err: { statusCode?: number; message?: string }, req, reply) => {
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    if (status >= 500) req.log.error({ err }, 'request failed');
    return reply.code(status).send(genericBody(status));
  });

  // Helmet's headers, computed once (docs/decisions/0057).
  const helmetHeaders = securityHeaders(appHelmetOptions(deps.secureCookies, mapTiles.url));
  app.addHook('onRequest', (_req, reply, done) => {
    reply.headers(helmetHeaders);
    done();
  });
  await app.register(fastifyCookie);

  // Coarse per-IP, per-process flood guard on mutations and on Discover searches, counted per call so a
  // batch of ten counts ten (docs/decisions/0008, 0029, 0081). The login and email throttles are in the database.
  await app.register(fastifyRateLimit, { global: false });
  const countMutation = app.createRateLimit({ max: mutationsPerMinute, timeWindow: 60_000 });
  const countSearch = app.createRateLimit({ max: searchesPerMinute, timeWindow: 60_000 });
  app.addHook('onRequest', async (req, reply) => {
    if (!req.url.startsWith('/trpc/')) return;
    const mutation = req.method === 'POST';
    const calls = mutation ? trpcCallCount(req.url) : searchCallCount(req.url);
    for (let call = calls; call > 0; call--) {
      const limit = await (mutation ? countMutation : countSearch)(req);
      if (limit.isAllowed || !limit.isExceeded) continue;
      const { httpStatus, body } = trpcErrorBody(req.url, 'TOO_MANY_REQUESTS', MSG.tooManyRequests);
      return reply.code(httpStatus).header('retry-after', limit.ttlInSeconds).send(body);
    }
  });

  // Every tRPC answer may depend on the session cookie, so none may be stored (docs/decisions/0032).
  // Fastify copies a fetch Response's own headers (SSE: 'no-cache') after this hook, so set those too.
  app.addHook('onSend', async (req, reply, payload) => {
    if (!req.url.startsWith('/trpc/')) return payload;
    reply.header('cache-control', 'no-store');
    if (payload instanceof Response) payload.headers.set('cache-control', 'no-store');
    return payload;
  });

  // Node counts a request whose client went away as finished while its handler still runs, so
  // app.close() alone could close the database under a handler. onSend also runs for a gone client.
  const handlersRunning = new Set<FastifyRequest>();
  let drained: (() => void) | undefined;
  const handlerDone = (req: FastifyRequest) => {
    if (handlersRunning.delete(req) && handlersRunning.size === 0) drained?.();
  };
  app.addHook('onRequest', (req, _reply, done) => {
    handlersRunning.add(req);
    done();
  });
  app.addHook('onSend', (req, _reply, payload, done) => {
    handlerDone(req);
    done(null, payload);
  });
  app.addHook('onResponse', (req, _reply, done) => {
    handlerDone(req);
    done();
  });
  app.addHook('onClose', async () => {
    if (handlersRunning.size === 0) return;
    await new Promise<void>((resolve) => {
      drained = resolve;
      setTimeout(resolve, HANDLER_DRAIN_MS).unref();
    });
  });

  // SSE streams never end on their own, so app.close() would wait forever: cut them, and browsers
  // reconnect to another worker or the restarted server.
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
      maxBatchSize: MAX_BATCH_SIZE,
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

  await app.register(plainRoutes, { deps });
  await app.register(stripeRoutes, { deps });

  // No pages at all: API only, for tests.
  const source: PageSource | null =
    pages === 'vite'
      ? { kind: 'vite' }
      : existsSync(path.join(clientDir, '.vite', 'manifest.json'))
        ? { kind: 'build', clientDir, ...(renderDir ? { renderDir } : {}) }
        : null;
  if (source?.kind === 'build') {
    logger.info({ clientDir }, 'serving the built client');
    // One route per file, listed at start-up: the build does not change under a running server.
    await app.register(fastifyStatic, {
      root: clientDir,
      index: false,
      preCompressed: true,
      wildcard: false,
      globIgnore: ['**/*.br', '**/*.gz'],
      setHeaders(reply, filePath) {
        if (isHashedAsset(clientDir, filePath)) reply.header('cache-control', IMMUTABLE_CACHE_CONTROL);
      },
    });
  } else if (!source) {
    logger.warn({ clientDir }, 'no client build in clientDir: serving the API only');
  }
  app.setNotFoundHandler((_req, reply) => reply.code(404).header('vary', 'accept').send({ error: 'Not Found' }));
  // Only page HTML is compressed per answer; static files are sent pre-compressed.
  await app.register(fastifyCompress, { global: false });
  if (source) await registerPages(app, { deps, source, csp: helmetHeaders['content-security-policy'] ?? '', mapTiles });

  return app;
}
