/**
 * billing.portalSession: 'Manage Billing', through an injected fake billing portal (no network).
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { businessProfiles } from '../../server/db/schema/index';
import type { BillingPortal } from '../../server/features/billing/portal';
import { MSG } from '../../shared/messages';
import { callerFor, createBusiness, createBusinessWithoutProfile, createUser } from '../factories/index';
import { errorOf, outwardOf } from '../setup/helpers';
import { useTestDeps } from '../setup/test-database';

const t = useTestDeps(new Date('2026-11-21T10:00:00Z'));

/** A fake portal recording its calls; `fail` makes it throw as the provider would. */
function fakePortal(fail = false) {
  const calls: Array<{ customerId: string; returnUrl: string }> = [];
  const portal: BillingPortal = {
    async createSession(input) {
      calls.push(input);
      if (fail) throw new Error('stripe: connection reset (internal detail)');
      return { url: `https://billing.example/session/${input.customerId}` };
    },
  };
  return { portal, calls };
}

async function businessWithBilling(stripeCustomerId: string | null, subscriptionStatus = 'active') {
  const { user } = await createBusiness(t.deps.db);
  await t.deps.db
    .update(businessProfiles)
    .set({ stripeCustomerId, subscriptionStatus })
    .where(eq(businessProfiles.id, user.id));
  return user;
}

describe('billing.portalSession', () => {
  it("opens a portal session for the business's payment customer, returning to /settings", async () => {
    const user = await businessWithBilling('cus_Billing1');
    const { portal, calls } = fakePortal();
    const caller = await callerFor({ ...t.deps, billingPortal: portal }, user.id);
    await expect(caller.billing.portalSession()).resolves.toEqual({
      url: 'https://billing.example/session/cus_Billing1',
    });
    expect(calls).toEqual([{ customerId: 'cus_Billing1', returnUrl: 'http://localhost:3000/settings' }]);
  });

  it('answers a clear message when billing is not configured', async () => {
    const user = await businessWithBilling('cus_Billing2');
    for (const billingPortal of [null, undefined]) {
      const caller = await callerFor({ ...t.deps, billingPortal }, user.id);
      const err = await errorOf(caller.billing.portalSession());
      expect([err.code, err.message]).toEqual(['PRECONDITION_FAILED', MSG.billingUnavailable]);
    }
  });

  it('refuses when the Billing card would not show: no id, a manual-fix id, a canceled subscription', async () => {
    const { portal, calls } = fakePortal();
    for (const [id, status] of [
      [null, 'active'],
      ['manual_fix_1', 'active'],
      ['cus_Canceled', 'canceled'],
    ] as const) {
      const user = await businessWithBilling(id, status);
      const err = await errorOf(
        (await callerFor({ ...t.deps, billingPortal: portal }, user.id)).billing.portalSession(),
      );
      expect([err.code, err.message]).toEqual(['PRECONDITION_FAILED', MSG.billingNotSetUp]);
    }
    expect(calls).toEqual([]);
  });

  it("hides the provider's failure behind the generic text", async () => {
    const user = await businessWithBilling('cus_Broken');
    const caller = await callerFor({ ...t.deps, billingPortal: fakePortal(true).portal }, user.id);
    const err = await errorOf(caller.billing.portalSession());
    expect(err.code).toBe('INTERNAL_SERVER_ERROR');
    expect(outwardOf(err).title).toBeUndefined();
  });

  it('refuses customers, visitors and a business without a profile', async () => {
    const deps = { ...t.deps, billingPortal: fakePortal().portal };
    const customer = await createUser(t.deps.db, { role: 'customer' });
    expect((await errorOf((await callerFor(deps, customer.id)).billing.portalSession())).code).toBe('FORBIDDEN');
    expect((await errorOf((await callerFor(deps, null)).billing.portalSession())).code).toBe('UNAUTHORIZED');
    const incomplete = await createBusinessWithoutProfile(t.deps.db);
    const err = await errorOf((await callerFor(deps, incomplete.id)).billing.portalSession());
    expect([err.code, err.message]).toEqual(['PRECONDITION_FAILED', MSG.billingNotSetUp]);
  });
});
