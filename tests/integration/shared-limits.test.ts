/**
 * The per-client limits hold across processes (docs/decisions/0103): two app instances over one
 * PostgreSQL database, as behind a load balancer, share each client's allowance of mutations,
 * searches and open live streams. Needs PostgreSQL (PGlite serves one process, which counts in memory).
 */
import { TRPCClientError } from '@trpc/client';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { openDatabase, type Database } from '../../server/db/client';
import { rateLimits } from '../../server/db/schema/index';
import { callLimitStoreFor, databaseCallLimitStore } from '../../server/trpc/call-limit-store';
import { MSG } from '../../shared/messages';
import { browserClient, startTestServer, type TestServer } from '../setup/http';
import { createTestDatabase, testClock, type TestDatabase } from '../setup/test-database';

const onPostgres = Boolean(inject('pgAdminUrl'));
const clock = testClock(new Date('2026-11-21T10:00:00Z'));
const SEARCH = { window: 'today', latitude: 53.8, longitude: -1.55, miles: 5 } as const;
const LIMITS = { mutationsPerMinute: 4, searchesPerMinute: 3, liveStreamsPerClient: 2 };

let tdb: TestDatabase;
let second: Database;
let servers: TestServer[];

beforeAll(async () => {
  if (!onPostgres) return;
  tdb = await createTestDatabase();
  // The second instance has its own pool, as another process would.
  second = await openDatabase({ url: tdb.url!, max: 5 });
  servers = await Promise.all(
    [tdb.database, second].map((database) =>
      startTestServer(database, clock.now, {
        ...LIMITS,
        // Each test's client is its own address, so counts from one test do not reach the next.
        trustProxy: true,
        callLimitStore: callLimitStoreFor(database),
      }),
    ),
  );
});

afterAll(async () => {
  if (!onPostgres) return;
  for (const server of servers) await server.close();
  await second.close();
  await tdb.close();
});

/** A client at `ip` of each instance, as a load balancer would send it to either. */
const clientsAt = (ip: string) =>
  servers.map(({ url }) => browserClient(url, { batch: false, headers: { 'x-forwarded-for': ip } }).client);

async function tooMany(p: Promise<unknown>): Promise<boolean> {
  return p.then(
    () => false,
    (err: unknown) => err instanceof TRPCClientError && err.message === MSG.tooManyRequests,
  );
}

/** Opens discovery.onChange at instance `i` from `ip`, as the browser does (SSE). */
function openStream(i: number, ip: string) {
  const controller = new AbortController();
  const response = fetch(`${servers[i]!.url}/trpc/discovery.onChange`, {
    headers: { accept: 'text/event-stream', 'x-forwarded-for': ip },
    signal: controller.signal,
  });
  return { response, close: () => controller.abort() };
}

describe.skipIf(!onPostgres)(
  'limits shared by two instances over one database (PostgreSQL only: PGlite serves one process)',
  () => {
    it('allows mutations alternated between them the total one instance allows', async () => {
      const [a, b] = clientsAt('198.51.100.1');
      const refused: boolean[] = [];
      for (let i = 0; i < LIMITS.mutationsPerMinute + 2; i++)
        refused.push(await tooMany((i % 2 ? b! : a!).auth.logout.mutate()));
      expect(refused).toEqual([false, false, false, false, true, true]);
      // Another client has its own allowance on both.
      const [other] = clientsAt('198.51.100.2');
      expect(await tooMany(other!.auth.logout.mutate())).toBe(false);
    });

    it('allows searches alternated between them the total one instance allows', async () => {
      const [a, b] = clientsAt('198.51.100.3');
      const refused: boolean[] = [];
      for (let i = 0; i < LIMITS.searchesPerMinute + 2; i++)
        refused.push(await tooMany((i % 2 ? b! : a!).discovery.search.query(SEARCH)));
      expect(refused).toEqual([false, false, false, true, true]);
    });

    it('holds a client to its open live streams across both, and gives a place back when one closes', async () => {
      const ip = '198.51.100.4';
      const open = [openStream(0, ip), openStream(1, ip)];
      for (const s of open) expect((await s.response).status).toBe(200);
      for (const i of [0, 1]) {
        const over = openStream(i, ip);
        expect((await over.response).status).toBe(429);
      }
      open[0]!.close();
      // The closed stream's place is given back once its instance has seen it go.
      let reopened: ReturnType<typeof openStream> | undefined;
      for (let attempt = 0; attempt < 100 && !reopened; attempt++) {
        const s = openStream(1, ip);
        if ((await s.response).status === 200) reopened = s;
        else await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(reopened).toBeDefined();
      reopened?.close();
      open[1]!.close();
    });

    it('gives out no more places than the cap to streams opened at once on both', async () => {
      const ip = '198.51.100.6';
      const streams = Array.from({ length: 8 }, (_, n) => openStream(n % 2, ip));
      const statuses = await Promise.all(streams.map(async (s) => (await s.response).status));
      expect(statuses.filter((status) => status === 200)).toHaveLength(LIMITS.liveStreamsPerClient);
      for (const s of streams) s.close();
    });

    it("does not count a stream whose lease has run out, as a crashed process's streams", async () => {
      const ip = '198.51.100.5';
      await tdb.database.db.insert(rateLimits).values(
        [1, 2].map((n) => ({
          key: `live_stream:ip:${ip}|crashed-${n}`,
          points: 1,
          expire: new Date(Date.now() - 1000),
        })),
      );
      const s = openStream(0, ip);
      expect((await s.response).status).toBe(200);
      s.close();
    });

    it('keeps renewing the lease of a stream while it is open, and deletes its row when it closes', async () => {
      const { db } = tdb.database;
      const ofClient = sql`starts_with(${rateLimits.key}, 'live_stream:ip:198.51.100.7|')`;
      const leaseOf = async () =>
        (
          await db
            .select({ live: sql<boolean>`${rateLimits.expire} > now()` })
            .from(rateLimits)
            .where(ofClient)
        ).map((row) => row.live);
      vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
      try {
        const release = await databaseCallLimitStore(db).streams.take('ip:198.51.100.7', 2);
        expect(await leaseOf()).toEqual([true]);
        // As if the lease had run out: the next renewal puts it ahead again.
        await db
          .update(rateLimits)
          .set({ expire: sql`now() - interval '1 second'` })
          .where(ofClient);
        expect(await leaseOf()).toEqual([false]);
        vi.advanceTimersByTime(30_000);
        await vi.waitFor(async () => expect(await leaseOf()).toEqual([true]), { timeout: 5000 });
        release!();
        await vi.waitFor(async () => expect(await leaseOf()).toEqual([]), { timeout: 5000 });
      } finally {
        vi.useRealTimers();
      }
    });
  },
);
