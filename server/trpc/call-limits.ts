/**
 * The per-client limits on procedure calls (docs/decisions/0092): mutation calls and Discover searches
 * a minute, counted by the root middleware of every procedure (server/trpc/trpc.ts) after tRPC has
 * routed the call, so each call of a batch counts once however its URL was spelled, and a page's
 * render counts the calls it makes like the browser's own; and live streams open at once, counted
 * by the API's route (server/app.ts) for as long as each stream's response is open. The counts live
 * in a store shared by every process on PostgreSQL (server/trpc/call-limit-store.ts, docs/decisions/0103).
 */
import type { Logger } from 'pino';
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { DomainError } from '../core/errors';
import { MSG } from '../../shared/messages';
import { memoryCallLimitStore, type CallLimitStore } from './call-limit-store';

/** What the per-minute limits count: any mutation call, and discovery.search calls. */
export type CountedCall = 'mutation' | 'search';

/** The procedure whose calls count as searches. */
export const SEARCH_PROCEDURE = 'discovery.search';

/** The counting port; the counts sit in a `CallLimitStore` (process memory, or the shared database). */
export interface CallLimits {
  /**
   * Counts one call of `kind` by `client` (a `clientIpKey`). Resolves 0 when allowed, else the seconds
   * (at least 1) until the client's window ends.
   */
  consume(kind: CountedCall, client: string): Promise<number>;
  /** Takes one of `client`'s live stream places: resolves the function that gives it back, or null at the cap. */
  openStream(client: string): Promise<(() => void) | null>;
}

export interface CallLimitsOptions {
  mutationsPerMinute: number;
  searchesPerMinute: number;
  /** Live streams (SSE subscriptions) open at once per client, across the processes sharing `store`. */
  streamsPerClient: number;
  /** Where the counts live (docs/decisions/0103); default this process's memory. */
  store?: CallLimitStore;
  /** Warned (at most once a minute) when the store cannot be reached. */
  logger?: Pick<Logger, 'warn'>;
}

/**
 * CallLimits over `store`. When the store fails (database unreachable), a call is counted in a
 * memory store of this process instead, so each process still holds the limits on its own
 * (docs/decisions/0103).
 */
export function createCallLimits({
  mutationsPerMinute,
  searchesPerMinute,
  streamsPerClient,
  store = memoryCallLimitStore(),
  logger,
}: CallLimitsOptions): CallLimits {
  const countersOf = (s: CallLimitStore): Record<CountedCall, RateLimiterAbstract> => ({
    mutation: s.counter(mutationsPerMinute, 'calls_mutation'),
    search: s.counter(searchesPerMinute, 'calls_search'),
  });
  const counters = countersOf(store);
  let fallback: { store: CallLimitStore; counters: Record<CountedCall, RateLimiterAbstract> } | null = null;
  let warnedAt = -Infinity;
  const fallbackOf = (err: unknown) => {
    if (Date.now() - warnedAt >= 60_000) {
      warnedAt = Date.now();
      logger?.warn({ err }, 'call limit store unreachable: counting in this process');
    }
    if (!fallback) {
      const memory = memoryCallLimitStore();
      fallback = { store: memory, counters: countersOf(memory) };
    }
    return fallback;
  };
  const waitOf = async (counter: RateLimiterAbstract, client: string) => {
    try {
      await counter.consume(client);
      return 0;
    } catch (err) {
      if (err instanceof RateLimiterRes) return Math.max(1, Math.ceil(err.msBeforeNext / 1000));
      throw err;
    }
  };
  return {
    async consume(kind, client) {
      try {
        return await waitOf(counters[kind], client);
      } catch (err) {
        return waitOf(fallbackOf(err).counters[kind], client);
      }
    },
    async openStream(client) {
      try {
        return await store.streams.take(client, streamsPerClient);
      } catch (err) {
        return fallbackOf(err).store.streams.take(client, streamsPerClient);
      }
    },
  };
}

/** The refusal of a call over a limit: TOO_MANY_REQUESTS in the product's words, and when to retry. */
export class CallLimitExceeded extends DomainError {
  constructor(
    /** Seconds until the call would be allowed: the answer's Retry-After. */
    readonly retryAfterSeconds: number,
  ) {
    super('TOO_MANY_REQUESTS', MSG.tooManyRequests);
  }
}

/** The Retry-After (seconds) an answer with these call `errors` carries: the longest wait, or null. */
export function retryAfterOf(errors: readonly { cause?: unknown }[]): number | null {
  let wait: number | null = null;
  for (const { cause } of errors) {
    if (cause instanceof CallLimitExceeded) wait = Math.max(wait ?? 0, cause.retryAfterSeconds);
  }
  return wait;
}
