/** Booking requests, the business's answers, the customer's own list, and live updates (ADR 0002). */
import { tracked } from '@trpc/server';
import { z } from 'zod';
import { bookingDecisionInput, bookingIdInput, requestBookingInput } from '../../../shared/schemas/bookings';
import { safeText } from '../../../shared/schemas/text';
import { sessionExpiry } from '../../features/auth/session';
import {
  cancelCustomerRequest,
  decideBooking,
  type Decision,
  listBusinessRequests,
  listCustomerBookings,
  requestBooking,
} from '../../features/bookings/bookings.service';
import { endWithSession } from '../../realtime/session-revocations';
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

  /** → the customer's bookings with their tab, newest slot first (listCustomerBookings). */
  mine: customerProcedure.query(({ ctx }) => listCustomerBookings(ctx, ctx.user.id)),

  /**
   * Live changes to the caller's bookings (business: its business's; customer: its own), as
   * tracked { bookingId } events. An event with bookingId null means "refetch everything": it is
   * sent first (what a (re)connecting client may have missed; the listener is attached before)
   * and whenever the server's LISTEN connection was lost and is back. Ends as soon as the session
   * ends: revoked (logout, password change or reset, account deletion; a NOTIFY reaches every
   * instance) or expired (docs/decisions/0032). Nothing is delivered after that.
   */
  onChange: authedProcedure
    .input(z.object({ lastEventId: safeText().max(200).nullish() }).optional())
    .subscription(async function* ({ ctx, signal }) {
      const user = ctx.user;
      const controller = new AbortController();
      const abort = () => controller.abort();
      signal?.addEventListener('abort', abort, { once: true });
      // Watch the session before anything is read or sent.
      const unwatch = endWithSession({
        revocations: ctx.revocations,
        sessionId: ctx.session.id,
        expiresAt: ctx.session.expiresAt,
        now: ctx.now,
        readExpiry: () => sessionExpiry(ctx.db, ctx.session.id),
        controller,
      });
      const events = ctx.hub.subscribe(
        (e) => (user.role === 'business' ? e.businessId === user.id : e.customerId === user.id),
        controller.signal,
      );
      let seq = 0;
      const id = () => `${Date.now()}-${seq++}`;
      try {
        yield tracked(id(), { bookingId: null as string | null });
        for await (const e of events) {
          // Events already queued when the session ended are dropped, not delivered.
          if (controller.signal.aborted) break;
          yield tracked(id(), { bookingId: e.kind === 'change' ? e.event.bookingId : null });
        }
      } finally {
        unwatch();
        signal?.removeEventListener('abort', abort);
        controller.abort();
      }
    }),
});
