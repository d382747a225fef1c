/** The BillingPortal port on Stripe's Billing customer portal (server-side, secret key). */
import Stripe from 'stripe';
import type { BillingPortal } from './portal';

/** A Stripe client for `secretKey`: 10 s per request, 1 retry. */
export function stripeClient(secretKey: string): Stripe {
  return new Stripe(secretKey, { timeout: 10_000, maxNetworkRetries: 1 });
}

/** Portal sessions through `stripe` (on Stripe, or on the local stand-in with BILLING=test). */
export function stripeBillingPortal(stripe: Stripe): BillingPortal {
  return {
    async createSession({ customerId, returnUrl }) {
      const session = await stripe.billingPortal.sessions.create({ customer: customerId, return_url: returnUrl });
      return { url: session.url };
    },
  };
}
