/**
 * The per-client limits on procedure calls (docs/decisions/0092): mutation calls and Discover searches
 * a minute, counted by the root middleware of every procedure (server/trpc/trpc.ts) after tRPC has
 * routed the call, so each call of a batch counts once however its URL was spelled, and a page's
 * render counts the calls it makes like the browser's own; and live streams open at once, counted
 * by the API's route (server/app.ts) for as long as each stream's response is open.
 */
import { RateLimiterMemory, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { DomainError } from '../core/errors';
import { MSG } from '../../shared/messages';

/** What the per-minute limits count: any mutation call, and discovery.search calls. */
export type CountedCall = 'mutation' | 'search';

/** The procedure whose calls count as searches. */
export const SEARCH_PROCEDURE = 'discovery.search';

/** The counting port; the per-minute counters sit in a rate-limiter-flexible store that can be swapped. */
export interface CallLimits {
  /**
   * Counts one call of `kind` by `client` (a `clientIpKey`). Resolves 0 when allowed, else the seconds
   * (at least 1) until the client's window ends.
   */
  consume(kind: CountedCall, client: string): Promise<number>;
  /** Takes one of `client`'s live stream places: the function that gives it back, or null at the cap. */
  openStream(client: string): (() => void) | null;
}

export interface CallLimitsOptions {
  mutationsPerMinute: number;
  searchesPerMinute: number;
  /** Live streams (SSE subscriptions) open at once per client, in this process. */
  streamsPerClient: number;
  /**
   * The store of each per-minute counter, given its points a minute and key prefix; default process
   * memory. A shared store (rate-limiter-flexible's Postgres, Redis, ...) makes the limits whole
   * across instances.
   */
  store?: (points: number, keyPrefix: string) => RateLimiterAbstract;
}

const memoryStore = (points: number, keyPrefix: string) => new RateLimiterMemory({ points, duration: 60, keyPrefix });

/** CallLimits over `store` (process memory by default); open streams are counted in this process. */
export function createCallLimits({
  mutationsPerMinute,
  searchesPerMinute,
  streamsPerClient,
  store = memoryStore,
}: CallLimitsOptions): CallLimits {
  const counters: Record<CountedCall, RateLimiterAbstract> = {
    mutation: store(mutationsPerMinute, 'calls_mutation'),
    search: store(searchesPerMinute, 'calls_search'),
  };
  const openStreams = new Map<string, number>();
  return {
    async consume(kind, client) {
      try {
        await counters[kind].consume(client);
        return 0;
      } catch (err) {
        if (err instanceof RateLimiterRes) return Math.max(1, Math.ceil(err.msBeforeNext / 1000));
        throw err;
      }
    },
    openStream(client) {
      const open = openStreams.get(client) ?? 0;
      if (open >= streamsPerClient) return null;
      openStreams.set(client, open + 1);
      let given = false;
      return () => {
        if (given) return;
        given = true;
        const left = (openStreams.get(client) ?? 1) - 1;
        if (left > 0) openStreams.set(client, left);
        else openStreams.delete(client);
      };
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
