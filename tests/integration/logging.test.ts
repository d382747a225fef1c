/**
 * Production logs never hold what a failed query carried: a database error during sign-up (a
 * trigger on `users` that refuses the row and echoes it in its DETAIL) is logged through the real
 * HTTP server with the production logger, and the log keeps the error's class and SQLSTATE but
 * not the email, the password, the argon2id hash, the SQL or the driver's DETAIL. Request lines
 * never hold the secret a URL carries in its path: the calendar feed's and one-click
 * unsubscribe's tokens.
 */
import { Writable } from 'node:stream';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../server/app';
import { emailOutbox } from '../../server/db/schema/index';
import { createLogger } from '../../server/logger';
import type { BookingEventHub } from '../../server/realtime/booking-events';
import { pendingRequest } from '../factories/index';
import { createTestDatabase, createTestDeps, testClock, type TestDatabase } from '../setup/test-database';

const clock = testClock(new Date('2026-11-21T10:00:00Z'));
const lines: string[] = [];
let tdb: TestDatabase;
let hub: Pick<BookingEventHub, 'stop'>;
let app: FastifyInstance;
let url: string;
/** The business's calendar feed path and the unsubscribe path of its booking-request email. */
let feedPath: string;
let unsubscribePath: string;

beforeAll(async () => {
  tdb = await createTestDatabase();
  const made = await createTestDeps(tdb.database, clock.now);
  hub = made.hub;
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  // The production logger: JSON, level info, no pretty transport. The app's origin (APP_URL) is
  // http://localhost:3000, which production's Origin check requires.
  const logger = createLogger('info', false, sink);
  app = await buildServer({ deps: { ...made.deps, logger, isProduction: true }, logger, clientDir: '/nonexistent' });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  // Accounts first: the trigger below refuses every new user.
  const { business, bookingId } = await pendingRequest(made.deps);
  feedPath = new URL((await business.settings.regenerateCalendarFeed()).url).pathname;
  const [notification] = await tdb.database.db
    .select({ props: emailOutbox.props })
    .from(emailOutbox)
    .where(eq(emailOutbox.dedupeKey, `booking_requested:${bookingId}`));
  unsubscribePath = new URL((notification!.props as { footer: { unsubscribeUrl: string } }).footer.unsubscribeUrl)
    .pathname;
  await tdb.database.db.execute(sql`
    create function refuse_user() returns trigger language plpgsql as $$
    begin
      raise exception 'sign-up refused by test trigger'
        using detail = 'Key (email)=(' || new.email || ') hash ' || new.password_hash, errcode = 'P0001';
    end $$`);
  await tdb.database.db.execute(
    sql`create trigger users_refuse before insert on users for each row execute function refuse_user()`,
  );
});

afterAll(async () => {
  await app.close();
  await hub.stop();
  await tdb.close();
});

describe('error logs', () => {
  it('log a failed sign-up without its email, password, hash, SQL or DETAIL', async () => {
    const email = 'leaky-person@example.test';
    const password = 'Sup3r-secret-passw0rd';
    const res = await fetch(`${url}/trpc/auth.registerCustomer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'http://localhost:3000' },
      body: JSON.stringify({ json: { name: 'Leaky Person', email, password } }),
    });
    expect(res.status).toBe(500);
    const log = lines.join('');
    const errorLine = lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.msg === 'tRPC error');
    expect(errorLine).toBeDefined();
    expect(errorLine).toMatchObject({ level: 50, procedure: 'auth.registerCustomer' });
    expect(log).not.toContain(email);
    expect(log).not.toContain('leaky-person');
    expect(log).not.toContain(password);
    expect(log).not.toContain('$argon2id$');
    expect(log.toLowerCase()).not.toContain('insert into');
    expect(log).not.toContain('"users"');
    expect(log).not.toContain('Key (email)');
    // The error is still useful: its class and the PostgreSQL code survive.
    expect(JSON.stringify(errorLine)).toContain('P0001');
  });
});

describe('request logs', () => {
  /** The request lines logged so far, parsed. */
  const requestLines = () =>
    lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.msg === 'request');

  it('never hold the token of the calendar feed or of one-click unsubscribe, whatever the answer', async () => {
    const feedToken = /^\/calendar\/([a-z2-7]{32})\.ics$/.exec(feedPath)![1]!;
    const unsubscribeToken = /^\/unsubscribe\/([a-z2-7]{32})$/.exec(unsubscribePath)![1]!;
    const before = requestLines().length;
    const feed = await fetch(`${url}${feedPath}`);
    expect([feed.status, feed.headers.get('content-type')]).toEqual([200, 'text/calendar; charset=utf-8']);
    // Another first letter (a token starts with 'z' one time in 32).
    const unknown = (feedToken.startsWith('z') ? 'y' : 'z') + feedToken.slice(1);
    const unknownFeed = await fetch(`${url}/calendar/${unknown}.ics?x=1`);
    expect(unknownFeed.status).toBe(404);
    const page = await fetch(`${url}${unsubscribePath}`, { headers: { accept: 'text/html' } });
    await page.arrayBuffer();
    const oneClick = await fetch(`${url}${unsubscribePath}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.status).toBe(200);

    const logged = requestLines().slice(before);
    expect(logged.map((l) => [l.method, l.url])).toEqual([
      ['GET', '/calendar/[redacted].ics'],
      ['GET', '/calendar/[redacted].ics?x=1'],
      ['GET', '/unsubscribe/[redacted]'],
      ['POST', '/unsubscribe/[redacted]'],
    ]);
    const log = lines.join('');
    expect(log).not.toContain(feedToken);
    expect(log).not.toContain(feedToken.slice(1));
    expect(log).not.toContain(unsubscribeToken);
  });
});
