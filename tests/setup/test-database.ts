/**
 * A fresh, migrated database for one test file: a clone of the template on PostgreSQL, or an
 * in-memory PGlite. Also builds the service/app dependencies around it with a movable clock.
 */
import { randomBytes } from 'node:crypto';
import pino from 'pino';
import postgres from 'postgres';
import { afterAll, afterEach, beforeAll, beforeEach, inject, vi } from 'vitest';
import { openDatabase, type Database } from '../../server/db/client';
import { createDbThrottle } from '../../server/features/auth/throttle';
import { PublicPageCache } from '../../server/features/businesses/public-page-cache';
import { VisitorPageCache } from '../../server/http/visitor-page-cache';
import { BookingEventHub } from '../../server/realtime/booking-events';
import { SessionRevocations } from '../../server/realtime/session-revocations';
import type { AppDeps } from '../../server/trpc/context';

export interface TestDatabase {
  database: Database;
  /** Connection URL when on PostgreSQL (for a second "process"), else null. */
  url: string | null;
  close(): Promise<void>;
}

/** Opens a new isolated database with all migrations applied. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = inject('pgAdminUrl');
  const template = inject('pgTemplate');
  if (!adminUrl || !template) {
    const database = await openDatabase({});
    await database.migrate();
    return { database, url: null, close: () => database.close() };
  }
  const name = `${template.replace(/template$/, '')}${randomBytes(6).toString('hex')}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name} template ${template}`);
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  const database = await openDatabase({ url: u.toString(), max: 5 });
  return {
    database,
    url: u.toString(),
    async close() {
      await database.close();
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end({ timeout: 5 });
    },
  };
}

/**
 * A clock tests can set; starts at `start`. While Date is faked (`vi.useFakeTimers({ toFake:
 * ['Date'] })`, see `useTestDeps`'s `fakeDate`), moving the clock moves Date too, so code that
 * reads the wall clock (the rate limiter) follows it.
 */
export function testClock(start: Date) {
  let current = new Date(start);
  const sync = () => {
    if (vi.isFakeTimers()) vi.setSystemTime(current);
  };
  return {
    now: () => new Date(current),
    set(d: Date) {
      current = new Date(d);
      sync();
    },
    advance(ms: number) {
      current = new Date(current.getTime() + ms);
      sync();
    },
  };
}

export const silentLogger = pino({ level: 'silent' });

/**
 * App dependencies over `database` with the given clock; the booking hub and the session
 * revocations are started (LISTEN), and the public and visitor page caches follow the hub. `hub.stop()` stops
 * both. `events`: what the booking hub LISTENs and NOTIFYs through instead of `database` (a test
 * that holds back or replays notifications).
 */
export async function createTestDeps(
  database: Database,
  now: () => Date,
  options: { events?: Pick<Database, 'listen' | 'notify'> } = {},
): Promise<{ deps: AppDeps; hub: Pick<BookingEventHub, 'stop'> }> {
  const bookingHub = new BookingEventHub(options.events ?? database, silentLogger);
  const publicPages = new PublicPageCache(database.db);
  publicPages.follow(bookingHub);
  const visitorPages = new VisitorPageCache();
  visitorPages.follow(bookingHub);
  await bookingHub.start();
  const revocations = new SessionRevocations(database, silentLogger);
  await revocations.start();
  const hub = {
    async stop() {
      await revocations.stop();
      await bookingHub.stop();
    },
  };
  const deps: AppDeps = {
    db: database.db,
    now,
    appOrigin: 'http://localhost:3000',
    hub: bookingHub,
    publicPages,
    visitorPages,
    revocations,
    kickMailer: () => {},
    logger: silentLogger,
    throttle: createDbThrottle(database.db),
    isProduction: false,
    secureCookies: false,
  };
  return { deps, hub };
}

/**
 * Registers beforeAll/afterAll that give the test file its own database, started hub and app
 * dependencies with a movable clock starting at `start`. Read `deps` inside tests only.
 * `fakeDate`: each test runs with Date faked (only Date; timers stay real) and following `clock`,
 * so the throttle's windows (which read Date.now()) move with the clock.
 */
export function useTestDeps(start: Date, options: { fakeDate?: boolean } = {}) {
  const clock = testClock(start);
  const state: { tdb?: TestDatabase; deps?: AppDeps; hub?: Pick<BookingEventHub, 'stop'> } = {};
  beforeAll(async () => {
    state.tdb = await createTestDatabase();
    Object.assign(state, await createTestDeps(state.tdb.database, clock.now));
  });
  afterAll(async () => {
    await state.hub?.stop();
    await state.tdb?.close();
  });
  if (options.fakeDate) {
    beforeEach(() => {
      vi.useFakeTimers({ toFake: ['Date'], now: clock.now() });
    });
    afterEach(() => {
      vi.useRealTimers();
    });
  }
  return {
    clock,
    get deps(): AppDeps {
      if (!state.deps) throw new Error('useTestDeps: read deps inside a test');
      return state.deps;
    },
    /** The test file's database (to start an HTTP server on it); read inside tests only. */
    get database(): Database {
      if (!state.tdb) throw new Error('useTestDeps: read database inside a test');
      return state.tdb.database;
    },
  };
}
