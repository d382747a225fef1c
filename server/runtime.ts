/** Wires a process: database, realtime, public page and visitor page caches, mailer and background passes, into app deps. */
import type { Logger } from 'pino';
import { appOrigin, type Env } from './core/env';
import { runEvery, type Passes } from './core/run-every';
import { openDatabase, type Database, type Db } from './db/client';
import { startOutboxDispatcher, type OutboxDispatcher } from './email/dispatcher';
import { applyOutboxRetention } from './email/outbox';
import { mailboxTransport, resendTransport } from './email/transports';
import { startAlertEmails } from './features/alerts/alert-emails';
import { resolveAccountEmailIntent } from './features/auth/email-intents';
import { deleteExpiredSessions } from './features/auth/session';
import { createDbThrottle, deleteExpiredThrottleRows, THROTTLE_RULES } from './features/auth/throttle';
import { deleteUnconfirmedSignUps } from './features/auth/unconfirmed-sign-ups';
import { billingFromEnv, startBillingSweep, type SweepDeps } from './features/billing/billing-runtime';
import { stripeBillingPortal, stripeClient } from './features/billing/stripe-portal';
import { PublicPageCache } from './features/businesses/public-page-cache';
import { deleteExpiredSlugHolds } from './features/businesses/slug-holds';
import { VisitorPageCache } from './http/visitor-page-cache';
import { startGeocodeWorker } from './features/geocoding/geocode-requests';
import { geocoderFromEnv } from './features/geocoding/geocoder';
import { deleteExpiredIdempotencyKeys } from './features/idempotency/idempotency.service';
import { BookingEventHub } from './realtime/booking-events';
import { SessionRevocations } from './realtime/session-revocations';
import { kickMailWorker } from './supervisor';
import { callLimitStoreFor, type CallLimitStore } from './trpc/call-limit-store';
import type { AppDeps } from './trpc/context';

export interface Runtime {
  database: Database;
  deps: AppDeps;
  /** Where the per-client call limits count: the shared database on PostgreSQL (docs/decisions/0103). */
  callLimitStore: CallLimitStore;
  close(): Promise<void>;
}

/** Opens the database for `env`: PostgreSQL with DATABASE_URL, else PGlite in PGLITE_DIR. */
export function openEnvDatabase(env: Env): Promise<Database> {
  return openDatabase({ url: env.DATABASE_URL, pgliteDir: env.DATABASE_URL ? undefined : env.PGLITE_DIR });
}

/** Starts the outbox dispatcher: Resend when RESEND_API_KEY is set, else the local mailbox. */
export function startMailer(env: Env, database: Database, logger: Logger): OutboxDispatcher {
  const origin = appOrigin(env);
  return startOutboxDispatcher({
    db: database.db,
    transport: env.RESEND_API_KEY ? resendTransport(env.RESEND_API_KEY) : mailboxTransport,
    from: env.EMAIL_FROM,
    logger,
    resolveIntent: (tx, intent) => resolveAccountEmailIntent({ now: () => new Date(), appOrigin: origin }, tx, intent),
  });
}

/** Starts the alert and favourite emails (docs/decisions/0086); `kick` runs the outbox dispatcher. */
export function startAlerts(env: Env, database: Database, logger: Logger, kick: () => void) {
  return startAlertEmails({
    db: database.db,
    appOrigin: appOrigin(env),
    logger,
    kick,
    intervalMs: env.ALERT_EMAIL_INTERVAL_SECONDS * 1000,
  });
}

/** How often the housekeeping pass deletes what has expired, in ms. */
export const HOUSEKEEPING_MS = 60 * 60_000;

/** The housekeeping pass's parts: each deletes what has expired by `now`; a failure is logged alone. */
const HOUSEKEEPING: ReadonlyArray<[failure: string, part: (db: Db, now: Date) => Promise<unknown>]> = [
  ['session sweep failed', deleteExpiredSessions],
  ['throttle sweep failed', deleteExpiredThrottleRows],
  ['idempotency key sweep failed', deleteExpiredIdempotencyKeys],
  ['outbox retention sweep failed', applyOutboxRetention],
  ['unconfirmed sign-up sweep failed', deleteUnconfirmedSignUps],
  ['slug hold sweep failed', deleteExpiredSlugHolds],
];

/**
 * Starts the passes a deployment needs once per instance, where its outbox is sent (the mail worker,
 * or the one process without one: docs/decisions/0064): the billing sweep, now and every
 * BILLING_SWEEP_MS, and the housekeeping of expired sessions, throttle rows, idempotency keys, sent
 * email, week-old unconfirmed sign-ups and ended slug holds, now and every HOUSEKEEPING_MS. `stop()`
 * resolves once the passes under way have ended.
 */
export function startBackgroundPasses(deps: SweepDeps, logger: Logger): Passes {
  const billing = startBillingSweep(deps, logger);
  const housekeeping = runEvery(
    async () => {
      for (const [failure, part] of HOUSEKEEPING)
        await part(deps.db, deps.now()).catch((err) => logger.warn({ err }, failure));
    },
    { intervalMs: HOUSEKEEPING_MS, logger, failure: 'housekeeping failed', atStart: true },
  );
  logger.info('background passes started');
  return {
    async stop() {
      await Promise.all([billing.stop(), housekeeping.stop()]);
    },
  };
}

/**
 * Opens (unless given) and migrates the database and starts the background parts. `remoteMailer`
 * leaves email, address look-ups, alerts and the background passes to the mail worker
 * (docs/decisions/0064, 0082).
 */
export async function startRuntime(
  env: Env,
  logger: Logger,
  database?: Database,
  options: { migrate?: boolean; remoteMailer?: boolean } = {},
): Promise<Runtime> {
  const db = database ?? (await openEnvDatabase(env));
  if (options.migrate !== false) await db.migrate();
  const hub = new BookingEventHub(db, logger);
  const publicPages = new PublicPageCache(db.db);
  publicPages.follow(hub);
  const visitorPages = new VisitorPageCache();
  visitorPages.follow(hub);
  await hub.start();
  const revocations = new SessionRevocations(db, logger);
  await revocations.start();
  const origin = appOrigin(env);
  const dispatcher = options.remoteMailer ? null : startMailer(env, db, logger);
  // Address look-ups and alert emails run where the outbox is sent (docs/decisions/0082, 0086).
  const geocodes = options.remoteMailer
    ? null
    : startGeocodeWorker({ db: db.db, geocoder: geocoderFromEnv(env), hub, logger });
  const alertEmails = dispatcher ? startAlerts(env, db, logger, () => dispatcher.kick()) : null;
  // Subscriptions (docs/decisions/0100): null while BILLING=off.
  const billing = await billingFromEnv(env, db.db, origin, new Date());
  const deps: AppDeps = {
    db: db.db,
    now: () => new Date(),
    appOrigin: origin,
    hub,
    publicPages,
    visitorPages,
    revocations,
    kickMailer: dispatcher ? () => dispatcher.kick() : kickMailWorker,
    logger,
    throttle: createDbThrottle(db.db, {
      ...THROTTLE_RULES,
      signUpIp: { ...THROTTLE_RULES.signUpIp, points: env.RATE_LIMIT_EMAIL_REQUESTS_PER_IP },
      emailRequestIp: { ...THROTTLE_RULES.emailRequestIp, points: env.RATE_LIMIT_EMAIL_REQUESTS_PER_IP },
    }),
    billingPortal: billing
      ? stripeBillingPortal(billing.stripe)
      : env.STRIPE_SECRET_KEY
        ? stripeBillingPortal(stripeClient(env.STRIPE_SECRET_KEY))
        : null,
    billing,
    isProduction: env.NODE_ENV === 'production',
    secureCookies: origin.startsWith('https://'),
  };
  // With a mail worker, it runs the background passes (once per instance, not once per HTTP worker).
  const passes = options.remoteMailer ? null : startBackgroundPasses(deps, logger);
  return {
    database: db,
    deps,
    callLimitStore: callLimitStoreFor(db, (err) => logger.warn({ err }, 'live stream place not renewed or given back')),
    async close() {
      await passes?.stop();
      await billing?.standIn?.close();
      await alertEmails?.stop();
      await dispatcher?.stop();
      await geocodes?.stop();
      await revocations.stop();
      await hub.stop();
      await db.close();
    },
  };
}
