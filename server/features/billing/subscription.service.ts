/**
 * Subscriptions as the rest of the app sees them (docs/decisions/0100): the view of a business, the slot
 * gate, when billing starts, and the business's place in Discover and alerts.
 */
import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import { MSG } from '../../../shared/messages';
import { slotGateMessage } from '../../../shared/pricing';
import type { ServiceDeps } from '../../core/deps';
import { DomainError } from '../../core/errors';
import type { Db, DbOrTx, Tx } from '../../db/client';
import { billingStart, businessProfiles } from '../../db/schema/index';
import { relistBusinessSlots } from '../discovery/listing.service';
import { launchTrialEnd, subscriptionView, type BillingTerms, type SubscriptionView } from './subscription-view';

/** The business_profiles columns the view reads. */
export const storedSubscriptionColumns = {
  createdAt: businessProfiles.createdAt,
  isEarlyAdopter: businessProfiles.isEarlyAdopter,
  subscriptionStatus: businessProfiles.subscriptionStatus,
  stripeSubscriptionId: businessProfiles.stripeSubscriptionId,
  trialEndsAt: businessProfiles.trialEndsAt,
  currentPeriodEnd: businessProfiles.currentPeriodEnd,
  cancelAtPeriodEnd: businessProfiles.cancelAtPeriodEnd,
  pastDueSince: businessProfiles.pastDueSince,
};

type ViewDeps = Pick<ServiceDeps, 'db' | 'now' | 'billing'>;

/** The subscription view of `businessId` now. Throws NOT_FOUND without a profile. */
export async function getSubscription(
  deps: ViewDeps,
  businessId: string,
  db: DbOrTx = deps.db,
): Promise<SubscriptionView> {
  const [stored] = await db
    .select(storedSubscriptionColumns)
    .from(businessProfiles)
    .where(eq(businessProfiles.id, businessId))
    .limit(1);
  if (!stored) throw new DomainError('NOT_FOUND', MSG.businessNotFound);
  return subscriptionView(stored, deps.billing?.terms ?? null, deps.now());
}

/**
 * The slot gate (docs/product-rules.md, Subscriptions): adding or changing a slot needs an active
 * subscription or trial (past due within its grace). Throws PRECONDITION_FAILED with the reason and the
 * title 'Subscription needed'; with billing off it never throws.
 */
export async function assertMayAddSlots(deps: ViewDeps, businessId: string): Promise<void> {
  if (!deps.billing) return;
  const view = await getSubscription(deps, businessId);
  if (!view.isActive) {
    throw new DomainError('PRECONDITION_FAILED', slotGateMessage(view.state), { title: MSG.subscriptionNeededTitle });
  }
}

/**
 * Keeps the business's Discover and alerts listing in step with its view: a business that is not
 * active leaves them (its slots' Discover copies are cleared), and comes back when active again. Call
 * in the transaction that changed the subscription, the profile row locked. Returns whether it changed.
 */
export async function syncBillingListing(tx: Tx, businessId: string, view: SubscriptionView): Promise<boolean> {
  const [changed] = await tx
    .update(businessProfiles)
    .set({ billingListed: view.isActive })
    .where(and(eq(businessProfiles.id, businessId), sql`${businessProfiles.billingListed} <> ${view.isActive}`))
    .returning({ id: businessProfiles.id });
  if (!changed) return false;
  await relistBusinessSlots(tx, businessId, { timezoneChanged: false });
  return true;
}

/**
 * When billing starts: `configured` (BILLING_STARTS_AT) when set, else the instant recorded by the first
 * start with billing on (`now` on that start). Records it, so every process and restart agrees.
 */
export async function resolveBillingStart(db: Db, configured: Date | null, now: Date): Promise<Date> {
  const startsAt = configured ?? now;
  const [row] = await db
    .insert(billingStart)
    .values({ id: 1, startsAt })
    .onConflictDoUpdate({
      target: billingStart.id,
      // A configured instant wins; otherwise the first recorded one stays.
      set: configured
        ? {
            startsAt: configured,
            appliedAt: sql`case when ${billingStart.startsAt} = ${sql.param(configured, billingStart.startsAt)} then ${billingStart.appliedAt} end`,
          }
        : { startsAt: sql`${billingStart.startsAt}` },
    })
    .returning({ startsAt: billingStart.startsAt });
  return row!.startsAt;
}

/**
 * Once billing has started: every business created before it becomes an early adopter with its free
 * period to subscribe stored (`launchTrialDays` from the start). Runs once per start instant; returns
 * how many businesses it changed (0 when not due or already done).
 */
export async function applyBillingStart(db: Db, terms: BillingTerms, now: Date): Promise<number> {
  if (now.getTime() < terms.startsAt.getTime()) return 0;
  return db.transaction(async (tx) => {
    const [due] = await tx
      .update(billingStart)
      .set({ appliedAt: now })
      .where(and(eq(billingStart.id, 1), isNull(billingStart.appliedAt)))
      .returning({ id: billingStart.id });
    if (!due) return 0;
    const trialEndsAt = launchTrialEnd(terms);
    const changed = await tx
      .update(businessProfiles)
      .set({
        isEarlyAdopter: true,
        trialEndsAt: sql`coalesce(${businessProfiles.trialEndsAt}, ${sql.param(trialEndsAt, businessProfiles.trialEndsAt)})`,
      })
      .where(lt(businessProfiles.createdAt, terms.startsAt))
      .returning({ id: businessProfiles.id });
    return changed.length;
  });
}

/** What the pricing section says (docs/decisions/0100). */
export interface BillingOffer {
  /** Billing has started: businesses pay (false: the launch period). */
  billingOn: boolean;
  /** A new business's free trial, in days (0 while billing is off). */
  trialDays: number;
}

/** The offer now: whether billing has started and the trial a new business gets. */
export function billingOffer(deps: Pick<ServiceDeps, 'billing' | 'now'>): BillingOffer {
  const terms = deps.billing?.terms;
  if (!terms || deps.now().getTime() < terms.startsAt.getTime()) return { billingOn: false, trialDays: 0 };
  return { billingOn: true, trialDays: terms.trialDays };
}
