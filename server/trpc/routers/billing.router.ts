/** Billing: the subscription, Checkout and the payment provider's portal for a business (ADRs 0013, 0100). */
import { openBillingPortal } from '../../features/billing/billing.service';
import { startCheckout } from '../../features/billing/checkout.service';
import { billingOffer, getSubscription } from '../../features/billing/subscription.service';
import { businessProcedure, publicProcedure } from '../procedures';
import { router } from '../trpc';

export const billingRouter = router({
  /** The pricing section's state: { billingOn, trialDays } (billingOffer); anyone. */
  offer: publicProcedure.query(({ ctx }) => billingOffer(ctx)),
  /** The signed-in business's subscription view (getSubscription): isActive, isTrial, ... daysLeftInTrial. */
  subscription: businessProcedure.query(({ ctx }) => getSubscription(ctx, ctx.user.id)),
  /** 'Subscribe': → { url } of a Stripe Checkout Session at the business's price (startCheckout). */
  checkout: businessProcedure.mutation(({ ctx }) => startCheckout(ctx, ctx.user.id)),
  /** 'Manage Billing': → { url } of a portal session (openBillingPortal). */
  portalSession: businessProcedure.mutation(({ ctx }) => openBillingPortal(ctx, ctx.user.id)),
});
