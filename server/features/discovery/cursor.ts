/**
 * The Discover search's page cursor (docs/decisions/0081): where the previous page ended (its last
 * row's start instant, distance and slot id) and the sort it followed, as opaque base64url text.
 * No database code here: the bench's baseline server encodes cursors with it too.
 */
import type { DiscoverySort } from '../../../shared/discovery';

/** Where a page ended, in the order of `sort`. `distance` in miles, as the database computed it (unrounded). */
export interface DiscoveryCursor {
  sort: DiscoverySort;
  startsAt: Date;
  distance: number;
  id: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The opaque cursor text of `c`. */
export function encodeCursor(c: DiscoveryCursor): string {
  return Buffer.from(JSON.stringify([c.sort, c.startsAt.getTime(), c.distance, c.id])).toString('base64url');
}

/** The cursor written as `text` for a `sort` search, or null when it is not one (or not of that sort). */
export function decodeCursor(text: string, sort: DiscoverySort): DiscoveryCursor | null {
  try {
    const [s, t, d, id] = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as unknown[];
    if (s === sort && Number.isFinite(t) && Number.isFinite(d) && typeof id === 'string' && UUID.test(id)) {
      return { sort, startsAt: new Date(t as number), distance: d as number, id };
    }
  } catch {
    // not a cursor
  }
  return null;
}
