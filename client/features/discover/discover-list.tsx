/**
 * The Discover page's results: the line that says what is shown, and the list of slots (only one
 * business's when a pin on the map chose it), with 'Load more' while the search has more.
 */
import { Button, Group, Stack, Text } from '@mantine/core';
import type { Ref } from 'react';
import type { ChosenBusiness } from './discover-map';
import { ResultCard, type DiscoverResult } from './result-card';

/** Where the list is scrolled to below the fixed 64 px header (the map's top on a wide screen). */
export const MAP_STICKY_TOP = 80;

/** What `DiscoverList` shows and what its buttons do. */
export interface DiscoverListProps {
  /** The results shown, in order. */
  shown: DiscoverResult[];
  /** The business chosen on the map or in the list, if any. */
  chosen: ChosenBusiness | null;
  /** The chosen business's name when the list shows only its slots. */
  filteredTo: string | null;
  /** Request buttons: shown (not to business viewers), and whether they request or ask to sign in. */
  showRequest: boolean;
  canRequest: boolean;
  /** With the map open: a result's 'Show on map'. */
  onShowOnMap?: (result: DiscoverResult) => void;
  onRequest: (result: DiscoverResult) => void;
  onSignIn: () => void;
  /** 'Show all': back from one business's slots to the whole list. */
  onShowAll: () => void;
  /** The search has more pages; `onLoadMore` asks for the next, `loadingMore` while it comes. */
  hasMore: boolean;
  onLoadMore: () => void;
  loadingMore: boolean;
  /** The chosen business's block, brought into view when a pin chooses it. */
  filterRef: Ref<HTMLDivElement>;
}

/** The list of results (see `DiscoverListProps`). */
export function DiscoverList(props: DiscoverListProps) {
  const { shown, chosen, filteredTo } = props;
  const cards = shown.map((r) => (
    <ResultCard
      key={r.slotId}
      result={r}
      showRequest={props.showRequest}
      canRequest={props.canRequest}
      highlighted={chosen?.businessId === r.businessId}
      onShowOnMap={props.onShowOnMap ? () => props.onShowOnMap?.(r) : undefined}
      onRequest={() => props.onRequest(r)}
      onSignIn={props.onSignIn}
    />
  ));
  return (
    <>
      {filteredTo ? (
        // The chosen business's slots, under the line that says so: brought into view together.
        <Stack ref={props.filterRef} gap="sm" style={{ scrollMarginTop: MAP_STICKY_TOP }}>
          <Group
            gap={6}
            wrap="wrap"
            px="sm"
            py={6}
            bg="orange.0"
            data-testid="discover-map-filter"
            style={{ borderRadius: 'var(--mantine-radius-md)' }}
          >
            <Text size="sm" fw={600} role="status">
              {`Showing ${filteredTo}'s slots`}
              <span aria-hidden> ·</span>
            </Text>
            <Button variant="subtle" size="compact-sm" onClick={props.onShowAll}>
              Show all
            </Button>
          </Group>
          {cards}
        </Stack>
      ) : (
        cards
      )}
      {props.hasMore && !filteredTo && (
        <Group justify="center">
          <Button variant="default" onClick={props.onLoadMore} loading={props.loadingMore}>
            Load more
          </Button>
        </Group>
      )}
    </>
  );
}

/**
 * The line above the results: what is shown, where. `hasWhere`: the search says where;
 * `answered`: its first page has come; `count`: results shown; `more`: more pages;
 * `where`: the place's name; `fetching`: a search is on its way.
 */
export function summary(
  hasWhere: boolean,
  answered: boolean,
  count: number,
  more: boolean,
  where: string | null,
  fetching: boolean,
) {
  if (!hasWhere) return 'Choose where to look.';
  if (!answered) return fetching ? 'Searching...' : '';
  const place = where ? ` near ${where}` : '';
  if (count === 0) return `No open slots${place}.`;
  const shown = `${more ? 'Showing ' : ''}${count} open ${count === 1 ? 'slot' : 'slots'}${place}`;
  return fetching ? `${shown} (updating...)` : shown;
}
