/**
 * Subscriptions end to end through the official Stripe SDK and the local stand-in (docs/decisions/0100,
 * 0101): checkout at the server's price, webhooks as the truth (each event once, never backwards, signed),
 * the slot gate, Discover listing, and the emails. No network beyond 127.0.0.1.
 */
import { and, count, eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { businessProfiles, emailOutbox, slots, stripeEvents } from '../../server/db/schema/index';
import { billingFromEnv, syncAllListings } from '../../server/features/billing/billing-runtime';
import { receiveStripeWebhook } from '../../server/features/billing/webhooks.service';
import { loadEnv } from '../../server/core/env';
import { queueTrialReminders } from '../../server/features/billing/billing-emails';
import { applyBillingStart, resolveBillingStart } from '../../server/features/billing/subscription.service';
import type { BillingTerms } from '../../server/features/billing/subscription-view';
import { MSG } from '../../shared/messages';
import { localNow } from '../../shared/zoned-time';
import { callerFor, createBusiness, createSlot, createUser, TEST_PASSWORD } from '../factories/index';
import { PRICE_IDS, postWebhook, useBilling, WEBHOOK_SECRET } from '../setup/billing';
import { errorOf, outwardOf } from '../setup/helpers';
import { useTestDeps } from '../setup/test-database';

const DAY = 86_400_000;
const START = new Date('2026-12-01T00:00:00Z');
const terms: BillingTerms = { startsAt: START, launchTrialDays: 30, trialDays: 14, graceDays: 7 };
const t = useTestDeps(new Date(START.getTime() + DAY));
const billing = useBilling(() => t.deps, t.clock.now, terms);

/** A business created at `createdAt` (before START: from the launch period), located for Discover. */
async function business(createdAt: Date) {
  const { user } = await createBusiness(t.deps.db);
  await t.deps.db
    .update(businessProfiles)
    .set({ createdAt, latitude: 51.5, longitude: -0.12, locationPrecision: 'exact', locationSource: 'pin' })
    .where(eq(businessProfiles.id, user.id));
  return { id: user.id, caller: await callerFor(billing.deps, user.id) };
}

/** Tomorrow's 10:00 to 11:00 in London, by the test clock. */
const slotInput = (startTime = '10:00', endTime = '11:00') => ({
  date: localNow('Europe/London', new Date(t.clock.now().getTime() + DAY)).date,
  startTime,
  endTime,
  description: 'Cut',
});

/** Starts checkout and pays on the stand-in's page; the session. */
async function subscribe(caller: Awaited<ReturnType<typeof business>>['caller']) {
  const { url } = await caller.billing.checkout();
  const session = billing.standIn.sessions.get(url.split('/').pop()!)!;
  await billing.standIn.pay(session.id);
  return billing.standIn.sessions.get(session.id)!;
}

const profile = async (id: string) =>
  (await t.deps.db.select().from(businessProfiles).where(eq(businessProfiles.id, id)))[0]!;
const events = async (businessId: string) =>
  t.deps.db
    .select({ type: stripeEvents.type, outcome: stripeEvents.outcome })
    .from(stripeEvents)
    .where(eq(stripeEvents.businessId, businessId));
const emails = async (template: string) =>
  (await t.deps.db.select({ n: count() }).from(emailOutbox).where(eq(emailOutbox.template, template)))[0]!.n;

describe('when billing starts', () => {
  it('records the start once and makes every business created before it an early adopter with 30 days', async () => {
    const before = await business(new Date('2026-06-01T09:00:00Z'));
    const after = await business(new Date(START.getTime() + 3_600_000));
    expect(await resolveBillingStart(t.deps.db, null, START)).toEqual(START);
    expect(await resolveBillingStart(t.deps.db, null, new Date(START.getTime() + DAY))).toEqual(START);
    expect(await applyBillingStart(t.deps.db, terms, START)).toBeGreaterThan(0);
    expect(await applyBillingStart(t.deps.db, terms, START)).toBe(0);
    expect(await profile(before.id)).toMatchObject({
      isEarlyAdopter: true,
      trialEndsAt: new Date(START.getTime() + 30 * DAY),
    });
    expect((await profile(after.id)).isEarlyAdopter).toBe(false);
  });
});

describe('billing.checkout and the webhooks', () => {
  it('subscribes an early adopter at its price, its free period carried over as the trial', async () => {
    t.clock.set(new Date(START.getTime() + DAY));
    const a = await business(new Date('2026-05-01T09:00:00Z'));
    expect(await a.caller.billing.subscription()).toMatchObject({
      state: 'trialing',
      isEarlyAdopter: true,
      price: 'earlyAdopter',
      daysLeftInTrial: 29,
      canSubscribe: true,
    });
    const session = await subscribe(a.caller);
    const customer = (await profile(a.id)).stripeCustomerId;
    expect(session).toMatchObject({
      price: PRICE_IDS.earlyAdopter,
      client_reference_id: a.id,
      customer,
      trial_end: (START.getTime() + 30 * DAY) / 1000,
      success_url: 'http://localhost:3000/dashboard?success=true',
      cancel_url: 'http://localhost:3000/dashboard?canceled=true',
    });
    expect(await a.caller.billing.subscription()).toMatchObject({
      state: 'trialing',
      isActive: true,
      canSubscribe: false,
    });
    expect(await profile(a.id)).toMatchObject({
      subscriptionStatus: 'trialing',
      stripeSubscriptionId: session.subscription,
    });
    expect(await events(a.id)).toEqual([
      { type: 'checkout.session.completed', outcome: 'applied' },
      { type: 'customer.subscription.created', outcome: 'applied' },
    ]);
    expect(outwardOf(await errorOf(a.caller.billing.checkout()))).toMatchObject({
      code: 'CONFLICT',
      message: MSG.subscriptionAlreadyActive,
    });
  });

  it('subscribes a business that joined after the start at the list price, charged at once after its trial', async () => {
    t.clock.set(new Date(START.getTime() + DAY));
    const b = await business(t.clock.now());
    t.clock.advance(15 * DAY);
    expect(await b.caller.billing.subscription()).toMatchObject({ state: 'expired', price: 'list', isActive: false });
    const session = await subscribe(b.caller);
    expect([session.price, session.trial_end]).toEqual([PRICE_IDS.list, null]);
    expect(await b.caller.billing.subscription()).toMatchObject({
      state: 'active',
      isActive: true,
      isEarlyAdopter: false,
    });
    expect((await events(b.id)).map((e) => e.type)).toContain('invoice.paid');
    await expect(b.caller.slots.create(slotInput())).resolves.toMatchObject({ id: expect.any(String) });
  });

  it('is canceling until the period ends, then canceled, with one email and no Billing card', async () => {
    t.clock.set(new Date(START.getTime() + 40 * DAY));
    const c = await business(new Date('2026-05-01T09:00:00Z'));
    const session = await subscribe(c.caller);
    const subscriptionId = session.subscription!;
    const { url } = await c.caller.billing.portalSession();
    expect(url).toMatch(/^http:\/\/localhost:3000\/dev\/stripe\/portal\/bps_/);
    await billing.standIn.cancelAtPeriodEnd(subscriptionId);
    const periodEnd = (await profile(c.id)).currentPeriodEnd!;
    expect(await c.caller.billing.subscription()).toMatchObject({
      state: 'canceling',
      isCanceling: true,
      isActive: true,
      subscriptionEndsAt: periodEnd,
    });
    t.clock.set(periodEnd);
    expect(await c.caller.billing.subscription()).toMatchObject({
      state: 'canceled',
      isCanceled: true,
      isActive: false,
    });
    expect(outwardOf(await errorOf(c.caller.slots.create(slotInput())))).toMatchObject({
      code: 'PRECONDITION_FAILED',
      message: MSG.slotsSubscriptionEnded,
      title: MSG.subscriptionNeededTitle,
    });
    const ended = await emails('subscriptionEnded');
    await billing.standIn.endPeriod(subscriptionId);
    expect((await profile(c.id)).subscriptionStatus).toBe('canceled');
    expect(await emails('subscriptionEnded')).toBe(ended + 1);
    expect((await c.caller.settings.business()).showBilling).toBe(false);
    // The deleted event again (Stripe retries): nothing changes, no second email.
    await billing.standIn.send(billing.standIn.events.at(-1)!.payload);
    expect(await emails('subscriptionEnded')).toBe(ended + 1);
  });

  it('ends the subscription at Stripe when its business deletes its account, so nothing more is charged', async () => {
    t.clock.set(new Date(START.getTime() + 40 * DAY));
    const c = await business(new Date('2026-05-01T09:00:00Z'));
    const subscriptionId = (await subscribe(c.caller)).subscription!;
    expect(billing.standIn.subscriptions.get(subscriptionId)!.status).toBe('active');
    await expect(c.caller.account.delete({ confirmation: 'DELETE', currentPassword: TEST_PASSWORD })).resolves.toEqual({
      ok: true,
    });
    expect(billing.standIn.subscriptions.get(subscriptionId)!.status).toBe('canceled');
    expect(await t.deps.db.select().from(businessProfiles).where(eq(businessProfiles.id, c.id))).toEqual([]);
  });

  it('lets a past-due business add slots for the grace period, then stops it until it pays', async () => {
    t.clock.set(new Date(START.getTime() + 40 * DAY));
    const d = await business(new Date(START.getTime() + 39 * DAY));
    const session = await subscribe(d.caller);
    t.clock.set((await profile(d.id)).currentPeriodEnd!);
    const failedBefore = await emails('paymentFailed');
    await billing.standIn.endPeriod(session.subscription!, false);
    const pastDueSince = t.clock.now();
    expect(await d.caller.billing.subscription()).toMatchObject({
      state: 'past_due',
      isActive: true,
      graceEndsAt: new Date(pastDueSince.getTime() + 7 * DAY),
    });
    expect(await emails('paymentFailed')).toBe(failedBefore + 1);
    const [mail] = await t.deps.db
      .select({ props: emailOutbox.props })
      .from(emailOutbox)
      .where(and(eq(emailOutbox.template, 'paymentFailed'), eq(emailOutbox.userId, d.id)));
    expect(mail!.props).toMatchObject({ billingUrl: 'http://localhost:3000/settings' });
    t.clock.advance(7 * DAY - 60_000);
    await expect(d.caller.slots.create(slotInput())).resolves.toBeTruthy();
    t.clock.advance(60_000);
    expect(outwardOf(await errorOf(d.caller.slots.create(slotInput('12:00', '13:00'))))).toMatchObject({
      code: 'PRECONDITION_FAILED',
      message: MSG.slotsPaymentOverdue,
    });
    await billing.standIn.endPeriod(session.subscription!, true);
    expect(await d.caller.billing.subscription()).toMatchObject({ state: 'active', isActive: true, graceEndsAt: null });
    await expect(d.caller.slots.create(slotInput('12:00', '13:00'))).resolves.toBeTruthy();
  });

  it('applies a replayed event once and an older event arriving late not at all', async () => {
    t.clock.set(new Date(START.getTime() + 50 * DAY));
    const e = await business(new Date('2026-05-01T09:00:00Z'));
    const held: Array<{ payload: string; signature: string }> = [];
    billing.standIn.deliverTo(async (payload, signature) => void held.push({ payload, signature }));
    const { url } = await e.caller.billing.checkout();
    const session = await billing.standIn.pay(url.split('/').pop()!);
    t.clock.advance(60_000);
    await billing.standIn.cancelAtPeriodEnd(session.subscription!);
    billing.standIn.deliverTo(async (payload, signature) => {
      const { status } = await postWebhook(billing.app, payload, signature);
      if (status !== 200) throw new Error(`webhook answered ${status}`);
    });
    // The newest (the cancel) first, then the older ones, then all of them again.
    for (const h of [held.at(-1)!, ...held.slice(0, -1), ...held]) {
      expect(await postWebhook(billing.app, h.payload, h.signature)).toEqual({ status: 200, body: { received: true } });
    }
    expect(await events(e.id)).toEqual([
      { type: 'customer.subscription.updated', outcome: 'applied' },
      { type: 'checkout.session.completed', outcome: 'stale' },
      { type: 'customer.subscription.created', outcome: 'stale' },
      { type: 'invoice.paid', outcome: 'stale' },
    ]);
    expect(await e.caller.billing.subscription()).toMatchObject({ state: 'canceling', isCanceling: true });
  });

  it('never starts checkout for, or shows the subscription of, another business', async () => {
    t.clock.set(new Date(START.getTime() + 2 * DAY));
    const x = await business(new Date('2026-05-01T09:00:00Z'));
    const y = await business(new Date('2026-05-01T09:00:00Z'));
    await subscribe(x.caller);
    const { url } = await y.caller.billing.checkout();
    const session = billing.standIn.sessions.get(url.split('/').pop()!)!;
    const [px, py] = [await profile(x.id), await profile(y.id)];
    expect([session.client_reference_id, session.customer]).toEqual([y.id, py.stripeCustomerId]);
    expect(py.stripeCustomerId).not.toBe(px.stripeCustomerId);
    expect(await y.caller.billing.subscription()).toMatchObject({ state: 'trialing', canSubscribe: true });
    expect((await x.caller.billing.subscription()).canSubscribe).toBe(false);
  });

  it('refuses a missing or wrong signature with 400 and records nothing; answers 200 to an unknown customer or type', async () => {
    const payload = JSON.stringify({
      id: 'evt_forged',
      object: 'event',
      type: 'invoice.paid',
      created: 1,
      data: { object: { id: 'in_1', customer: 'cus_x' } },
    });
    for (const signature of [
      undefined,
      'garbage',
      Stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_other' }),
    ]) {
      expect((await postWebhook(billing.app, payload, signature)).status).toBe(400);
    }
    expect(await t.deps.db.select().from(stripeEvents).where(eq(stripeEvents.id, 'evt_forged'))).toEqual([]);
    const sign = (p: string) => Stripe.webhooks.generateTestHeaderString({ payload: p, secret: WEBHOOK_SECRET });
    const unknown = JSON.stringify({
      id: 'evt_unknown_customer',
      object: 'event',
      type: 'invoice.paid',
      created: 1,
      data: { object: { id: 'in_2', object: 'invoice', customer: 'cus_nobody' } },
    });
    const other = JSON.stringify({
      id: 'evt_other_type',
      object: 'event',
      type: 'charge.refunded',
      created: 1,
      data: { object: { id: 'ch_1' } },
    });
    expect((await postWebhook(billing.app, unknown, sign(unknown))).status).toBe(200);
    expect((await postWebhook(billing.app, other, sign(other))).status).toBe(200);
    const rows = await t.deps.db.select({ id: stripeEvents.id, outcome: stripeEvents.outcome }).from(stripeEvents);
    expect(rows).toEqual(
      expect.arrayContaining([
        { id: 'evt_unknown_customer', outcome: 'unknown_customer' },
        { id: 'evt_other_type', outcome: 'ignored' },
      ]),
    );
  });
});

describe('the slot gate, Discover and the trial reminder', () => {
  it('blocks slots.create and slots.update once the trial is over, and leaves the public page, open slots and bookings alone', async () => {
    t.clock.set(new Date(START.getTime() + DAY));
    const f = await business(t.clock.now());
    await f.caller.slots.create(slotInput());
    // Slots after the trial's end, one requested before it ends and one open.
    const after = { date: localNow('Europe/London', new Date(START.getTime() + 17 * DAY)).date };
    const requested = await createSlot(t.deps.db, f.id, { ...after, startTime: '10:00', endTime: '11:00' });
    const open = await createSlot(t.deps.db, f.id, { ...after, startTime: '14:00', endTime: '15:00' });
    const customer = await createUser(t.deps.db, { role: 'customer' });
    const client = await callerFor(billing.deps, customer.id);
    const { id: bookingId } = await client.bookings.request({ slotId: requested.id });
    t.clock.set(new Date(t.clock.now().getTime() + 14 * DAY - 3 * DAY));
    expect(await queueTrialReminders(billing.deps)).toBeGreaterThan(0);
    const reminders = await emails('trialEnding');
    await queueTrialReminders(billing.deps);
    expect(await emails('trialEnding')).toBe(reminders);

    t.clock.set(new Date(START.getTime() + 15 * DAY));
    const refused = outwardOf(await errorOf(f.caller.slots.create(slotInput('16:00', '17:00'))));
    expect(refused).toMatchObject({
      code: 'PRECONDITION_FAILED',
      message: MSG.slotsTrialEnded,
      title: MSG.subscriptionNeededTitle,
    });
    expect((await errorOf(f.caller.slots.update({ slotId: open.id, ...slotInput('15:00', '16:00') }))).code).toBe(
      'PRECONDITION_FAILED',
    );
    // Leaves Discover, keeps everything customers rely on.
    expect(await syncAllListings(billing.deps)).toContain(f.id);
    const [listed] = await t.deps.db.select({ latitude: slots.latitude }).from(slots).where(eq(slots.id, open.id));
    expect(listed!.latitude).toBeNull();
    await expect(f.caller.bookings.confirm({ bookingId })).resolves.toBeTruthy();
    const slug = (await profile(f.id)).slug;
    const page = await (await callerFor(billing.deps, null)).businesses.bySlug({ slug });
    expect(page.slots.map((s) => s.id)).toContain(open.id);
    await expect(client.bookings.request({ slotId: open.id })).resolves.toBeTruthy();
    // Subscribing brings it back.
    await subscribe(f.caller);
    const [back] = await t.deps.db.select({ latitude: slots.latitude }).from(slots).where(eq(slots.id, open.id));
    expect(back!.latitude).toBe(51.5);
  });

  it('with billing off: the launch period, no checkout, no webhook', async () => {
    const { user } = await createBusiness(t.deps.db);
    const caller = await callerFor(t.deps, user.id);
    expect(await caller.billing.subscription()).toMatchObject({ state: 'launch', isActive: true, canSubscribe: false });
    expect(outwardOf(await errorOf(caller.billing.checkout()))).toMatchObject({
      code: 'PRECONDITION_FAILED',
      message: MSG.billingNotStarted,
    });
    await expect(caller.slots.create(slotInput())).resolves.toBeTruthy();
    const payload = JSON.stringify({ id: 'evt_off', object: 'event', type: 'invoice.paid', created: 1, data: {} });
    const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    expect(await receiveStripeWebhook(t.deps, Buffer.from(payload), signature)).toMatchObject({ status: 404 });
  });

  it('starts no billing with BILLING=off, and the stand-in with BILLING=test, from the recorded start', async () => {
    const origin = 'http://localhost:3000';
    await resolveBillingStart(t.deps.db, null, START); // recorded by the first start with billing on
    expect(await billingFromEnv(loadEnv({}), t.deps.db, origin, t.clock.now())).toBeNull();
    const local = await billingFromEnv(loadEnv({ BILLING: 'test' }), t.deps.db, origin, t.clock.now());
    try {
      expect(local).toMatchObject({ mode: 'test', terms: { startsAt: START, trialDays: 14, launchTrialDays: 30 } });
      const customer = await local!.stripe.customers.create({ email: 'x@example.test' });
      expect(local!.standIn!.customers.has(customer.id)).toBe(true);
    } finally {
      await local?.standIn?.close();
    }
  });
});
