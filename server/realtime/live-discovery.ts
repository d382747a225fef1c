/**
 * The discovery.onChange stream (docs/decisions/0081): what may change an open Discover list, as
 * small events naming the slot or business, heard on every instance through the booking events
 * hub (LISTEN/NOTIFY). The client removes what 'taken', 'deleted' and 'unlisted' name from its list
 * at once, and searches again (debounced) on the others. A slot whose start passes leaves on the
 * client's own clock (each result carries `startsAt`): no event is sent for it.
 */
import { tracked, type TrackedEnvelope } from '@trpc/server';
import { inBox, type BoundingBox } from '../../shared/geo';
import type { BookingEvent, BookingEventHub, Resync } from './booking-events';

/**
 * What a Discover subscriber receives. 'resync': search again (sent first, and after the server's
 * LISTEN was lost). A slot: 'published' (new), 'edited' (its time or text changed), 'reopened'
 * (a request was withdrawn or rejected: it may be open again), 'taken' (requested or booked: it
 * leaves), 'deleted' (it leaves). A business: 'listed' (now shown at a new place, or shown again),
 * 'unlisted' (hidden, moved away from the subscriber's area, or gone: its slots leave), 'updated'
 * (its name, category or time zone changed).
 */
export type DiscoveryEvent =
  | Resync
  | {
      kind: 'slot';
      change: 'published' | 'edited' | 'reopened' | 'taken' | 'deleted';
      slotId: string;
      businessId: string;
    }
  | { kind: 'business'; change: 'listed' | 'unlisted' | 'updated'; businessId: string };

/** Whether a change placed at (`latitude`, `longitude`) concerns a subscriber watching `area` (unknown: yes; null: not listed). */
function near(area: BoundingBox | null, latitude: number | null | undefined, longitude: number | null | undefined) {
  if (latitude === undefined || longitude === undefined || !area) return true;
  return latitude !== null && longitude !== null && inBox(area, { latitude, longitude });
}

/**
 * What a Discover subscriber watching `area` (the bounding box of its search, or null for
 * everywhere) hears of hub event `event`, or null: nothing of slots published or edited outside
 * the area or at a business not shown in Discover; a business moved outside the area is 'unlisted'
 * for it. Only slot and business ids leave the server (never a booking or customer id).
 */
export function discoveryEventFor(event: BookingEvent, area: BoundingBox | null): DiscoveryEvent | null {
  if (event.kind === 'booking') {
    if (!event.slotId || !event.businessId) return null;
    const leaves = event.change !== 'rejected' && event.change !== 'cancelled';
    return { kind: 'slot', change: leaves ? 'taken' : 'reopened', slotId: event.slotId, businessId: event.businessId };
  }
  if (event.kind === 'slot') {
    const { slotId, businessId } = event;
    if (event.change === 'deleted') return { kind: 'slot', change: 'deleted', slotId, businessId };
    if (!near(area, event.latitude, event.longitude)) return null;
    return { kind: 'slot', change: event.change === 'created' ? 'published' : 'edited', slotId, businessId };
  }
  if (event.change === 'updated') return { kind: 'business', change: 'updated', businessId: event.businessId };
  const shown = event.change === 'located' && event.latitude != null && near(area, event.latitude, event.longitude);
  return { kind: 'business', change: shown ? 'listed' : 'unlisted', businessId: event.businessId };
}

/**
 * The Discover stream for a subscriber watching `area`: a tracked 'resync' first (the hub's
 * listener is attached before it, so nothing is missed between the client's search and its
 * events), then one tracked `DiscoveryEvent` per change it may care about (`discoveryEventFor`),
 * and a 'resync' whenever the server's LISTEN came back. Ids are `{ms since epoch}-{n}`; a
 * client's lastEventId is not replayed (the first 'resync' covers it). Ends when `signal` aborts.
 */
export async function* liveDiscoveryEvents(
  params: { hub: Pick<BookingEventHub, 'subscribe'>; area: BoundingBox | null },
  signal: AbortSignal | undefined,
): AsyncGenerator<TrackedEnvelope<DiscoveryEvent>> {
  const controller = new AbortController();
  const abort = () => controller.abort();
  signal?.addEventListener('abort', abort, { once: true });
  const events = params.hub.subscribe((e) => discoveryEventFor(e, params.area), controller.signal);
  let seq = 0;
  const id = () => `${Date.now()}-${seq++}`;
  try {
    yield tracked<DiscoveryEvent>(id(), { kind: 'resync' });
    for await (const e of events) yield tracked(id(), e);
  } finally {
    signal?.removeEventListener('abort', abort);
    controller.abort();
  }
}
