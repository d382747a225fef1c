/** Booking requests and decisions, and their live updates (dashboards spec §4, BRIEF §6). */
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

/**
 * A business's answer to one of its pending requests (spec §4 "Booking status"): { bookingId,
 * idempotencyKey? }; a retry with the same key gets the first answer again (ADR 0034).
 */
function answerProcedure<D extends Decision>(decision: D) {
  return businessProcedure
    .input(bookingDecisionInput)
    .mutation(({ ctx, input }) => decideBooking(ctx, ctx.user.id, input.bookingId, decision, input.idempotencyKey));
}

export const bookingsRouter = router({
  /**
   * Customer requests a slot: { slotId, notes?, idempotencyKey? } → { id }. CONFLICT when the slot
   * is no longer requestable; a retry with the same key gets the same { id } (ADR 0034),
   * UNPROCESSABLE_CONTENT when the key came with a different request.
   */
  request: requesterProcedure
    .input(requestBookingInput)
    .mutation(({ ctx, input }) => requestBooking(ctx, ctx.user.id, input)),

  /**
   * Business confirms its pending request (dialog 'Confirm Booking'): { bookingId } → { id, status:
   * 'confirmed' }; the slot becomes booked. NOT_FOUND 'Booking not found' (another business's),
   * PRECONDITION_FAILED titled 'Cannot confirm past appointment', CONFLICT (already handled).
   */
  confirm: answerProcedure('confirm'),

  /**
   * Business declines its pending request (dialog 'Decline'): { bookingId } → { id, status:
   * 'cancelled' } with declined_by_business. Errors as confirm ('Cannot decline past appointment').
   */
  decline: answerProcedure('decline'),

  /**
   * Inline Approve on the slot card: { bookingId } → { id, status: 'completed' }; the slot becomes
   * booked as with confirm. Errors as confirm.
   */
  approve: answerProcedure('approve'),

  /**
   * Inline Reject on the slot card: { bookingId } → { id, status: 'cancelled' } without the
   * declined flag, so the slot is offered again. Errors as decline.
   */
  reject: answerProcedure('reject'),

  /**
   * Customer withdraws its own pending request (dashboards spec §7 cancel_customer_request):
   * { bookingId } → { id, status: 'cancelled' } without the declined flag, so the slot is offered
   * again. NOT_FOUND 'Booking not found' (someone else's or unknown), PRECONDITION_FAILED when
   * confirmed (contact the business), CONFLICT when already cancelled or declined; FORBIDDEN for
   * businesses, UNAUTHORIZED for visitors.
   */
  cancel: customerProcedure
    .input(bookingIdInput)
    .mutation(({ ctx, input }) => cancelCustomerRequest(ctx, ctx.user.id, input.bookingId)),

  /** Business: pending requests, newest first (customer name and email, slot). */
  requests: businessProcedure.query(({ ctx }) => listBusinessRequests(ctx, ctx.user.id)),

  /** Customer: own bookings with bucket (confirmed | pending | declined | archive), newest first. */
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
