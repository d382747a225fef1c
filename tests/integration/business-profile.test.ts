/**
 * businesses.completeProfile: the logged-in variant of /complete-business-profile (the
 * profile_incomplete state): slug derived from the name, refusals by role and state.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { businessProfiles } from '../../server/db/schema/index';
import { MSG } from '../../shared/messages';
import { defaultWeeklySchedule } from '../../shared/opening-hours';
import type { CompleteBusinessProfileInput } from '../../shared/schemas/auth';
import { callerFor, createBusiness, createBusinessWithoutProfile, createUser } from '../factories/index';
import { errorOf } from '../setup/helpers';
import { useTestDeps } from '../setup/test-database';

const t = useTestDeps(new Date('2026-11-21T10:00:00Z'));

const profileInput = (businessName: string): CompleteBusinessProfileInput => ({
  businessName,
  description: 'Colour and cuts',
  category: 'Hair Colourist',
  address: '5 High Street, Bath, BA1 1AA',
  phone: '',
  schedule: { ...defaultWeeklySchedule(), saturday: { isActive: true, start: '10:00', end: '14:00' } },
});

async function completeAs(userId: string, businessName: string) {
  return (await callerFor(t.deps, userId)).businesses.completeProfile(profileInput(businessName));
}

describe('businesses.completeProfile', () => {
  it('creates the profile with a slug from the name and the account email; the user is then authenticated', async () => {
    const user = await createBusinessWithoutProfile(t.deps.db);
    const caller = await callerFor(t.deps, user.id);
    expect((await caller.auth.me()).authState).toBe('profile_incomplete');
    await expect(caller.businesses.completeProfile(profileInput("Hue & Cry's Salon!"))).resolves.toEqual({
      slug: 'hue-crys-salon',
    });
    const [profile] = await t.deps.db.select().from(businessProfiles).where(eq(businessProfiles.id, user.id));
    expect(profile).toMatchObject({
      businessName: "Hue & Cry's Salon!",
      slug: 'hue-crys-salon',
      emailAddress: user.email,
      businessType: 'Hair Colourist',
      description: 'Colour and cuts',
      address: '5 High Street, Bath, BA1 1AA',
      phoneNumber: null,
      subscriptionStatus: 'active',
      isEarlyAdopter: false,
      openingHours: {
        monday: { open: '09:00', close: '17:00' },
        friday: { open: '09:00', close: '17:00' },
        saturday: { open: '10:00', close: '14:00' },
      },
    });
    expect(profile!.openingHours.sunday).toBeUndefined();
    const me = await (await callerFor(t.deps, user.id)).auth.me();
    expect(me).toMatchObject({ authState: 'authenticated', user: { businessSlug: 'hue-crys-salon' } });
    await expect(caller.businesses.bySlug({ slug: 'hue-crys-salon' })).resolves.toMatchObject({
      business: { businessName: "Hue & Cry's Salon!" },
    });
  });

  it('appends -2, -3, … to a taken or reserved slug and pads a short name', async () => {
    const first = await createBusinessWithoutProfile(t.deps.db);
    const second = await createBusinessWithoutProfile(t.deps.db);
    const third = await createBusinessWithoutProfile(t.deps.db);
    expect(await completeAs(first.id, 'Twin Cuts')).toEqual({ slug: 'twin-cuts' });
    expect(await completeAs(second.id, 'Twin  Cuts')).toEqual({ slug: 'twin-cuts-2' });
    expect(await completeAs(third.id, 'TWIN CUTS')).toEqual({ slug: 'twin-cuts-3' });
    const reserved = await createBusinessWithoutProfile(t.deps.db);
    expect(await completeAs(reserved.id, 'Dashboard')).toEqual({ slug: 'dashboard-2' });
    const short = await createBusinessWithoutProfile(t.deps.db);
    expect(await completeAs(short.id, 'Jo')).toEqual({ slug: 'jo-business' });
  });

  it('lets an unconfirmed business complete its profile (it then waits for the email)', async () => {
    const user = await createBusinessWithoutProfile(t.deps.db, { verified: false });
    expect(await completeAs(user.id, 'Pending Studio')).toEqual({ slug: 'pending-studio' });
    expect((await (await callerFor(t.deps, user.id)).auth.me()).authState).toBe('pending_email');
  });

  it('refuses a business whose profile is complete, also when two submissions race', async () => {
    const { user } = await createBusiness(t.deps.db);
    const done = await errorOf(completeAs(user.id, 'Second Profile'));
    expect([done.code, done.message]).toEqual(['CONFLICT', MSG.profileAlreadyComplete]);

    const racer = await createBusinessWithoutProfile(t.deps.db);
    const results = await Promise.allSettled([completeAs(racer.id, 'Race One'), completeAs(racer.id, 'Race Two')]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const rejected = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(rejected.reason).toMatchObject({ code: 'CONFLICT', message: MSG.profileAlreadyComplete });
  });

  it('refuses customers and visitors', async () => {
    const customer = await createUser(t.deps.db, { role: 'customer' });
    expect((await errorOf(completeAs(customer.id, 'Not A Business'))).code).toBe('FORBIDDEN');
    const anon = await callerFor(t.deps, null);
    expect((await errorOf(anon.businesses.completeProfile(profileInput('Nobody')))).code).toBe('UNAUTHORIZED');
    expect(await t.deps.db.select().from(businessProfiles).where(eq(businessProfiles.id, customer.id))).toEqual([]);
  });

  it('refuses missing fields with their messages', async () => {
    const user = await createBusinessWithoutProfile(t.deps.db);
    const caller = await callerFor(t.deps, user.id);
    const bad = (patch: Partial<CompleteBusinessProfileInput>) =>
      errorOf(caller.businesses.completeProfile({ ...profileInput('Fine Name'), ...patch }));
    expect((await bad({ businessName: ' ' })).message).toBe(MSG.businessNameRequired);
    expect((await bad({ description: '' })).message).toBe(MSG.descriptionRequired);
    expect((await bad({ description: 'x'.repeat(301) })).message).toBe(MSG.descriptionMax);
    expect((await bad({ address: '' })).message).toBe(MSG.addressRequired);
    expect(await t.deps.db.select().from(businessProfiles).where(eq(businessProfiles.id, user.id))).toEqual([]);
  });
});
