/**
 * The discovery.onChange stream (docs/decisions/0081). No event is sent when a slot's start passes:
 * it leaves on the client's own clock.
 */
import { tracked, type TrackedEnvelope } from '@trpc/server';
import { inBox, type BoundingBox } from '../../shared/geo';
import type { BookingEvent, BookingEventHub, Resync } from './booking-events';

/**
 * What a Discover subscriber receives. 'resync': search again. 'reopened': a request was withdrawn or
 * rejected. 'unlisted': hidden, moved out of the subscriber's area, or gone.
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

/** Whether a change at this position concerns a subscriber of `area`: unknown position yes, null (unlisted) no. */
function near(area: BoundingBox | null, latitude: number | null | undefined, longitude: number | null | undefined) {
  if (latitude === undefined || longitude === undefined || !area) return true;
  return latitude !== null && longitude !== null && inBox(area, { latitude, longitude });
}

/**
 * What a Discover subscriber of `area` (null: everywhere) hears of `event`, or null. Only slot and
 * business ids leave the server, never a booking or customer id.
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
  if (event.change === 'subscription') return null;
  if (event.change === 'updated') return { kind: 'business', change: 'updated', businessId: event.businessId };
  const shown = event.change === 'located' && event.latitude != null && near(area, event.latitude, event.longitude);
  return { kind: 'business', change: shown ? 'listed' : 'unlisted', businessId: event.businessId };
}

/**
 * The Discover stream of `area`: a 'resync' first, the hub already listening so nothing is missed, then
 * the `discoveryEventFor` events. lastEventId is not replayed: the first 'resync' covers it.
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
