/**
 * Billing in a running process (docs/decisions/0100): from the settings, Stripe or the local stand-in
 * (BILLING=test, docs/decisions/0101), the recorded start, and the sweep that applies the start, keeps
 * Discover listings in step with the clock and sends the free period's reminders.
 */
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Env } from '../../core/env';
import type { ServiceDeps } from '../../core/deps';
import { runEvery, type Passes } from '../../core/run-every';
import type { Db } from '../../db/client';
import { businessProfiles } from '../../db/schema/index';
import type { Billing } from './billing-config';
import { queueTrialReminders } from './billing-emails';
import { stripeClient } from './stripe-portal';
import { StripeStandIn } from './stripe-stand-in';
import {
  applyBillingStart,
  resolveBillingStart,
  storedSubscriptionColumns,
  syncBillingListing,
} from './subscription.service';
import { subscriptionView, type BillingTerms } from './subscription-view';

/** How often the sweep runs, in ms. */
export const BILLING_SWEEP_MS = 10 * 60_000;

/** The billing terms for `env` (the start resolved and recorded, as of `now`); null while BILLING=off. */
export async function billingTermsFromEnv(env: Env, db: Db, now: Date): Promise<BillingTerms | null> {
  if (env.BILLING === 'off') return null;
  const startsAt = await resolveBillingStart(db, env.BILLING_STARTS_AT ? new Date(env.BILLING_STARTS_AT) : null, now);
  return {
    startsAt,
    launchTrialDays: env.BILLING_LAUNCH_TRIAL_DAYS,
    trialDays: env.BILLING_TRIAL_DAYS,
    graceDays: env.BILLING_GRACE_DAYS,
  };
}

/** Billing for `env`: null while BILLING=off; with BILLING=test, a started stand-in delivering to `origin`. */
export async function billingFromEnv(env: Env, db: Db, origin: string, now: Date): Promise<Billing | null> {
  const terms = await billingTermsFromEnv(env, db, now);
  if (!terms) return null;
  if (env.BILLING === 'stripe') {
    return {
      mode: 'stripe',
      terms,
      stripe: stripeClient(env.STRIPE_SECRET_KEY!),
      webhookSecret: env.STRIPE_WEBHOOK_SECRET!,
      prices: { earlyAdopter: env.STRIPE_PRICE_EARLY_ADOPTER!, list: env.STRIPE_PRICE_LIST! },
    };
  }
  const webhookSecret = `whsec_${randomBytes(24).toString('hex')}`;
  const standIn = await new StripeStandIn({
    webhookSecret,
    pagesOrigin: origin,
    deliver: async (payload, signature) => {
      const res = await fetch(`${origin}/webhooks/stripe`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': signature },
        body: payload,
      });
      if (!res.ok) throw new Error(`stand-in: the webhook answered ${res.status}`);
    },
  }).start();
  return {
    mode: 'test',
    terms,
    stripe: standIn.client(),
    webhookSecret,
    prices: {
      earlyAdopter: env.STRIPE_PRICE_EARLY_ADOPTER ?? 'price_early_adopter',
      list: env.STRIPE_PRICE_LIST ?? 'price_list',
    },
    standIn,
  };
}

/** What the billing sweep reads and writes with: of billing, its terms alone (null while BILLING=off). */
export type SweepDeps = Pick<ServiceDeps, 'db' | 'now' | 'hub' | 'appOrigin' | 'kickMailer'> & {
  billing?: Pick<Billing, 'terms'> | null;
};

/**
 * Puts every business's Discover and alerts listing in step with its view now (a free period or a
 * grace period ends on the clock, not on an event). Returns the businesses that changed.
 */
export async function syncAllListings(deps: SweepDeps): Promise<string[]> {
  const terms = deps.billing?.terms ?? null;
  const rows = await deps.db
    .select({ id: businessProfiles.id, listed: businessProfiles.billingListed, ...storedSubscriptionColumns })
    .from(businessProfiles);
  const changed: string[] = [];
  for (const row of rows) {
    if (subscriptionView(row, terms, deps.now()).isActive === row.listed) continue;
    const moved = await deps.db.transaction(async (tx) => {
      const [stored] = await tx
        .select(storedSubscriptionColumns)
        .from(businessProfiles)
        .where(eq(businessProfiles.id, row.id))
        .for('update')
        .limit(1);
      return stored ? syncBillingListing(tx, row.id, subscriptionView(stored, terms, deps.now())) : false;
    });
    if (!moved) continue;
    changed.push(row.id);
    await deps.hub.publish({ kind: 'business', change: 'updated', businessId: row.id });
    await deps.hub.publish({ kind: 'business', change: 'subscription', businessId: row.id });
  }
  return changed;
}

/** One pass: the start (once due), the listings, the reminders. */
export async function sweepBilling(deps: SweepDeps): Promise<void> {
  if (deps.billing) await applyBillingStart(deps.db, deps.billing.terms, deps.now());
  await syncAllListings(deps);
  if ((await queueTrialReminders(deps)) > 0) deps.kickMailer();
}

/** Runs `sweepBilling` now and every BILLING_SWEEP_MS, never two at once, until `stop()`. */
export function startBillingSweep(deps: SweepDeps, logger: Logger): Passes {
  return runEvery(() => sweepBilling(deps), {
    intervalMs: BILLING_SWEEP_MS,
    logger,
    failure: 'billing sweep failed',
    atStart: true,
  });
}
