/** Input schemas of the booking procedures. */
import { z } from 'zod';
import { safeText } from './text';

export const requestBookingInput = z.object({
  slotId: z.uuid(),
  notes: safeText({ multiline: true }).trim().max(500, 'Notes must be 500 characters or less').optional(),
});
export type RequestBookingInput = z.infer<typeof requestBookingInput>;

export const bookingIdInput = z.object({ bookingId: z.uuid() });
export type BookingIdInput = z.infer<typeof bookingIdInput>;

export const bySlugInput = z.object({ slug: safeText().trim().min(1).max(100) });
