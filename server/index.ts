/**
 * Process entry: validates the env, opens and migrates the database (PGlite under ./data when no
 * DATABASE_URL), seeds demo data on a first development start, and listens on HOST:PORT.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { buildServer } from './app';
import { loadEnv, appOrigin } from './env';
import { DEMO, seedDemoIfEmpty } from './features/demo/seed';
import { createLogger } from './logger';
import { startRuntime } from './runtime';

async function main(): Promise<void> {
  if (existsSync('.env')) process.loadEnvFile('.env');
  let env;
  try {
    env = loadEnv();
  } catch (err) {
    console.error((err as Error).message);
    process.exit(1);
  }
  const logger = createLogger(env.LOG_LEVEL, process.stdout.isTTY && env.NODE_ENV !== 'production');
  const runtime = await startRuntime(env, logger);
  const seeded = env.NODE_ENV === 'development' && env.SEED_DEMO ? await seedDemoIfEmpty(runtime.deps.db) : false;
  const app = await buildServer({
    deps: runtime.deps,
    logger,
    trustProxy: env.TRUST_PROXY,
    mutationsPerMinute: env.RATE_LIMIT_MUTATIONS_PER_MINUTE,
    ...(env.CLIENT_DIST_DIR ? { clientDir: path.resolve(env.CLIENT_DIST_DIR) } : {}),
  });
  await app.listen({ host: env.HOST, port: env.PORT });

  const url = appOrigin(env);
  const lines = [
    '',
    `  LastSlot is running at ${url}`,
    `  Database: ${runtime.database.kind === 'pglite' ? `embedded PGlite (${env.PGLITE_DIR})` : 'PostgreSQL (DATABASE_URL)'}`,
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

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'shutting down');
    await app.close();
    await runtime.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((err) => {
  console.error('LastSlot failed to start:', err instanceof Error ? err.message : err);
  process.exit(1);
});
