/**
 * 'Manage Billing': a billing-portal session for the signed-in business's payment customer. See
 * docs/decisions/0013-business-settings.md.
 */
import { eq } from 'drizzle-orm';
import { MSG } from '../../../shared/messages';
import type { ServiceDeps } from '../../core/deps';
import { DomainError } from '../../core/errors';
import { businessProfiles } from '../../db/schema/index';
import { billingVisible } from '../settings/business-settings.service';

/**
 * Opens a billing-portal session for business `businessId` that returns to {appOrigin}/settings.
 * Output: { url } to send the browser to. Throws PRECONDITION_FAILED 'There is no billing account
 * for this business yet.' when the Billing card would not show (no payment-customer id, a
 * manual-fix id, or a canceled subscription; also for a business without a profile, so another
 * business's state never shows); PRECONDITION_FAILED 'Billing is not available right now. Please
 * contact support.' when no provider is configured; the provider's own failure propagates
 * (INTERNAL_SERVER_ERROR, logged, generic answer).
 */
export async function openBillingPortal(
  deps: Pick<ServiceDeps, 'db' | 'appOrigin' | 'billingPortal'>,
  businessId: string,
): Promise<{ url: string }> {
  const [profile] = await deps.db
    .select({
      stripeCustomerId: businessProfiles.stripeCustomerId,
      subscriptionStatus: businessProfiles.subscriptionStatus,
    })
    .from(businessProfiles)
    .where(eq(businessProfiles.id, businessId))
    .limit(1);
  if (!profile || !billingVisible(profile)) {
    throw new DomainError('PRECONDITION_FAILED', MSG.billingNotSetUp);
  }
  if (!deps.billingPortal) {
    throw new DomainError('PRECONDITION_FAILED', MSG.billingUnavailable);
  }
  // A provider failure is unexpected: logged and answered generically by the error formatter; the
  // client shows 'Failed to open billing portal. Please try again.'
  return deps.billingPortal.createSession({
    customerId: profile.stripeCustomerId!.trim(),
    returnUrl: `${deps.appOrigin}/settings`,
  });
}
