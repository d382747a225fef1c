/**
 * Per-request work the dashboard's calls pay (docs/decisions/0069): the signal tRPC hands each
 * procedure call is aborted when the client goes away, so a live stream's subscription is released
 * when its browser closes it; the dashboard's two lists answer plain JSON, which skips superjson's
 * walk.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBusiness, pendingRequest, TEST_PASSWORD } from '../factories/index';
import { browserClient, startTestServer, type TestServer } from '../setup/http';
import { waitUntil } from '../setup/server-process';
import { createTestDatabase, testClock, type TestDatabase } from '../setup/test-database';

const clock = testClock(new Date('2026-11-21T10:00:00Z'));
let tdb: TestDatabase;
let server: TestServer;

beforeAll(async () => {
  tdb = await createTestDatabase();
  server = await startTestServer(tdb.database, clock.now);
});

afterAll(async () => {
  await server.close();
  await tdb.close();
});

async function signedInBusiness() {
  const { user } = await createBusiness(server.deps.db);
  const browser = browserClient(server.url);
  await browser.client.auth.login.mutate({ email: user.email, password: TEST_PASSWORD });
  return browser;
}

describe('the per-call signal', () => {
  it("aborts a live stream's procedure when its client goes away", async () => {
    const browser = await signedInBusiness();
    const before = server.deps.hub.subscriberCount();
    let opened = false;
    const sub = browser.client.bookings.onChange.subscribe(undefined, {
      onData: () => {
        opened = true;
      },
    });
    await waitUntil(() => opened, { timeoutMs: 5000, message: () => 'the stream did not open' });
    expect(server.deps.hub.subscriberCount()).toBe(before + 1);
    sub.unsubscribe();
    await waitUntil(() => server.deps.hub.subscriberCount() === before, {
      timeoutMs: 5000,
      message: () => 'the subscription was not released',
    });
  });
});

describe("the dashboard's lists", () => {
  it('answer plain JSON: no superjson meta for the slots or the requests', async () => {
    // A business with one slot that has a pending request (the clock is 2026-11-21 10:00 London).
    const { owner: user } = await pendingRequest(server.deps);
    const login = await fetch(`${server.url}/trpc/auth.login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.url },
      body: JSON.stringify({ json: { email: user.email, password: TEST_PASSWORD } }),
    });
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
    const res = await fetch(`${server.url}/trpc/slots.listMine,bookings.requests?batch=1&input=%7B%7D`, {
      headers: { cookie },
    });
    expect(res.status).toBe(200);
    const [slots, requests] = (await res.json()) as { result: { data: { json: unknown[]; meta?: unknown } } }[];
    expect(slots!.result.data.json).toHaveLength(1);
    expect(requests!.result.data.json).toHaveLength(1);
    expect(slots!.result.data).not.toHaveProperty('meta');
    expect(requests!.result.data).not.toHaveProperty('meta');
  });
});
