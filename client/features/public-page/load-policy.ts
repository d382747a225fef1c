/**
 * How the public page loads its business (dashboards spec §4 "Public page load", §8 "Booking and
 * public page", §9 "Business fetch (public page)", "Public page load guard"; ADR 0019): each
 * businesses.bySlug call is given 5 s; a failed call is retried twice, 1 s then 2 s later
 * (network and server failures alike); an answer (4xx) is not retried, except NOT_FOUND for the
 * page's own owner, retried 3 times at 1 s steps (a slug just changed); and the page gives up
 * waiting after 10 s.
 */
import { MSG } from '../../../shared/messages';
import { errorInfo, httpStatusOf } from '../../lib/trpc';

/** Time given to one businesses.bySlug call (spec §9). */
export const QUERY_TIMEOUT_MS = 5_000;
/** The page stops waiting after this long (spec §9 "Public page load guard"). */
export const PAGE_LOAD_GUARD_MS = 10_000;
/** Waits before the 1st and 2nd retry of a failed call (spec §9). */
export const RETRY_DELAYS_MS = [1_000, 2_000] as const;
/** Owner not-found: retries and their step (spec §4, §9). */
export const OWNER_NOT_FOUND_RETRIES = 3;
export const OWNER_NOT_FOUND_STEP_MS = 1_000;

/** A call that did not answer within QUERY_TIMEOUT_MS. */
export class LoadTimeoutError extends Error {
  constructor() {
    super(MSG.pageTimeout);
    this.name = 'LoadTimeoutError';
  }
}

/**
 * Runs `call` with a signal that is aborted after `ms` (or when `outer` aborts) and rejects with
 * LoadTimeoutError at `ms` even if the transport does not honour the signal (a batched request
 * waits for its siblings).
 */
export function withTimeout<T>(call: (signal: AbortSignal) => Promise<T>, ms: number, outer?: AbortSignal): Promise<T> {
  const controller = new AbortController();
  const onOuterAbort = () => controller.abort(outer?.reason);
  if (outer?.aborted) controller.abort(outer.reason);
  else outer?.addEventListener('abort', onOuterAbort, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new LoadTimeoutError());
      controller.abort();
    }, ms);
  });
  return Promise.race([call(controller.signal), timeout]).finally(() => {
    clearTimeout(timer);
    outer?.removeEventListener('abort', onOuterAbort);
  });
}

function isNotFound(err: unknown): boolean {
  return errorInfo(err).code === 'NOT_FOUND';
}

/** Whether to retry after `failureCount` failures (React Query's `retry`). */
export function shouldRetryBusinessFetch(failureCount: number, err: unknown, viewerOwnsSlug: boolean): boolean {
  if (isNotFound(err)) return viewerOwnsSlug && failureCount < OWNER_NOT_FOUND_RETRIES;
  const status = httpStatusOf(err);
  if (status !== undefined && status >= 400 && status < 500) return false;
  return failureCount < RETRY_DELAYS_MS.length;
}

/** The wait before the next retry (React Query's `retryDelay`; `failureCount` counts from 0). */
export function businessFetchRetryDelay(failureCount: number, err: unknown): number {
  if (isNotFound(err)) return OWNER_NOT_FOUND_STEP_MS;
  return RETRY_DELAYS_MS[Math.min(failureCount, RETRY_DELAYS_MS.length - 1)]!;
}

/** The text of a failed load: the time-out text, else the spec's generic one (never the server's). */
export function loadFailureText(err: unknown): string {
  return err instanceof LoadTimeoutError ? MSG.pageTimeout : MSG.pageLoadFailed;
}
