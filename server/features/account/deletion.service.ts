/**
 * Account deletion (dashboards spec §4 "Account deletion", §5, §7 "delete-business-account",
 * "delete-customer-account", §8 "Deletion"): the typed DELETE plus the current password, then the
 * account and everything that belongs only to it go in one transaction. Decisions (password,
 * what happens to open requests, no fallback): docs/decisions/0014-data-export-and-account-deletion.md.
 */
import { and, eq } from 'drizzle-orm';
import { MSG } from '../../../shared/messages';
import type { DeleteAccountInput } from '../../../shared/schemas/settings';
import { verifyPassword } from '../../auth/password';
import { loginAttemptKeys } from '../../auth/throttle';
import { bookings, users } from '../../db/schema/index';
import type { BookingEvent } from '../../realtime/booking-events';
import { throttledPasswordCheck } from '../auth/limits';
import type { ServiceDeps } from '../context';
import { DomainError } from '../errors';

export interface DeletingAccount {
  id: string;
  email: string;
  role: 'business' | 'customer';
}

/**
 * Deletes the signed-in account (spec §4, §5 "Account deletion"). The current password is checked
 * under the per-account login limiter first. Then, in one transaction: the business's pending
 * requests are declined (declined_by_business true) or the customer's pending requests cancelled
 * (their slots free again), and the users row is deleted, which removes the sessions, one-time
 * tokens, profile, likes and (for a business) its slots; bookings stay with their archived_*
 * copies (database triggers) and null links. Booking events are published after commit so the
 * other party's dashboard refreshes. Output: { ok: true }.
 * Throws TOO_MANY_REQUESTS 'You've made too many login attempts…' (limiter exhausted) and
 * BAD_REQUEST 'Your current password is incorrect.' (field currentPassword). The DELETE text is
 * checked by the input schema ('Please type DELETE to confirm account deletion').
 */
export async function deleteAccount(
  deps: ServiceDeps,
  account: DeletingAccount,
  input: DeleteAccountInput,
): Promise<{ ok: true }> {
  const outcome = await throttledPasswordCheck(deps, loginAttemptKeys(account.email), async () => {
    const [row] = await deps.db
      .select({ passwordHash: users.passwordHash })
      .from(users)
      .where(eq(users.id, account.id))
      .limit(1);
    return row && (await verifyPassword(row.passwordHash, input.currentPassword)) ? 'right' : 'wrong';
  });
  if (outcome === 'wrong') {
    throw new DomainError('BAD_REQUEST', MSG.currentPasswordWrong, { field: 'currentPassword' });
  }
  const events = await deps.db.transaction(async (tx) => {
    const now = deps.now();
    const own = account.role === 'business' ? bookings.businessId : bookings.customerId;
    const closed = await tx
      .update(bookings)
      .set({ status: 'cancelled', declinedByBusiness: account.role === 'business', updatedAt: now })
      .where(and(eq(own, account.id), eq(bookings.status, 'pending')))
      .returning({ bookingId: bookings.id, businessId: bookings.businessId, customerId: bookings.customerId });
    await tx.delete(users).where(eq(users.id, account.id));
    return closed satisfies BookingEvent[];
  });
  for (const event of events) await deps.hub.publish(event);
  return { ok: true };
}
