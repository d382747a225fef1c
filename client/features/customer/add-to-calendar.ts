import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { MSG } from '../../../shared/messages';
import { trpc } from '../../lib/trpc';

/**
 * 'Add to calendar' (docs/decisions/0052): fetches the confirmed booking's .ics through tRPC
 * (`bookings.calendarFile`) and saves it as a file, which the phone or computer opens in its calendar.
 */
export function useAddToCalendar() {
  const utils = trpc.useUtils();
  const [pending, setPending] = useState<string | null>(null);
  async function add(bookingId: string) {
    setPending(bookingId);
    try {
      const file = await utils.bookings.calendarFile.fetch({ bookingId }, { staleTime: 0 });
      const url = URL.createObjectURL(new Blob([file.content], { type: 'text/calendar;charset=utf-8' }));
      const a = document.createElement('a');
      a.href = url;
      a.download = file.filename;
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch {
      notifications.show({ color: 'red', title: 'Add to calendar', message: MSG.generic });
    } finally {
      setPending(null);
    }
  }
  return { add, pending };
}
