/**
 * The Discover page's address: its search parameters (when, where, how far, what, in which order)
 * read leniently into a search, and that search turned into discovery.search's input. Kept apart
 * from the screen because the route's `validateSearch` and `loader` run in the first-load bundle
 * and on the server.
 */
import { categoryLabels, DISCOVERY_MILES, DISCOVERY_SORTS, DISCOVERY_WINDOWS } from '../../../shared/discovery';
import { isLatitude, isLongitude, roundDegrees } from '../../../shared/geo';
import type { DiscoverySearchForm } from '../../../shared/schemas/discovery';

/** The window, distance and sort a search starts with. */
export const DEFAULT_WINDOW = 'today' as const;
export const DEFAULT_MILES = 5 as const;
export const DEFAULT_SORT = 'soonest' as const;

/** One of `choices` (compared as given, or as a number for numeric choices), else undefined. */
export function oneOf<T extends string | number>(choices: readonly T[], value: unknown): T | undefined {
  const v = typeof choices[0] === 'number' && typeof value === 'string' ? Number(value) : value;
  return choices.includes(v as T) ? (v as T) : undefined;
}

/** A place typed as it is kept in the address: trimmed, at most 100 characters, else undefined. */
function placeParam(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const place = value.trim();
  return place && place.length <= 100 ? place : undefined;
}

/** A position's coordinate in the address: a number in range, rounded to 3 decimal places (about 100 m). */
function coordinate(value: unknown, inRange: (v: number) => boolean): number | undefined {
  const v = typeof value === 'number' ? value : typeof value === 'string' && value.trim() ? Number(value) : NaN;
  return Number.isFinite(v) && inRange(v) ? roundDegrees(v) : undefined;
}

/** The Discover page's search as its address holds it (each part optional; defaults are not written). */
export interface DiscoverSearch {
  window?: (typeof DISCOVERY_WINDOWS)[number];
  place?: string;
  lat?: number;
  lng?: number;
  miles?: (typeof DISCOVERY_MILES)[number];
  category?: string;
  sort?: (typeof DISCOVERY_SORTS)[number];
  /** 1: the map is open beside (on a phone: above) the list. Not part of the search. */
  map?: 1;
}

/** The values `map` may have in the address. */
const MAP_OPEN = [1] as const;

/**
 * `validateSearch` of /discover: the address's parameters, each read on its own; a missing,
 * malformed or unknown one is left out (an old or hand-edited link still opens the page). `lat`/`lng`:
 * a position in degrees, rounded to 3 decimal places; `map`: 1 when the map is open. Never throws.
 * The defaults (window 'today', 5 miles, soonest first) are applied by `searchInputFor`.
 */
export function discoverSearch(search: Record<string, unknown>): DiscoverSearch {
  const parsed: DiscoverSearch = {
    window: oneOf(DISCOVERY_WINDOWS, search.window),
    place: placeParam(search.place),
    lat: coordinate(search.lat, isLatitude),
    lng: coordinate(search.lng, isLongitude),
    miles: oneOf(DISCOVERY_MILES, search.miles),
    category: typeof search.category === 'string' && categoryLabels(search.category) ? search.category : undefined,
    sort: oneOf(DISCOVERY_SORTS, search.sort),
    map: oneOf(MAP_OPEN, search.map),
  };
  // Only the parameters given; undefined ones would show in the address as empty.
  return Object.fromEntries(Object.entries(parsed).filter(([, v]) => v !== undefined)) as DiscoverSearch;
}

/**
 * The address /discover should show instead of `search` (its parsed parameters), or null when it
 * already shows its page's search: a parameter the page cannot show (malformed, out of range,
 * unknown) is left out, so the page shows its default, and one kept otherwise than given (a place
 * with spaces around it, a position with more decimals) is written as the page keeps it. The
 * route redirects to it, on the server and in the browser, so the address never holds a value
 * beside the one the page shows (docs/product-rules.md). Idempotent: the answer's own answer is null.
 */
export function canonicalDiscoverSearch(search: Record<string, unknown>): DiscoverSearch | null {
  const shown = discoverSearch(search);
  const kept = shown as Record<string, unknown>;
  const given = Object.keys(search);
  const same = given.length === Object.keys(shown).length && given.every((key) => kept[key] === search[key]);
  return same ? null : shown;
}

/**
 * discovery.search's input (first page, no cursor) for `search` in IANA zone `timezone`, with the
 * defaults filled in: the typed place when there is one, else the position when both coordinates
 * are there; null when the address says neither (nothing to search yet).
 */
export function searchInputFor(search: DiscoverSearch, timezone: string): DiscoverySearchForm | null {
  const where = search.place
    ? { place: search.place }
    : search.lat !== undefined && search.lng !== undefined
      ? { latitude: search.lat, longitude: search.lng }
      : null;
  if (!where) return null;
  return {
    window: search.window ?? DEFAULT_WINDOW,
    miles: search.miles ?? DEFAULT_MILES,
    sort: search.sort ?? DEFAULT_SORT,
    timezone,
    ...where,
    ...(search.category ? { category: search.category } : {}),
  };
}

/** A device position rounded to 3 decimal places of a degree (about 100 m), as it is put in the address and sent. */
export function roundedPosition(latitude: number, longitude: number): { lat: number; lng: number } {
  return { lat: roundDegrees(latitude), lng: roundDegrees(longitude) };
}

/** A distance in miles as a result shows it (shared with the alert emails). */
export { formatMiles } from '../../../shared/discovery';
