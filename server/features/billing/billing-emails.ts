/**
 * The subscription's emails (docs/decisions/0100), through the outbox, each once (its dedupe key): the
 * free period ends in 3 days, a payment failed (with the Manage Billing link), the subscription ended.
 * Receipts and invoices are Stripe's.
 */
import { and, eq, isNull } from 'drizzle-orm';
import type Stripe from 'stripe';
import { formatDate } from '../../../shared/format';
import { PRICES } from '../../../shared/pricing';
import { localNow } from '../../../shared/zoned-time';
import type { ServiceDeps } from '../../core/deps';
import type { DbOrTx } from '../../db/client';
import { businessProfiles, users } from '../../db/schema/index';
import { enqueueEmail } from '../../email/outbox';
import { paymentFailedEmail, subscriptionEndedEmail, trialEndingEmail } from '../../email/templates';
import type { Billing } from './billing-config';
import { storedSubscriptionColumns } from './subscription.service';
import { subscriptionView, type SubscriptionView } from './subscription-view';

const DAY_MS = 86_400_000;
/** How long before a free period ends its reminder goes. */
export const TRIAL_REMINDER_DAYS = 3;

type EmailDeps = Pick<ServiceDeps, 'now' | 'appOrigin'>;

async function recipient(db: DbOrTx, businessId: string) {
  const [row] = await db
    .select({ email: users.email, name: users.name, timezone: businessProfiles.timezone })
    .from(users)
    .innerJoin(businessProfiles, eq(businessProfiles.id, users.id))
    .where(eq(users.id, businessId))
    .limit(1);
  return row ?? null;
}

/** The business's local date of `at`, as the emails write dates. */
const onDate = (at: Date, timezone: string) => formatDate(localNow(timezone, at).date);

async function queue(
  db: DbOrTx,
  deps: EmailDeps,
  businessId: string,
  dedupeKey: string,
  message: Parameters<typeof enqueueEmail>[1],
) {
  await enqueueEmail(db, message, deps.now(), { kind: 'billing', userId: businessId, bookingId: null, dedupeKey });
}

/**
 * After a webhook event changed the business's subscription to `after` in `tx`: a failed payment's email
 * (once per invoice) and, when Stripe's status just became canceled (`endedSubscriptionId`), the ended
 * subscription's (once per subscription). Returns whether it queued anything.
 */
export async function queueSubscriptionEmails(
  deps: EmailDeps,
  tx: DbOrTx,
  change: { businessId: string; event: Stripe.Event; after: SubscriptionView; endedSubscriptionId: string | null },
): Promise<boolean> {
  const { businessId, event, after } = change;
  const failed = event.type === 'invoice.payment_failed' && after.state === 'past_due';
  const ended = change.endedSubscriptionId !== null;
  if (!failed && !ended) return false;
  const to = await recipient(tx, businessId);
  if (!to) return false;
  if (failed) {
    const invoiceId = (event.data.object as { id: string }).id;
    await queue(
      tx,
      deps,
      businessId,
      `billing:payment-failed:${invoiceId}`,
      paymentFailedEmail(to.email, {
        name: to.name,
        graceEndsOn: onDate(after.graceEndsAt!, to.timezone),
        billingUrl: `${deps.appOrigin}/settings`,
      }),
    );
  }
  if (ended) {
    await queue(
      tx,
      deps,
      businessId,
      `billing:ended:${change.endedSubscriptionId}`,
      subscriptionEndedEmail(to.email, {
        name: to.name,
        subscribeUrl: `${deps.appOrigin}/dashboard`,
      }),
    );
  }
  return true;
}

/**
 * Queues "your free period ends in 3 days" for every business in a free period without a Stripe
 * subscription whose end is at most 3 days away, once per business and end. Returns how many it queued.
 */
export async function queueTrialReminders(
  deps: Pick<ServiceDeps, 'db' | 'now' | 'appOrigin'> & { billing?: Pick<Billing, 'terms'> | null },
): Promise<number> {
  const terms = deps.billing?.terms;
  if (!terms) return 0;
  const now = deps.now();
  const rows = await deps.db
    .select({ id: businessProfiles.id, ...storedSubscriptionColumns })
    .from(businessProfiles)
    .where(and(isNull(businessProfiles.stripeSubscriptionId)));
  let queued = 0;
  for (const row of rows) {
    const view = subscriptionView(row, terms, now);
    if (!view.isTrial || view.trialEndsAt!.getTime() - now.getTime() > TRIAL_REMINDER_DAYS * DAY_MS) continue;
    const to = await recipient(deps.db, row.id);
    if (!to) continue;
    const price = PRICES[view.price].label;
    await queue(
      deps.db,
      deps,
      row.id,
      `billing:trial-ending:${row.id}:${view.trialEndsAt!.toISOString()}`,
      trialEndingEmail(to.email, {
        name: to.name,
        endsOn: onDate(view.trialEndsAt!, to.timezone),
        price,
        subscribeUrl: `${deps.appOrigin}/dashboard`,
      }),
    );
    queued++;
  }
  return queued;
}
