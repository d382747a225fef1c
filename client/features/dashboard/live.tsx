/**
 * Live dashboards (BRIEF §6): the bookings.onChange subscription invalidates the booking and slot
 * lists, and an aria-live region announces what changed.
 */
import { useCallback, useState } from 'react';
import { trpc } from '../../lib/trpc';

export function useBookingLiveUpdates() {
  const utils = trpc.useUtils();
  trpc.bookings.onChange.useSubscription(undefined, {
    onData: () => {
      void utils.bookings.requests.invalidate();
      void utils.bookings.mine.invalidate();
      void utils.slots.listMine.invalidate();
    },
  });
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
