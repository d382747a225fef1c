/** Account deletion, in one transaction (docs/decisions/0014). */
import { and, eq, inArray, isNotNull, or } from 'drizzle-orm';
import type { DeleteAccountInput } from '../../../shared/schemas/settings';
import type { BookingEvent, ServiceDeps } from '../../core/deps';
import type { Tx } from '../../db/client';
import { bookings, businessProfiles, slots, users } from '../../db/schema/index';
import type { BookingChange } from '../../core/deps';
import { verifyCurrentPassword } from '../auth/credentials.service';
import { invalidateUserSessions } from '../auth/session';
import { discoverListing } from '../discovery/listing.service';
import {
  isUpcoming,
  loadBookingFacts,
  notifyBusinessClosed,
  notifyCustomerDeleted,
  notifyWithdrawn,
} from '../bookings/booking-notifications';

export interface DeletingAccount {
  id: string;
  email: string;
  role: 'business' | 'customer';
}

/**
 * Deletes the signed-in account, its open requests closed and the other side emailed; bookings keep
 * their archived copies. Throws as `verifyCurrentPassword`; the input schema checks the typed DELETE.
 */
export async function deleteAccount(
  deps: ServiceDeps,
  account: DeletingAccount,
  input: DeleteAccountInput,
): Promise<{ ok: true }> {
  await verifyCurrentPassword(deps, account, input.currentPassword);
  if (account.role === 'business') await cancelStripeSubscription(deps, account.id);
  const events = await deps.db.transaction(async (tx) => {
    const now = deps.now();
    // A business's profile is locked first: a subscription webhook or listing change waits for the
    // deletion instead of taking its locks in the other order (a deadlock). Where its slots showed
    // in Discover, so the lists there drop them.
    const was =
      account.role === 'business' ? ((await discoverListing(tx, account.id, { lock: true }))?.at ?? null) : null;
    const own = account.role === 'business' ? bookings.businessId : bookings.customerId;
    const closed = await tx
      .update(bookings)
      .set({ status: 'cancelled', declinedByBusiness: account.role === 'business', updatedAt: now })
      .where(and(eq(own, account.id), eq(bookings.status, 'pending')))
      .returning({
        bookingId: bookings.id,
        slotId: bookings.slotId,
        businessId: bookings.businessId,
        customerId: bookings.customerId,
      });
    const change: BookingChange = account.role === 'business' ? 'declined' : 'cancelled';
    const affected = await notifyAboutDeletion(
      tx,
      deps,
      account,
      closed.map((c) => c.bookingId),
      now,
    );
    const scrubbed = account.role === 'customer' ? await forgetCustomer(tx, account.id, now) : [];
    // Ended explicitly (not only by the cascade) so the account's live streams end too.
    await invalidateUserSessions(tx, account.id);
    await tx.delete(users).where(eq(users.id, account.id));
    const gone: BookingEvent[] =
      account.role === 'business' ? [{ kind: 'business', change: 'deleted', businessId: account.id, was }] : [];
    return [
      ...closed.map((c) => ({ kind: 'booking' as const, change, ...c })),
      ...affected,
      ...scrubbed,
      ...gone,
    ] satisfies BookingEvent[];
  });
  for (const event of events) await deps.hub.publish(event);
  deps.kickMailer();
  return { ok: true };
}

/** Subscription statuses after which Stripe charges nothing more. */
const ENDED_SUBSCRIPTION_STATUSES = new Set(['canceled', 'incomplete_expired']);

/**
 * Ends a deleting business's Stripe subscription at once, before its account goes, so a deleted
 * business is never charged again (docs/decisions/0100). Nothing without billing or a subscription;
 * a subscription Stripe no longer has counts as ended. Any other Stripe failure propagates (an
 * internal error), and the account stays: deleting it again tries again.
 */
async function cancelStripeSubscription(deps: Pick<ServiceDeps, 'db' | 'billing'>, businessId: string) {
  if (!deps.billing) return;
  const [row] = await deps.db
    .select({ id: businessProfiles.stripeSubscriptionId, status: businessProfiles.subscriptionStatus })
    .from(businessProfiles)
    .where(eq(businessProfiles.id, businessId))
    .limit(1);
  if (!row?.id || ENDED_SUBSCRIPTION_STATUSES.has(row.status)) return;
  try {
    await deps.billing.stripe.subscriptions.cancel(row.id, undefined, { idempotencyKey: `delete-${businessId}` });
  } catch (err) {
    if ((err as { code?: string }).code !== 'resource_missing') throw err;
  }
}

/**
 * The other side's emails about a deletion, before the account row goes; a deleted business also
 * cancels its upcoming accepted bookings. Returns the live events of the bookings it cancelled.
 */
async function notifyAboutDeletion(
  tx: Tx,
  deps: ServiceDeps,
  account: DeletingAccount,
  withdrawn: string[],
  now: Date,
): Promise<BookingEvent[]> {
  const own = account.role === 'business' ? bookings.businessId : bookings.customerId;
  const confirmed = await tx
    .select({ id: bookings.id })
    .from(bookings)
    .where(and(eq(own, account.id), inArray(bookings.status, ['confirmed', 'completed'])));
  const upcoming = (
    await loadBookingFacts(
      tx,
      confirmed.map((c) => c.id),
    )
  ).filter((f) => isUpcoming(f, now));
  for (const f of await loadBookingFacts(tx, withdrawn)) {
    if (account.role === 'business') await notifyBusinessClosed(tx, deps, f, false, now);
    else await notifyWithdrawn(tx, deps, f, now);
  }
  if (account.role === 'customer') {
    for (const f of upcoming) await notifyCustomerDeleted(tx, deps, f, now);
    return [];
  }
  if (upcoming.length === 0) return [];
  const cancelled = await tx
    .update(bookings)
    .set({ status: 'cancelled', declinedByBusiness: false, updatedAt: now })
    .where(
      inArray(
        bookings.id,
        upcoming.map((f) => f.bookingId),
      ),
    )
    .returning({
      bookingId: bookings.id,
      slotId: bookings.slotId,
      businessId: bookings.businessId,
      customerId: bookings.customerId,
    });
  for (const f of upcoming) await notifyBusinessClosed(tx, deps, f, true, now);
  return cancelled.map((c) => ({ kind: 'booking' as const, change: 'cancelled' as const, ...c }));
}

/**
 * Clears a deleted customer's details from the slots it booked and its bookings' notes
 * (docs/decisions/0014); the slots stay booked so the business's history stays right. Returns one event per slot.
 */
async function forgetCustomer(tx: Tx, customerId: string, now: Date): Promise<BookingEvent[]> {
  const itsSlots = tx
    .select({ id: bookings.slotId })
    .from(bookings)
    .where(
      and(
        eq(bookings.customerId, customerId),
        isNotNull(bookings.slotId),
        inArray(bookings.status, ['confirmed', 'completed']),
      ),
    );
  const changed = await tx
    .update(slots)
    .set({ customerName: null, customerEmail: null, customerPhone: null, updatedAt: now })
    .where(or(eq(slots.customerId, customerId), inArray(slots.id, itsSlots)))
    .returning({ slotId: slots.id, businessId: slots.businessId });
  await tx.update(bookings).set({ notes: null, updatedAt: now }).where(eq(bookings.customerId, customerId));
  return changed.map((c) => ({ kind: 'slot', change: 'updated', ...c }));
}
