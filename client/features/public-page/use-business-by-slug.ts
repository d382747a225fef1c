import { useQuery } from '@tanstack/react-query';
import { getQueryKey } from '@trpc/react-query';
import { useEffect, useRef } from 'react';
import { callWithTimeout, retryAfterFailures, TIME_LIMITS_MS } from '../../lib/requests';
import { errorInfo, trpc, trpcClient, type RouterOutputs } from '../../lib/trpc';

/** businesses.bySlug's answer: the business and its open slots. */
export type PublicData = RouterOutputs['businesses']['bySlug'];
export type Slot = PublicData['slots'][number];

/** A failed call is retried twice, 1 s then 2 s later; an answer (4xx) is not retried. */
const FETCH_RETRIES = retryAfterFailures([1_000, 2_000]);
/** NOT_FOUND for the viewer's own page (its slug just changed) is retried 3 times at 1 s steps. */
const OWNER_NOT_FOUND_RETRIES = 3;
const OWNER_NOT_FOUND_STEP_MS = 1_000;

const isNotFound = (err: unknown) => errorInfo(err).code === 'NOT_FOUND';

/**
 * businesses.bySlug with the page's limits (ADR 0019): 5 s per call, FETCH_RETRIES, and
 * OWNER_NOT_FOUND_RETRIES when `viewerOwnsSlug`. Same query key as
 * trpc.businesses.bySlug.useQuery, so invalidating `utils.businesses.bySlug` refreshes it. A page
 * rendered on the server starts from the answer its route's loader read there.
 */
export function useBusinessBySlug(slug: string, viewerOwnsSlug: boolean) {
  const ownsRef = useRef(viewerOwnsSlug);
  useEffect(() => {
    ownsRef.current = viewerOwnsSlug;
  }, [viewerOwnsSlug]);
  const queryKey = getQueryKey(trpc.businesses.bySlug, { slug }, 'query');
  const query = useQuery({
    queryKey,
    queryFn: ({ signal }) =>
      callWithTimeout(
        (s) => trpcClient.businesses.bySlug.query({ slug }, { signal: s }),
        TIME_LIMITS_MS.businessFetch,
        signal,
      ),
    staleTime: 15_000,
    retry: (failureCount, err) =>
      isNotFound(err)
        ? ownsRef.current && failureCount < OWNER_NOT_FOUND_RETRIES
        : FETCH_RETRIES.retry(failureCount, err),
    retryDelay: (failureCount, err) =>
      isNotFound(err) ? OWNER_NOT_FOUND_STEP_MS : FETCH_RETRIES.retryDelay(failureCount),
  });
  return { query, queryKey };
}
