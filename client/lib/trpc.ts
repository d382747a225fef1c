/**
 * tRPC client: React hooks (`trpc`), the browser's link chain (SSE for subscriptions, batched HTTP
 * for the rest), the browser's QueryClient and helpers to read the server's error texts. On the
 * server, pages get an in-process client instead (server/http/pages.ts).
 */
import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { createTRPCClient, httpBatchLink, httpSubscriptionLink, splitLink, TRPCClientError } from '@trpc/client';
import { createTRPCQueryUtils, createTRPCReact } from '@trpc/react-query';
import superjson from 'superjson';
import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../server/trpc/router';
import { MSG } from '../../shared/messages';
import { MAX_BATCH_SIZE } from '../../shared/transport';

export const trpc = createTRPCReact<AppRouter>();

export const trpcClient = createTRPCClient<AppRouter>({
  links: [
    splitLink({
      condition: (op) => op.type === 'subscription',
      true: httpSubscriptionLink({
        url: '/trpc',
        transformer: superjson,
        eventSourceOptions: { withCredentials: true },
      }),
      false: httpBatchLink({ url: '/trpc', transformer: superjson, maxItems: MAX_BATCH_SIZE }),
    }),
  ],
});

/** HTTP status of a tRPC error, when known. */
export function httpStatusOf(err: unknown): number | undefined {
  if (err instanceof TRPCClientError) {
    const data = (err as TRPCClientError<AppRouter>).data;
    return data?.httpStatus;
  }
  return undefined;
}

/**
 * Whether `err` is the server's answer to the call (a 4xx refusal), as opposed to a failure worth
 * another try: no answer, a time-out or a 5xx.
 */
export function isAnswer(err: unknown): boolean {
  const status = httpStatusOf(err);
  return status !== undefined && status >= 400 && status < 500;
}

/** Longest wait, in ms, a Retry-After may impose before a retry. */
export const MAX_RETRY_WAIT_MS = 10_000;

/**
 * Whether `err` is a 503: the server is up but its database is away (unreachable, restarting), so
 * the same call is worth another try a moment later (docs/decisions/0102).
 */
export function isUnavailable(err: unknown): boolean {
  return httpStatusOf(err) === 503;
}

/** The wait a failed call's answer asked for (its Retry-After, in seconds) in ms, at most MAX_RETRY_WAIT_MS. */
export function retryAfterMs(err: unknown): number | undefined {
  if (!(err instanceof TRPCClientError)) return undefined;
  const response = (err.meta as { response?: unknown } | undefined)?.response;
  const value = response instanceof Response ? response.headers.get('retry-after') : null;
  const seconds = value === null || value.trim() === '' ? NaN : Number(value);
  return Number.isFinite(seconds) && seconds >= 0 ? Math.min(seconds * 1_000, MAX_RETRY_WAIT_MS) : undefined;
}

/**
 * React Query `retry` and `retryDelay` (queries and mutations): retry a failure once per entry of
 * `delaysMs`, waiting that long first, or longer when the answer's Retry-After asks for it (capped
 * at MAX_RETRY_WAIT_MS). `which`: 'failures' retries any failure that is not an answer (no answer,
 * a time-out, a 5xx); 'unavailable' only a 503 (docs/decisions/0102). An answer (4xx) is final.
 */
export function retryAfterFailures(delaysMs: readonly number[], which: 'failures' | 'unavailable' = 'failures') {
  const retries = which === 'unavailable' ? isUnavailable : (err: unknown) => !isAnswer(err);
  return {
    retry: (failureCount: number, err: unknown) => retries(err) && failureCount < delaysMs.length,
    retryDelay: (failureCount: number, err?: unknown) =>
      Math.min(
        Math.max(delaysMs[Math.min(failureCount, delaysMs.length - 1)] ?? 0, retryAfterMs(err) ?? 0),
        MAX_RETRY_WAIT_MS,
      ),
  };
}

/** Queries: a failure is tried twice more, after 1 s and 2 s (or the answer's Retry-After). */
export const QUERY_RETRIES = retryAfterFailures([1_000, 2_000]);

/**
 * Idempotent writes (those that carry an idempotency key, docs/decisions/0034): a 503 (the
 * database away) is tried three more times with the same key, after 1, 2 and 4 s (or the answer's
 * Retry-After), so a fail-over passes unnoticed. Other writes are never retried automatically.
 */
export const IDEMPOTENT_WRITE_RETRIES = retryAfterFailures([1_000, 2_000, 4_000], 'unavailable');

/**
 * A procedure answered UNAUTHORIZED: the session may have ended on the server (expired, or revoked
 * by a password change on another device). Ask auth.me again; the SessionWatcher takes it from
 * there and shows 'Session Expired'.
 */
function onUnauthorized(err: unknown) {
  if (err instanceof TRPCClientError && (err as TRPCClientError<AppRouter>).data?.code === 'UNAUTHORIZED') {
    void queryClient.invalidateQueries({ queryKey: [['auth', 'me']] });
  }
}

export const queryClient: QueryClient = new QueryClient({
  queryCache: new QueryCache({ onError: onUnauthorized }),
  mutationCache: new MutationCache({ onError: onUnauthorized }),
  defaultOptions: {
    queries: {
      staleTime: 10_000,
      refetchOnWindowFocus: true,
      // Client errors (4xx) are answers, not glitches: never retried.
      ...QUERY_RETRIES,
    },
    // Only idempotent writes are retried, by their own options (IDEMPOTENT_WRITE_RETRIES).
    mutations: { retry: false },
  },
});

/** Imperative access to the same cache (route guards, slug checks). */
export const trpcUtils = createTRPCQueryUtils<AppRouter>({ queryClient, client: trpcClient });
export type TrpcUtils = typeof trpcUtils;

export interface ErrorInfo {
  /** The toast title, when the server sent one. */
  title?: string;
  /** The user-facing message (never an internal text: the server hides those). */
  message: string;
  /** The input field the message belongs to. */
  field?: string;
  /** Per-field messages of an input error. */
  fieldErrors?: Record<string, string>;
  /** Extra strings of a domain error (e.g. `role` of a login refused for an unconfirmed email). */
  details?: Record<string, string>;
  /** tRPC code, e.g. 'NOT_FOUND', 'CONFLICT'. */
  code?: string;
  httpStatus?: number;
}

/** Reads title, message, field and field errors from a TRPCClientError (or anything thrown). */
export function errorInfo(err: unknown): ErrorInfo {
  if (err instanceof TRPCClientError) {
    const data = (err as TRPCClientError<AppRouter>).data;
    if (!data) {
      // No tRPC body: the request never reached the server or the answer was not tRPC's.
      return { message: MSG.connection };
    }
    return {
      title: data.title,
      message: err.message || MSG.generic,
      field: data.field,
      fieldErrors: data.fieldErrors,
      details: data.details,
      code: data.code,
      httpStatus: data.httpStatus,
    };
  }
  if (err instanceof Error && err.message) return { message: err.message };
  return { message: MSG.unexpected };
}

export type RouterOutputs = inferRouterOutputs<AppRouter>;
