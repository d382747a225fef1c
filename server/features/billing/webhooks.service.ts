/**
 * Stripe's webhook events, the truth of a subscription (docs/decisions/0100). Each event is recorded by
 * id in the transaction that applies it, so a replay or a retry changes nothing; the subscription is
 * re-read from Stripe, and an event older than the last one applied to the business changes nothing, so
 * out-of-order delivery cannot move a subscription backwards.
 */
import { eq } from 'drizzle-orm';
import type Stripe from 'stripe';
import type { ServiceDeps } from '../../core/deps';
import { businessProfiles, stripeEvents } from '../../db/schema/index';
import { queueSubscriptionEmails } from './billing-emails';
import { storedSubscriptionColumns, syncBillingListing } from './subscription.service';
import { subscriptionView } from './subscription-view';

/** The events applied; any other type is recorded as 'ignored' and answered 200. */
export const HANDLED_EVENTS = new Set([
  'checkout.session.completed',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'invoice.paid',
  'invoice.payment_failed',
]);

/** Stripe statuses of a subscription that has ended. */
const ENDED = new Set(['canceled', 'incomplete_expired']);

export type WebhookOutcome = 'applied' | 'stale' | 'ignored' | 'unknown_customer' | 'duplicate';

type WebhookDeps = Pick<ServiceDeps, 'db' | 'now' | 'billing' | 'hub' | 'logger' | 'kickMailer' | 'appOrigin'>;

/** HTTP answer of POST /webhooks/stripe. */
export interface WebhookAnswer {
  status: 200 | 400 | 404;
  body: { received: true } | { error: string };
}

/**
 * Checks `signature` (the Stripe-Signature header) over the unparsed `payload` with the official SDK and
 * applies the event. 400 for a missing or bad signature, 404 while billing is off, else 200 (an unknown
 * type or customer too, logged). A failure to apply throws, so Stripe retries.
 */
export async function receiveStripeWebhook(
  deps: WebhookDeps,
  payload: Buffer,
  signature: string | undefined,
): Promise<WebhookAnswer> {
  const billing = deps.billing;
  if (!billing) return { status: 404, body: { error: 'Not Found' } };
  let event: Stripe.Event;
  try {
    event = billing.stripe.webhooks.constructEvent(payload, signature ?? '', billing.webhookSecret);
  } catch {
    deps.logger.warn('stripe webhook: signature refused');
    return { status: 400, body: { error: 'Invalid signature' } };
  }
  const outcome = await applyStripeEvent(deps, event);
  deps.logger.info({ eventId: event.id, type: event.type, outcome }, 'stripe webhook');
  return { status: 200, body: { received: true } };
}

interface EventReference {
  businessId: string | null;
  customerId: string | null;
  subscriptionId: string | null;
}

const idOf = (v: string | { id: string } | null | undefined): string | null =>
  v == null ? null : typeof v === 'string' ? v : v.id;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Which business and subscription an event is about, from its object. */
function referenceOf(event: Stripe.Event): EventReference {
  const object = event.data.object as unknown as Record<string, unknown>;
  if (event.type === 'checkout.session.completed') {
    const session = event.data.object;
    const ref = session.client_reference_id;
    return {
      businessId: ref && UUID.test(ref) ? ref : null,
      customerId: idOf(session.customer),
      subscriptionId: idOf(session.subscription),
    };
  }
  if (event.type.startsWith('invoice.')) {
    const invoice = event.data.object as Stripe.Invoice;
    return {
      businessId: null,
      customerId: idOf(invoice.customer),
      subscriptionId: idOf(invoice.parent?.subscription_details?.subscription),
    };
  }
  return { businessId: null, customerId: idOf(object.customer as string), subscriptionId: String(object.id) };
}

/** The business an event is about: its checkout's client_reference_id, else its Stripe customer. */
async function findBusiness(deps: WebhookDeps, ref: EventReference): Promise<string | null> {
  const where = ref.businessId
    ? eq(businessProfiles.id, ref.businessId)
    : ref.customerId
      ? eq(businessProfiles.stripeCustomerId, ref.customerId)
      : null;
  if (!where) return null;
  const [row] = await deps.db.select({ id: businessProfiles.id }).from(businessProfiles).where(where).limit(1);
  return row?.id ?? null;
}

const fromUnix = (seconds: number | null | undefined) => (seconds ? new Date(seconds * 1000) : null);

/** The stored columns of a Stripe subscription. */
function subscriptionColumns(subscription: Stripe.Subscription) {
  const periodEnds = subscription.items.data.map((item) => item.current_period_end);
  return {
    stripeSubscriptionId: subscription.id,
    subscriptionStatus: subscription.status,
    currentPeriodEnd: fromUnix(periodEnds.length > 0 ? Math.max(...periodEnds) : null),
    cancelAtPeriodEnd: subscription.cancel_at_period_end,
    trialEndsAt: fromUnix(subscription.trial_end),
  };
}

/**
 * Applies `event` once: records it, then (when it is about a known business and not older than the last
 * event applied to it) copies the subscription as Stripe has it now, updates the Discover listing,
 * queues the emails it calls for, and announces the change live. Returns what it did.
 */
export async function applyStripeEvent(deps: WebhookDeps, event: Stripe.Event): Promise<WebhookOutcome> {
  const billing = deps.billing!;
  const created = new Date(event.created * 1000);
  const record = (outcome: WebhookOutcome, businessId: string | null = null) =>
    deps.db
      .insert(stripeEvents)
      .values({ id: event.id, type: event.type, createdAt: created, businessId, outcome, receivedAt: deps.now() })
      .onConflictDoNothing()
      .returning({ id: stripeEvents.id });
  if (!HANDLED_EVENTS.has(event.type)) {
    await record('ignored');
    return 'ignored';
  }
  const ref = referenceOf(event);
  const businessId = await findBusiness(deps, ref);
  if (!businessId) {
    deps.logger.warn({ eventId: event.id, type: event.type }, 'stripe webhook: no business for this customer');
    return (await record('unknown_customer')).length > 0 ? 'unknown_customer' : 'duplicate';
  }
  // The subscription as Stripe has it now, whatever the event's copy says.
  const subscription = ref.subscriptionId ? await billing.stripe.subscriptions.retrieve(ref.subscriptionId) : null;
  const result = await deps.db.transaction(async (tx) => {
    const [claimed] = await tx
      .insert(stripeEvents)
      .values({
        id: event.id,
        type: event.type,
        createdAt: created,
        businessId,
        outcome: 'applied',
        receivedAt: deps.now(),
      })
      .onConflictDoNothing()
      .returning({ id: stripeEvents.id });
    if (!claimed) return { outcome: 'duplicate' as const };
    const [stored] = await tx
      .select({
        ...storedSubscriptionColumns,
        eventAt: businessProfiles.subscriptionEventAt,
        customerId: businessProfiles.stripeCustomerId,
      })
      .from(businessProfiles)
      .where(eq(businessProfiles.id, businessId))
      .for('update')
      .limit(1);
    if (!stored || (stored.eventAt && created.getTime() < stored.eventAt.getTime())) {
      await tx.update(stripeEvents).set({ outcome: 'stale' }).where(eq(stripeEvents.id, event.id));
      return { outcome: 'stale' as const };
    }
    const columns: Partial<ReturnType<typeof subscriptionColumns>> = subscription
      ? subscriptionColumns(subscription)
      : {};
    const status = columns.subscriptionStatus ?? stored.subscriptionStatus;
    const next = {
      ...stored,
      ...columns,
      pastDueSince:
        status !== 'past_due'
          ? null
          : stored.subscriptionStatus === 'past_due' && stored.pastDueSince
            ? stored.pastDueSince
            : created,
    };
    await tx
      .update(businessProfiles)
      .set({
        ...columns,
        pastDueSince: next.pastDueSince,
        subscriptionEventAt: created,
        stripeCustomerId: stored.customerId ?? ref.customerId,
      })
      .where(eq(businessProfiles.id, businessId));
    const after = subscriptionView(next, billing.terms, deps.now());
    const relisted = await syncBillingListing(tx, businessId, after);
    const endedNow = ENDED.has(status) && !ENDED.has(stored.subscriptionStatus);
    const emailed = await queueSubscriptionEmails(deps, tx, {
      businessId,
      event,
      after,
      endedSubscriptionId: endedNow ? (subscription?.id ?? null) : null,
    });
    return { outcome: 'applied' as const, relisted, emailed };
  });
  if (result.outcome !== 'applied') return result.outcome;
  await deps.hub.publish({ kind: 'business', change: 'subscription', businessId });
  if (result.relisted) await deps.hub.publish({ kind: 'business', change: 'updated', businessId });
  if (result.emailed) deps.kickMailer();
  return 'applied';
}
