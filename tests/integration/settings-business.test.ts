/**
 * Business settings (ADR 0013): settings.business, settings.checkSlug,
 * settings.updateBusinessProfile and settings.updateBusinessHours.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { businessProfiles, users } from '../../server/db/schema/index';
import { MSG } from '../../shared/messages';
import { defaultWeeklySchedule } from '../../shared/opening-hours';
import type { UpdateBusinessProfileForm } from '../../shared/schemas/settings';
import {
  businessProfileForm,
  callerFor,
  createBusiness,
  createBusinessWithoutProfile,
  createUser,
} from '../factories/index';
import { errorOf, outwardOf } from '../setup/helpers';
import { useTestDeps } from '../setup/test-database';

const t = useTestDeps(new Date('2026-11-21T10:00:00Z'));

const profileOf = async (id: string) =>
  (await t.deps.db.select().from(businessProfiles).where(eq(businessProfiles.id, id)))[0]!;

const validInput = (slug: string) => businessProfileForm(slug);

describe('settings.business', () => {
  it("returns the business's editable profile, contact name, schedule and billing visibility", async () => {
    const { user, profile } = await createBusiness(t.deps.db, {
      openingHours: { monday: { open: '08:00', close: '20:00' }, saturday: { open: '10:00', close: '24:00' } },
      timezone: 'Europe/Dublin',
    });
    await t.deps.db
      .update(businessProfiles)
      .set({ businessType: 'Hair Services|Hair Colourist' })
      .where(eq(businessProfiles.id, user.id));
    const settings = await (await callerFor(t.deps, user.id)).settings.business();
    expect(settings).toEqual({
      businessName: profile.businessName,
      slug: profile.slug,
      category: 'Hair Colourist',
      description: 'Test business',
      address: '1 Test Street, London, SW1A 1AA',
      phoneNumber: null,
      emailAddress: user.email,
      timezone: 'Europe/Dublin',
      contactName: 'Bea Business',
      accountEmail: user.email,
      schedule: {
        ...defaultWeeklySchedule(),
        monday: { isActive: true, start: '08:00', end: '20:00' },
        tuesday: { isActive: false, start: '09:00', end: '17:00' },
        wednesday: { isActive: false, start: '09:00', end: '17:00' },
        thursday: { isActive: false, start: '09:00', end: '17:00' },
        friday: { isActive: false, start: '09:00', end: '17:00' },
        saturday: { isActive: true, start: '10:00', end: '24:00' },
      },
      showBilling: false,
    });
  });

  it('shows Billing only for a real payment-customer id whose subscription is not canceled', async () => {
    const { user } = await createBusiness(t.deps.db);
    const caller = await callerFor(t.deps, user.id);
    const show = async (stripeCustomerId: string | null, subscriptionStatus = 'active') => {
      await t.deps.db
        .update(businessProfiles)
        .set({ stripeCustomerId, subscriptionStatus })
        .where(eq(businessProfiles.id, user.id));
      return (await caller.settings.business()).showBilling;
    };
    expect(await show(null)).toBe(false);
    expect(await show('cus_Q1w2e3')).toBe(true);
    expect(await show('cus_Q1w2e3', 'trialing')).toBe(true);
    expect(await show('cus_Q1w2e3', 'canceled')).toBe(false);
    expect(await show('manual_fix_2025')).toBe(false);
    expect(await show('manual-fix')).toBe(false);
    expect(await show('  ')).toBe(false);
  });

  it('refuses customers and visitors; a business without a profile gets the load error', async () => {
    const customer = await createUser(t.deps.db, { role: 'customer' });
    expect((await errorOf((await callerFor(t.deps, customer.id)).settings.business())).code).toBe('FORBIDDEN');
    expect((await errorOf((await callerFor(t.deps, null)).settings.business())).code).toBe('UNAUTHORIZED');
    const incomplete = await createBusinessWithoutProfile(t.deps.db);
    const err = await errorOf((await callerFor(t.deps, incomplete.id)).settings.business());
    expect(outwardOf(err)).toMatchObject({
      code: 'NOT_FOUND',
      message: MSG.businessProfileLoadFailed,
      title: MSG.errorLoadingProfileTitle,
    });
  });
});

describe('settings.checkSlug', () => {
  it('answers valid, taken or invalid; the own slug is valid; input is trimmed and lower-cased', async () => {
    const { user, profile } = await createBusiness(t.deps.db);
    const other = await createBusiness(t.deps.db);
    const caller = await callerFor(t.deps, user.id);
    expect(await caller.settings.checkSlug({ slug: profile.slug })).toEqual({ status: 'valid' });
    expect(await caller.settings.checkSlug({ slug: ` ${profile.slug.toUpperCase()} ` })).toEqual({ status: 'valid' });
    expect(await caller.settings.checkSlug({ slug: 'a-free-url-2026' })).toEqual({ status: 'valid' });
    expect(await caller.settings.checkSlug({ slug: other.profile.slug })).toEqual({
      status: 'taken',
      message: MSG.slugTaken,
    });
    for (const bad of ['ab', 'x'.repeat(51), 'no spaces', 'under_score', '']) {
      expect(await caller.settings.checkSlug({ slug: bad })).toEqual({ status: 'invalid', message: MSG.slugFormat });
    }
    expect(await caller.settings.checkSlug({ slug: 'dashboard' })).toEqual({
      status: 'invalid',
      message: MSG.slugReserved,
    });
  });

  it('refuses customers and visitors', async () => {
    const customer = await createUser(t.deps.db, { role: 'customer' });
    const asCustomer = await callerFor(t.deps, customer.id);
    expect((await errorOf(asCustomer.settings.checkSlug({ slug: 'anything' }))).code).toBe('FORBIDDEN');
    const anon = await callerFor(t.deps, null);
    expect((await errorOf(anon.settings.checkSlug({ slug: 'anything' }))).code).toBe('UNAUTHORIZED');
  });
});

describe('settings.updateBusinessProfile', () => {
  it('saves every field and the contact name; the slug moves the public page', async () => {
    const { user, profile } = await createBusiness(t.deps.db);
    const caller = await callerFor(t.deps, user.id);
    await expect(caller.settings.updateBusinessProfile(validInput('renamed-studio'))).resolves.toEqual({
      slug: 'renamed-studio',
      slugChanged: true,
    });
    expect(await profileOf(user.id)).toMatchObject({
      businessName: 'Renamed Studio',
      slug: 'renamed-studio',
      businessType: 'Barber Shop',
      description: 'Fades and beard trims',
      address: '3 New Road, York, YO1 7HH',
      phoneNumber: '01904 000000',
      emailAddress: 'desk@renamed.example',
      timezone: 'Europe/London',
    });
    const [account] = await t.deps.db.select().from(users).where(eq(users.id, user.id));
    expect(account!.name).toBe('Bea Owner');
    // A new request (a new context) sees the new name and slug in the session user.
    expect((await (await callerFor(t.deps, user.id)).auth.me()).user).toMatchObject({
      name: 'Bea Owner',
      businessName: 'Renamed Studio',
      businessSlug: 'renamed-studio',
    });
    await expect(caller.businesses.bySlug({ slug: 'renamed-studio' })).resolves.toMatchObject({
      business: { businessName: 'Renamed Studio' },
    });
    expect((await errorOf(caller.businesses.bySlug({ slug: profile.slug }))).code).toBe('NOT_FOUND');
    // Saving again with the same slug is not a slug change.
    await expect(caller.settings.updateBusinessProfile(validInput('renamed-studio'))).resolves.toEqual({
      slug: 'renamed-studio',
      slugChanged: false,
    });
  });

  it('trims everything, saves empty optional fields as null and lower-cases slug and email', async () => {
    const { user } = await createBusiness(t.deps.db);
    const caller = await callerFor(t.deps, user.id);
    const result = await caller.settings.updateBusinessProfile({
      ...validInput(' Trimmed-Studio '),
      businessName: '  Trimmed  ',
      description: ' Short ',
      address: '   ',
      phone: '',
      email: ' Desk@Trimmed.Example ',
      timezone: 'America/New_York',
    });
    expect(result.slug).toBe('trimmed-studio');
    expect(await profileOf(user.id)).toMatchObject({
      businessName: 'Trimmed',
      description: 'Short',
      address: null,
      phoneNumber: null,
      emailAddress: 'desk@trimmed.example',
      timezone: 'America/New_York',
    });
    await caller.settings.updateBusinessProfile({ ...validInput('trimmed-studio'), email: '', address: null });
    expect(await profileOf(user.id)).toMatchObject({ emailAddress: null, address: null });
  });

  it("refuses bad input with the fields' messages and changes nothing", async () => {
    const { user } = await createBusiness(t.deps.db);
    const before = await profileOf(user.id);
    const caller = await callerFor(t.deps, user.id);
    const bad = async (patch: Partial<UpdateBusinessProfileForm>) => {
      const err = await errorOf(caller.settings.updateBusinessProfile({ ...validInput('bad-input-studio'), ...patch }));
      expect(err.code).toBe('BAD_REQUEST');
      return err.message;
    };
    expect(await bad({ businessName: '  ' })).toBe(MSG.businessNameRequired);
    expect(await bad({ category: '' })).toBe(MSG.businessTypeRequired);
    expect(await bad({ category: 'Dog Grooming' })).toBe(MSG.businessTypeRequired);
    expect(await bad({ description: '' })).toBe(MSG.descriptionRequired);
    expect(await bad({ description: 'x'.repeat(301) })).toBe(MSG.descriptionMax);
    expect(await bad({ slug: '' })).toBe(MSG.businessUrlRequired);
    expect(await bad({ slug: 'ab' })).toBe(MSG.slugFormat);
    expect(await bad({ slug: 'has space' })).toBe(MSG.slugFormat);
    expect(await bad({ slug: 'x'.repeat(51) })).toBe(MSG.slugFormat);
    expect(await bad({ contactName: ' ' })).toBe(MSG.contactNameRequired);
    expect(await bad({ email: 'not-an-email' })).toBe(MSG.validEmail);
    expect(await bad({ timezone: 'Mars/Olympus_Mons' })).toBe(MSG.timezoneInvalid);
    expect(await bad({ slug: 'settings' })).toBe(MSG.slugReserved);
    expect(await profileOf(user.id)).toEqual(before);
  });

  it("refuses another business's slug with the conflict text and changes nothing", async () => {
    const { user } = await createBusiness(t.deps.db);
    const other = await createBusiness(t.deps.db);
    const before = await profileOf(user.id);
    const err = await errorOf(
      (await callerFor(t.deps, user.id)).settings.updateBusinessProfile(validInput(other.profile.slug)),
    );
    expect(outwardOf(err)).toEqual({
      code: 'CONFLICT',
      message: MSG.slugOrNameInUse,
      title: MSG.errorUpdatingProfileTitle,
      field: 'slug',
    });
    expect(await profileOf(user.id)).toEqual(before);
    expect((await profileOf(other.user.id)).slug).toBe(other.profile.slug);
  });

  it('lets exactly one of two businesses racing for the same new slug have it', async () => {
    const first = await createBusiness(t.deps.db);
    const second = await createBusiness(t.deps.db);
    const [a, b] = [await callerFor(t.deps, first.user.id), await callerFor(t.deps, second.user.id)];
    const results = await Promise.allSettled([
      a.settings.updateBusinessProfile(validInput('contested-url')),
      b.settings.updateBusinessProfile(validInput('contested-url')),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const rejected = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(rejected.reason).toMatchObject({ code: 'CONFLICT', message: MSG.slugOrNameInUse });
    const owners = await t.deps.db
      .select({ id: businessProfiles.id })
      .from(businessProfiles)
      .where(eq(businessProfiles.slug, 'contested-url'));
    expect(owners).toHaveLength(1);
  });

  it("changes only the caller's own profile", async () => {
    const { user } = await createBusiness(t.deps.db);
    const other = await createBusiness(t.deps.db);
    const otherBefore = await profileOf(other.user.id);
    await (await callerFor(t.deps, user.id)).settings.updateBusinessProfile(validInput('only-mine'));
    expect(await profileOf(other.user.id)).toEqual(otherBefore);
  });

  it('refuses customers, visitors and a business without a profile', async () => {
    const customer = await createUser(t.deps.db, { role: 'customer' });
    const asCustomer = await callerFor(t.deps, customer.id);
    expect((await errorOf(asCustomer.settings.updateBusinessProfile(validInput('cust-url')))).code).toBe('FORBIDDEN');
    const anon = await callerFor(t.deps, null);
    expect((await errorOf(anon.settings.updateBusinessProfile(validInput('anon-url')))).code).toBe('UNAUTHORIZED');
    const incomplete = await createBusinessWithoutProfile(t.deps.db);
    const err = await errorOf(
      (await callerFor(t.deps, incomplete.id)).settings.updateBusinessProfile(validInput('no-profile-url')),
    );
    expect([err.code, err.message]).toEqual(['NOT_FOUND', MSG.businessProfileLoadFailed]);
    expect(await t.deps.db.select().from(businessProfiles).where(eq(businessProfiles.id, incomplete.id))).toEqual([]);
  });
});

describe('settings.updateBusinessHours', () => {
  it('stores only the active days, with hours from 00:00 to 24:00', async () => {
    const { user } = await createBusiness(t.deps.db);
    const caller = await callerFor(t.deps, user.id);
    const schedule = {
      ...defaultWeeklySchedule(),
      tuesday: { isActive: false, start: '09:00', end: '17:00' },
      saturday: { isActive: true, start: '00:00', end: '24:00' },
    };
    const expected = {
      monday: { open: '09:00', close: '17:00' },
      wednesday: { open: '09:00', close: '17:00' },
      thursday: { open: '09:00', close: '17:00' },
      friday: { open: '09:00', close: '17:00' },
      saturday: { open: '00:00', close: '24:00' },
    };
    await expect(caller.settings.updateBusinessHours({ schedule })).resolves.toEqual({ openingHours: expected });
    expect((await profileOf(user.id)).openingHours).toEqual(expected);
    expect((await caller.settings.business()).schedule).toEqual(schedule);
  });

  it('saves a week with every day off as closed all week: no slot dates are offered (ADR 0025)', async () => {
    const { user } = await createBusiness(t.deps.db);
    const caller = await callerFor(t.deps, user.id);
    const allOff = Object.fromEntries(
      Object.entries(defaultWeeklySchedule()).map(([day, d]) => [day, { ...d, isActive: false }]),
    ) as ReturnType<typeof defaultWeeklySchedule>;
    await expect(caller.settings.updateBusinessHours({ schedule: allOff })).resolves.toEqual({ openingHours: {} });
    const err = await errorOf(
      caller.slots.create({ date: '2026-11-23', startTime: '10:00', endTime: '11:00', description: 'Cut' }),
    );
    expect([err.code, err.message]).toEqual(['BAD_REQUEST', MSG.selectDate]);
  });

  it('refuses a closing time not after the opening time and changes nothing', async () => {
    const { user } = await createBusiness(t.deps.db);
    const before = (await profileOf(user.id)).openingHours;
    const caller = await callerFor(t.deps, user.id);
    const schedule = { ...defaultWeeklySchedule(), monday: { isActive: true, start: '17:00', end: '09:00' } };
    const err = await errorOf(caller.settings.updateBusinessHours({ schedule }));
    expect([err.code, err.message]).toEqual(['BAD_REQUEST', MSG.closingAfterOpening]);
    expect((await profileOf(user.id)).openingHours).toEqual(before);
  });

  it('refuses customers, visitors and a business without a profile', async () => {
    const schedule = defaultWeeklySchedule();
    const customer = await createUser(t.deps.db, { role: 'customer' });
    const asCustomer = await callerFor(t.deps, customer.id);
    expect((await errorOf(asCustomer.settings.updateBusinessHours({ schedule }))).code).toBe('FORBIDDEN');
    const anon = await callerFor(t.deps, null);
    expect((await errorOf(anon.settings.updateBusinessHours({ schedule }))).code).toBe('UNAUTHORIZED');
    const incomplete = await createBusinessWithoutProfile(t.deps.db);
    const err = await errorOf((await callerFor(t.deps, incomplete.id)).settings.updateBusinessHours({ schedule }));
    expect([err.code, err.message]).toEqual(['NOT_FOUND', MSG.businessProfileLoadFailed]);
  });
});
