/**
 * The Discover page's search form: where (a typed town or postcode, or the device's position),
 * the time chips, and the distance, category and sort list boxes. Each choice changes the address
 * (`onChange`), which is the search.
 */
import { Alert, Button, Chip, Grid, Group, NativeSelect, Stack, TextInput } from '@mantine/core';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { CATEGORY_GROUPS } from '../../../shared/categories';
import { DISCOVERY_MILES, type DiscoveryWindow } from '../../../shared/discovery';
import { errorInfo } from '../../lib/trpc';
import { devicePosition } from './device';
import { DEFAULT_MILES, DEFAULT_SORT, DEFAULT_WINDOW, oneOf, type DiscoverSearch } from './search-params';

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

/**
 * The search form of `search`; `onChange` gets the parameters a choice changes. `placeError`: a
 * refusal of the place, shown under its field.
 */
export function DiscoverFilters({
  search,
  onChange,
  placeError,
}: {
  search: DiscoverSearch;
  onChange: (changes: Partial<DiscoverSearch>) => void;
  placeError?: string;
}) {
  // The typed place is kept in the field until submitted.
  const [placeText, setPlaceText] = useState(search.place ?? '');
  const placeRef = useRef<HTMLInputElement>(null);
  useEffect(() => setPlaceText(search.place ?? ''), [search.place]);

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
    onChange({ place, lat: undefined, lng: undefined });
  };
  const locateDevice = async () => {
    setLocating(true);
    setLocationError(null);
    try {
      const { lat, lng } = await devicePosition();
      onChange({ place: undefined, lat, lng });
    } catch (err) {
      setLocationError(errorInfo(err).message);
      placeRef.current?.focus();
    } finally {
      setLocating(false);
    }
  };

  return (
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
          onChange={(v) => onChange({ window: v as DiscoveryWindow })}
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
            onChange={(e) => onChange({ miles: oneOf(DISCOVERY_MILES, e.currentTarget.value) })}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 6 }} order={{ base: 3, sm: 2 }}>
          <NativeSelect
            label="Category"
            data={CATEGORY_DATA}
            value={search.category ?? ALL_CATEGORIES_VALUE}
            onChange={(e) => onChange({ category: e.currentTarget.value || undefined })}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 6, sm: 3 }} order={{ base: 2, sm: 3 }}>
          <NativeSelect
            label="Sort by"
            data={SORT_DATA}
            value={search.sort ?? DEFAULT_SORT}
            onChange={(e) => onChange({ sort: e.currentTarget.value as DiscoverSearch['sort'] })}
          />
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
