import '@mantine/core/styles/InlineInput.css';
import '@mantine/core/styles/Switch.css';
import { Alert, Badge, Button, Group, Loader, Stack, Switch, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState, type ReactNode } from 'react';
import type { LocationPrecision } from '../../../shared/discovery';
import type { LatLng } from '../../../shared/geo';
import { MSG } from '../../../shared/messages';
import { locateDevice } from '../../lib/device-position';
import { noticeFor, useTimedMutation } from '../../lib/requests';
import { trpc, trpcClient, type RouterOutputs } from '../../lib/trpc';
import { lazyMap } from '../map/lazy-map';
import { AnchoredCard, CardHeading } from './card-heading';
import { locationSummary } from './location-words';

type BusinessLocation = RouterOutputs['settings']['location'];

/** The small map: its own chunk (Leaflet), loaded in the browser when the card first shows it. */
const LocationMap = lazyMap(() => import('./location-map').then((m) => m.LocationMap));

/** How often the card asks again while the address is being looked up (ms). */
const LOOKUP_POLL_MS = 2_000;
/** Where the map opens for a business with no location yet: the middle of Great Britain, zoomed out. */
const UNPLACED_VIEW = { centre: { latitude: 54.0, longitude: -2.5 }, zoom: 5 };
/** A button's width: the whole card on a phone, its own elsewhere. */
const FULL_ON_PHONE = { base: '100%', sm: 'auto' };
/** The map's zoom for each precision: the closer the location, the closer the view. */
const ZOOM_FOR: Record<LocationPrecision, number> = { exact: 17, postcode: 16, district: 13, town: 12 };

/**
 * The business's Location card (docs/decisions/0085): whether it shows in Discover and why not,
 * where its location came from and how precise it is, the "Show my slots in Discover" switch, and
 * the three ways to set the location: from the saved address (looked up in the background; the
 * card asks again every 2 s while it waits), 'Use my current location' (the Geolocation API, asked
 * only when pressed; kept exact), and the small map's pin (dragged, or moved with the arrow keys),
 * saved when dropped. Used in Settings and in the onboarding step; `title` and `intro` let the
 * step word it as a question, `footer` adds its own buttons. Anchor: /settings#location.
 */
export function LocationCard({
  title = 'Location',
  intro = 'Where customers find your business in Discover.',
  footer,
}: {
  title?: string;
  intro?: ReactNode;
  footer?: ReactNode;
}) {
  const utils = trpc.useUtils();
  const location = trpc.settings.location.useQuery(undefined, {
    refetchInterval: (query) => (query.state.data?.lookup === 'pending' ? LOOKUP_POLL_MS : false),
  });
  const setLocation = useTimedMutation(trpcClient.settings.setLocation);
  const setDiscoverable = useTimedMutation(trpcClient.settings.setDiscoverable);
  const locateFromAddress = useTimedMutation(trpcClient.settings.locateFromAddress);
  const [deviceError, setDeviceError] = useState<string | null>(null);
  const [locating, setLocating] = useState(false);
  const [placing, setPlacing] = useState(false);

  /**
   * Runs one change; shows the saved card and toasts `done` (or what `done` says of the saved
   * card), or the failure in words. Returns whether it saved.
   */
  async function save(
    change: () => Promise<BusinessLocation>,
    done: string | ((saved: BusinessLocation) => string),
  ): Promise<boolean> {
    let saved: BusinessLocation;
    try {
      saved = await change();
      utils.settings.location.setData(undefined, saved);
      setDeviceError(null);
    } catch (err) {
      const notice = noticeFor(err, { failed: MSG.locationSaveFailed });
      notifications.show({ color: 'red', title: notice.title ?? 'Location', message: notice.message });
      return false;
    }
    notifications.show({
      color: 'green',
      title: 'Location',
      message: typeof done === 'string' ? done : done(saved),
    });
    return true;
  }

  async function placeAtDevice() {
    setDeviceError(null);
    setLocating(true);
    try {
      const { lat, lng } = await locateDevice(
        { denied: MSG.businessLocationDenied, unavailable: MSG.businessLocationUnavailable },
        'precise',
      );
      await save(
        () => setLocation.mutateAsync({ latitude: lat, longitude: lng, source: 'device' }),
        'Your business is placed at your current location.',
      );
    } catch (err) {
      setDeviceError(err instanceof Error ? err.message : MSG.businessLocationUnavailable);
    } finally {
      setLocating(false);
    }
  }

  function placeAtPin(at: LatLng): Promise<boolean> {
    setDeviceError(null);
    return save(
      () => setLocation.mutateAsync({ ...at, source: 'pin' }),
      (saved) => (saved.listed ? 'Pin saved. Discover shows your business there.' : 'Pin saved.'),
    );
  }

  const card = location.data;
  const place = card ? savedPlace(card) : null;
  const view = place ?? UNPLACED_VIEW;

  return (
    <AnchoredCard id="location" headingId="location-heading">
      <Stack gap="md">
        <Stack gap={2}>
          <Group justify="space-between" align="center" wrap="nowrap" gap="sm">
            <CardHeading id="location-heading" title={title} />
            {card && (
              <Badge color={card.listed ? 'green' : 'gray'} variant="light" style={{ flexShrink: 0 }}>
                {card.listed ? 'In Discover' : 'Not in Discover'}
              </Badge>
            )}
          </Group>
          <Text size="sm" c="dimmed">
            {intro}
          </Text>
        </Stack>

        {location.isPending ? (
          <Loader size="sm" aria-label="Loading your location" />
        ) : !card ? (
          <Group gap="sm">
            <Text size="sm" c="red">
              {MSG.generic}
            </Text>
            <Button size="xs" variant="light" onClick={() => void location.refetch()}>
              Retry
            </Button>
          </Group>
        ) : (
          <>
            <LocationStatus card={card} />

            <Switch
              checked={card.discoverable}
              label="Show my slots in Discover"
              description="Customers nearby see your open slots, and your pin on the map, in Discover."
              disabled={setDiscoverable.isPending}
              onChange={(e) => {
                const discoverable = e.currentTarget.checked;
                void save(
                  () => setDiscoverable.mutateAsync({ discoverable }),
                  discoverable ? 'Your slots show in Discover.' : 'Your slots are hidden from Discover.',
                );
              }}
            />

            <Group gap="sm" align="flex-start">
              <Button variant="light" loading={locating} onClick={() => void placeAtDevice()} w={FULL_ON_PHONE}>
                Use my current location
              </Button>
              <Stack gap={4} w={FULL_ON_PHONE}>
                <Button
                  variant="default"
                  disabled={!card.address || card.lookup === 'pending'}
                  loading={locateFromAddress.isPending}
                  onClick={() => void save(() => locateFromAddress.mutateAsync(undefined), 'Looking up your address.')}
                  aria-describedby={card.address ? undefined : 'locate-needs-address'}
                >
                  Locate from my address
                </Button>
                {!card.address && (
                  <Text id="locate-needs-address" size="xs" c="dimmed" maw={260}>
                    {MSG.locateNeedsAddress}
                  </Text>
                )}
              </Stack>
              {!place && !placing && (
                <Button variant="default" onClick={() => setPlacing(true)} w={FULL_ON_PHONE}>
                  Place the pin on the map
                </Button>
              )}
            </Group>
            {deviceError && (
              <Alert color="red" variant="light" role="alert">
                {deviceError}
              </Alert>
            )}

            {(place || placing) && (
              <Stack gap={6}>
                <LocationMap
                  h={{ base: 220, sm: 280 }}
                  centre={view.centre}
                  zoom={view.zoom}
                  pin={place?.centre ?? null}
                  onMove={placeAtPin}
                  hintId="location-pin-hint"
                />
                <Text id="location-pin-hint" size="xs" c="dimmed">
                  {place
                    ? 'Drag the pin to your door, or select it and use the arrow keys (Shift for bigger steps). It is saved when you let go.'
                    : 'Drag the pin to your business, or select it and use the arrow keys (Shift for bigger steps). Zoom in for a closer look.'}
                </Text>
              </Stack>
            )}

            <Text size="sm" c="dimmed">
              Your pin is public: while your slots show in Discover, anyone can see it on the map and how far you are
              from them.
            </Text>
          </>
        )}
        {footer}
      </Stack>
    </AnchoredCard>
  );
}

/** The business's saved location with the map's view of it, or null when it has none. */
function savedPlace({ latitude, longitude, precision, source }: BusinessLocation) {
  if (latitude === null || longitude === null || !precision || !source) return null;
  return { centre: { latitude, longitude }, zoom: ZOOM_FOR[precision], precision, source };
}

/** What the card knows: not in Discover and how to fix it, the look-up under way or failed, or where the business is. */
function LocationStatus({ card }: { card: BusinessLocation }) {
  const place = savedPlace(card);
  const lookingUp = card.lookup === 'pending' && (
    <Alert color="blue" variant="light" title="Looking up your address" icon={<Loader size={16} />}>
      {place
        ? `We're placing your business from your new address, “${card.address}”. Until then Discover shows it where it was.`
        : `We're placing your business from “${card.address}”. This takes a few seconds.`}
    </Alert>
  );
  if (!place) {
    if (lookingUp) return lookingUp;
    return (
      <Alert
        color={card.lookup === 'failed' ? 'red' : 'yellow'}
        variant="light"
        title="Your business is not in Discover"
      >
        {card.lookup === 'failed'
          ? MSG.addressNotFound
          : "Customers can't find your slots in Discover until your business has a location. Locate it from your address, use your current location if you're there now, or place the pin on the map."}
      </Alert>
    );
  }
  return (
    <Stack gap="xs">
      <Text size="sm" fw={600} data-testid="location-summary">
        {locationSummary(place.source, place.precision)}.
      </Text>
      {place.precision !== 'exact' && (
        <Text size="sm" c="dimmed">
          That&apos;s approximate: move the pin to your door, or use your current location while you&apos;re there.
        </Text>
      )}
      {lookingUp}
      {card.lookup === 'failed' && (
        <Alert color="red" variant="light">
          {MSG.addressNotFound} Discover still shows your business at the pin below.
        </Alert>
      )}
      {!card.discoverable && (
        <Alert color="gray" variant="light" title="Your slots are hidden from Discover">
          Turn on “Show my slots in Discover” to list them again.
        </Alert>
      )}
    </Stack>
  );
}
