/**
 * Captures the SQL the app issues for each bench scenario by calling the real services on a
 * drizzle instance with a query logger (same schema and casing as server/db/client.ts). run.ts
 * compares the result with the statements the baseline server (bench/baseline-server.ts) runs,
 * so a change in the app's queries shows up as a "baseline SQL drift" warning instead of a silently
 * unfair comparison. Standalone: `tsx bench/capture-sql.ts <database url>` prints the statements.
 */
import { sql, TransactionRollbackError } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/postgres-js';
import type { Logger } from 'pino';
import postgres from 'postgres';
import type { ServiceDeps } from '../server/core/deps';
import type { Db } from '../server/db/client';
import * as schema from '../server/db/schema/index';
import { validateSessionToken } from '../server/features/auth/session';
import { dispatchOutboxOnce, resolveEmailIntentsOnce } from '../server/email/dispatcher';
import type { MailTransport } from '../server/email/transports';
import { listBusinessRequests, requestBooking } from '../server/features/bookings/bookings.service';
import { getOwnBusiness, loadPublicPage } from '../server/features/businesses/businesses.service';
import { searchSlots } from '../server/features/discovery/discovery.service';
import { listBusinessSlots } from '../server/features/slots/slots.service';
import { windowRange } from '../shared/discovery';
import { discoverySearchInput } from '../shared/schemas/discovery';
import { businessSlug, businessToken, customerToken } from './db';

/** The statements (SQL text, in order) one call of each scenario's procedures runs. */
export interface CapturedSql {
  session: string[];
  bySlug: string[];
  request: string[];
  listMine: string[];
  requests: string[];
  /**
   * One mail dispatcher run that sends the booking's two emails: the due-intents look-up, the
   * claim, the mark `sent` after the provider's answer.
   */
  dispatch: string[];
  /** The Discover search's statements in the order a search first issues them: soonest's first instant and cut, by category, nearest, by category (each over small then large cells), then the first instant's page. */
  discovery: string[];
}

/**
 * Runs each scenario's service calls once against `url` (a seeded bench database; one booking is
 * written for slot `bench_uuid('slot-1-0')` of business 1) and returns the SQL texts drizzle sent.
 */
export async function captureAppSql(url: string): Promise<CapturedSql> {
  const client = postgres(url, { max: 1, onnotice: () => {} });
  let log: string[] = [];
  const db = drizzle(client, {
    schema,
    casing: 'snake_case',
    logger: { logQuery: (query) => void log.push(query) },
  }) as unknown as Db;
  const take = () => {
    const out = log;
    log = [];
    return out;
  };
  const now = new Date();
  const deps = {
    db,
    now: () => now,
    appOrigin: 'http://localhost',
    hub: { publish: async () => {} },
    kickMailer: () => {},
  } as unknown as ServiceDeps;
  try {
    await validateSessionToken(db, businessToken(1), now);
    const session = take();
    // What a public page cache miss reads (server/features/businesses/public-page-cache.ts).
    await loadPublicPage(db, businessSlug(1), now);
    const bySlug = take();
    const [slot] = await client<{ id: string }[]>`select bench_uuid('slot-1-0')::text as id`;
    const customer = await validateSessionToken(db, customerToken(1), now);
    take();
    await requestBooking(deps, customer!.user.id, { slotId: slot!.id });
    const request = take();
    const silent = { warn: () => {}, error: () => {} } as unknown as Logger;
    await resolveEmailIntentsOnce({ db, resolve: async () => {}, logger: silent, now });
    const transport: MailTransport = {
      name: 'capture',
      send: async () => 'captured',
      sendBatch: async (messages) => messages.map(() => ({ id: 'captured' })),
    };
    // The request's emails are due at once: the dispatcher claims, "sends" and marks them.
    await dispatchOutboxOnce({ db, transport, from: 'bench@lastslot.test', logger: silent });
    const dispatch = take();
    const business = await getOwnBusiness(db, (await validateSessionToken(db, businessToken(1), now))!.user.id);
    take();
    await listBusinessSlots(deps, business.id);
    const listMine = take();
    await listBusinessRequests(deps, business.id);
    const requests = take();
    // 5 miles reads the small cells, 25 the large ones (server/features/discovery/cells.ts); far
    // from every seeded business, so a nearest search tries every ring, small cells then large.
    for (const sort of ['soonest', 'nearest'] as const) {
      for (const category of [null, 'Hair Services']) {
        for (const miles of [5, 25]) {
          await searchSlots(
            deps,
            discoverySearchInput.parse({
              window: 'today',
              latitude: 57.9,
              longitude: -5.2,
              miles,
              sort,
              category,
            }),
          );
        }
      }
    }
    // A soonest page answered at its first instant (two businesses with a slot at one start, a
    // page of one) reads that instant's page too: written and searched in a transaction rolled back.
    const searched = take();
    await db
      .transaction(async (tx) => {
        const start = new Date(windowRange('tomorrow', 'Europe/London', now).from.getTime() + 12 * 3_600_000);
        await tx.execute(sql`
          with owners as (
            insert into users (email, password_hash, role, name)
            select 'capture-' || i || '@bench.lastslot.test', 'x', 'business', 'Capture ' || i from generate_series(1, 2) i
            returning id, name),
          profiles as (
            insert into business_profiles (id, business_name, address, slug, business_type, timezone, latitude, longitude,
                                           location_precision, location_source, discoverable)
            select id, name, '1 Capture Street', 'capture-' || md5(id::text), 'Hair Salon', 'Europe/London',
                   58.5 + row_number() over (order by id) * 0.001, -4.5, 'exact', 'pin', true from owners
            returning id, latitude, longitude)
          insert into slots (business_id, date, start_time, end_time, description, starts_at, latitude, longitude, business_category)
          select id, (${start.toISOString()}::timestamptz at time zone 'Europe/London')::date,
                 to_char(${start.toISOString()}::timestamptz at time zone 'Europe/London', 'HH24:MI'),
                 to_char((${start.toISOString()}::timestamptz + interval '30 minutes') at time zone 'Europe/London', 'HH24:MI'),
                 'Cut', ${start.toISOString()}::timestamptz, latitude, longitude, 'Hair Salon' from profiles`);
        take();
        await searchSlots(
          { db: tx, now: () => now },
          discoverySearchInput.parse({ window: 'tomorrow', latitude: 58.5, longitude: -4.5, miles: 5, limit: 1 }),
        );
        tx.rollback();
      })
      .catch((err: unknown) => {
        if (!(err instanceof TransactionRollbackError)) throw err;
      });
    // A nearest search runs a statement once per ring it tries: each statement once, in order.
    const discovery = [...new Set([...searched, ...take()])];
    return { session, bySlug, request, listMine, requests, dispatch, discovery };
  } finally {
    await client.end({ timeout: 5 });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const url = process.argv[2];
  if (!url) {
    console.error('usage: tsx bench/capture-sql.ts <database url of a seeded bench database>');
    process.exit(2);
  }
  captureAppSql(url).then(
    (captured) => {
      for (const [name, statements] of Object.entries(captured)) {
        console.log(`-- ${name}`);
        for (const s of statements as string[]) console.log(`${s};`);
      }
    },
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
