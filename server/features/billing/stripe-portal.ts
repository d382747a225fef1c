/** The BillingPortal port on Stripe's Billing customer portal (server-side, secret key). */
import Stripe from 'stripe';
import type { BillingPortal } from './portal';

/** Portal sessions through Stripe with `secretKey` (STRIPE_SECRET_KEY); 10 s per request, 1 retry. */
export function stripeBillingPortal(secretKey: string): BillingPortal {
  const stripe = new Stripe(secretKey, { timeout: 10_000, maxNetworkRetries: 1 });
  return {
    async createSession({ customerId, returnUrl }) {
      const session = await stripe.billingPortal.sessions.create({ customer: customerId, return_url: returnUrl });
      return { url: session.url };
    },
  };
}
