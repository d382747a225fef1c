/**
 * Names other people see refuse the bidirectional embedding, override and isolate controls
 * (U+202A-U+202E, U+2066-U+2069), which would let a name reorder the page title, email subject or
 * calendar text it ends up in: a business's name, contact name and address, a customer's name and
 * a slot's description, at sign-up, onboarding, in settings and in the slot form. Each procedure
 * answers BAD_REQUEST with the field's message and changes nothing.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { businessProfiles, customerProfiles, slots, users } from '../../server/db/schema/index';
import { MSG } from '../../shared/messages';
import {
  businessProfileForm,
  businessSignUp,
  callerFor,
  createBusiness,
  createBusinessWithoutProfile,
  createSlot,
  createUser,
  TEST_PASSWORD,
} from '../factories/index';
import { errorOf } from '../setup/helpers';
import { useTestDeps } from '../setup/test-database';

const t = useTestDeps(new Date('2026-11-21T10:00:00Z'));

/** Each control once, inside a name that would otherwise be accepted. */
const SPOOFED = ['\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069'].map(
  (c) => `Salon ${c}nolaS`,
);

/** Expects `call` to be refused with the text-direction message. */
async function expectRefused(call: Promise<unknown>) {
  const err = await errorOf(call);
  expect([err.code, err.message]).toEqual(['BAD_REQUEST', MSG.textDirectionControls]);
}

const everyRow = async () => ({
  users: await t.deps.db.select().from(users),
  customers: await t.deps.db.select().from(customerProfiles),
  businesses: await t.deps.db.select().from(businessProfiles),
  slots: await t.deps.db.select().from(slots),
});

describe('text-direction controls in names shown to others', () => {
  it('are refused at sign-up, customer and business, creating nothing', async () => {
    const anon = await callerFor(t.deps, null);
    const before = await everyRow();
    for (const spoofed of SPOOFED) {
      await expectRefused(
        anon.auth.registerCustomer({ name: spoofed, email: 'c@example.test', password: TEST_PASSWORD }),
      );
    }
    for (const field of ['name', 'businessName', 'address']) {
      await expectRefused(anon.auth.registerBusiness(businessSignUp('b@example.test', { [field]: SPOOFED[4] })));
    }
    expect(await everyRow()).toEqual(before);
  });

  it("are refused in a business's onboarding and settings, changing nothing", async () => {
    const incomplete = await createBusinessWithoutProfile(t.deps.db);
    const { user } = await createBusiness(t.deps.db);
    const before = await everyRow();
    const { name: _n, email: _e, password: _p, slug: _s, ...profile } = businessSignUp('o@example.test');
    const onboarding = await callerFor(t.deps, incomplete.id);
    const settings = await callerFor(t.deps, user.id);
    for (const spoofed of SPOOFED) {
      await expectRefused(onboarding.businesses.completeProfile({ ...profile, businessName: spoofed }));
      await expectRefused(
        settings.settings.updateBusinessProfile({ ...businessProfileForm('x-studio'), businessName: spoofed }),
      );
    }
    await expectRefused(onboarding.businesses.completeProfile({ ...profile, address: SPOOFED[2]! }));
    for (const field of ['contactName', 'address']) {
      await expectRefused(
        settings.settings.updateBusinessProfile({ ...businessProfileForm('x-studio'), [field]: SPOOFED[7] }),
      );
    }
    expect(await everyRow()).toEqual(before);
  });

  it("are refused in a customer's name, changing nothing", async () => {
    const customer = await createUser(t.deps.db, { role: 'customer', name: 'Cara Customer' });
    const caller = await callerFor(t.deps, customer.id);
    const before = await everyRow();
    for (const spoofed of SPOOFED) await expectRefused(caller.settings.updateCustomerName({ fullName: spoofed }));
    expect(await everyRow()).toEqual(before);
  });

  it("are refused in a slot's description, created or changed, changing nothing", async () => {
    const { user } = await createBusiness(t.deps.db);
    const slot = await createSlot(t.deps.db, user.id, { date: '2026-11-22', startTime: '12:00', endTime: '12:30' });
    const business = await callerFor(t.deps, user.id);
    const before = await everyRow();
    const fields = { date: '2026-11-22', startTime: '14:00', endTime: '15:00' };
    for (const spoofed of SPOOFED) {
      await expectRefused(business.slots.create({ ...fields, description: spoofed }));
      await expectRefused(business.slots.update({ slotId: slot.id, ...fields, description: spoofed }));
    }
    expect(await everyRow()).toEqual(before);
  });

  it('control characters (ESC, VT, NEL) are refused at sign-up and in settings, changing nothing', async () => {
    const anon = await callerFor(t.deps, null);
    const { user } = await createBusiness(t.deps.db);
    const settings = await callerFor(t.deps, user.id);
    const before = await everyRow();
    const refused = async (call: Promise<unknown>, message: string) => {
      const err = await errorOf(call);
      expect([err.code, err.message]).toEqual(['BAD_REQUEST', message]);
    };
    await refused(
      anon.auth.registerCustomer({ name: 'Cara\u001b[2J', email: 'c@example.test', password: TEST_PASSWORD }),
      MSG.textControlCharacters,
    );
    await refused(
      anon.auth.registerBusiness(businessSignUp('b@example.test', { businessName: 'Salon\u000bStudio' })),
      MSG.textOneLine,
    );
    await refused(
      anon.auth.registerBusiness(businessSignUp('b@example.test', { description: 'Cuts\n\u001b[31mcolour' })),
      MSG.textControlCharacters,
    );
    await refused(
      settings.settings.updateBusinessProfile({ ...businessProfileForm('x-studio'), address: '1 High St\u0085Town' }),
      MSG.textOneLine,
    );
    expect(await everyRow()).toEqual(before);
  });

  it('leave right-to-left names as they are', async () => {
    const customer = await createUser(t.deps.db, { role: 'customer', name: 'Cara Customer' });
    await (await callerFor(t.deps, customer.id)).settings.updateCustomerName({ fullName: 'مريم \u200Fالحسن' });
    const [row] = await t.deps.db.select().from(customerProfiles).where(eq(customerProfiles.id, customer.id));
    expect(row!.fullName).toBe('مريم \u200Fالحسن');
  });
});
