/** The bookings.onChange stream (docs/decisions/0039); nothing once the session has ended (docs/decisions/0032). */
import { tracked, type TrackedEnvelope } from '@trpc/server';
import type { BookingChange, BookingEvent, BookingEventHub, Resync, SlotChange } from './booking-events';
import { endWithSession, type SessionRevocations } from './session-revocations';

/** What a subscriber receives; 'resync': refetch everything the stream covers. */
export type LiveEvent =
  | Resync
  | { kind: 'booking'; change: BookingChange; bookingId: string; slotId?: string | null }
  | { kind: 'slot'; change: SlotChange; slotId: string }
  /** The business's own subscription changed (docs/decisions/0100). */
  | { kind: 'subscription' };

export interface LiveViewer {
  id: string;
  role: 'business' | 'customer';
}

/**
 * What `viewer` may see of `event`, or null when it is not theirs. The routing ids (businessId,
 * customerId) never leave the server.
 */
export function liveEventFor(viewer: LiveViewer, event: BookingEvent): LiveEvent | null {
  if (event.kind === 'business') {
    const own = event.change === 'subscription' && viewer.role === 'business' && event.businessId === viewer.id;
    return own ? { kind: 'subscription' } : null;
  }
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
 * The live stream of `user`'s changes: a 'resync' first, the hub already listening, then the
 * `liveEventFor` events. Ends when `signal` aborts or the session ends; nothing queued is delivered after.
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
      if (controller.signal.aborted) break;
      yield tracked(id(), e);
    }
  } finally {
    unwatch();
    signal?.removeEventListener('abort', abort);
    controller.abort();
  }
}
