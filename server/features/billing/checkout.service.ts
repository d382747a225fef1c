/**
 * "Subscribe" (docs/decisions/0100): a Stripe Checkout Session in subscription mode for the price the
 * server decides, never the client: the early adopters' price for a business that joined before billing
 * started, else the list price.
 */
import { and, eq, isNull, or } from 'drizzle-orm';
import { MSG } from '../../../shared/messages';
import type { ServiceDeps } from '../../core/deps';
import { DomainError } from '../../core/errors';
import { businessProfiles, users } from '../../db/schema/index';
import { isManualFixCustomerId } from '../settings/business-settings.service';
import { getSubscription } from './subscription.service';

/** Stripe needs a subscription's trial to end at least 48 hours ahead; a shorter one is not carried over. */
const MIN_TRIAL_MS = 49 * 3_600_000;
/** Repeated clicks within this window reuse one Checkout Session (Stripe's idempotency). */
const CHECKOUT_WINDOW_MS = 10 * 60_000;

type CheckoutDeps = Pick<ServiceDeps, 'db' | 'now' | 'billing' | 'appOrigin'>;

/** The business's Stripe customer: the stored one, else a new one (stored; a concurrent call's wins). */
async function stripeCustomer(deps: CheckoutDeps, businessId: string): Promise<string> {
  const [row] = await deps.db
    .select({ customerId: businessProfiles.stripeCustomerId, email: users.email, name: businessProfiles.businessName })
    .from(businessProfiles)
    .innerJoin(users, eq(users.id, businessProfiles.id))
    .where(eq(businessProfiles.id, businessId))
    .limit(1);
  if (!row) throw new DomainError('NOT_FOUND', MSG.businessNotFound);
  const stored = row.customerId?.trim();
  if (stored && !isManualFixCustomerId(stored)) return stored;
  const customer = await deps.billing!.stripe.customers.create(
    { email: row.email, name: row.name, metadata: { businessId } },
    { idempotencyKey: `customer-${businessId}` },
  );
  const unset = or(
    isNull(businessProfiles.stripeCustomerId),
    eq(businessProfiles.stripeCustomerId, row.customerId ?? ''),
  );
  await deps.db
    .update(businessProfiles)
    .set({ stripeCustomerId: customer.id })
    .where(and(eq(businessProfiles.id, businessId), unset));
  const [now] = await deps.db
    .select({ customerId: businessProfiles.stripeCustomerId })
    .from(businessProfiles)
    .where(eq(businessProfiles.id, businessId));
  return now!.customerId!;
}

/**
 * Starts Checkout for `businessId`: creates or reuses its Stripe customer, then a subscription-mode
 * session at its price, `client_reference_id` = the business, returning to /dashboard?success=true or
 * ?canceled=true. A free period still running (at least 49 hours) is carried over as the subscription's
 * trial, so nothing is charged before it ends. Output: { url } of Stripe's page. Throws
 * PRECONDITION_FAILED while billing is off or not started, CONFLICT when a subscription is already set
 * up (Manage Billing changes it), NOT_FOUND without a profile; a Stripe failure is an internal error.
 */
export async function startCheckout(deps: CheckoutDeps, businessId: string): Promise<{ url: string }> {
  const billing = deps.billing;
  if (!billing) throw new DomainError('PRECONDITION_FAILED', MSG.billingNotStarted);
  const view = await getSubscription(deps, businessId);
  if (view.state === 'launch') throw new DomainError('PRECONDITION_FAILED', MSG.billingNotStarted);
  if (!view.canSubscribe) throw new DomainError('CONFLICT', MSG.subscriptionAlreadyActive);
  const customer = await stripeCustomer(deps, businessId);
  const now = deps.now().getTime();
  const trialEnd =
    view.isTrial && view.trialEndsAt && view.trialEndsAt.getTime() - now >= MIN_TRIAL_MS
      ? Math.floor(view.trialEndsAt.getTime() / 1000)
      : null;
  const price = billing.prices[view.price];
  const session = await billing.stripe.checkout.sessions.create(
    {
      mode: 'subscription',
      customer,
      client_reference_id: businessId,
      line_items: [{ price, quantity: 1 }],
      ...(trialEnd ? { subscription_data: { trial_end: trialEnd } } : {}),
      success_url: `${deps.appOrigin}/dashboard?success=true`,
      cancel_url: `${deps.appOrigin}/dashboard?canceled=true`,
      metadata: { businessId },
    },
    { idempotencyKey: `checkout-${businessId}-${price}-${trialEnd ?? 0}-${Math.floor(now / CHECKOUT_WINDOW_MS)}` },
  );
  if (!session.url) throw new Error('stripe: checkout session without a url');
  return { url: session.url };
}
