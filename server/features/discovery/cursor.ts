/** The Discover search's opaque page cursor. No database code: the bench's baseline server uses it too. */
import type { DiscoverySort } from '../../../shared/discovery';

/** Where a page ended. `distance`: miles, unrounded, as the database computed it. */
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

/** The cursor of `text`, or null when it is not one of a `sort` search. */
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
