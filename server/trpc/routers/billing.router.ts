/** Billing: the payment provider's portal for a business (ADR 0013). */
import { openBillingPortal } from '../../features/billing/billing.service';
import { businessProcedure } from '../procedures';
import { router } from '../trpc';

export const billingRouter = router({
  /** 'Manage Billing': → { url } of a portal session (openBillingPortal). */
  portalSession: businessProcedure.mutation(({ ctx }) => openBillingPortal(ctx, ctx.user.id)),
});
