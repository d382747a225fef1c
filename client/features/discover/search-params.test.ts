import { describe, expect, it } from 'vitest';
import { canonicalDiscoverSearch, discoverSearch, formatMiles, roundedPosition, searchInputFor } from './search-params';

describe('discoverSearch (the address of /discover)', () => {
  it('keeps the parameters given, as the search typed them', () => {
    expect(
      discoverSearch({ window: '2h', place: ' Manchester ', miles: '10', category: 'Hair Services', sort: 'nearest' }),
    ).toEqual({ window: '2h', place: 'Manchester', miles: 10, category: 'Hair Services', sort: 'nearest' });
  });

  it('leaves out a malformed parameter and keeps the others', () => {
    expect(
      discoverSearch({ window: '3h', miles: 7, category: 'Plumber', sort: 'random', lat: 'north', place: 'Leeds' }),
    ).toEqual({ place: 'Leeds' });
    expect(discoverSearch({ lat: 91, lng: -2.2 })).toEqual({ lng: -2.2 });
    expect(discoverSearch({ place: '   ' })).toEqual({});
    expect(discoverSearch({ place: 'x'.repeat(101) })).toEqual({});
  });

  it('accepts a child category and rounds a position to 3 decimal places', () => {
    expect(discoverSearch({ category: 'Barber Shop', lat: '53.48094', lng: -2.24271 })).toEqual({
      category: 'Barber Shop',
      lat: 53.481,
      lng: -2.243,
    });
  });

  it('keeps the open map (map=1) apart from the search, and drops any other value', () => {
    expect(discoverSearch({ place: 'Leeds', map: 1 })).toEqual({ place: 'Leeds', map: 1 });
    expect(discoverSearch({ place: 'Leeds', map: '1' })).toEqual({ place: 'Leeds', map: 1 });
    for (const map of [0, 2, 'yes', true, ''])
      expect(discoverSearch({ place: 'Leeds', map })).toEqual({ place: 'Leeds' });
    expect(searchInputFor({ place: 'Leeds', map: 1 }, 'Europe/London')).not.toHaveProperty('map');
  });

  it('gives an empty search for an address without parameters', () => {
    expect(discoverSearch({})).toEqual({});
  });
});

describe('canonicalDiscoverSearch (the address /discover is sent to)', () => {
  // As the router parses an address: numbers as numbers, other values as strings.
  const shared = { lat: 51.507, lng: -0.128, miles: 10 };

  it('is null for an address that already shows its search', () => {
    expect(canonicalDiscoverSearch({})).toBeNull();
    expect(canonicalDiscoverSearch(shared)).toBeNull();
    expect(
      canonicalDiscoverSearch({ window: '2h', place: 'Manchester', category: 'Barber Shop', sort: 'nearest', map: 1 }),
    ).toBeNull();
  });

  it('takes out a distance, sort or category the page cannot show, keeping the rest', () => {
    expect(canonicalDiscoverSearch({ ...shared, miles: 999999 })).toEqual({ lat: 51.507, lng: -0.128 });
    expect(canonicalDiscoverSearch({ ...shared, sort: 'sideways' })).toEqual(shared);
    expect(canonicalDiscoverSearch({ ...shared, category: 'Plumber' })).toEqual(shared);
    expect(canonicalDiscoverSearch({ ...shared, window: '3h', map: 2 })).toEqual(shared);
    expect(canonicalDiscoverSearch({ ...shared, miles: '10' })).toEqual(shared);
  });

  it('takes out a parameter the page does not know', () => {
    expect(canonicalDiscoverSearch({ ...shared, page: 2 })).toEqual(shared);
  });

  it('writes a value as the page keeps it: a place trimmed, a position rounded', () => {
    expect(canonicalDiscoverSearch({ place: ' Leeds ' })).toEqual({ place: 'Leeds' });
    expect(canonicalDiscoverSearch({ lat: 53.48094, lng: -2.24271 })).toEqual({ lat: 53.481, lng: -2.243 });
  });

  it('is null for its own answer (a redirect to it is not redirected again)', () => {
    for (const search of [
      { ...shared, miles: 999999, sort: 'sideways' },
      { place: ' Leeds ', lat: 'x' },
    ]) {
      const canonical = canonicalDiscoverSearch(search);
      expect(canonical).not.toBeNull();
      expect(canonicalDiscoverSearch(canonical as Record<string, unknown>)).toBeNull();
    }
  });
});

describe('searchInputFor', () => {
  it('is null until the search says where', () => {
    expect(searchInputFor({ window: '1h' }, 'Europe/London')).toBeNull();
    expect(searchInputFor({ lat: 53.5 }, 'Europe/London')).toBeNull();
  });

  it('fills in the defaults: today, 5 miles, soonest first', () => {
    expect(searchInputFor({ place: 'Manchester' }, 'Europe/London')).toEqual({
      window: 'today',
      miles: 5,
      sort: 'soonest',
      timezone: 'Europe/London',
      place: 'Manchester',
    });
  });

  it('searches a typed place before a position, and a position when no place is typed', () => {
    expect(searchInputFor({ place: 'Leeds', lat: 53.48, lng: -2.24 }, 'UTC')).toMatchObject({ place: 'Leeds' });
    const byPosition = searchInputFor({ lat: 53.48, lng: -2.24, category: 'Nails', miles: 2 }, 'UTC');
    expect(byPosition).toEqual({
      window: 'today',
      miles: 2,
      sort: 'soonest',
      timezone: 'UTC',
      latitude: 53.48,
      longitude: -2.24,
      category: 'Nails',
    });
  });
});

describe('roundedPosition', () => {
  it('rounds both coordinates to 3 decimal places (about 100 m)', () => {
    expect(roundedPosition(53.480949, -2.242631)).toEqual({ lat: 53.481, lng: -2.243 });
    expect(roundedPosition(-33.8688499, 151.2092999)).toEqual({ lat: -33.869, lng: 151.209 });
  });
});

describe('formatMiles', () => {
  it('shows one decimal place, and "1 mile" for one', () => {
    expect(formatMiles(0.83)).toBe('0.8 miles');
    expect(formatMiles(1.02)).toBe('1 mile');
    expect(formatMiles(12.44)).toBe('12.4 miles');
    expect(formatMiles(2)).toBe('2 miles');
  });

  it('says "Under 0.1 miles" for a business next door', () => {
    expect(formatMiles(0.04)).toBe('Under 0.1 miles');
  });
});
