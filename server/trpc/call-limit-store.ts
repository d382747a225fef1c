/**
 * Where the per-client call limits keep their counts (docs/decisions/0092, 0103): process memory on
 * PGlite (one process) and in tests, or the shared PostgreSQL database, so every worker process and
 * every instance behind a load balancer counts against one allowance per client.
 */
import { randomUUID } from 'node:crypto';
import { and, count, eq, gt, inArray, sql } from 'drizzle-orm';
import { RateLimiterDrizzle, RateLimiterMemory, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Database, Db } from '../db/client';
import { rateLimits } from '../db/schema/index';

/** Open live streams per client. */
export interface StreamPlaces {
  /**
   * Takes one of `client`'s places when fewer than `cap` are held: resolves the function that gives
   * it back (once, however often called), or null at the cap. Rejects on a storage error.
   */
  take(client: string, cap: number): Promise<(() => void) | null>;
}

/** The store behind `createCallLimits`: its per-minute counters and its open-stream places. */
export interface CallLimitStore {
  /** 'shared': every process over the same database counts together; 'memory': this process only. */
  kind: 'shared' | 'memory';
  /** A limiter allowing `points` a minute per key, its keys stored as '<keyPrefix>:<key>'. */
  counter(points: number, keyPrefix: string): RateLimiterAbstract;
  streams: StreamPlaces;
}

/** Counts in this process's memory. */
export function memoryCallLimitStore(): CallLimitStore {
  const open = new Map<string, number>();
  return {
    kind: 'memory',
    counter: (points, keyPrefix) => new RateLimiterMemory({ points, duration: 60, keyPrefix }),
    streams: {
      async take(client, cap) {
        const held = open.get(client) ?? 0;
        if (held >= cap) return null;
        open.set(client, held + 1);
        let given = false;
        return () => {
          if (given) return;
          given = true;
          const left = (open.get(client) ?? 1) - 1;
          if (left > 0) open.set(client, left);
          else open.delete(client);
        };
      },
    },
  };
}

/** How long a stream's row holds its place without its process renewing it (a crashed process's streams). */
export const STREAM_LEASE_SECONDS = 90;
/** How often a process renews the rows of the streams it holds open. */
const STREAM_RENEW_MS = 30_000;

/**
 * Counts in the database's `rate_limits` table, shared by every process: the counters are
 * rate-limiter-flexible's Drizzle limiter (one atomic upsert per call), and each open stream is a
 * row 'live_stream:<client>|<id>' with an expiry its process renews while the stream is open and
 * deletes when it closes; a crashed process's rows stop counting once expired. `onRenewError` hears
 * a failed renewal (the rows expire unless a later renewal succeeds).
 */
export function databaseCallLimitStore(db: Db, onRenewError: (err: unknown) => void = () => {}): CallLimitStore {
  const held = new Set<string>();
  let renewal: NodeJS.Timeout | null = null;
  const lease = sql`now() + make_interval(secs => ${STREAM_LEASE_SECONDS})`;
  const renew = () => {
    if (held.size === 0) return;
    db.update(rateLimits)
      .set({ expire: lease })
      .where(inArray(rateLimits.key, [...held]))
      .catch(onRenewError);
  };
  return {
    kind: 'shared',
    counter: (points, keyPrefix) =>
      new RateLimiterDrizzle({
        storeClient: db,
        schema: rateLimits,
        points,
        duration: 60,
        keyPrefix,
        // Expired rows are swept with the login throttle's (deleteExpiredThrottleRows).
        clearExpiredByTimeout: false,
      }),
    streams: {
      async take(client, cap) {
        const prefix = `live_stream:${client}|`;
        const key = `${prefix}${randomUUID()}`;
        // The client's lock makes count-then-insert one step across processes.
        const taken = await db.transaction(async (tx) => {
          await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${prefix}, 0))`);
          const [row] = await tx
            .select({ open: count() })
            .from(rateLimits)
            .where(and(sql`starts_with(${rateLimits.key}, ${prefix})`, gt(rateLimits.expire, sql`now()`)));
          if ((row?.open ?? 0) >= cap) return false;
          await tx.insert(rateLimits).values({ key, points: 1, expire: lease });
          return true;
        });
        if (!taken) return null;
        held.add(key);
        renewal ??= setInterval(renew, STREAM_RENEW_MS).unref();
        let given = false;
        return () => {
          if (given) return;
          given = true;
          held.delete(key);
          if (held.size === 0 && renewal) {
            clearInterval(renewal);
            renewal = null;
          }
          db.delete(rateLimits).where(eq(rateLimits.key, key)).catch(onRenewError);
        };
      },
    },
  };
}

/**
 * The store for `database`: shared on PostgreSQL (several worker processes or instances), memory on
 * PGlite (one process). `onError` hears failed background writes (renewals and give-backs of streams).
 */
export function callLimitStoreFor(database: Database, onError?: (err: unknown) => void): CallLimitStore {
  return database.kind === 'postgres' ? databaseCallLimitStore(database.db, onError) : memoryCallLimitStore();
}
