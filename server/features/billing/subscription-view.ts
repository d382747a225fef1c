/**
 * The subscription view (docs/decisions/0100): what a business's subscription means now, computed in
 * one place from its stored columns, the billing terms and the clock. Everything that depends on the
 * subscription (the dashboard, Settings › Billing, the slot gate, Discover and alerts) reads this.
 */
import type { PriceName } from '../../../shared/pricing';

const DAY_MS = 86_400_000;

/** When billing started and its periods, in whole days; null terms: billing is off (the launch period). */
export interface BillingTerms {
  startsAt: Date;
  /** Free period of a business created before `startsAt`, counted from `startsAt`. */
  launchTrialDays: number;
  /** Free trial of a business created from `startsAt` on, counted from its creation. */
  trialDays: number;
  /** Days a past-due subscription keeps working, counted from when it became past due. */
  graceDays: number;
}

/** The business_profiles columns the view reads. */
export interface StoredSubscription {
  createdAt: Date;
  isEarlyAdopter: boolean;
  subscriptionStatus: string;
  stripeSubscriptionId: string | null;
  trialEndsAt: Date | null;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  pastDueSince: Date | null;
}

/**
 * 'launch': billing off or not started; 'trialing': a free period (the app's or Stripe's); 'expired':
 * the free period ended without a subscription; 'past_due' in or after its grace; 'canceling': ends at
 * the period's end; 'canceled', 'unpaid', 'incomplete' as Stripe says.
 */
export type SubscriptionState =
  'launch' | 'trialing' | 'active' | 'canceling' | 'past_due' | 'expired' | 'canceled' | 'unpaid' | 'incomplete';

export interface SubscriptionView {
  state: SubscriptionState;
  /** May add slots and shows in Discover and alerts: launch, trial, active, canceling, past due in grace. */
  isActive: boolean;
  isTrial: boolean;
  isExpired: boolean;
  isCanceling: boolean;
  isCanceled: boolean;
  trialEndsAt: Date | null;
  /** When access ends if nothing changes: the trial's end without a subscription, the period's end when canceling or canceled. */
  subscriptionEndsAt: Date | null;
  isEarlyAdopter: boolean;
  /** Whole days left, rounded up (1 on the last day); 0 outside a trial. */
  daysLeftInTrial: number;
  /** Past due: when adding slots stops. */
  graceEndsAt: Date | null;
  /** The price a new subscription is charged. */
  price: PriceName;
  /** Whether "Subscribe" is offered: billing is on and there is no live Stripe subscription to manage instead. */
  canSubscribe: boolean;
}

const addDays = (at: Date, days: number) => new Date(at.getTime() + days * DAY_MS);

/** Stripe statuses of a subscription the business manages in the portal rather than subscribing again. */
const LIVE_STATUSES = new Set(['trialing', 'active', 'past_due', 'unpaid', 'paused']);

/** Whether the business was created before billing started (its price for life is the early adopters'). */
export function joinedAtLaunch(stored: Pick<StoredSubscription, 'createdAt' | 'isEarlyAdopter'>, terms: BillingTerms) {
  return stored.isEarlyAdopter || stored.createdAt.getTime() < terms.startsAt.getTime();
}

/** The app's own free period of a business without a Stripe subscription: stored, else from the terms. */
export function appTrialEnd(stored: StoredSubscription, terms: BillingTerms): Date {
  if (stored.trialEndsAt) return stored.trialEndsAt;
  return joinedAtLaunch(stored, terms) ? launchTrialEnd(terms) : addDays(stored.createdAt, terms.trialDays);
}

/** The end of the free period of the businesses created before billing started. */
export function launchTrialEnd(terms: BillingTerms): Date {
  return addDays(terms.startsAt, terms.launchTrialDays);
}

/** The view of `stored` at `now` under `terms` (null: billing off). Pure; every boundary is unit-tested. */
export function subscriptionView(stored: StoredSubscription, terms: BillingTerms | null, now: Date): SubscriptionView {
  const t = now.getTime();
  const base: SubscriptionView = {
    state: 'launch',
    isActive: true,
    isTrial: false,
    isExpired: false,
    isCanceling: false,
    isCanceled: false,
    trialEndsAt: null,
    subscriptionEndsAt: null,
    isEarlyAdopter: stored.isEarlyAdopter,
    daysLeftInTrial: 0,
    graceEndsAt: null,
    price: 'earlyAdopter',
    canSubscribe: false,
  };
  if (!terms || t < terms.startsAt.getTime()) return base;
  const early = joinedAtLaunch(stored, terms);
  const view = { ...base, isEarlyAdopter: early, price: early ? ('earlyAdopter' as const) : ('list' as const) };
  const trial = (ends: Date) => ({
    isTrial: true,
    trialEndsAt: ends,
    daysLeftInTrial: Math.ceil((ends.getTime() - t) / DAY_MS),
  });

  if (!stored.stripeSubscriptionId) {
    const ends = appTrialEnd(stored, terms);
    if (t < ends.getTime())
      return { ...view, state: 'trialing', ...trial(ends), subscriptionEndsAt: ends, canSubscribe: true };
    return {
      ...view,
      state: 'expired',
      isActive: false,
      isExpired: true,
      trialEndsAt: ends,
      subscriptionEndsAt: ends,
      canSubscribe: true,
    };
  }

  const status = stored.subscriptionStatus;
  const periodEnd = stored.currentPeriodEnd;
  const canSubscribe = !LIVE_STATUSES.has(status);
  const canceled = (ended: Date | null): SubscriptionView => ({
    ...view,
    state: 'canceled',
    isActive: false,
    isCanceled: true,
    subscriptionEndsAt: ended,
    canSubscribe: true,
  });
  if (status === 'trialing' || status === 'active') {
    const trialing = status === 'trialing' && stored.trialEndsAt !== null && t < stored.trialEndsAt.getTime();
    const trialPart = trialing ? trial(stored.trialEndsAt!) : {};
    if (stored.cancelAtPeriodEnd && periodEnd) {
      // Stripe ends the subscription at the period's end; the clock says so before its webhook lands.
      if (t >= periodEnd.getTime()) return canceled(periodEnd);
      return {
        ...view,
        ...trialPart,
        state: 'canceling',
        isCanceling: true,
        subscriptionEndsAt: periodEnd,
        canSubscribe,
      };
    }
    return { ...view, ...trialPart, state: trialing ? 'trialing' : 'active', canSubscribe };
  }
  if (status === 'past_due') {
    const graceEndsAt = addDays(stored.pastDueSince ?? now, terms.graceDays);
    return { ...view, state: 'past_due', isActive: t < graceEndsAt.getTime(), graceEndsAt, canSubscribe };
  }
  if (status === 'canceled' || status === 'incomplete_expired') return canceled(periodEnd);
  if (status === 'incomplete') return { ...view, state: 'incomplete', isActive: false, canSubscribe: true };
  return { ...view, state: 'unpaid', isActive: false, canSubscribe };
}
