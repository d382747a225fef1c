/**
 * account.exportData: the data export file (format version 2.0, docs/decisions/0014), for a
 * business and for a customer, with ownership (nothing of anyone else).
 */
import { describe, expect, it } from 'vitest';
import { customerLikes, customerProfiles } from '../../server/db/schema/index';
import { eq } from 'drizzle-orm';
import { MSG } from '../../shared/messages';
import { callerFor, createBusiness, createBusinessWithoutProfile, createSlot, createUser } from '../factories/index';
import { errorOf } from '../setup/helpers';
import { useTestDeps } from '../setup/test-database';

// 23:30 in London on 21 November is already 22 November in Auckland (file names use local dates).
const t = useTestDeps(new Date('2026-11-21T23:30:00Z'));

/**
 * A business with three slots: one confirmed for `customer`, one requested by `customer`, one
 * free; the customer likes it. Another business and customer exist alongside, with their own data.
 */
async function world(timezone = 'Europe/London') {
  const biz = await createBusiness(t.deps.db, { timezone, name: 'Export Studio' });
  const customer = await createUser(t.deps.db, { role: 'customer', name: 'Exa Customer' });
  const confirmed = await createSlot(t.deps.db, biz.user.id, {
    date: '2026-11-25',
    startTime: '10:00',
    endTime: '11:00',
    description: 'Cut and finish',
  });
  const requested = await createSlot(t.deps.db, biz.user.id, {
    date: '2026-11-26',
    startTime: '12:00',
    endTime: '13:00',
    description: 'Colour',
  });
  await createSlot(t.deps.db, biz.user.id, { date: '2026-11-27', startTime: '09:00', endTime: '09:30' });
  const asCustomer = await callerFor(t.deps, customer.id);
  const asBusiness = await callerFor(t.deps, biz.user.id);
  const first = await asCustomer.bookings.request({ slotId: confirmed.id, notes: 'Short please' });
  await asBusiness.bookings.confirm({ bookingId: first.id });
  t.clock.advance(60_000);
  const second = await asCustomer.bookings.request({ slotId: requested.id });
  await t.deps.db.insert(customerLikes).values({ customerId: customer.id, businessId: biz.user.id });

  const other = await createBusiness(t.deps.db, { name: 'Other Studio' });
  const otherCustomer = await createUser(t.deps.db, { role: 'customer' });
  const otherSlot = await createSlot(t.deps.db, other.user.id, {
    date: '2026-11-25',
    startTime: '10:00',
    endTime: '11:00',
  });
  await (await callerFor(t.deps, otherCustomer.id)).bookings.request({ slotId: otherSlot.id });
  await t.deps.db.insert(customerLikes).values({ customerId: otherCustomer.id, businessId: other.user.id });
  await t.deps.db.insert(customerLikes).values({ customerId: customer.id, businessId: other.user.id });
  return { biz, customer, confirmed, requested, bookingIds: [first.id, second.id], other };
}

describe('account.exportData', () => {
  it("exports a business's profile, slots, bookings with customer and slot details, likes and metadata", async () => {
    const { biz, customer, confirmed, requested, bookingIds } = await world('Pacific/Auckland');
    t.clock.set(new Date('2026-11-21T23:30:00Z'));
    const file = await (await callerFor(t.deps, biz.user.id)).account.exportData();
    expect(file.fileName).toBe('business-data-2026-11-22.json');
    const { data } = file;
    expect(data.version).toBe('2.0');
    expect(data.userType).toBe('business');
    expect(data.profile).toMatchObject({
      id: biz.user.id,
      businessName: 'Export Studio',
      slug: biz.profile.slug,
      timezone: 'Pacific/Auckland',
      account: { id: biz.user.id, email: biz.user.email, name: 'Bea Business', role: 'business' },
    });
    expect(data.profile).not.toHaveProperty('stripeCustomerId');
    expect(JSON.stringify(data)).not.toContain('passwordHash');
    if (data.userType !== 'business') throw new Error('expected a business export');
    expect(data.slots.map((s) => s.date)).toEqual(['2026-11-27', '2026-11-26', '2026-11-25']);
    expect(data.slots[2]).toMatchObject({
      id: confirmed.id,
      isBooked: true,
      customerName: 'Exa Customer',
      customerEmail: customer.email,
    });
    expect(data.bookings.map((b) => b.id)).toEqual([...bookingIds].reverse());
    expect(data.bookings[1]).toMatchObject({
      id: bookingIds[0],
      status: 'confirmed',
      notes: 'Short please',
      slot: {
        id: confirmed.id,
        date: '2026-11-25',
        startTime: '10:00',
        endTime: '11:00',
        description: 'Cut and finish',
      },
      customer: { id: customer.id, fullName: 'Exa Customer', email: customer.email, phoneNumber: null },
    });
    expect(data.bookings[0]).toMatchObject({ status: 'pending', slot: { id: requested.id } });
    expect(data.likes).toEqual([
      {
        id: expect.any(String),
        createdAt: expect.any(String),
        businessProfile: {
          id: biz.user.id,
          businessName: 'Export Studio',
          slug: biz.profile.slug,
          businessType: 'Hair Salon',
          address: '1 Test Street, London, SW1A 1AA',
        },
      },
    ]);
    expect(data.metadata).toEqual({
      downloadedAt: '2026-11-21T23:30:00.000Z',
      userId: biz.user.id,
      email: biz.user.email,
      userType: 'business',
      dataVersion: '2.0',
      totalSlots: 3,
      totalBookings: 2,
      totalLikes: 1,
    });
    // The file is plain JSON: what the browser saves reads back the same.
    expect(JSON.parse(JSON.stringify(file))).toEqual(file);
  });

  it("exports a customer's profile, bookings with slot and business profile, likes and metadata", async () => {
    const { biz, customer, confirmed, bookingIds, other } = await world();
    await t.deps.db
      .update(customerProfiles)
      .set({ phoneNumber: '07700 900000' })
      .where(eq(customerProfiles.id, customer.id));
    t.clock.set(new Date('2026-11-21T23:30:00Z'));
    const file = await (await callerFor(t.deps, customer.id)).account.exportData();
    expect(file.fileName).toBe('customer-data-2026-11-21.json');
    const { data } = file;
    expect(data).not.toHaveProperty('slots');
    expect(data.profile).toMatchObject({
      id: customer.id,
      fullName: 'Exa Customer',
      email: customer.email,
      phoneNumber: '07700 900000',
      account: { role: 'customer', email: customer.email },
    });
    expect(data.bookings.map((b) => b.id)).toEqual([...bookingIds].reverse());
    expect(data.bookings[1]).toMatchObject({
      status: 'confirmed',
      slot: { id: confirmed.id, date: '2026-11-25', description: 'Cut and finish', archived: false },
      businessProfile: {
        id: biz.user.id,
        businessName: 'Export Studio',
        slug: biz.profile.slug,
        address: '1 Test Street, London, SW1A 1AA',
        archived: false,
      },
    });
    expect(data.likes.map((l) => l.businessProfile.businessName).sort()).toEqual(['Export Studio', 'Other Studio']);
    expect(data.metadata).toEqual({
      downloadedAt: '2026-11-21T23:30:00.000Z',
      userId: customer.id,
      email: customer.email,
      userType: 'customer',
      dataVersion: '2.0',
      totalBookings: 2,
      totalLikes: 2,
    });
    expect(JSON.stringify(data)).not.toContain(other.user.email);
  });

  it("keeps a booking's archived slot and business copies once the business is gone", async () => {
    const { biz, customer } = await world();
    await (
      await callerFor(t.deps, biz.user.id)
    ).account.delete({
      confirmation: 'DELETE',
      currentPassword: 'correct-horse-battery',
    });
    const { data } = await (await callerFor(t.deps, customer.id)).account.exportData();
    // The upcoming confirmed booking was cancelled when the business closed (docs/decisions/0050).
    const confirmed = data.bookings.find((b) => b.slot?.description === 'Cut and finish')!;
    expect(confirmed).toMatchObject({
      status: 'cancelled',
      slot: {
        id: null,
        date: '2026-11-25',
        startTime: '10:00',
        endTime: '11:00',
        description: 'Cut and finish',
        archived: true,
      },
      businessProfile: {
        id: null,
        businessName: 'Export Studio',
        address: '1 Test Street, London, SW1A 1AA',
        archived: true,
      },
    });
    expect(data.likes.map((l) => l.businessProfile.businessName)).toEqual(['Other Studio']);
  });

  it('answers its text for a business without a profile and refuses visitors', async () => {
    const incomplete = await createBusinessWithoutProfile(t.deps.db);
    const err = await errorOf((await callerFor(t.deps, incomplete.id)).account.exportData());
    expect([err.code, err.message]).toEqual(['NOT_FOUND', MSG.exportBusinessFailed]);
    expect((await errorOf((await callerFor(t.deps, null)).account.exportData())).code).toBe('UNAUTHORIZED');
  });
});
