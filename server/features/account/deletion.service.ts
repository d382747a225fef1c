/**
 * Account deletion: the typed DELETE plus the current password, then the
 * account and everything that belongs only to it go in one transaction. Decisions (password,
 * what happens to open requests, no fallback): docs/decisions/0014-data-export-and-account-deletion.md.
 */
import { and, eq, inArray, isNotNull, or } from 'drizzle-orm';
import type { DeleteAccountInput } from '../../../shared/schemas/settings';
import type { BookingEvent, ServiceDeps } from '../../core/deps';
import type { Tx } from '../../db/client';
import { bookings, slots, users } from '../../db/schema/index';
import type { BookingChange } from '../../core/deps';
import { verifyCurrentPassword } from '../auth/credentials.service';
import { invalidateUserSessions } from '../auth/session';

export interface DeletingAccount {
  id: string;
  email: string;
  role: 'business' | 'customer';
}

/**
 * Deletes the signed-in account once `verifyCurrentPassword` passes (its errors are thrown). In one
 * transaction: the business's pending requests are declined or the customer's cancelled (their
 * slots free again); a customer's personal data is taken out of what businesses keep
 * (`forgetCustomer`); the users row goes, and with it sessions, tokens, profile, likes and a
 * business's slots, while bookings keep their archived_* copies. Booking events (and, for a
 * business, a business 'deleted' event, so its public page is gone in every process) are
 * published after commit. Output: { ok: true }. The typed DELETE is the input schema's check.
 */
export async function deleteAccount(
  deps: ServiceDeps,
  account: DeletingAccount,
  input: DeleteAccountInput,
): Promise<{ ok: true }> {
  await verifyCurrentPassword(deps, account, input.currentPassword);
  const events = await deps.db.transaction(async (tx) => {
    const now = deps.now();
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
    const scrubbed = account.role === 'customer' ? await forgetCustomer(tx, account.id, now) : [];
    // Ended explicitly (not only by the cascade) so the account's live streams end too.
    await invalidateUserSessions(tx, account.id);
    await tx.delete(users).where(eq(users.id, account.id));
    const gone: BookingEvent[] =
      account.role === 'business' ? [{ kind: 'business', change: 'deleted', businessId: account.id }] : [];
    return [
      ...closed.map((c) => ({ kind: 'booking' as const, change, ...c })),
      ...scrubbed,
      ...gone,
    ] satisfies BookingEvent[];
  });
  for (const event of events) await deps.hub.publish(event);
  return { ok: true };
}

/**
 * A deleted customer's personal data leaves the businesses' records (docs/decisions/0014): the
 * name, email and phone copied onto the slots it booked (through its confirmed or completed
 * bookings; never a slot another customer holds now) are cleared, the slot staying booked so the
 * business's Booked tab and history stay right (shown as 'Deleted customer'), and the notes of its
 * bookings are removed. Returns one event per slot changed, for its business's dashboard.
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
