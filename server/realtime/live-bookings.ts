/**
 * The bookings.onChange stream (docs/decisions/0039): each subscriber hears what changed in its
 * own bookings and slots, in its own terms, and nothing once its session has ended
 * (docs/decisions/0032).
 */
import { tracked, type TrackedEnvelope } from '@trpc/server';
import type { BookingChange, BookingEvent, BookingEventHub, Resync, SlotChange } from './booking-events';
import { endWithSession, type SessionRevocations } from './session-revocations';

/**
 * What a subscriber receives. 'resync': refetch everything the stream covers (sent first, and
 * after the server's LISTEN was lost). A business hears of its bookings (with the slot) and of its
 * slots; a customer hears only what became of its own bookings.
 */
export type LiveEvent =
  | Resync
  | { kind: 'booking'; change: BookingChange; bookingId: string; slotId?: string | null }
  | { kind: 'slot'; change: SlotChange; slotId: string };

export interface LiveViewer {
  id: string;
  role: 'business' | 'customer';
}

/**
 * What `viewer` may see of `event`, or null when it is not theirs: the business of the booking or
 * slot gets the ids it owns; the customer of a booking gets its booking id and what happened;
 * nobody gets a business profile change. The ids that route the event (businessId, customerId)
 * never leave the server.
 */
export function liveEventFor(viewer: LiveViewer, event: BookingEvent): LiveEvent | null {
  // Profile changes are for the public page cache; no stream shows them.
  if (event.kind === 'business') return null;
  if (viewer.role === 'business') {
    if (event.businessId !== viewer.id) return null;
    return event.kind === 'slot'
      ? { kind: 'slot', change: event.change, slotId: event.slotId }
      : { kind: 'booking', change: event.change, bookingId: event.bookingId, slotId: event.slotId };
  }
  if (event.kind !== 'booking' || event.customerId !== viewer.id) return null;
  return { kind: 'booking', change: event.change, bookingId: event.bookingId };
}

/**
 * The live stream of `user`'s changes: a tracked 'resync' first (the hub's listener is attached
 * before it, so nothing is missed between), then one tracked `LiveEvent` per change the user may
 * see (`liveEventFor`) and a 'resync' whenever the server's LISTEN came back. Event ids are
 * `{ms since epoch}-{n}`; a client's lastEventId is not replayed (the first 'resync' covers it).
 * Ends when `signal` aborts or the session `session` ends: revoked on any instance, expired, or
 * gone when `readExpiry` (its current expiry, null once deleted) is read. Nothing is delivered
 * after that, not even events already queued.
 */
export async function* liveBookingEvents(
  params: {
    user: LiveViewer;
    session: { id: string; expiresAt: Date };
    hub: Pick<BookingEventHub, 'subscribe'>;
    revocations: Pick<SessionRevocations, 'watch'>;
    now: () => Date;
    readExpiry: () => Promise<Date | null>;
  },
  signal: AbortSignal | undefined,
): AsyncGenerator<TrackedEnvelope<LiveEvent>> {
  const { user } = params;
  const controller = new AbortController();
  const abort = () => controller.abort();
  signal?.addEventListener('abort', abort, { once: true });
  // Watch the session before anything is read or sent.
  const unwatch = endWithSession({
    revocations: params.revocations,
    sessionId: params.session.id,
    expiresAt: params.session.expiresAt,
    now: params.now,
    readExpiry: params.readExpiry,
    controller,
  });
  const events = params.hub.subscribe((e) => liveEventFor(user, e), controller.signal);
  let seq = 0;
  const id = () => `${Date.now()}-${seq++}`;
  try {
    yield tracked<LiveEvent>(id(), { kind: 'resync' });
    for await (const e of events) {
      // Events already queued when the session ended are dropped, not delivered.
      if (controller.signal.aborted) break;
      yield tracked(id(), e);
    }
  } finally {
    unwatch();
    signal?.removeEventListener('abort', abort);
    controller.abort();
  }
}
