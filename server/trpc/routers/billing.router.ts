/** Billing (dashboards spec §2 "Billing", §7 "create-portal-session", §8 "Billing portal"). */
import { openBillingPortal } from '../../features/billing/billing.service';
import { businessProcedure } from '../procedures';
import { router } from '../trpc';

export const billingRouter = router({
  /**
   * 'Manage Billing': a billing-portal session returning to {APP_URL}/settings. Output { url }.
   * PRECONDITION_FAILED 'There is no billing account for this business yet.' or 'Billing is not
   * available right now. Please contact support.' (no STRIPE_SECRET_KEY); a provider failure is
   * an INTERNAL_SERVER_ERROR (logged, generic text); FORBIDDEN for customers; UNAUTHORIZED for
   * visitors.
   */
  portalSession: businessProcedure.mutation(({ ctx }) => openBillingPortal(ctx, ctx.user.id)),
});
