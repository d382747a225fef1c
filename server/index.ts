/**
 * Process entry (docs/decisions/0028, 0042): the primary migrates the database (and seeds demo data in
 * development), then supervises the HTTP workers and, on PostgreSQL, the mail worker (docs/decisions/0064).
 */
import cluster from 'node:cluster';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import type { Logger } from 'pino';
import { buildServer } from './app';
import { appOrigin, loadEnv, mapTiles, workerCount, type Env } from './core/env';
import { billingTermsFromEnv } from './features/billing/billing-runtime';
import { DEMO, seedDemoIfEmpty } from './features/demo/seed';
import { warmGazetteer } from './features/geocoding/gazetteer';
import { startGeocodeWorker } from './features/geocoding/geocode-requests';
import { geocoderFromEnv } from './features/geocoding/geocoder';
import { BookingEventHub } from './realtime/booking-events';
import { createLogger, flushLogger } from './logger';
import { openEnvDatabase, startAlerts, startBackgroundPasses, startMailer, startRuntime } from './runtime';
import { serveMailWorker, superviseWorkers, workerRole } from './supervisor';

function envOrExit(): Env {
  if (existsSync('.env')) process.loadEnvFile('.env');
  try {
    return loadEnv();
  } catch (err) {
    console.error((err as Error).message);
    process.exit(1);
  }
}

const loggerFor = (env: Env) => createLogger(env.LOG_LEVEL, process.stdout.isTTY && env.NODE_ENV !== 'production');

async function primary(): Promise<void> {
  const env = envOrExit();
  const logger = loggerFor(env);
  const database = await openEnvDatabase(env);
  let seeded = false;
  try {
    await database.migrate();
    if (env.NODE_ENV === 'development' && env.SEED_DEMO) seeded = await seedDemoIfEmpty(database.db);
  } finally {
    // PGlite's folder may be open in one process only: the worker opens it next.
    await database.close();
  }

  const workers = workerCount(env, availableParallelism());
  if (workers.ignored)
    logger.warn({ WEB_CONCURRENCY: env.WEB_CONCURRENCY }, 'WEB_CONCURRENCY ignored: PGlite serves one process');

  const url = appOrigin(env);
  const banner = () => {
    const lines = [
      '',
      `  LastSlot is running at ${url} (${workers.count} worker${workers.count === 1 ? '' : 's'})`,
      `  Database: ${database.kind === 'pglite' ? `embedded PGlite (${env.PGLITE_DIR})` : 'PostgreSQL (DATABASE_URL)'}`,
      env.RESEND_API_KEY ? '  Email: sent with Resend' : `  Email: not sent; read it at ${url}/dev/mailbox`,
    ];
    if (seeded) {
      lines.push(
        '',
        '  Demo data created:',
        `    Business page:  ${url}/${DEMO.slug}`,
        `    Business login: ${DEMO.businessEmail} / ${DEMO.password}`,
        `    Customer login: ${DEMO.customerEmail} / ${DEMO.password}`,
      );
    }
    console.log(lines.join('\n') + '\n');
  };

  // A separate mail worker keeps email from holding up requests; PGlite's one process does both.
  const supervisor = superviseWorkers({
    count: workers.count,
    mailWorker: database.kind !== 'pglite',
    logger,
    onListening: banner,
  });
  const shutdown = (signal: string) => {
    void supervisor
      .stop(signal)
      .then(() => {
        logger.info({ signal }, 'shut down');
        return flushLogger(logger);
      })
      .then(() => process.exit(0));
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

/** On the first SIGINT / SIGTERM: runs `close`, flushes the log, and exits 0 whether or not `close` succeeded. */
function exitOnSignal(logger: Logger, message: string, close: () => Promise<void>): void {
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, message);
    try {
      await close();
    } finally {
      await flushLogger(logger);
      process.exit(0);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

async function httpWorker(): Promise<void> {
  const env = envOrExit();
  const logger = loggerFor(env);
  const runtime = await startRuntime(env, logger, undefined, {
    migrate: false,
    remoteMailer: workerRole() === 'http-remote-mail',
  });
  const app = await buildServer({
    deps: runtime.deps,
    logger,
    trustProxy: env.TRUST_PROXY,
    mutationsPerMinute: env.RATE_LIMIT_MUTATIONS_PER_MINUTE,
    searchesPerMinute: env.RATE_LIMIT_SEARCHES_PER_MINUTE,
    liveStreamsPerClient: env.RATE_LIMIT_LIVE_STREAMS_PER_IP,
    callLimitStore: runtime.callLimitStore,
    mapTiles: mapTiles(env),
    pages: env.PAGES,
    ...(env.CLIENT_DIST_DIR ? { clientDir: path.resolve(env.CLIENT_DIST_DIR) } : {}),
    ...(env.SERVER_RENDER_DIR ? { renderDir: path.resolve(env.SERVER_RENDER_DIR) } : {}),
  });
  await app.listen({ host: env.HOST, port: env.PORT });
  // Load the gazetteer now rather than during a customer's search.
  setImmediate(() => {
    try {
      warmGazetteer();
    } catch (err) {
      logger.error({ err }, 'gazetteer failed to load');
    }
  });

  exitOnSignal(logger, 'worker shutting down', async () => {
    await app.close(); // stops accepting, ends live-update streams, drains requests in flight
    await runtime.close();
  });
}

/**
 * The mail worker: outbox, geocoder, alert emails and the background passes (billing sweep,
 * housekeeping). Its hub only NOTIFYs; it listens to nothing.
 */
async function mailWorker(): Promise<void> {
  const env = envOrExit();
  const logger = loggerFor(env);
  const database = await openEnvDatabase(env);
  const dispatcher = startMailer(env, database, logger);
  serveMailWorker(() => dispatcher.kick());
  const hub = new BookingEventHub(database, logger);
  const geocodes = startGeocodeWorker({ db: database.db, geocoder: geocoderFromEnv(env), hub, logger });
  const alerts = startAlerts(env, database, logger, () => dispatcher.kick());
  // Billing's terms alone: the Stripe client and the local stand-in belong to the HTTP workers.
  const terms = await billingTermsFromEnv(env, database.db, new Date());
  const passes = startBackgroundPasses(
    {
      db: database.db,
      now: () => new Date(),
      hub,
      appOrigin: appOrigin(env),
      kickMailer: () => dispatcher.kick(),
      billing: terms && { terms },
    },
    logger,
  );

  exitOnSignal(logger, 'mail worker shutting down', async () => {
    await passes.stop();
    await alerts.stop();
    await geocodes.stop();
    await dispatcher.stop(); // lets the run under way finish: a sent message is marked sent
    await database.close();
  });
}

(cluster.isPrimary ? primary() : workerRole() === 'mail' ? mailWorker() : httpWorker()).catch((err) => {
  console.error('LastSlot failed to start:', err instanceof Error ? err.message : err);
  process.exit(1);
});
