/**
 * buildServer: Fastify hosting tRPC at /trpc (batches of at most MAX_BATCH_SIZE calls, superjson,
 * SSE subscriptions), /healthz, the calendar feed and one-click unsubscribe (http/plain-routes.ts),
 * the client's files, and every page, rendered by the client's router (http/pages.ts). No other
 * HTTP routes.
 * A coarse per-IP limit on tRPC mutation calls, and one on Discover searches, answer 429 in tRPC's
 * own error shape (docs/decisions/0008, 0029, 0081). Requests Fastify cannot read (malformed path, oversize or
 * unreadable body) get a generic body, never Fastify's codes or texts (docs/decisions/0030).
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
import { RequestLogController } from './logger';
import { createFastifyContextFactory, type AppDeps } from './trpc/context';
import { trpcErrorBody } from './trpc/http-errors';
import { appRouter, type AppRouter } from './trpc/router';

/** Largest request body accepted, in bytes: the biggest form (the contact message) is far smaller. */
export const BODY_LIMIT_BYTES = 256 * 1024;

/** How long app.close() waits, at most, for handlers of requests whose client has gone. */
const HANDLER_DRAIN_MS = 10_000;

/** The generic answers of requests refused before tRPC runs (docs/decisions/0030). */
const GENERIC_BODIES = {
  400: { error: MSG.badRequest },
  413: { error: MSG.requestTooLarge },
  500: { error: MSG.generic },
} as const;

/** The body for a refused request of `status`: the 400 text for any other 4xx. */
function genericBody(status: number) {
  if (status === 413 || status === 500) return GENERIC_BODIES[status];
  return GENERIC_BODIES[400];
}

/**
 * How many procedure calls a tRPC request carries: the comma-separated paths of a `?batch=1`
 * request (at most MAX_BATCH_SIZE; a longer batch is refused whole by tRPC), else one.
 */
export function trpcCallCount(url: string): number {
  const [pathname = '', query = ''] = url.split('?', 2);
  if (!new URLSearchParams(query).getAll('batch').includes('1')) return 1;
  const paths = pathname.replace(/^\/trpc\/?/, '').split(',').length;
  return Math.min(Math.max(paths, 1), MAX_BATCH_SIZE);
}

/** The path of the Discover search procedure. */
const SEARCH_PROCEDURE = 'discovery.search';

/** How many Discover search calls a tRPC GET `url` carries (a batch may name it several times, up to MAX_BATCH_SIZE). */
export function searchCallCount(url: string): number {
  const pathname = url.split('?', 1)[0]!;
  if (!pathname.includes(SEARCH_PROCEDURE)) return 0;
  const calls = pathname.replace(/^\/trpc\/?/, '').split(',');
  return Math.min(calls.filter((p) => p === SEARCH_PROCEDURE).length, MAX_BATCH_SIZE);
}

/** Cache-Control of the built client's hashed files (assets/): a new build gives new names. */
export const IMMUTABLE_CACHE_CONTROL = 'public, max-age=31536000, immutable';

/** Whether `filePath` (as @fastify/static sends it, maybe a .br or .gz sibling) is in `clientDir`/assets. */
function isHashedAsset(clientDir: string, filePath: string): boolean {
  return path.relative(clientDir, filePath).split(path.sep)[0] === 'assets';
}

/** The built client (`npm run build:client`), from the sources and from the built server alike. */
export const clientDist = projectPath('dist', 'client');

export interface BuildServerOptions {
  deps: AppDeps;
  logger: Logger;
  /** Folder of the built client; default dist/client. Missing folder: API only. */
  clientDir?: string;
  /** Where pages come from: the built client (default) or Vite's development server (`npm run dev`). */
  pages?: 'build' | 'vite';
  /** Folder of the built server render; default dist/ssr. */
  renderDir?: string;
  /** Fastify `trustProxy` (env TRUST_PROXY); default false: the client IP is the connection's. */
  trustProxy?: TrustProxy;
  /** Per-IP limit on tRPC mutation calls per minute (env RATE_LIMIT_MUTATIONS_PER_MINUTE); default 300. */
  mutationsPerMinute?: number;
  /** Per-IP limit on Discover searches per minute (env RATE_LIMIT_SEARCHES_PER_MINUTE); default 120. */
  searchesPerMinute?: number;
  /** The maps' tiles (env MAP_TILE_URL, MAP_TILE_ATTRIBUTION): allowed as images, handed to the pages; default OpenStreetMap's. */
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
    // One line per request instead of Fastify's two (docs/decisions/0043).
    logController: new RequestLogController(),
    routerOptions: { maxParamLength: 5000 },
    trustProxy,
    bodyLimit: BODY_LIMIT_BYTES,
    // A path that cannot be decoded (FST_ERR_BAD_URL) or is too long: a generic 400, no code.
    frameworkErrors(err, req, res) {
      const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? 400 : 500;
      if (status >= 500) req.log.error({ err }, 'request failed');
      const reply = res as unknown as FastifyReply;
      return reply.code(status).send(genericBody(status));
    },
  });

  // Set before any plugin is registered, so every plugin's routes inherit it. Errors outside
  // tRPC's own answers (body too large, unsupported content type, unreadable body): the status
  // is kept for client errors, the body is always generic (no FST_ code or text).
  app.setErrorHandler((err: { statusCode?: number; message?: string }, req, reply) => {
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    if (status >= 500) req.log.error({ err }, 'request failed');
    return reply.code(status).send(genericBody(status));
  });

  // Security headers on every answer: helmet's, computed once (security-headers.ts, docs/decisions/0057).
  const helmetHeaders = securityHeaders(appHelmetOptions(deps.secureCookies, mapTiles.url));
  app.addHook('onRequest', (_req, reply, done) => {
    reply.headers(helmetHeaders);
    done();
  });
  await app.register(fastifyCookie);

  // Coarse flood guard, per IP and per process: tRPC mutations only (POST /trpc/...), counted per
  // procedure call, so a batch of ten counts ten. Queries, subscriptions and static files are
  // never limited here; the login and email throttles live in the database
  // (server/features/auth/throttle.ts).
  await app.register(fastifyRateLimit, { global: false });
  // The public Discover search (a query, docs/decisions/0081) has a limit of its own, counted
  // the same way per search call.
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

  // Every tRPC answer may depend on the session (the cookie): no browser or proxy may store it,
  // SSE streams and errors included (docs/decisions/0032). tRPC answers with a fetch Response
  // whose headers Fastify copies after this hook (SSE: 'no-cache'), so that one is set too.
  app.addHook('onSend', async (req, reply, payload) => {
    if (!req.url.startsWith('/trpc/')) return payload;
    reply.header('cache-control', 'no-store');
    if (payload instanceof Response) payload.headers.set('cache-control', 'no-store');
    return payload;
  });

  // app.close() waits for requests in flight, but Node counts a request whose client went away as
  // finished while its handler still runs (e.g. a booking between two queries). Such handlers are
  // waited for too (up to HANDLER_DRAIN_MS), so a shutdown never closes the database under one.
  // A handler is done when it sends its reply (onSend, also called for a gone client).
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

  // The calendar feed and one-click unsubscribe: token-authorised plain HTTP (plain-routes.ts).
  await app.register(plainRoutes, { deps });

  // Pages: the built client (its files, and its server render for every page path), Vite's
  // development server, or none (API only: tests that need no pages).
  const source: PageSource | null =
    pages === 'vite'
      ? { kind: 'vite' }
      : existsSync(path.join(clientDir, '.vite', 'manifest.json'))
        ? { kind: 'build', clientDir, ...(renderDir ? { renderDir } : {}) }
        : null;
  if (source?.kind === 'build') {
    logger.info({ clientDir }, 'serving the built client');
    // The build writes .br and .gz beside each text file (vite.config.ts); they are sent to clients
    // that accept them. Files in assets/ have content hashes in their names: cached for a year.
    // One route per file of the build, listed at start-up (the build does not change under a
    // running server).
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
  // Anything no route has (another method, or no pages at all): a plain 404, logged as a request.
  app.setNotFoundHandler((_req, reply) => reply.code(404).header('vary', 'accept').send({ error: 'Not Found' }));
  // Page HTML is compressed per answer; nothing else is (static files are sent pre-compressed).
  await app.register(fastifyCompress, { global: false });
  if (source) await registerPages(app, { deps, source, csp: helmetHeaders['content-security-policy'] ?? '', mapTiles });

  return app;
}
