import { describe, expect, it } from 'vitest';
import { subscriptionView, type BillingTerms, type StoredSubscription } from './subscription-view';

const DAY = 86_400_000;
const at = (iso: string) => new Date(iso);
const plus = (d: Date, ms: number) => new Date(d.getTime() + ms);

const START = at('2026-12-01T00:00:00Z');
const terms: BillingTerms = { startsAt: START, launchTrialDays: 30, trialDays: 14, graceDays: 7 };

const stored = (over: Partial<StoredSubscription> = {}): StoredSubscription => ({
  createdAt: at('2026-06-01T09:00:00Z'),
  isEarlyAdopter: false,
  subscriptionStatus: 'active',
  stripeSubscriptionId: null,
  trialEndsAt: null,
  currentPeriodEnd: null,
  cancelAtPeriodEnd: false,
  pastDueSince: null,
  ...over,
});

const flags = (v: ReturnType<typeof subscriptionView>) => ({
  state: v.state,
  isActive: v.isActive,
  isTrial: v.isTrial,
  isExpired: v.isExpired,
  isCanceling: v.isCanceling,
  isCanceled: v.isCanceled,
});

describe('subscriptionView', () => {
  it('is the launch period with billing off or before billing starts: active, no trial, nothing to pay', () => {
    for (const [t, now] of [
      [null, at('2027-05-01T00:00:00Z')],
      [terms, plus(START, -1)],
    ] as const) {
      const v = subscriptionView(stored({ subscriptionStatus: 'active' }), t, now);
      expect(flags(v)).toMatchObject({ state: 'launch', isActive: true, isTrial: false, isExpired: false });
      expect([v.canSubscribe, v.trialEndsAt, v.daysLeftInTrial]).toEqual([false, null, 0]);
    }
  });

  it('gives a business from the launch period 30 days from the start at the early price, to the millisecond', () => {
    const launchBusiness = stored();
    const first = subscriptionView(launchBusiness, terms, START);
    expect(flags(first)).toMatchObject({ state: 'trialing', isActive: true, isTrial: true });
    expect([first.isEarlyAdopter, first.price, first.daysLeftInTrial, first.canSubscribe]).toEqual([
      true,
      'earlyAdopter',
      30,
      true,
    ]);
    const ends = plus(START, 30 * DAY);
    expect(first.trialEndsAt).toEqual(ends);
    const lastDay = subscriptionView(launchBusiness, terms, plus(ends, -1));
    expect([lastDay.state, lastDay.daysLeftInTrial]).toEqual(['trialing', 1]);
    const over = subscriptionView(launchBusiness, terms, ends);
    expect(flags(over)).toEqual({
      state: 'expired',
      isActive: false,
      isTrial: false,
      isExpired: true,
      isCanceling: false,
      isCanceled: false,
    });
    expect([over.daysLeftInTrial, over.canSubscribe, over.subscriptionEndsAt]).toEqual([0, true, ends]);
  });

  it('gives a business created after the start a 14-day trial at the list price, from its creation', () => {
    const created = plus(START, 5 * DAY + 3_600_000);
    const later = stored({ createdAt: created });
    const v = subscriptionView(later, terms, created);
    expect([v.state, v.isEarlyAdopter, v.price, v.daysLeftInTrial]).toEqual(['trialing', false, 'list', 14]);
    expect(subscriptionView(later, terms, plus(created, 14 * DAY - 1)).state).toBe('trialing');
    expect(subscriptionView(later, terms, plus(created, 14 * DAY)).state).toBe('expired');
    // A business created at the very instant billing starts pays the list price.
    expect(subscriptionView(stored({ createdAt: START }), terms, START).price).toBe('list');
  });

  it('keeps a stored trial end over the computed one', () => {
    const ends = plus(START, 3 * DAY);
    expect(subscriptionView(stored({ trialEndsAt: ends }), terms, plus(ends, -1)).state).toBe('trialing');
    expect(subscriptionView(stored({ trialEndsAt: ends }), terms, ends).state).toBe('expired');
  });

  const subscribed = (over: Partial<StoredSubscription> = {}) =>
    stored({
      stripeSubscriptionId: 'sub_1',
      subscriptionStatus: 'active',
      currentPeriodEnd: at('2027-01-15T00:00:00Z'),
      ...over,
    });

  it('stays active across a renewal whose webhook has not landed yet', () => {
    const sub = subscribed();
    for (const now of [plus(sub.currentPeriodEnd!, -1), sub.currentPeriodEnd!, plus(sub.currentPeriodEnd!, DAY)]) {
      const v = subscriptionView(sub, terms, now);
      expect(flags(v)).toMatchObject({ state: 'active', isActive: true });
      expect(v.canSubscribe).toBe(false);
    }
  });

  it("shows Stripe's trial while trialing, and active once it ends", () => {
    const trialEndsAt = at('2027-01-01T00:00:00Z');
    const sub = subscribed({ subscriptionStatus: 'trialing', trialEndsAt, currentPeriodEnd: trialEndsAt });
    const v = subscriptionView(sub, terms, plus(trialEndsAt, -DAY));
    expect([v.state, v.isTrial, v.daysLeftInTrial, v.canSubscribe]).toEqual(['trialing', true, 1, false]);
    expect(subscriptionView(sub, terms, trialEndsAt).isTrial).toBe(false);
  });

  it('is canceling until the period ends, then canceled, without waiting for the webhook', () => {
    const sub = subscribed({ cancelAtPeriodEnd: true });
    const before = subscriptionView(sub, terms, plus(sub.currentPeriodEnd!, -1));
    expect(flags(before)).toEqual({
      state: 'canceling',
      isActive: true,
      isTrial: false,
      isExpired: false,
      isCanceling: true,
      isCanceled: false,
    });
    expect(before.subscriptionEndsAt).toEqual(sub.currentPeriodEnd);
    const after = subscriptionView(sub, terms, sub.currentPeriodEnd!);
    expect(flags(after)).toEqual({
      state: 'canceled',
      isActive: false,
      isTrial: false,
      isExpired: false,
      isCanceling: false,
      isCanceled: true,
    });
    const stored = subscriptionView(subscribed({ subscriptionStatus: 'canceled' }), terms, START);
    expect([stored.state, stored.isActive, stored.canSubscribe]).toEqual(['canceled', false, true]);
  });

  it('keeps a past-due subscription working for the grace period, then stops it', () => {
    const pastDueSince = at('2027-01-15T00:00:00Z');
    const sub = subscribed({ subscriptionStatus: 'past_due', pastDueSince });
    const graceEnd = plus(pastDueSince, 7 * DAY);
    const inGrace = subscriptionView(sub, terms, plus(graceEnd, -1));
    expect([inGrace.state, inGrace.isActive, inGrace.graceEndsAt]).toEqual(['past_due', true, graceEnd]);
    expect(subscriptionView(sub, terms, graceEnd).isActive).toBe(false);
    expect(subscriptionView(sub, terms, graceEnd).canSubscribe).toBe(false);
  });

  it('stops unpaid and incomplete subscriptions; only an incomplete one may subscribe again', () => {
    const unpaid = subscriptionView(subscribed({ subscriptionStatus: 'unpaid' }), terms, START);
    expect([unpaid.state, unpaid.isActive, unpaid.canSubscribe]).toEqual(['unpaid', false, false]);
    const incomplete = subscriptionView(subscribed({ subscriptionStatus: 'incomplete' }), terms, START);
    expect([incomplete.state, incomplete.isActive, incomplete.canSubscribe]).toEqual(['incomplete', false, true]);
  });
});
