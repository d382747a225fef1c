/**
 * The HTTP server: tRPC at /trpc, /healthz, plain routes, the client's files and pages. Requests Fastify
 * cannot read get a generic body, never Fastify's codes or texts (docs/decisions/0030).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import { fastifyTRPCPlugin, type FastifyTRPCPluginOptions } from '@trpc/server/adapters/fastify';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { DEFAULT_MAP_TILES, type MapTiles } from '../shared/map-tiles';
import { MSG } from '../shared/messages';
import { MAX_BATCH_SIZE } from '../shared/transport';
import {
  DEFAULT_LIVE_STREAMS_PER_IP,
  DEFAULT_MUTATIONS_PER_MINUTE,
  DEFAULT_SEARCHES_PER_MINUTE,
  type TrustProxy,
} from './core/env';
import { projectPath } from './core/paths';
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from './core/errors';
import { isDatabaseAway, pingDatabase } from './db/client';
import { clientIpKey } from './features/auth/throttle';
import { registerPages, type PageSource } from './http/pages';
import { plainRoutes } from './http/plain-routes';
import { appHelmetOptions, securityHeaders } from './http/security-headers';
import { stripeRoutes } from './http/stripe-webhook';
import { RequestLogController } from './logger';
import type { CallLimitStore } from './trpc/call-limit-store';
import { createCallLimits, retryAfterOf } from './trpc/call-limits';
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
  503: { error: MSG.generic },
} as const;

function genericBody(status: number) {
  if (status === 413 || status === 500) return GENERIC_BODIES[status];
  return GENERIC_BODIES[400];
}

/**
 * The only spelling of an API path the server answers: /trpc/ and procedure names (letters, digits,
 * `_`, `.`) joined by `,`, nothing percent-encoded, so what a log, proxy or cache reads is what runs.
 */
const CANONICAL_API_PATH = /^\/trpc\/[\w.,]+$/;

/** Whether `url` (path and query) spells its tRPC path canonically. */
function isCanonicalApiPath(url: string): boolean {
  return CANONICAL_API_PATH.test(url.split('?', 1)[0]!);
}

/** The paths of the router's subscriptions (live streams over SSE). */
const SUBSCRIPTIONS = new Set(
  Object.entries(appRouter._def.procedures as unknown as Record<string, { _def: { type: string } }>)
    .filter(([, procedure]) => procedure._def.type === 'subscription')
    .map(([path]) => path),
);

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
  /** env RATE_LIMIT_LIVE_STREAMS_PER_IP. */
  liveStreamsPerClient?: number;
  /** Where the per-client limits count (docs/decisions/0103): `callLimitStoreFor` the database; default this process's memory. */
  callLimitStore?: CallLimitStore;
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
  liveStreamsPerClient = DEFAULT_LIVE_STREAMS_PER_IP,
  callLimitStore,
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
    // The database away (docs/decisions/0102): try again shortly, not a bug; Retry-After is added below.
    if (isDatabaseAway(err)) {
      req.log.warn({ err }, 'request failed: the database is unavailable');
      return reply.code(503).send(GENERIC_BODIES[503]);
    }
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    // A client that went away before its answer (a page render stopped half-way) is no failure here.
    if (reply.raw.destroyed && !reply.raw.writableFinished)
      req.log.info({ reason: err.message }, 'request ended: the client went away');
    else if (status >= 500) req.log.error({ err }, 'request failed');
    return reply.code(status).send(genericBody(status));
  });

  // Helmet's headers, computed once (docs/decisions/0057).
  const helmetHeaders = securityHeaders(appHelmetOptions(deps.secureCookies, mapTiles.url));
  app.addHook('onRequest', (_req, reply, done) => {
    reply.headers(helmetHeaders);
    done();
  });
  await app.register(fastifyCookie);

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
  app.addHook('onSend', (req, reply, payload, done) => {
    handlerDone(req);
    // Every 503 (the database away, docs/decisions/0102) says when to try again. Fastify copies a
    // fetch Response's (tRPC's) status and headers after this hook.
    const res = payload instanceof Response ? payload : null;
    if (
      (res?.status ?? reply.statusCode) === 503 &&
      !(res?.headers.has('retry-after') ?? reply.hasHeader('retry-after'))
    ) {
      const wait = String(UNAVAILABLE_RETRY_AFTER_SECONDS);
      if (res) res.headers.set('retry-after', wait);
      else reply.header('retry-after', wait);
    }
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

  // Live streams never end on their own, so app.close() would wait forever: cut them, and browsers
  // reconnect to another worker or the restarted server.
  const streams = new Set<ServerResponse>();
  app.addHook('preClose', async () => {
    for (const res of streams) res.destroy();
  });

  // Per-client limits (docs/decisions/0008, 0029, 0092): mutation calls and Discover searches, counted per
  // procedure call after routing by every procedure's root middleware, for API calls and page renders
  // alike; open live streams, counted by the API's route below. The login and email throttles are in
  // the database. On PostgreSQL these counts are shared by every process too (docs/decisions/0103); an
  // unreachable store leaves each process counting on its own.
  const limits = createCallLimits({
    mutationsPerMinute,
    searchesPerMinute,
    streamsPerClient: liveStreamsPerClient,
    ...(callLimitStore ? { store: callLimitStore } : {}),
    logger,
  });

  // The API in a context of its own, so its hooks hold for whatever reached its route, however spelled.
  await app.register(async (api) => {
    api.addHook('onRequest', async (req, reply) => {
      if (!isCanonicalApiPath(req.url)) return reply.code(400).send(genericBody(400));
      // A live stream holds one of its client's places while its response is open (docs/decisions/0092).
      const { path: procedures } = req.params as { path: string };
      if (!procedures.split(',').some((p) => SUBSCRIPTIONS.has(p))) return;
      const release = await limits.openStream(clientIpKey(req.ip));
      if (!release) {
        const { httpStatus, body } = trpcErrorBody(req.url, 'TOO_MANY_REQUESTS', MSG.tooManyRequests);
        return reply.code(httpStatus).send(body);
      }
      const res = reply.raw;
      // The client may have gone while its place was being taken.
      if (res.destroyed) return release();
      streams.add(res);
      res.once('close', () => {
        streams.delete(res);
        release();
      });
    });
    // Every tRPC answer may depend on the session cookie, so none may be stored (docs/decisions/0032).
    // Fastify copies a fetch Response's own headers (SSE: 'no-cache') after this hook, so set those too.
    api.addHook('onSend', async (_req, reply, payload) => {
      reply.header('cache-control', 'no-store');
      if (payload instanceof Response) payload.headers.set('cache-control', 'no-store');
      return payload;
    });
    await api.register(fastifyTRPCPlugin, {
      prefix: '/trpc',
      trpcOptions: {
        router: appRouter,
        maxBatchSize: MAX_BATCH_SIZE,
        createContext: createFastifyContextFactory(deps, limits),
        responseMeta({ errors }) {
          const wait = retryAfterOf(errors);
          return wait === null ? {} : { headers: { 'retry-after': String(wait) } };
        },
        onError({ error, path: procedure }) {
          if (error.code !== 'INTERNAL_SERVER_ERROR') return;
          // The database away answers 503 (docs/decisions/0102): expected during a fail-over.
          if (isDatabaseAway(error.cause))
            logger.warn({ err: error.cause, procedure }, 'tRPC call failed: the database is unavailable');
          else logger.error({ err: error.cause ?? error, procedure }, 'tRPC error');
        },
      } satisfies FastifyTRPCPluginOptions<AppRouter>['trpcOptions'],
    });
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
  // Static files are sent pre-compressed; pages compress their own HTML (http/pages.ts).
  if (source)
    await registerPages(app, { deps, limits, source, csp: helmetHeaders['content-security-policy'] ?? '', mapTiles });

  return app;
}
