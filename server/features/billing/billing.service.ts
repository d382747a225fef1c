/** 'Manage Billing' (docs/decisions/0013). */
import { eq } from 'drizzle-orm';
import { MSG } from '../../../shared/messages';
import type { ServiceDeps } from '../../core/deps';
import { DomainError } from '../../core/errors';
import { businessProfiles } from '../../db/schema/index';
import { billingVisible } from '../settings/business-settings.service';

/**
 * Opens a billing-portal session returning to /settings. Output: { url }. Throws PRECONDITION_FAILED
 * when the Billing card would not show (a missing profile alike, so no state leaks) or no provider is
 * configured; a provider failure propagates as an internal error.
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
  return deps.billingPortal.createSession({
    customerId: profile.stripeCustomerId!.trim(),
    returnUrl: `${deps.appOrigin}/settings`,
  });
}
