/**
 * The billing-portal port: opens a
 * payment provider's hosted page where a business manages its subscription. Stripe implements it
 * when STRIPE_SECRET_KEY is set (see stripe-portal.ts); tests inject a fake.
 */
export interface BillingPortal {
  /**
   * Creates a short-lived portal session for payment customer `customerId` that returns to
   * `returnUrl` (absolute). Output: the portal's URL. Throws on any provider failure.
   */
  createSession(input: { customerId: string; returnUrl: string }): Promise<{ url: string }>;
}
