/** The billing-portal port: a payment provider's hosted subscription page. */
export interface BillingPortal {
  /** A short-lived portal session returning to absolute `returnUrl`. Throws on any provider failure. */
  createSession(input: { customerId: string; returnUrl: string }): Promise<{ url: string }>;
}
