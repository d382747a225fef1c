/**
 * Keeps an open Discover list live through discovery.onChange (docs/decisions/0083, 0094): a slot
 * requested, booked or deleted and every slot of a business no longer shown leave the list at once;
 * any other change (and a 'resync') searches again, at most once every REFRESH_EVERY_MS, and only the
 * first page, so a newly published or reopened slot appears.
 */
import { useEffect, useRef } from 'react';
import type { DiscoverySearchForm } from '../../../shared/schemas/discovery';
import { trpc, type RouterOutputs } from '../../lib/trpc';
import { firstPageOnly, leadingThrottle, type Throttled } from './refresh-throttle';

type Page = RouterOutputs['discovery']['search'];

/**
 * How often (ms) changes may search again: the first at once, the rest of a burst in one search at
 * the end, so a busy business costs a watcher at most one search in this time.
 */
const REFRESH_EVERY_MS = 3_000;

/**
 * Subscribes while `input` is searched and its first page has answered (`centre`, the searched
 * centre): the stream covers `input.miles` around it. `input` must be the list's own query input.
 */
export function useDiscoverLive(input: DiscoverySearchForm | null, centre: Page['centre'] | undefined) {
  const utils = trpc.useUtils();
  const refresh = useRef<Throttled | null>(null);
  // One throttle per search: a new search is not held back by the last one's changes.
  useEffect(() => {
    if (!input) return;
    const throttled = leadingThrottle(() => {
      // Back to the first page, then that page alone is searched again ("Load more" reads further).
      utils.discovery.search.setInfiniteData(input, firstPageOnly);
      void utils.discovery.search.invalidate(input);
    }, REFRESH_EVERY_MS);
    refresh.current = throttled;
    return () => {
      throttled.cancel();
      if (refresh.current === throttled) refresh.current = null;
    };
  }, [input, utils]);

  const enabled = Boolean(input && centre);
  trpc.discovery.onChange.useSubscription(
    centre && input ? { latitude: centre.latitude, longitude: centre.longitude, miles: input.miles } : undefined,
    {
      enabled,
      onData: ({ data }) => {
        if (!input) return;
        const leaves =
          data.kind === 'slot'
            ? data.change === 'taken' || data.change === 'deleted'
              ? (r: Page['results'][number]) => r.slotId === data.slotId
              : null
            : data.kind === 'business' && data.change === 'unlisted'
              ? (r: Page['results'][number]) => r.businessId === data.businessId
              : null;
        if (leaves) {
          utils.discovery.search.setInfiniteData(input, (old) =>
            old
              ? { ...old, pages: old.pages.map((p) => ({ ...p, results: p.results.filter((r) => !leaves(r)) })) }
              : old,
          );
          return;
        }
        refresh.current?.call();
      },
    },
  );
}
