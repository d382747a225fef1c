/**
 * A revoked session ends its live streams at once, through NOTIFY, on every instance
 * (docs/decisions/0032): a business subscribed to bookings.onChange over real HTTP (SSE) logs out
 * (or its password is reset, or its account deleted) in another call, and the stream ends within a
 * bounded wait, with no event delivered after the revocation even when a booking changes right
 * after it. Two server instances on one database: on PostgreSQL each has its own connections and
 * LISTEN (as two processes would); PGlite is single-process, so there they share the database but
 * each has its own fan-out.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../server/db/client';
import type { AppDeps } from '../../server/trpc/context';
import { createBusiness, createSlot, createUser, TEST_PASSWORD } from '../factories/index';
import { emailsTo, linkToken, resolveEmailIntents } from '../setup/helpers';
import { browserClient, startTestServer, type TestServer } from '../setup/http';
import { createTestDatabase, testClock, type TestDatabase } from '../setup/test-database';

const clock = testClock(new Date('2026-11-21T10:00:00Z'));
let tdb: TestDatabase;
let second: Database | null = null;
const servers: TestServer[] = [];
let deps: AppDeps;
let urlA: string;
let urlB: string;

beforeAll(async () => {
  tdb = await createTestDatabase();
  const a = await startTestServer(tdb.database, clock.now);
  servers.push(a);
  urlA = a.url;
  deps = a.deps;
  if (tdb.url) second = await openDatabase({ url: tdb.url, max: 3 });
  const b = await startTestServer(second ?? tdb.database, clock.now);
  servers.push(b);
  urlB = b.url;
});

afterAll(async () => {
  for (const s of servers) await s.close();
  await second?.close();
  await tdb.close();
});

/** Resolves when `check()` is true; rejects after `ms` (a bound, not a measurement). */
function waitUntil(check: () => boolean, what: () => string, ms = 5000): Promise<void> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const tick = setInterval(() => {
      if (check()) {
        clearInterval(tick);
        resolve();
      } else if (Date.now() - started > ms) {
        clearInterval(tick);
        reject(new Error(what()));
      }
    }, 20);
  });
}

/**
 * A signed-in business (browser client on `subscribeUrl`, logged in there) with an open
 * bookings.onChange stream, and a verified customer with a slot of that business to request.
 */
async function businessWithStream(subscribeUrl: string) {
  const { user, profile } = await createBusiness(deps.db);
  const slot = await createSlot(deps.db, profile.id, { date: '2026-11-22', startTime: '10:00', endTime: '10:30' });
  const customer = await createUser(deps.db, { role: 'customer' });
  const business = browserClient(subscribeUrl);
  await business.client.auth.login.mutate({ email: user.email, password: TEST_PASSWORD });
  const received: Array<string | null> = [];
  let ended = false;
  const sub = business.client.bookings.onChange.subscribe(undefined, {
    // The first event ('resync') is recorded as null, a booking change as its booking id.
    onData: ({ data }) => void received.push(data.kind === 'booking' ? data.bookingId : null),
    onComplete: () => void (ended = true),
    onError: () => void (ended = true),
    onStopped: () => void (ended = true),
  });
  await waitUntil(
    () => received.includes(null),
    () => 'the stream did not open',
  );
  /** A booking change for this business, made by the customer on instance A. */
  const requestSlot = async () => {
    const customerOnA = browserClient(urlA);
    await customerOnA.client.auth.login.mutate({ email: customer.email, password: TEST_PASSWORD });
    return (await customerOnA.client.bookings.request.mutate({ slotId: slot.id })).id;
  };
  return { user, business, received, ended: () => ended, sub, requestSlot };
}

describe('live streams end with their session', () => {
  it('ends on logout, and delivers nothing after it', async () => {
    const s = await businessWithStream(urlA);
    try {
      await s.business.client.auth.logout.mutate();
      // A change right after the logout must not reach the logged-out stream.
      const bookingId = await s.requestSlot();
      await waitUntil(s.ended, () => `the stream is still open; got ${JSON.stringify(s.received)}`);
      expect(s.received).toEqual([null]);
      expect(s.received).not.toContain(bookingId);
    } finally {
      s.sub.unsubscribe();
    }
  });

  it('ends on another instance when the session is logged out through the first', async () => {
    const s = await businessWithStream(urlB);
    try {
      const onA = browserClient(urlA);
      onA.setCookie(s.business.cookie());
      await onA.client.auth.logout.mutate();
      await s.requestSlot();
      await waitUntil(s.ended, () => `the stream on B is still open; got ${JSON.stringify(s.received)}`);
      expect(s.received).toEqual([null]);
    } finally {
      s.sub.unsubscribe();
    }
  });

  it('ends when a password reset ends every session of the account', async () => {
    const s = await businessWithStream(urlB);
    try {
      const anon = browserClient(urlA);
      await anon.client.auth.requestPasswordReset.mutate({ email: s.user.email });
      await resolveEmailIntents(deps);
      const [mail] = await emailsTo(deps.db, s.user.email, 'Reset your LastSlot password');
      await anon.client.auth.resetPassword.mutate({
        token: linkToken(mail!.text, '/reset-password'),
        password: 'a-new-password-here',
      });
      await waitUntil(s.ended, () => `the stream is still open; got ${JSON.stringify(s.received)}`);
      expect(s.received).toEqual([null]);
    } finally {
      s.sub.unsubscribe();
    }
  });

  it('ends when the account is deleted', async () => {
    const s = await businessWithStream(urlA);
    try {
      await s.business.client.account.delete.mutate({ confirmation: 'DELETE', currentPassword: TEST_PASSWORD });
      await waitUntil(s.ended, () => `the stream is still open; got ${JSON.stringify(s.received)}`);
      expect(s.received).toEqual([null]);
    } finally {
      s.sub.unsubscribe();
    }
  });

  it('keeps a stream whose session lives on while another session of the account logs out', async () => {
    const s = await businessWithStream(urlA);
    try {
      const other = browserClient(urlA);
      await other.client.auth.login.mutate({ email: s.user.email, password: TEST_PASSWORD });
      await other.client.auth.logout.mutate();
      const bookingId = await s.requestSlot();
      await waitUntil(
        () => s.received.includes(bookingId),
        () => `no event; got ${JSON.stringify(s.received)}`,
      );
      expect(s.ended()).toBe(false);
    } finally {
      s.sub.unsubscribe();
    }
  });
});
