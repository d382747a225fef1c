/**
 * Two instances of the production build behind HAProxy (deploy/haproxy/haproxy.cfg,
 * docs/decisions/0112), over one PostgreSQL database: sessions, live streams, Discover, email,
 * the per-IP limits and an instance's death, all through the balancer as a browser would reach
 * them. Each test is its own client address (127.0.x.y), so limits counted in one never reach
 * another. Run with `npm run test:multi` (builds first).
 */
import { randomUUID } from 'node:crypto';
import { TRPCClientError } from '@trpc/client';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookings, emailOutbox } from '../../server/db/schema/index';
import { createSession, SESSION_COOKIE } from '../../server/features/auth/session';
import { MSG } from '../../shared/messages';
import { localNow, zonedInstant } from '../../shared/zoned-time';
import { createBusiness, createSlot, createUser, slotTimes, TEST_PASSWORD } from '../factories/index';
import { waitUntil, workerRoleOf } from '../setup/server-process';
import { clientAt, LIMITS, SERVERS, startCluster, type Cluster } from './cluster';

const PORT_BASE = Number(process.env.MULTI_PORT_BASE ?? 3500);
const LEEDS = { latitude: 53.8, longitude: -1.55 };
const SEARCH = { window: 'tomorrow', ...LEEDS, miles: 5, timezone: 'Europe/London' } as const;

let cluster: Cluster;
type Client = ReturnType<typeof clientAt>;
const clients: Client[] = [];

/** A client of the balancer from `ip`, signed in as `userId` when given (a session row, as the factories do). */
async function client(ip: string, userId?: string, options: { timeoutMs?: number } = {}): Promise<Client> {
  const c = clientAt(cluster.url, ip, options);
  clients.push(c);
  if (userId) {
    const { token } = await createSession(cluster.database.db, userId, new Date());
    c.setCookie(`${SESSION_COOKIE}=${token}`);
  }
  return c;
}

beforeAll(async () => {
  cluster = await startCluster(PORT_BASE);
}, 600_000);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => {})));
  await cluster?.stop();
}, 120_000);

/** A live stream opened through a client: its events, whether it ended, and the instance holding it. */
interface Stream<E> {
  events: E[];
  ended: () => boolean;
  instance: string;
  close(): void;
}

/**
 * Opens one stream with `start` and waits for its first event (the 'resync' every stream begins
 * with); `part` names the procedure in the URL, to find the instance that answered it.
 */
async function openStream<E>(
  c: Client,
  part: string,
  start: (handlers: {
    onData: (e: { data: E }) => void;
    onError: () => void;
    onComplete: () => void;
    onStopped: () => void;
  }) => { unsubscribe(): void },
): Promise<Stream<E>> {
  const events: E[] = [];
  let ended = false;
  const end = () => void (ended = true);
  const sub = start({ onData: (e) => void events.push(e.data), onError: end, onComplete: end, onStopped: end });
  await waitUntil(() => events.length > 0, { timeoutMs: 15_000, message: () => `${part}: no first event` });
  // Through the balancer the answer names its instance; a stream opened at an instance directly is 'direct'.
  const instance = c.servedLast(part) ?? 'direct';
  return { events, ended: () => ended, instance, close: () => sub.unsubscribe() };
}

/** One stream held on each instance (streams opened one after the other until both hold one). */
async function streamOnEach<E>(open: () => Promise<Stream<E>>): Promise<Record<string, Stream<E>>> {
  const held: Record<string, Stream<E>> = {};
  for (let i = 0; i < 6 && Object.keys(held).length < SERVERS.length; i++) {
    const s = await open();
    if (held[s.instance]) s.close();
    else held[s.instance] = s;
  }
  expect(Object.keys(held).sort()).toEqual([...SERVERS]);
  return held;
}

const other = (instance: string | null) => SERVERS.find((s) => s !== instance)!;

/** The code and HTTP status of a refused call, or 'ok'. */
async function outcome(p: Promise<unknown>): Promise<string> {
  return p.then(
    () => 'ok',
    (err: unknown) =>
      err instanceof TRPCClientError ? `${err.data?.httpStatus ?? 'none'} ${err.message}` : `error ${String(err)}`,
  );
}
const TOO_MANY = `429 ${MSG.tooManyRequests}`;

/** A business listed in Discover around Leeds with `count` open slots from tomorrow on (seeded directly). */
async function listedBusiness(ip: string, count: number) {
  const { user, profile } = await createBusiness(cluster.database.db);
  const owner = await client(ip, user.id);
  await owner.client.settings.setLocation.mutate({ ...LEEDS, source: 'pin' });
  const slotIds: string[] = [];
  // Tomorrow's slots, which the search asks for, at any time of day: slotTimes leaves out the first
  // day it offers, which is tomorrow once today's last start has passed, so it is asked from midnight.
  const today = localNow(profile.timezone).date;
  const tomorrow = localNow(profile.timezone, new Date(Date.now() + 24 * 60 * 60_000)).date;
  const times = slotTimes(profile, zonedInstant(today, '00:00', profile.timezone)).filter((t) => t.date === tomorrow);
  for (const t of times.slice(0, count)) slotIds.push((await createSlot(cluster.database.db, user.id, t)).id);
  return { user, profile, owner, slotIds };
}

describe('two instances behind HAProxy', () => {
  it('shares a session between the instances, and a sign-out ends it everywhere, live streams included', async () => {
    const customer = await createUser(cluster.database.db, { role: 'customer' });
    const c = await client('127.0.1.1');
    await c.client.auth.login.mutate({ email: customer.email, password: TEST_PASSWORD });
    const signedInOn = c.servedLast('auth.login');
    // The next request the balancer sends to the other instance knows the session.
    let me = null as Awaited<ReturnType<typeof c.client.auth.me.query>> | null;
    for (let i = 0; i < 4 && c.servedLast('auth.me') !== other(signedInOn); i++) me = await c.client.auth.me.query();
    expect(c.servedLast('auth.me')).toBe(other(signedInOn));
    expect(me?.user?.id).toBe(customer.id);

    const streams = await streamOnEach(() =>
      openStream(c, 'bookings.onChange', (h) => c.client.bookings.onChange.subscribe(undefined, h)),
    );
    const sessionCookie = c.cookie();
    await c.client.auth.logout.mutate();
    const signedOutOn = c.servedLast('auth.logout')!;
    // The stream held by the instance that did not serve the sign-out closes too (and the other one).
    await waitUntil(() => streams[other(signedOutOn)]!.ended() && streams[signedOutOn]!.ended(), {
      timeoutMs: 5_000,
      message: () => `a stream is still open after the sign-out on ${signedOutOn}`,
    });
    // The old cookie is refused by both instances.
    const stale = await client('127.0.1.1');
    stale.setCookie(sessionCookie);
    const seen = new Set<string>();
    for (let i = 0; i < 6 && seen.size < 2; i++) {
      expect((await stale.client.auth.me.query()).user).toBeNull();
      seen.add(stale.servedLast('auth.me')!);
    }
    expect([...seen].sort()).toEqual([...SERVERS]);
    for (const s of Object.values(streams)) s.close();
  });

  it('brings a booking made through one instance to a dashboard stream and a Discover list held by the other', async () => {
    const { owner, slotIds } = await listedBusiness('127.0.1.2', 1);
    const [slotId] = slotIds as [string];
    const dashboards = await streamOnEach(() =>
      openStream<{ kind: string; bookingId?: string }>(owner, 'bookings.onChange', (h) =>
        owner.client.bookings.onChange.subscribe(undefined, h),
      ),
    );
    const browsing = await client('127.0.1.3');
    expect((await browsing.client.discovery.search.query(SEARCH)).results.map((r) => r.slotId)).toContain(slotId);
    const lists = await streamOnEach(() =>
      openStream<{ kind: string; change?: string; slotId?: string }>(browsing, 'discovery.onChange', (h) =>
        browsing.client.discovery.onChange.subscribe({ ...LEEDS, miles: SEARCH.miles }, h),
      ),
    );

    const customer = await createUser(cluster.database.db, { role: 'customer' });
    const booker = await client('127.0.1.4', customer.id);
    const { id: bookingId } = await booker.client.bookings.request.mutate({ slotId, idempotencyKey: randomUUID() });
    const bookedOn = booker.servedLast('bookings.request');
    const far = other(bookedOn);
    // Within 2 s of the answer (a bound on the wait, not a measurement).
    await waitUntil(() => dashboards[far]!.events.some((e) => e.kind === 'booking' && e.bookingId === bookingId), {
      timeoutMs: 2_000,
      message: () => `the dashboard stream on ${far} did not hear of the booking made on ${bookedOn}`,
    });
    await waitUntil(
      () => lists[far]!.events.some((e) => e.kind === 'slot' && e.change === 'taken' && e.slotId === slotId),
      { timeoutMs: 2_000, message: () => `the Discover stream on ${far}: ${JSON.stringify(lists[far]!.events)}` },
    );
    // A new search, on either instance, no longer lists the slot.
    const searchedOn = new Set<string>();
    for (let i = 0; i < 4 && searchedOn.size < 2; i++) {
      expect((await browsing.client.discovery.search.query(SEARCH)).results.map((r) => r.slotId)).not.toContain(slotId);
      searchedOn.add(browsing.servedLast('discovery.search')!);
    }
    expect([...searchedOn].sort()).toEqual([...SERVERS]);
    for (const s of [...Object.values(dashboards), ...Object.values(lists)]) s.close();
  });

  it('sends every email exactly once with a mail worker on each instance', async () => {
    const count = 12;
    const { slotIds } = await listedBusiness('127.0.1.5', count);
    const bookingIds: string[] = [];
    for (const slotId of slotIds) {
      const customer = await createUser(cluster.database.db, { role: 'customer' });
      const c = await client('127.0.1.6', customer.id);
      bookingIds.push((await c.client.bookings.request.mutate({ slotId, idempotencyKey: randomUUID() })).id);
    }
    // Every email of the bookings sent, and nothing else of the outbox still on its way.
    await waitUntil(
      async () => {
        const all = await cluster.database.db
          .select({ bookingId: emailOutbox.bookingId, status: emailOutbox.status })
          .from(emailOutbox);
        const ours = all.filter((r) => r.bookingId && bookingIds.includes(r.bookingId));
        return ours.length === 2 * count && all.every((r) => r.status === 'sent');
      },
      { timeoutMs: 30_000, message: () => 'not every email of the outbox was sent' },
    );
    // Every email the outbox holds as sent reached the provider once: the same recipients, as many times.
    const sent = await cluster.database.db
      .select({ to: emailOutbox.toAddress })
      .from(emailOutbox)
      .where(eq(emailOutbox.status, 'sent'));
    const received = [...cluster.stub.recipients('A'), ...cluster.stub.recipients('B')];
    console.log(
      `emails: ${sent.length} sent in the outbox; the provider received ${cluster.stub.accepted('A')} from app1's mail worker and ${cluster.stub.accepted('B')} from app2's`,
    );
    expect(received.sort()).toEqual(sent.map((r) => r.to).sort());
    expect(cluster.stub.refused()).toEqual([]);
    expect(cluster.stub.accepted('A')).toBeGreaterThan(0);
    expect(cluster.stub.accepted('B')).toBeGreaterThan(0);
  });

  it("runs the whole-table background passes in each instance's mail worker only, never in its HTTP workers", async () => {
    for (const [i, instance] of cluster.instances.entries()) {
      const started = await waitUntil(
        () => {
          const pids = instance.logs.filter((l) => l.msg === 'background passes started').map((l) => Number(l.pid));
          return pids.length > 0 ? pids : null;
        },
        { timeoutMs: 15_000, message: () => `${SERVERS[i]}: no process started the background passes` },
      );
      expect(started.map(workerRoleOf), SERVERS[i]).toEqual(['mail']);
    }
  });
});

describe('per-IP limits across both instances', () => {
  /** `n` calls of `call`, one after the other: each outcome, and the instances that answered them. */
  async function calls(c: Client, part: string, n: number, call: (i: number) => Promise<unknown>) {
    const outcomes: string[] = [];
    const instances = new Set<string>();
    for (let i = 0; i < n; i++) {
      outcomes.push(await outcome(call(i)));
      instances.add(c.servedLast(part)!);
    }
    return { outcomes, instances: [...instances].sort() };
  }
  const okThenRefused = (allowed: number, refused: string) => [...Array<string>(allowed).fill('ok'), refused];

  it('holds a client to its mutations per minute, and a forged X-Forwarded-For buys no more', async () => {
    const c = await client('127.0.1.10');
    const r = await calls(c, 'auth.logout', LIMITS.mutationsPerMinute + 1, () => c.client.auth.logout.mutate());
    expect(r).toEqual({ outcomes: okThenRefused(LIMITS.mutationsPerMinute, TOO_MANY), instances: [...SERVERS] });
    // The app trusts only the balancer's entry of X-Forwarded-For, not one the client wrote.
    const forged = clientAt(cluster.url, '127.0.1.10', { headers: { 'x-forwarded-for': '198.51.100.7' } });
    clients.push(forged);
    expect(await outcome(forged.client.auth.logout.mutate())).toBe(TOO_MANY);
    // Another address has its own allowance.
    expect(await outcome((await client('127.0.1.11')).client.auth.logout.mutate())).toBe('ok');
  });

  it('holds a client to its Discover searches per minute', async () => {
    const c = await client('127.0.1.12');
    const r = await calls(c, 'discovery.search', LIMITS.searchesPerMinute + 1, () =>
      c.client.discovery.search.query(SEARCH),
    );
    expect(r).toEqual({ outcomes: okThenRefused(LIMITS.searchesPerMinute, TOO_MANY), instances: [...SERVERS] });
  });

  it('holds a client to its open live streams', async () => {
    const c = await client('127.0.1.13');
    const held: AbortController[] = [];
    const statuses: number[] = [];
    const instances = new Set<string>();
    try {
      for (let i = 0; i <= LIMITS.liveStreams; i++) {
        const controller = new AbortController();
        held.push(controller);
        const res = await c.fetch(`${cluster.url}/trpc/discovery.onChange`, {
          headers: { accept: 'text/event-stream' },
          signal: controller.signal,
        });
        statuses.push(res.status);
        if (res.status === 200) instances.add(res.headers.get('x-lastslot-instance')!);
      }
    } finally {
      for (const controller of held) controller.abort();
    }
    expect(statuses).toEqual([...Array<number>(LIMITS.liveStreams).fill(200), 429]);
    expect([...instances].sort()).toEqual([...SERVERS]);
  });

  it('holds a client to its email requests', async () => {
    const c = await client('127.0.1.14');
    const r = await calls(c, 'auth.requestPasswordReset', LIMITS.emailRequests + 1, (i) =>
      c.client.auth.requestPasswordReset.mutate({ email: `nobody-${i}-${randomUUID()}@example.test` }),
    );
    expect(r).toEqual({
      outcomes: okThenRefused(LIMITS.emailRequests, `429 ${MSG.tooManyEmailRequests}`),
      instances: [...SERVERS],
    });
  });

  it('holds a client to its failed logins (20 per IP), whichever instance counted them', async () => {
    const users: Awaited<ReturnType<typeof createUser>>[] = [];
    for (let i = 0; i < 5; i++) users.push(await createUser(cluster.database.db, { role: 'customer' }));
    const c = await client('127.0.1.15');
    // Five wrong passwords on each of four accounts: the per-account-and-IP limit (5) is not reached.
    const r = await calls(c, 'auth.login', 20, (i) =>
      c.client.auth.login.mutate({ email: users[i % 4]!.email, password: 'wrong-password-1' }),
    );
    expect(r.outcomes.filter((o) => o.startsWith('429'))).toEqual([]);
    expect(r.instances).toEqual([...SERVERS]);
    // The 21st attempt from this address is refused, even with the right password of a fifth account.
    expect(await outcome(c.client.auth.login.mutate({ email: users[4]!.email, password: TEST_PASSWORD }))).toBe(
      `429 ${MSG.tooManyAttempts}`,
    );
    const elsewhere = await client('127.0.1.16');
    expect(await outcome(elsewhere.client.auth.login.mutate({ email: users[4]!.email, password: TEST_PASSWORD }))).toBe(
      'ok',
    );
  });
});

describe('the public page of one instance after a change through the other', () => {
  it('shows the change on the next request after the NOTIFY, as page and as bySlug', async () => {
    const { profile, owner, slotIds } = await listedBusiness('127.0.1.20', 1);
    const [app1, app2] = cluster.instanceUrls as [string, string];
    // Fresh connections, so each read may land on either HTTP worker of instance 2.
    const reader = () => {
      const r = clientAt(app2, '127.0.1.21');
      clients.push(r);
      return r;
    };
    const readPage = async () => {
      const r = reader();
      const html = await (await r.fetch(`${app2}/${profile.slug}`)).text();
      const data = await reader().client.businesses.bySlug.query({ slug: profile.slug });
      return { html, data: JSON.stringify(data) };
    };
    const description = `Multi-instance check ${randomUUID().slice(0, 8)}`;
    for (let i = 0; i < 4; i++) {
      const before = await readPage();
      expect(before.data).toContain(slotIds[0]);
      expect(before.html).not.toContain(description);
    }
    const watcher = reader();
    const stream = await openStream<{ kind: string; change?: string; slotId?: string }>(
      watcher,
      'discovery.onChange',
      (h) => watcher.client.discovery.onChange.subscribe(undefined, h),
    );
    const onApp1 = clientAt(app1, '127.0.1.20');
    clients.push(onApp1);
    onApp1.setCookie(owner.cookie());
    const time = slotTimes(profile, new Date())[3]!;
    const { id } = await onApp1.client.slots.create.mutate({ ...time, description });
    await waitUntil(() => stream.events.some((e) => e.kind === 'slot' && e.slotId === id), {
      timeoutMs: 5_000,
      message: () => `instance 2 heard nothing of the new slot: ${JSON.stringify(stream.events)}`,
    });
    for (let i = 0; i < 2; i++) {
      const after = await readPage();
      expect(after.data).toContain(id);
      expect(after.html).toContain(description);
    }
    stream.close();
  });
});

describe('an instance killed under load', () => {
  it('is routed around, keeps every acknowledged write once and answers no 500, then rejoins', async () => {
    const db = cluster.database.db;
    // Open slots for the writes (one booking request each; writing stops if they run out) and pages to read.
    const openSlots: { slotId: string }[] = [];
    const slugs: string[] = [];
    for (let b = 0; b < 10; b++) {
      const { user, profile } = await createBusiness(db);
      slugs.push(profile.slug);
      for (const t of slotTimes(profile, new Date())) openSlots.push({ slotId: (await createSlot(db, user.id, t)).id });
    }
    const loadSlotIds = openSlots.map((s) => s.slotId);
    const customers = [];
    for (let i = 0; i < 6; i++) customers.push(await createUser(db, { role: 'customer' }));
    // Writers at 60 addresses, readers at one: the per-IP mutation limit is far from reached.
    const writers: { client: Client; customerId: string }[] = [];
    for (let i = 0; i < 60; i++) {
      const customer = customers[i % customers.length]!;
      writers.push({
        client: await client(`127.0.2.${i + 1}`, customer.id, { timeoutMs: 15_000 }),
        customerId: customer.id,
      });
    }
    const reader = await client('127.0.3.1', undefined, { timeoutMs: 15_000 });

    /** 'read 200', 'write 503', 'write no answer', ... → how many. */
    const byStatus = new Map<string, number>();
    const count = (kind: 'read' | 'write', status: string) =>
      byStatus.set(`${kind} ${status}`, (byStatus.get(`${kind} ${status}`) ?? 0) + 1);
    /** Instances that answered a load request, with when. */
    const served: { at: number; instance: string | null }[] = [];
    const acked: { bookingId: string; slotId: string; customerId: string }[] = [];
    const failedWrites: string[] = [];
    let retries = 0;
    let running = true;
    const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

    /** One booking request, sent again with the same key on 502, 503 or no answer. */
    const write = async (w: (typeof writers)[number], slotId: string) => {
      const idempotencyKey = randomUUID();
      for (let attempt = 0; attempt < 30; attempt++) {
        try {
          const { id } = await w.client.client.bookings.request.mutate({ slotId, idempotencyKey });
          count('write', '200');
          served.push({ at: Date.now(), instance: w.client.servedLast('bookings.request') });
          acked.push({ bookingId: id, slotId, customerId: w.customerId });
          return;
        } catch (err) {
          const status = err instanceof TRPCClientError ? err.data?.httpStatus : undefined;
          count('write', status ? String(status) : 'no answer');
          if (status !== undefined && status !== 502 && status !== 503) {
            failedWrites.push(`${status} ${(err as Error).message}`);
            return;
          }
          retries++;
          await pause(300);
        }
      }
      failedWrites.push(`gave up on ${slotId}`);
    };
    let nextWriter = 0;
    const writeLoop = async () => {
      while (running) {
        const slot = openSlots.shift();
        if (!slot) return;
        await write(writers[nextWriter++ % writers.length]!, slot.slotId);
        await pause(150);
      }
    };
    const readLoop = async () => {
      for (let i = 0; running; i++) {
        const slug = slugs[i % slugs.length]!;
        try {
          if (i % 2) {
            await reader.client.businesses.bySlug.query({ slug });
            count('read', '200');
            served.push({ at: Date.now(), instance: reader.servedLast('businesses.bySlug') });
          } else {
            const res = await reader.fetch(`${cluster.url}/${slug}`);
            await res.arrayBuffer();
            count('read', String(res.status));
            served.push({ at: Date.now(), instance: res.headers.get('x-lastslot-instance') });
          }
        } catch (err) {
          const status = err instanceof TRPCClientError ? err.data?.httpStatus : undefined;
          count('read', status ? String(status) : 'no answer');
        }
        await pause(50);
      }
    };

    const load = Promise.all([writeLoop(), writeLoop(), readLoop(), readLoop()]);
    const timeline: Record<string, number> = {};
    try {
      await waitUntil(() => new Set(served.map((s) => s.instance)).size === 2, {
        timeoutMs: 20_000,
        message: () => 'the load did not reach both instances',
      });
      await pause(2_000);
      const killedAt = Date.now();
      await cluster.kill(1);
      await waitUntil(async () => (await cluster.serverStatus()).app2?.startsWith('DOWN'), {
        timeoutMs: 15_000,
        everyMs: 100,
        message: () => `HAProxy still sends to the killed instance:\n${cluster.balancerOutput().slice(-2000)}`,
      });
      timeline.downAfterMs = Date.now() - killedAt;
      await pause(3_000);
      const restartAt = Date.now();
      await cluster.restart(1);
      await waitUntil(async () => (await cluster.serverStatus()).app2 === 'UP', {
        timeoutMs: 60_000,
        everyMs: 100,
        message: () => `the restarted instance did not go green:\n${cluster.balancerOutput().slice(-2000)}`,
      });
      const upAt = Date.now();
      timeline.upAfterRestartMs = upAt - restartAt;
      await waitUntil(() => served.some((s) => s.at > upAt && s.instance === 'app2'), {
        timeoutMs: 15_000,
        message: () => 'the restarted instance serves no request',
      });
      await pause(1_000);
    } finally {
      running = false;
      await load;
    }

    const rows = await db
      .select({ id: bookings.id, slotId: bookings.slotId, customerId: bookings.customerId })
      .from(bookings)
      .where(inArray(bookings.slotId, loadSlotIds));
    const requests = [...byStatus.values()].reduce((a, b) => a + b, 0);
    console.log(
      'kill test:',
      JSON.stringify({
        requests,
        acknowledgedWrites: acked.length,
        rowsFound: rows.length,
        retriedWrites: retries,
        answersByStatus: Object.fromEntries([...byStatus].sort()),
        ...timeline,
      }),
    );

    expect(failedWrites).toEqual([]);
    // No answer 500; a read cut by the kill is retried by HAProxy on the other instance, so every
    // read is answered 200; a write may see 502, 503 or no answer, and is sent again with its key.
    const answers = [...byStatus.keys()];
    expect(answers.filter((a) => a.endsWith(' 500'))).toEqual([]);
    expect(answers.filter((a) => a.startsWith('read ') && a !== 'read 200')).toEqual([]);
    expect(
      answers.filter(
        (a) => !['write 200', 'write 502', 'write 503', 'write no answer'].includes(a) && a.startsWith('write'),
      ),
    ).toEqual([]);
    // Every acknowledged write is in the database exactly once, and nothing else was written.
    const rowById = new Map(rows.map((r) => [r.id, r]));
    for (const a of acked)
      expect(rowById.get(a.bookingId)).toEqual({ id: a.bookingId, slotId: a.slotId, customerId: a.customerId });
    expect(rows.length).toBe(acked.length);
    expect(new Set(rows.map((r) => r.slotId)).size).toBe(rows.length);
    // Routed around within the health checks (fall 2 at 1 s, one interval of slack).
    expect(timeline.downAfterMs).toBeLessThanOrEqual(3_000);
  }, 600_000);
});
