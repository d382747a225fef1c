/**
 * Customer settings, Personal Information card: settings.customer and settings.updateCustomerName.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { customerProfiles, users } from '../../server/db/schema/index';
import { MSG } from '../../shared/messages';
import { callerFor, createBusiness, createSlot, createUser } from '../factories/index';
import { errorOf, outwardOf } from '../setup/helpers';
import { useTestDeps } from '../setup/test-database';

const t = useTestDeps(new Date('2026-11-21T10:00:00Z'));

describe('settings.customer', () => {
  it("reads the customer's full name and email", async () => {
    const customer = await createUser(t.deps.db, { role: 'customer', name: 'Cara Customer' });
    await expect((await callerFor(t.deps, customer.id)).settings.customer()).resolves.toEqual({
      fullName: 'Cara Customer',
      email: customer.email,
    });
  });

  it("falls back to the account's name when the profile row is missing", async () => {
    const customer = await createUser(t.deps.db, { role: 'customer', name: 'No Profile' });
    await t.deps.db.delete(customerProfiles).where(eq(customerProfiles.id, customer.id));
    expect((await (await callerFor(t.deps, customer.id)).settings.customer()).fullName).toBe('No Profile');
  });

  it('is refused to businesses and visitors', async () => {
    const { user } = await createBusiness(t.deps.db);
    expect((await errorOf((await callerFor(t.deps, user.id)).settings.customer())).code).toBe('FORBIDDEN');
    expect((await errorOf((await callerFor(t.deps, null)).settings.customer())).code).toBe('UNAUTHORIZED');
  });
});

describe('settings.updateCustomerName', () => {
  it("changes the profile's full name and the account's name together (trimmed); auth.me follows", async () => {
    const customer = await createUser(t.deps.db, { role: 'customer', name: 'Old Name' });
    const caller = await callerFor(t.deps, customer.id);
    await expect(caller.settings.updateCustomerName({ fullName: '  Nova Name  ' })).resolves.toEqual({
      fullName: 'Nova Name',
    });
    const [profile] = await t.deps.db.select().from(customerProfiles).where(eq(customerProfiles.id, customer.id));
    const [user] = await t.deps.db.select().from(users).where(eq(users.id, customer.id));
    expect([profile?.fullName, user?.name]).toEqual(['Nova Name', 'Nova Name']);
    expect((await caller.settings.customer()).fullName).toBe('Nova Name');
    // A fresh request reads the new name (the header's 'Welcome, {name}').
    expect((await (await callerFor(t.deps, customer.id)).auth.me()).user?.name).toBe('Nova Name');
  });

  it('shows the new name to the business on an open request', async () => {
    const { user: owner } = await createBusiness(t.deps.db);
    const customer = await createUser(t.deps.db, { role: 'customer', name: 'Before' });
    const slot = await createSlot(t.deps.db, owner.id, { date: '2026-11-22', startTime: '10:00', endTime: '11:00' });
    const caller = await callerFor(t.deps, customer.id);
    await caller.bookings.request({ slotId: slot.id });
    await caller.settings.updateCustomerName({ fullName: 'After' });
    expect((await (await callerFor(t.deps, owner.id)).bookings.requests())[0]?.customer?.name).toBe('After');
  });

  it('creates the missing profile row', async () => {
    const customer = await createUser(t.deps.db, { role: 'customer', name: 'No Profile' });
    await t.deps.db.delete(customerProfiles).where(eq(customerProfiles.id, customer.id));
    await (await callerFor(t.deps, customer.id)).settings.updateCustomerName({ fullName: 'Has Profile' });
    const [profile] = await t.deps.db.select().from(customerProfiles).where(eq(customerProfiles.id, customer.id));
    expect(profile).toMatchObject({ fullName: 'Has Profile', email: customer.email });
  });

  it("refuses an empty name with 'Full name is required', changing nothing", async () => {
    const customer = await createUser(t.deps.db, { role: 'customer', name: 'Kept Name' });
    const caller = await callerFor(t.deps, customer.id);
    for (const fullName of ['', '   ']) {
      const err = outwardOf(await errorOf(caller.settings.updateCustomerName({ fullName })));
      expect([err.code, err.message]).toEqual(['BAD_REQUEST', MSG.fullNameRequired]);
    }
    const long = await errorOf(caller.settings.updateCustomerName({ fullName: 'x'.repeat(101) }));
    expect(long.code).toBe('BAD_REQUEST');
    expect((await caller.settings.customer()).fullName).toBe('Kept Name');
  });

  it("changes only the caller's own name, and is refused to businesses and visitors", async () => {
    const a = await createUser(t.deps.db, { role: 'customer', name: 'Ann' });
    const b = await createUser(t.deps.db, { role: 'customer', name: 'Ben' });
    await (await callerFor(t.deps, a.id)).settings.updateCustomerName({ fullName: 'Annie' });
    expect((await (await callerFor(t.deps, b.id)).settings.customer()).fullName).toBe('Ben');

    const { user } = await createBusiness(t.deps.db);
    const business = await callerFor(t.deps, user.id);
    expect((await errorOf(business.settings.updateCustomerName({ fullName: 'Biz' }))).code).toBe('FORBIDDEN');
    const [row] = await t.deps.db.select().from(users).where(eq(users.id, user.id));
    expect(row?.name).not.toBe('Biz');
    const anon = await callerFor(t.deps, null);
    expect((await errorOf(anon.settings.updateCustomerName({ fullName: 'Anon' }))).code).toBe('UNAUTHORIZED');
  });
});
