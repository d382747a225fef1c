import {
  Alert,
  Box,
  Button,
  Chip,
  Container,
  Grid,
  Group,
  NativeSelect,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useReducedMotion } from '@mantine/hooks';
import { keepPreviousData, skipToken } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { CATEGORY_GROUPS } from '../../../shared/categories';
import { DISCOVERY_MILES, type DiscoveryWindow } from '../../../shared/discovery';
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
import { devicePosition, deviceTimezone, rememberedPlace, rememberPlace } from './device';
import type { ChosenBusiness } from './discover-map';
import { businessesOf } from './map-businesses';
import { ResultCard, type DiscoverResult } from './result-card';
import {
  DEFAULT_MILES,
  DEFAULT_SORT,
  DEFAULT_WINDOW,
  oneOf,
  searchInputFor,
  type DiscoverSearch,
} from './search-params';
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
/** Where a wide screen keeps the map while the list scrolls: below the fixed 64 px header. */
const MAP_STICKY_TOP = 80;

/** The time chips, in order. */
const WINDOW_CHIPS: ReadonlyArray<{ value: DiscoveryWindow; label: string }> = [
  { value: '1h', label: 'Within 1 hour' },
  { value: '2h', label: 'Within 2 hours' },
  { value: '4h', label: 'Within 4 hours' },
  { value: 'today', label: 'Today' },
  { value: 'tomorrow', label: 'Tomorrow' },
];

const MILES_DATA = DISCOVERY_MILES.map((m) => ({ value: String(m), label: m === 1 ? '1 mile' : `${m} miles` }));
/** Every category: a whole group ('All Hair Services') or one of its children. */
const ALL_CATEGORIES_VALUE = '';
const CATEGORY_DATA = [
  { value: ALL_CATEGORIES_VALUE, label: 'All categories' },
  ...CATEGORY_GROUPS.map((g) => ({
    group: g.group,
    items: [{ value: g.group, label: `All ${g.group}` }, ...g.items.map((item) => ({ value: item, label: item }))],
  })),
];
const SORT_DATA = [
  { value: 'soonest', label: 'Soonest first' },
  { value: 'nearest', label: 'Nearest first' },
];

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

  // The typed place: the address's, else (after hydration) the one remembered on this device.
  const [placeText, setPlaceText] = useState(search.place ?? '');
  const placeRef = useRef<HTMLInputElement>(null);
  useEffect(() => setPlaceText(search.place ?? ''), [search.place]);
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

  const [locating, setLocating] = useState(false);
  const [locationError, setLocationError] = useState<string | null>(null);
  const submitPlace = (e: FormEvent) => {
    e.preventDefault();
    const place = placeText.trim();
    if (!place) {
      placeRef.current?.focus();
      return;
    }
    setLocationError(null);
    update({ place, lat: undefined, lng: undefined });
  };
  const locateDevice = async () => {
    setLocating(true);
    setLocationError(null);
    try {
      const { lat, lng } = await devicePosition();
      update({ place: undefined, lat, lng });
    } catch (err) {
      setLocationError(errorInfo(err).message);
      placeRef.current?.focus();
    } finally {
      setLocating(false);
    }
  };

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

  const cards = (
    <>
      {shown.map((r) => (
        <ResultCard
          key={r.slotId}
          result={r}
          showRequest={!isBusinessViewer}
          canRequest={canRequest}
          highlighted={chosen?.businessId === r.businessId}
          onShowOnMap={
            mapOpen
              ? () => {
                  // Listing only this business's slots already: its pin is the chosen one.
                  if (!filtered) setChoice({ businessId: r.businessId, from: 'list' });
                  mapRef.current?.scrollIntoView({ block: 'nearest', behavior: scrollBehavior });
                }
              : undefined
          }
          onRequest={() =>
            setRequesting({
              slot: {
                id: r.slotId,
                description: r.description,
                date: r.date,
                startTime: r.startTime,
                endTime: r.endTime,
              },
              slug: r.slug,
              businessName: r.businessName,
            })
          }
          onSignIn={() => setSignIn('request')}
        />
      ))}
    </>
  );
  const list = (
    <>
      {filtered && chosenName ? (
        // The chosen business's slots, under the line that says so: brought into view together.
        <Stack ref={filterRef} gap="sm" style={{ scrollMarginTop: MAP_STICKY_TOP }}>
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
              {`Showing ${chosenName}'s slots`}
              <span aria-hidden> ·</span>
            </Text>
            <Button variant="subtle" size="compact-sm" onClick={showAll}>
              Show all
            </Button>
          </Group>
          {cards}
        </Stack>
      ) : (
        cards
      )}
      {query.hasNextPage && !filtered && (
        <Group justify="center">
          <Button variant="default" onClick={() => void query.fetchNextPage()} loading={query.isFetchingNextPage}>
            Load more
          </Button>
        </Group>
      )}
    </>
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

        <Stack gap="md" component="section" aria-label="Search">
          {/* Before the script runs, the form still searches: the address's place, other choices at their defaults. */}
          <form action="/discover" method="get" onSubmit={submitPlace} role="search" aria-label="Where">
            <Group align="flex-end" gap="sm" wrap="wrap">
              <TextInput
                ref={placeRef}
                label="Town or postcode"
                name="place"
                placeholder="e.g. Manchester or M1 1AE"
                value={placeText}
                onChange={(e) => setPlaceText(e.currentTarget.value)}
                maxLength={100}
                autoComplete="address-level2"
                error={placeError}
                style={{ flex: '1 1 220px' }}
              />
              <Button type="submit">Search</Button>
              <Button variant="default" onClick={() => void locateDevice()} loading={locating}>
                Use my location
              </Button>
            </Group>
          </form>
          {locationError && (
            <Alert color="orange" variant="light" role="alert" data-testid="location-error">
              {locationError}
            </Alert>
          )}

          <div role="group" aria-label="Starting">
            <Chip.Group
              multiple={false}
              value={search.window ?? DEFAULT_WINDOW}
              onChange={(v) => update({ window: v as DiscoveryWindow })}
            >
              {/* Wraps on a phone: every window, the chosen one included, stays in view. */}
              <Group gap={8} py={4}>
                {WINDOW_CHIPS.map((c) => (
                  <Chip key={c.value} value={c.value} variant="outline">
                    {c.label}
                  </Chip>
                ))}
              </Group>
            </Chip.Group>
          </div>

          <Grid gap="sm">
            <Grid.Col span={{ base: 6, sm: 3 }}>
              <NativeSelect
                label="Distance"
                data={MILES_DATA}
                value={String(search.miles ?? DEFAULT_MILES)}
                onChange={(e) => update({ miles: oneOf(DISCOVERY_MILES, e.currentTarget.value) })}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }} order={{ base: 3, sm: 2 }}>
              <NativeSelect
                label="Category"
                data={CATEGORY_DATA}
                value={search.category ?? ALL_CATEGORIES_VALUE}
                onChange={(e) => update({ category: e.currentTarget.value || undefined })}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 6, sm: 3 }} order={{ base: 2, sm: 3 }}>
              <NativeSelect
                label="Sort by"
                data={SORT_DATA}
                value={search.sort ?? DEFAULT_SORT}
                onChange={(e) => update({ sort: e.currentTarget.value as DiscoverSearch['sort'] })}
              />
            </Grid.Col>
          </Grid>
        </Stack>

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

/** The line above the results: what is shown, where. */
function summary(
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
