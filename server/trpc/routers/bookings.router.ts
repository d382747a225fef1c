/** Booking requests, the business's answers, the customer's own list, and live updates (ADR 0002, 0039). */
import { z } from 'zod';
import { bookingDecisionInput, bookingIdInput, requestBookingInput } from '../../../shared/schemas/bookings';
import { safeText } from '../../../shared/schemas/text';
import { sessionExpiry } from '../../features/auth/session';
import { customerCalendarFile } from '../../features/calendar/calendar.service';
import {
  cancelCustomerRequest,
  decideBooking,
  type Decision,
  listBusinessRequests,
  listCustomerBookings,
  requestBooking,
} from '../../features/bookings/bookings.service';
import { liveBookingEvents } from '../../realtime/live-bookings';
import { authedProcedure, businessProcedure, customerProcedure, requesterProcedure } from '../procedures';
import { router } from '../trpc';

/** { bookingId, idempotencyKey? } → { id, status }: the business answers a pending request (decideBooking). */
function answerProcedure<D extends Decision>(decision: D) {
  return businessProcedure
    .input(bookingDecisionInput)
    .mutation(({ ctx, input }) => decideBooking(ctx, ctx.user.id, input.bookingId, decision, input.idempotencyKey));
}

export const bookingsRouter = router({
  /** { slotId, notes?, idempotencyKey? } → { id } of the pending booking (requestBooking). */
  request: requesterProcedure
    .input(requestBookingInput)
    .mutation(({ ctx, input }) => requestBooking(ctx, ctx.user.id, input)),

  /** The 'Confirm Booking' dialog: → status 'confirmed', the slot booked. */
  confirm: answerProcedure('confirm'),

  /** The 'Decline' dialog: → status 'cancelled', declined by the business. */
  decline: answerProcedure('decline'),

  /** Approve on the slot card: → status 'completed', the slot booked. */
  approve: answerProcedure('approve'),

  /** Reject on the slot card: → status 'cancelled', the slot offered again. */
  reject: answerProcedure('reject'),

  /** { bookingId } → { id, status: 'cancelled' }: the customer withdraws its request (cancelCustomerRequest). */
  cancel: customerProcedure
    .input(bookingIdInput)
    .mutation(({ ctx, input }) => cancelCustomerRequest(ctx, ctx.user.id, input.bookingId)),

  /** → the business's pending requests, newest first (listBusinessRequests). */
  requests: businessProcedure.query(({ ctx }) => listBusinessRequests(ctx, ctx.user.id)),

  /** 'Add to calendar': { bookingId } → { filename, content } of a confirmed booking's .ics (customerCalendarFile). */
  calendarFile: customerProcedure
    .input(bookingIdInput)
    .query(({ ctx, input }) => customerCalendarFile(ctx, ctx.user.id, input.bookingId)),

  /** → the customer's bookings with their tab, newest slot first (listCustomerBookings). */
  mine: customerProcedure.query(({ ctx }) => listCustomerBookings(ctx, ctx.user.id)),

  /** Live `LiveEvent`s of the caller's bookings and slots, a 'resync' first (liveBookingEvents). */
  onChange: authedProcedure
    .input(z.object({ lastEventId: safeText().max(200).nullish() }).optional())
    .subscription(({ ctx, signal }) =>
      liveBookingEvents({ ...ctx, readExpiry: () => sessionExpiry(ctx.db, ctx.session.id) }, signal),
    ),
});
