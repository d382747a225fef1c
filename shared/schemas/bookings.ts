/** Input schemas of the booking procedures. */
import { z } from 'zod';
import { NOTES_MAX } from './limits';
import { safeText } from './text';

/**
 * One user action's idempotency key (docs/decisions/0034): a fresh UUID when the action starts,
 * the same one on every retry of it. Optional for API clients; the app always sends one.
 */
export const idempotencyKey = z.uuid().optional();

export const requestBookingInput = z.object({
  slotId: z.uuid(),
  idempotencyKey,
  notes: safeText({ multiline: true })
    .trim()
    .max(NOTES_MAX, `Notes must be ${NOTES_MAX} characters or less`)
    .optional(),
});
export type RequestBookingInput = z.infer<typeof requestBookingInput>;

export const bookingIdInput = z.object({ bookingId: z.uuid() });
export type BookingIdInput = z.infer<typeof bookingIdInput>;

/** A business's answer to a request (confirm, decline, approve, reject). */
export const bookingDecisionInput = bookingIdInput.extend({ idempotencyKey });
export type BookingDecisionInput = z.infer<typeof bookingDecisionInput>;

export const bySlugInput = z.object({ slug: safeText().trim().min(1).max(100) });
