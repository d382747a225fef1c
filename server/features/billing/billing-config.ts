/** Billing as a process runs it (docs/decisions/0100): absent from ServiceDeps while billing is off. */
import type Stripe from 'stripe';
import type { PriceName } from '../../../shared/pricing';
import type { StripeStandIn } from './stripe-stand-in';
import type { BillingTerms } from './subscription-view';

export interface Billing {
  /** 'stripe': Stripe itself; 'test': the local stand-in (development and tests). */
  mode: 'stripe' | 'test';
  terms: BillingTerms;
  /** The official SDK, on Stripe or on the stand-in. */
  stripe: Stripe;
  /** Checks the Stripe-Signature of POST /webhooks/stripe. */
  webhookSecret: string;
  /** The Stripe Price id charged for each price. */
  prices: Record<PriceName, string>;
  /** BILLING=test: the stand-in whose Checkout and portal pages the app serves. */
  standIn?: StripeStandIn;
}
