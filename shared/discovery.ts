/**
 * The Discover search's choices and pure rules (docs/decisions/0081): the time windows, distances,
 * sorts and categories a customer may pick, when a window starts and ends, and where a business's
 * location came from and how precise it is.
 */
import { CATEGORY_GROUPS } from './categories';
import { addDaysToDate, localNow, zonedInstant } from './zoned-time';

/** Time windows: starting within 1, 2 or 4 hours of now, later today, or tomorrow. */
export const DISCOVERY_WINDOWS = ['1h', '2h', '4h', 'today', 'tomorrow'] as const;
export type DiscoveryWindow = (typeof DISCOVERY_WINDOWS)[number];

/** Distances offered, in miles. */
export const DISCOVERY_MILES = [1, 2, 5, 10, 25] as const;
export type DiscoveryMiles = (typeof DISCOVERY_MILES)[number];

/** Sort orders: soonest start first (default), or nearest first. */
export const DISCOVERY_SORTS = ['soonest', 'nearest'] as const;
export type DiscoverySort = (typeof DISCOVERY_SORTS)[number];

/** Results per page: default and most. */
export const DISCOVERY_PAGE_DEFAULT = 20;
export const DISCOVERY_PAGE_MAX = 50;

/**
 * How precise a business's stored location is: 'exact' (a device position or a placed pin),
 * 'postcode' (a full postcode's centre), 'district' (a postcode district's centre), 'town' (a
 * town's centre, or a postcode area's post town).
 */
export const LOCATION_PRECISIONS = ['exact', 'postcode', 'district', 'town'] as const;
export type LocationPrecision = (typeof LOCATION_PRECISIONS)[number];

/** Where a business's location came from: its address (geocoded), its owner's device, or the map pin. */
export const LOCATION_SOURCES = ['address', 'device', 'pin'] as const;
export type LocationSource = (typeof LOCATION_SOURCES)[number];

const HOUR_MS = 3_600_000;
const WINDOW_HOURS: Partial<Record<DiscoveryWindow, number>> = { '1h': 1, '2h': 2, '4h': 4 };

/**
 * The instants a window covers, for a customer in IANA zone `timezone` at `now`: slots starting
 * at or after `from` and before `to` (UTC instants) that have not started at `now`. '1h', '2h' and
 * '4h' run from now for that long; 'today' and 'tomorrow' are the customer's own local days
 * (midnight to midnight in `timezone`, DST-safe: a day may be 23 or 25 hours long).
 */
export function windowRange(window: DiscoveryWindow, timezone: string, now: Date): { from: Date; to: Date } {
  const hours = WINDOW_HOURS[window];
  if (hours !== undefined) return { from: now, to: new Date(now.getTime() + hours * HOUR_MS) };
  const today = localNow(timezone, now).date;
  const first = window === 'today' ? today : addDaysToDate(today, 1);
  const from = window === 'today' ? now : zonedInstant(first, '00:00', timezone);
  return { from, to: zonedInstant(addDaysToDate(first, 1), '00:00', timezone) };
}

/** A window longer than this (ms) holds many times a short one's slots in each ring. */
const LONG_WINDOW_MS = 4 * 60 * 60 * 1000;

/**
 * The radii (miles) a 'nearest' search tries in turn, up to `miles`: each offered distance below
 * it that reaches past `after` (the previous page's last distance, 0 for the first page), then
 * `miles` itself. A ring holding more rows than the page needs holds the nearest ones (every row
 * outside it is farther), so a dense area is answered from a small ring. A search of every category
 * (`everyCategory`) over a window longer than LONG_WINDOW_MS (`windowMs`, its length) tries a
 * quarter and half a mile first: a city's mile holds a day's slots by the thousand, and a ring's
 * cost follows what it holds. One category's slots are too few for that.
 */
export function nearestRings(miles: number, after: number, windowMs: number, everyCategory: boolean): number[] {
  const radii = everyCategory && windowMs > LONG_WINDOW_MS ? [0.25, 0.5, ...DISCOVERY_MILES] : DISCOVERY_MILES;
  return [...radii.filter((m) => m < miles && m > after), miles];
}

/**
 * The business categories (stored labels) a Discover category choice covers: every child of a
 * parent group ('Hair Services'), or the one child named ('Barber Shop'); null for anything else.
 */
export function categoryLabels(category: string): readonly string[] | null {
  for (const group of CATEGORY_GROUPS) {
    if (group.group === category) return group.items;
    if (group.items.includes(category)) return [category];
  }
  return null;
}

/** A distance in miles as Discover and its alerts show it: one decimal place ('0.8 miles', '1 mile', '12.4 miles'); under 0.1: 'Under 0.1 miles'. */
export function formatMiles(miles: number): string {
  const rounded = Math.round(miles * 10) / 10;
  if (rounded < 0.1) return 'Under 0.1 miles';
  return rounded === 1 ? '1 mile' : `${rounded} miles`;
}
