import { Alert, Box, Button, Container, Grid, Group, Stack, Text, Title } from '@mantine/core';
import { useReducedMotion } from '@mantine/hooks';
import { keepPreviousData, skipToken } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { MSG } from '../../../shared/messages';
import { DEFAULT_TIMEZONE } from '../../../shared/zoned-time';
import { lazyDialog, usePreloadOnFirstInteraction } from '../../lib/lazy-dialog';
import { errorInfo, trpc } from '../../lib/trpc';
import { useHydrated } from '../../lib/use-hydrated';
import { useNow } from '../../lib/use-now';
import { usePageTitle } from '../../lib/use-page-title';
import { AlertButton } from '../alerts/alert-button';
import { useAuth } from '../auth/use-auth';
import { EmptyState } from '../dashboard/empty-state';
import { lazyMap } from '../map/lazy-map';
import type { RequestableSlot } from '../public-page/request-dialog';
import type { SignInReason } from '../public-page/sign-in-dialog';
import { deviceTimezone, rememberedPlace, rememberPlace } from './device';
import { DiscoverFilters } from './discover-filters';
import { DiscoverList, MAP_STICKY_TOP, summary } from './discover-list';
import type { ChosenBusiness } from './discover-map';
import { businessesOf } from './map-businesses';
import type { DiscoverResult } from './result-card';
import { searchInputFor, type DiscoverSearch } from './search-params';
import { useDiscoverLive } from './use-discover-live';

// The dialogs load apart from the page, as on the business page.
const SignInDialog = lazyDialog(
  () => import('../public-page/sign-in-dialog').then((m) => m.SignInDialog),
  (p) => p.reason !== null,
);
const RequestDialog = lazyDialog(
  () => import('../public-page/request-dialog').then((m) => m.RequestDialog),
  (p) => p.slot !== null,
);

// The map, with Leaflet, loads once it is opened, in the browser.
const DiscoverMap = lazyMap(() => import('./discover-map').then((m) => m.DiscoverMap));

const route = getRouteApi('/discover');

/** The map's height: above the list on a phone; beside it, as high as the window allows, on a wide screen. */
const MAP_HEIGHT = { base: 280, md: 'min(640px, calc(100vh - 112px))' };
/** A slot chosen to request, with its business (the request dialog names it). */
interface Requesting {
  slot: RequestableSlot;
  slug: string;
  businessName: string;
}

/**
 * /discover: open slots near a typed town or postcode or the device's position, starting within a
 * chosen time, within a chosen distance, of a chosen category, soonest or nearest first. The search
 * lives in the address (shareable, rendered on the server); the list stays live while open.
 * `loadError`: what a search that failed during the server render answered (its message and field).
 */
export function DiscoverPage({ loadError }: { loadError?: { message: string; field?: string } }) {
  usePageTitle('Discover');
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const hydrated = useHydrated();
  const { user } = useAuth();

  // The server searches in Europe/London; the device's zone is used from the render after hydration.
  const timezone = hydrated ? deviceTimezone() : DEFAULT_TIMEZONE;
  const input = useMemo(() => searchInputFor(search, timezone), [search, timezone]);
  const query = trpc.discovery.search.useInfiniteQuery(input ?? skipToken, {
    getNextPageParam: (page) => page.nextCursor,
    placeholderData: keepPreviousData,
    staleTime: 15_000,
  });
  const firstPage = query.data?.pages[0];
  useDiscoverLive(query.isPlaceholderData ? null : input, firstPage?.centre);

  const update = (changes: Partial<DiscoverSearch>) =>
    void navigate({ search: (prev) => ({ ...prev, ...changes }), replace: true, resetScroll: false });

  // No place in the address: (after hydration) the one remembered on this device.
  const hasWhere = input !== null;
  useEffect(() => {
    if (!hydrated || hasWhere) return;
    const remembered = rememberedPlace();
    if (remembered) update({ place: remembered });
    // Once, when the page first shows without a place.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [hydrated]);
  // A place is remembered once a search found it.
  const foundPlace = firstPage?.centre.place && search.place ? search.place : null;
  useEffect(() => {
    if (foundPlace) rememberPlace(foundPlace);
  }, [foundPlace]);

  // Who may request: customers with a confirmed email; visitors are asked to sign in; business users see no button.
  const canRequest = user?.role === 'customer' && user.isVerified;
  const isBusinessViewer = user?.role === 'business';
  const [signIn, setSignIn] = useState<SignInReason | null>(null);
  const [requesting, setRequesting] = useState<Requesting | null>(null);
  usePreloadOnFirstInteraction(RequestDialog, SignInDialog);

  // A slot leaves once it has started, on this device's clock (after hydration, so both renders agree).
  const now = useNow(30_000);
  const results: DiscoverResult[] = (query.data?.pages ?? [])
    .flatMap((p) => p.results)
    .filter((r) => !hydrated || new Date(r.startsAt).getTime() > now.getTime());

  // The map: open when the address says so; a business chosen on it shows only its slots in the list.
  const mapOpen = search.map === 1;
  const businesses = businessesOf(results);
  const [choice, setChoice] = useState<ChosenBusiness | null>(null);
  const chosen = mapOpen && choice && businesses.some((b) => b.businessId === choice.businessId) ? choice : null;
  const chosenName = chosen && businesses.find((b) => b.businessId === chosen.businessId)?.businessName;
  const filtered = chosen?.from === 'map';
  const shown = filtered ? results.filter((r) => r.businessId === chosen.businessId) : results;
  const reduceMotion = useReducedMotion();
  const scrollBehavior: ScrollBehavior = reduceMotion ? 'auto' : 'smooth';
  const filterRef = useRef<HTMLDivElement>(null);
  const mapRef = useRef<HTMLDivElement>(null);
  const summaryRef = useRef<HTMLParagraphElement>(null);
  const chooseOnMap = useCallback((businessId: string) => setChoice({ businessId, from: 'map' }), []);
  // A pin chosen: its slots, now the whole list, come into view.
  useEffect(() => {
    if (choice?.from === 'map') filterRef.current?.scrollIntoView({ block: 'nearest', behavior: scrollBehavior });
  }, [choice, scrollBehavior]);
  const showAll = () => {
    setChoice(null);
    summaryRef.current?.focus();
  };

  // A failure the server render met shows until the browser's own search answers.
  const failure = query.error ? errorInfo(query.error) : !query.data && hasWhere ? loadError : undefined;
  const error = failure?.message;
  const placeError = failure?.field === 'place' ? error : undefined;
  const where = firstPage?.centre.place ?? (search.lat !== undefined ? 'your location' : null);

  const list = (
    <DiscoverList
      shown={shown}
      chosen={chosen}
      filteredTo={filtered ? (chosenName ?? null) : null}
      showRequest={!isBusinessViewer}
      canRequest={canRequest}
      onShowOnMap={
        mapOpen
          ? (r) => {
              // Listing only this business's slots already: its pin is the chosen one.
              if (!filtered) setChoice({ businessId: r.businessId, from: 'list' });
              mapRef.current?.scrollIntoView({ block: 'nearest', behavior: scrollBehavior });
            }
          : undefined
      }
      onRequest={(r) =>
        setRequesting({
          slot: { id: r.slotId, description: r.description, date: r.date, startTime: r.startTime, endTime: r.endTime },
          slug: r.slug,
          businessName: r.businessName,
        })
      }
      onSignIn={() => setSignIn('request')}
      onShowAll={showAll}
      hasMore={query.hasNextPage}
      onLoadMore={() => void query.fetchNextPage()}
      loadingMore={query.isFetchingNextPage}
      filterRef={filterRef}
    />
  );

  return (
    <Container size={mapOpen ? 'lg' : 'md'} py={{ base: 'md', sm: 'xl' }} px={{ base: 'sm', sm: 'md' }}>
      <Stack gap="lg">
        <div>
          <Title order={1} fz={{ base: 26, sm: 32 }}>
            Discover
          </Title>
          <Text c="dimmed">Last-minute slots near you, from businesses that want them filled.</Text>
        </div>

        <DiscoverFilters search={search} onChange={update} placeError={placeError} />

        <AlertButton search={input} onSignInNeeded={() => setSignIn('alert')} />

        <Stack gap="sm" component="section" aria-label="Results" data-testid="discover-results">
          <Group justify="space-between" gap="xs" wrap="wrap">
            <Text
              ref={summaryRef}
              tabIndex={-1}
              size="sm"
              c="dimmed"
              role="status"
              aria-live="polite"
              data-testid="discover-summary"
              style={{ outline: 'none' }}
            >
              {summary(
                hasWhere,
                query.data !== undefined,
                results.length,
                query.hasNextPage,
                where,
                hydrated && query.isFetching,
              )}
            </Text>
            {hasWhere && (
              <Button
                variant="default"
                size="xs"
                aria-expanded={mapOpen}
                onClick={() => {
                  setChoice(null);
                  update({ map: mapOpen ? undefined : 1 });
                }}
              >
                {mapOpen ? 'Hide map' : 'Show map'}
              </Button>
            )}
          </Group>
          {isBusinessViewer && hasWhere && results.length > 0 && (
            <Text size="sm">{`${MSG.businessCannotRequest} Log in with a customer account to request one.`}</Text>
          )}
          {error && !placeError ? (
            <Alert color="red" variant="light" role="alert" data-testid="discover-error">
              {error}
            </Alert>
          ) : null}
          {!hasWhere && <EmptyState text={MSG.discoverStart} />}
          {hasWhere && query.data && results.length === 0 && !query.isPlaceholderData && (
            <EmptyState text={MSG.discoverNoResults} />
          )}
          {mapOpen && firstPage ? (
            <Grid gap="md">
              <Grid.Col span={{ base: 12, md: 5 }} order={{ base: 1, md: 2 }}>
                <Box ref={mapRef} pos={{ base: 'static', md: 'sticky' }} top={MAP_STICKY_TOP}>
                  <DiscoverMap
                    h={MAP_HEIGHT}
                    businesses={businesses}
                    centre={firstPage.centre}
                    chosen={chosen}
                    onChoose={chooseOnMap}
                  />
                </Box>
              </Grid.Col>
              <Grid.Col span={{ base: 12, md: 7 }} order={{ base: 2, md: 1 }}>
                <Stack gap="sm">{list}</Stack>
              </Grid.Col>
            </Grid>
          ) : (
            list
          )}
        </Stack>
      </Stack>

      <SignInDialog
        reason={signIn}
        onClose={() => setSignIn(null)}
        unverified={Boolean(user && user.role === 'customer' && !user.isVerified)}
      />
      <RequestDialog
        slot={requesting?.slot ?? null}
        slug={requesting?.slug ?? ''}
        businessName={requesting?.businessName ?? ''}
        onClose={() => setRequesting(null)}
        onSignInNeeded={() => {
          setRequesting(null);
          setSignIn('request');
        }}
      />
    </Container>
  );
}
