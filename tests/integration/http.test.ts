/**
 * The HTTP surface: /healthz, the cookie session through real requests, the Origin check, error
 * bodies that never leak internals, and live updates across two server instances on one database
 * (request made through one, the event seen through the other's SSE stream).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../server/db/client';
import type { AppDeps } from '../../server/trpc/context';
import { createBusiness, createSlot, createUser, TEST_PASSWORD } from '../factories/index';
import { browserClient, startTestServer, type TestServer } from '../setup/http';
import { createTestDatabase, testClock, type TestDatabase } from '../setup/test-database';

const clock = testClock(new Date('2026-11-21T10:00:00Z'));
let tdb: TestDatabase;
let second: Database | null = null;
const servers: TestServer[] = [];
let deps: AppDeps;
let urlA: string;
let urlB: string;

async function startInstance(database: Database): Promise<TestServer> {
  const server = await startTestServer(database, clock.now);
  servers.push(server);
  return server;
}

beforeAll(async () => {
  tdb = await createTestDatabase();
  const a = await startInstance(tdb.database);
  urlA = a.url;
  deps = a.deps;
  // On PostgreSQL the second instance has its own connections (as a second process would);
  // PGlite is single-process, so there it shares the database but has its own hub and server.
  if (tdb.url) second = await openDatabase({ url: tdb.url, max: 3 });
  urlB = (await startInstance(second ?? tdb.database)).url;
});

afterAll(async () => {
  for (const s of servers) await s.close();
  await second?.close();
  await tdb.close();
});

describe('HTTP', () => {
  it('reports health with the database', async () => {
    const res = await fetch(`${urlA}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('sets an HttpOnly SameSite=Lax session cookie at login and signs the browser in', async () => {
    const { user } = await createBusiness(deps.db);
    const res = await fetch(`${urlA}/trpc/auth.login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: urlA },
      body: JSON.stringify({ json: { email: user.email, password: TEST_PASSWORD } }),
    });
    expect(res.status).toBe(200);
    const setCookie = res.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/^lastslot_session=[a-z0-9]{32};/);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    const browser = browserClient(urlA);
    browser.setCookie(setCookie.split(';')[0]!);
    expect((await browser.client.auth.me.query()).user?.email).toBe(user.email);
  });

  it('refuses a mutation from another origin and changes nothing', async () => {
    const { user } = await createBusiness(deps.db);
    const res = await fetch(`${urlA}/trpc/auth.login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
      body: JSON.stringify({ json: { email: user.email, password: TEST_PASSWORD } }),
    });
    expect(res.status).toBe(403);
    expect(res.headers.get('set-cookie')).toBeNull();
    const noOrigin = await fetch(`${urlA}/trpc/auth.login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ json: { email: user.email, password: TEST_PASSWORD } }),
    });
    expect(noOrigin.status).toBe(403);
  });

  it("answers bad input with a 400 and the field's message, never internals", async () => {
    const res = await fetch(`${urlA}/trpc/auth.registerCustomer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: urlA },
      body: JSON.stringify({ json: { name: 'A', email: 'a@example.test', password: 'short' } }),
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { json: { message: string; data: Record<string, unknown> } } };
    expect(body.error.json.message).toBe('Password must be at least 8 characters');
    expect(body.error.json.data.fieldErrors).toEqual({ password: 'Password must be at least 8 characters' });
    expect(JSON.stringify(body)).not.toMatch(/stack|at .*\.ts|select |insert /i);

    const garbage = await fetch(`${urlA}/trpc/bookings.request`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: urlA },
      body: '{not json',
    });
    expect(garbage.status).toBeGreaterThanOrEqual(400);
    expect(garbage.status).toBeLessThan(500);
  });

  it('delivers a booking change made through one instance to a subscriber on the other', async () => {
    const { user: owner } = await createBusiness(deps.db);
    const customer = await createUser(deps.db, { role: 'customer' });
    const slot = await createSlot(deps.db, owner.id, { date: '2026-11-22', startTime: '10:00', endTime: '10:30' });

    const businessOnB = browserClient(urlB);
    await businessOnB.client.auth.login.mutate({ email: owner.email, password: TEST_PASSWORD });
    const customerOnA = browserClient(urlA);
    await customerOnA.client.auth.login.mutate({ email: customer.email, password: TEST_PASSWORD });

    const received: Array<string | null> = [];
    let onEvent: () => void = () => {};
    const sub = businessOnB.client.bookings.onChange.subscribe(undefined, {
      onData: ({ data }) => {
        received.push(data.kind === 'booking' ? data.bookingId : null);
        onEvent();
      },
    });
    const waitFor = (pred: () => boolean) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no matching event; got ${JSON.stringify(received)}`)), 8000);
        onEvent = () => {
          if (pred()) {
            clearTimeout(timer);
            resolve();
          }
        };
        onEvent();
      });
    try {
      await waitFor(() => received.includes(null)); // the stream is open
      const { id } = await customerOnA.client.bookings.request.mutate({ slotId: slot.id });
      await waitFor(() => received.includes(id));
      const requests = await businessOnB.client.bookings.requests.query();
      expect(requests.map((r) => r.id)).toContain(id);
    } finally {
      sub.unsubscribe();
    }
  });
});
