/**
 * Live dashboards (docs/decisions/0039): bookings.onChange says what changed, so each dashboard
 * re-reads only the lists the change touches and toasts from the event itself; an aria-live
 * region announces it.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { LiveEvent } from '../../../server/realtime/live-bookings';
import { trpc } from '../../lib/trpc';

/** A booking change as the dashboard hears it. */
export type BookingLiveEvent = Extract<LiveEvent, { kind: 'booking' }>;

/**
 * Keeps the dashboard of `role` live: on each event, the business re-reads its slots (the stat
 * cards count them) and, unless only a slot changed, its requests; the customer re-reads its
 * bookings; a subscription change re-reads the subscription. A 'resync' re-reads them all. Each booking change is then passed to `onBookingChange`.
 */
export function useBookingLiveUpdates(
  role: 'business' | 'customer',
  onBookingChange?: (event: BookingLiveEvent) => void,
) {
  const utils = trpc.useUtils();
  trpc.bookings.onChange.useSubscription(undefined, {
    onData: ({ data }) => {
      if (data.kind === 'subscription') {
        // A Stripe webhook changed the business's subscription (docs/decisions/0100).
        void utils.billing.subscription.invalidate();
        void utils.settings.business.invalidate();
        return;
      }
      if (data.kind === 'resync' && role === 'business') void utils.billing.subscription.invalidate();
      if (role === 'customer') {
        void utils.bookings.mine.invalidate();
      } else {
        void utils.slots.listMine.invalidate();
        if (data.kind !== 'slot') void utils.bookings.requests.invalidate();
      }
      if (data.kind === 'booking') onBookingChange?.(data);
    },
  });
}

/**
 * Booking changes waiting for their row: `expect(event)` keeps the event until `rows` (a list the
 * live update re-reads) holds its booking with `ready(row)` true, then `show` gets every event that
 * became ready in that read, once, with its row (for the names in the toast).
 */
export function useShowWhenListed<R extends { id: string }>(
  rows: readonly R[] | undefined,
  ready: (row: R) => boolean,
  show: (arrived: { event: BookingLiveEvent; row: R }[]) => void,
): (event: BookingLiveEvent) => void {
  const waiting = useRef(new Map<string, BookingLiveEvent>());
  const [expected, setExpected] = useState(0);
  const latest = useRef({ ready, show });
  useEffect(() => {
    latest.current = { ready, show };
  });
  useEffect(() => {
    if (!rows || waiting.current.size === 0) return;
    const arrived: { event: BookingLiveEvent; row: R }[] = [];
    for (const row of rows) {
      const event = waiting.current.get(row.id);
      if (event && latest.current.ready(row)) {
        waiting.current.delete(row.id);
        arrived.push({ event, row });
      }
    }
    if (arrived.length > 0) latest.current.show(arrived);
  }, [rows, expected]);
  return useCallback((event: BookingLiveEvent) => {
    waiting.current.set(event.bookingId, event);
    setExpected((n) => n + 1);
  }, []);
}

/** A polite live region and a function to announce a message in it. */
export function useAnnouncer() {
  const [message, setMessage] = useState('');
  const announce = useCallback((text: string) => {
    // Clear first so the same text is announced again.
    setMessage('');
    setTimeout(() => setMessage(text), 50);
  }, []);
  const region = (
    <div aria-live="polite" aria-atomic="true" role="status" className="visually-hidden" data-testid="live-announcer">
      {message}
    </div>
  );
  return { announce, region };
}
