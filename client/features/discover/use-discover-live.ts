/**
 * Keeps an open Discover list live through discovery.onChange: a slot requested, booked or deleted
 * and every slot of a business no longer shown leave the list at once; any other change (and a
 * 'resync') searches again, debounced, so a newly published or reopened slot appears.
 */
import { useEffect, useRef } from 'react';
import type { DiscoverySearchForm } from '../../../shared/schemas/discovery';
import { trpc, type RouterOutputs } from '../../lib/trpc';

type Page = RouterOutputs['discovery']['search'];

/** How long (ms) changes are gathered before searching again: a burst of them is one search. */
const RESEARCH_DELAY_MS = 400;

/**
 * Subscribes while `input` is searched and its first page has answered (`centre`, the searched
 * centre): the stream covers `input.miles` around it. `input` must be the list's own query input.
 */
export function useDiscoverLive(input: DiscoverySearchForm | null, centre: Page['centre'] | undefined) {
  const utils = trpc.useUtils();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

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
        clearTimeout(timer.current);
        timer.current = setTimeout(() => void utils.discovery.search.invalidate(input), RESEARCH_DELAY_MS);
      },
    },
  );
}
