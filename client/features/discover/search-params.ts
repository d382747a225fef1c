/**
 * The Discover page's address: its search parameters (when, where, how far, what, in which order)
 * read leniently into a search, and that search turned into discovery.search's input. Kept apart
 * from the screen because the route's `validateSearch` and `loader` run in the first-load bundle
 * and on the server.
 */
import { z } from 'zod';
import { categoryLabels, DISCOVERY_MILES, DISCOVERY_SORTS, DISCOVERY_WINDOWS } from '../../../shared/discovery';
import { isLatitude, isLongitude, roundDegrees } from '../../../shared/geo';
import type { DiscoverySearchForm } from '../../../shared/schemas/discovery';

/** The window, distance and sort a search starts with. */
export const DEFAULT_WINDOW = 'today' as const;
export const DEFAULT_MILES = 5 as const;
export const DEFAULT_SORT = 'soonest' as const;

/** A place typed as it is kept in the address: trimmed, at most 100 characters, else left out. */
const placeParam = z
  .string()
  .trim()
  .max(100)
  .transform((s) => s || undefined);

/** A position's coordinate in the address: a number in range, rounded to 3 decimal places (about 100 m). */
const coordinate = (inRange: (v: number) => boolean) =>
  z.coerce
    .number()
    .refine(inRange)
    .transform((v) => roundDegrees(v));

/**
 * /discover's search parameters, each read on its own: a missing, malformed or default one is left
 * out (so an old or hand-edited link still opens the page, and a plain link to /discover needs no
 * parameters). `lat`/`lng`: a position in degrees, rounded to 3 decimal places. The defaults
 * (window 'today', 5 miles, soonest first) are applied by `searchInputFor`.
 */
export const discoverSearchSchema = z.object({
  window: z.enum(DISCOVERY_WINDOWS).optional().catch(undefined),
  place: placeParam.optional().catch(undefined),
  lat: coordinate(isLatitude).optional().catch(undefined),
  lng: coordinate(isLongitude).optional().catch(undefined),
  miles: z.coerce
    .number()
    .refine((m) => (DISCOVERY_MILES as readonly number[]).includes(m))
    .optional()
    .catch(undefined),
  category: z
    .string()
    .refine((c) => categoryLabels(c) !== null)
    .optional()
    .catch(undefined),
  sort: z.enum(DISCOVERY_SORTS).optional().catch(undefined),
});
export type DiscoverSearch = z.infer<typeof discoverSearchSchema>;

/** `validateSearch` of /discover: the address's parameters as a `DiscoverSearch` (never throws). */
export function discoverSearch(search: Record<string, unknown>): DiscoverSearch {
  const parsed = discoverSearchSchema.parse(search);
  // Only the parameters given; undefined ones would show in the address as empty.
  return Object.fromEntries(Object.entries(parsed).filter(([, v]) => v !== undefined)) as DiscoverSearch;
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

/** A distance in miles as a result shows it: one decimal place ('0.8 miles', '1 mile', '12.4 miles'); under 0.1: 'Under 0.1 miles'. */
export function formatMiles(miles: number): string {
  const rounded = Math.round(miles * 10) / 10;
  if (rounded < 0.1) return 'Under 0.1 miles';
  return rounded === 1 ? '1 mile' : `${rounded} miles`;
}
