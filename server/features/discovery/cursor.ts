/** The Discover search's opaque page cursor. No database code: the bench's baseline server uses it too. */
import { DISCOVERY_MILES, type DiscoverySort } from '../../../shared/discovery';

/** Where a page ended. `distance`: miles, unrounded, as the database computed it. */
export interface DiscoveryCursor {
  sort: DiscoverySort;
  startsAt: Date;
  distance: number;
  id: string;
}

/** A slot id as PostgreSQL writes a uuid: lower-case hex. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const DAY_MS = 24 * 60 * 60 * 1000;
/**
 * How far from now a cursor's start may be (ms). A page ends on a slot that had not started when it was
 * searched and starts before the widest window ends (tomorrow, at most 2 days ahead); a week back still
 * reads a list left open for days.
 */
const CURSOR_PAST_MS = 7 * DAY_MS;
const CURSOR_FUTURE_MS = 3 * DAY_MS;
const MAX_MILES = Math.max(...DISCOVERY_MILES);

/** The opaque cursor text of `c`. */
export function encodeCursor(c: DiscoveryCursor): string {
  return Buffer.from(JSON.stringify([c.sort, c.startsAt.getTime(), c.distance, c.id])).toString('base64url');
}

/**
 * The cursor of `text`, or null unless it is exactly one `encodeCursor` could have written for a
 * `sort` search answered near `now`: the sort, a whole-millisecond start within a week before and 3
 * days after `now`, a distance of 0 to the widest search's miles, a lower-case uuid, in that encoding.
 */
export function decodeCursor(text: string, sort: DiscoverySort, now: Date): DiscoveryCursor | null {
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (!Array.isArray(parts) || parts.length !== 4) return null;
  const [s, t, d, id] = parts as unknown[];
  if (s !== sort || typeof id !== 'string' || !UUID.test(id)) return null;
  if (typeof t !== 'number' || !Number.isSafeInteger(t)) return null;
  if (t < now.getTime() - CURSOR_PAST_MS || t > now.getTime() + CURSOR_FUTURE_MS) return null;
  if (typeof d !== 'number' || !(d >= 0 && d <= MAX_MILES)) return null;
  const cursor = { sort, startsAt: new Date(t), distance: d, id };
  return encodeCursor(cursor) === text ? cursor : null;
}
