/**
 * The business's slot procedures: create, update, delete,
 * markAddedToSystem and listMine, with their rules, messages and refusals (another business gets
 * NOT_FOUND, customers FORBIDDEN, visitors UNAUTHORIZED), and delete racing a booking request.
 */
import type { TRPCError } from '@trpc/server';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bookings, slots } from '../../server/db/schema/index';
import { MSG } from '../../shared/messages';
import { businessTabOf } from '../../shared/slot-categories';
import { callerFor, createBusiness, createSlot, createUser } from '../factories/index';
import { errorOf, outwardOf } from '../setup/helpers';
import { useTestDeps } from '../setup/test-database';

const START = new Date('2026-11-21T10:00:00Z'); // Saturday 10:00 in London (GMT)
const t = useTestDeps(START);

const input = { date: '2026-11-22', startTime: '10:00', endTime: '11:00', description: 'Colour' };

async function slotRow(id: string) {
  const [row] = await t.deps.db.select().from(slots).where(eq(slots.id, id));
  return row;
}

/** A business (with its caller), a customer (with caller) and one slot of the business. */
async function scene(slot = { date: '2026-11-22', startTime: '12:00', endTime: '12:30' }) {
  const { user: owner, profile } = await createBusiness(t.deps.db);
  const customer = await createUser(t.deps.db, { role: 'customer', name: 'Cara Customer' });
  const s = await createSlot(t.deps.db, owner.id, slot);
  return {
    owner,
    profile,
    customer,
    slot: s,
    business: await callerFor(t.deps, owner.id),
    client: await callerFor(t.deps, customer.id),
  };
}

/** The refusals every business-only slot procedure shares: another business, a customer, a visitor. */
async function expectOwnerOnly(call: (caller: Awaited<ReturnType<typeof callerFor>>) => Promise<unknown>) {
  const { user: other } = await createBusiness(t.deps.db);
  expect(outwardOf(await errorOf(call(await callerFor(t.deps, other.id))))).toMatchObject({
    code: 'NOT_FOUND',
    message: MSG.slotNotFound,
  });
  const customer = await createUser(t.deps.db, { role: 'customer' });
  expect((await errorOf(call(await callerFor(t.deps, customer.id)))).code).toBe('FORBIDDEN');
  expect((await errorOf(call(await callerFor(t.deps, null)))).code).toBe('UNAUTHORIZED');
}

describe('slots.create', () => {
  it('adds an unbooked slot that is offered on the public page', async () => {
    const { user: owner, profile } = await createBusiness(t.deps.db);
    const business = await callerFor(t.deps, owner.id);
    const { id } = await business.slots.create({ ...input, description: '  Colour  ' });
    expect(await slotRow(id)).toMatchObject({
      businessId: owner.id,
      date: '2026-11-22',
      startTime: '10:00',
      endTime: '11:00',
      description: 'Colour',
      isBooked: false,
      addedToSystem: false,
      customerId: null,
    });
    const page = await (await callerFor(t.deps, null)).businesses.bySlug({ slug: profile.slug });
    expect(page.slots.map((s) => s.id)).toEqual([id]);
  });

  it('refuses what the form would not offer, with the form messages and fields', async () => {
    const { user: owner } = await createBusiness(t.deps.db, {
      openingHours: { sunday: { open: '09:00', close: '17:00' }, monday: { open: '09:00', close: '17:00' } },
    });
    const business = await callerFor(t.deps, owner.id);
    const refused = async (over: Partial<typeof input>) =>
      outwardOf(await errorOf(business.slots.create({ ...input, ...over })));
    expect(await refused({ endTime: '10:15' })).toMatchObject({ code: 'BAD_REQUEST', message: MSG.slotMin });
    expect(await refused({ endTime: '09:30' })).toMatchObject({ code: 'BAD_REQUEST', message: MSG.endAfterStart });
    expect(await refused({ startTime: '' })).toMatchObject({ code: 'BAD_REQUEST', message: MSG.selectStart });
    expect(await refused({ endTime: '' })).toMatchObject({ code: 'BAD_REQUEST', message: MSG.selectEnd });
    // The description is one line (it becomes email subjects and calendar titles).
    expect(await refused({ description: 'Colour\r\nBcc: spy@example.test' })).toMatchObject({
      code: 'BAD_REQUEST',
      message: MSG.textOneLine,
    });
    // Saturday (today) is closed: not offered.
    expect(await refused({ date: '2026-11-21', startTime: '12:00', endTime: '13:00' })).toMatchObject({
      message: MSG.selectDate,
      field: 'date',
    });
    // Beyond the four-day window (Sun-Wed).
    expect(await refused({ date: '2026-11-29' })).toMatchObject({ message: MSG.selectDate, field: 'date' });
    // Yesterday, and earlier today in the business's zone.
    expect(await refused({ date: '2026-11-20' })).toMatchObject({ message: MSG.slotPast, field: 'startTime' });
    // Before opening, and ending after closing (17:00).
    expect(await refused({ startTime: '08:30' })).toMatchObject({ message: MSG.selectStart, field: 'startTime' });
    expect(await refused({ startTime: '16:30', endTime: '17:30' })).toMatchObject({
      message: MSG.selectEnd,
      field: 'endTime',
    });
    expect(await t.deps.db.select().from(slots).where(eq(slots.businessId, owner.id))).toEqual([]);
  });

  it('refuses a second slot at the same date and start, but not at the same time elsewhere', async () => {
    const { user: owner } = await createBusiness(t.deps.db);
    const { user: neighbour } = await createBusiness(t.deps.db);
    const business = await callerFor(t.deps, owner.id);
    await business.slots.create(input);
    expect(outwardOf(await errorOf(business.slots.create({ ...input, endTime: '12:00' })))).toMatchObject({
      code: 'CONFLICT',
      message: MSG.slotDuplicate,
    });
    await expect((await callerFor(t.deps, neighbour.id)).slots.create(input)).resolves.toHaveProperty('id');
    expect(await t.deps.db.select().from(slots).where(eq(slots.businessId, owner.id))).toHaveLength(1);
  });

  it("refuses visitors and unverified businesses with the slot form's titles, customers, and businesses without a profile", async () => {
    expect(outwardOf(await errorOf((await callerFor(t.deps, null)).slots.create(input)))).toEqual({
      code: 'UNAUTHORIZED',
      message: MSG.loginToAddSlots,
      title: MSG.authRequiredTitle,
      field: undefined,
    });
    const { user: unverified } = await createBusiness(t.deps.db, { verified: false });
    expect(outwardOf(await errorOf((await callerFor(t.deps, unverified.id)).slots.create(input)))).toMatchObject({
      code: 'FORBIDDEN',
      message: MSG.verifyToAddSlots,
      title: MSG.verifyTitle,
    });
    const customer = await createUser(t.deps.db, { role: 'customer' });
    expect((await errorOf((await callerFor(t.deps, customer.id)).slots.create(input))).code).toBe('FORBIDDEN');
    const noProfile = await createUser(t.deps.db, { role: 'business' });
    expect(outwardOf(await errorOf((await callerFor(t.deps, noProfile.id)).slots.create(input))).code).toBe(
      'NOT_FOUND',
    );
  });
});

describe('slots.update', () => {
  it('changes the date, times and description of an available slot', async () => {
    const { business, slot, profile } = await scene();
    await expect(
      business.slots.update({
        slotId: slot.id,
        date: '2026-11-23',
        startTime: '14:00',
        endTime: '15:30',
        description: 'Trim',
      }),
    ).resolves.toEqual({ id: slot.id });
    expect(await slotRow(slot.id)).toMatchObject({
      date: '2026-11-23',
      startTime: '14:00',
      endTime: '15:30',
      description: 'Trim',
      isBooked: false,
    });
    const page = await (await callerFor(t.deps, null)).businesses.bySlug({ slug: profile.slug });
    expect(page.slots).toEqual([
      { id: slot.id, date: '2026-11-23', startTime: '14:00', endTime: '15:30', description: 'Trim' },
    ]);
  });

  it('applies the form rules and the duplicate check, changing nothing when refused', async () => {
    const { business, slot, owner } = await scene();
    await createSlot(t.deps.db, owner.id, { date: '2026-11-23', startTime: '09:00', endTime: '09:30' });
    const base = { slotId: slot.id, date: '2026-11-22', startTime: '12:00', endTime: '12:30', description: 'Cut' };
    const refused = async (over: Partial<typeof base>) =>
      outwardOf(await errorOf(business.slots.update({ ...base, ...over })));
    expect(await refused({ date: '2026-11-21', startTime: '09:00', endTime: '10:00' })).toMatchObject({
      code: 'BAD_REQUEST',
      message: MSG.slotPast,
    });
    expect(await refused({ endTime: '12:15' })).toMatchObject({ message: MSG.slotMin });
    expect(await refused({ description: ' ' })).toMatchObject({ message: MSG.descriptionRequired });
    expect(await refused({ description: 'Cut\u2028and colour' })).toMatchObject({
      message: MSG.textOneLine,
    });
    expect(await refused({ date: '2026-11-23', startTime: '09:00', endTime: '09:30' })).toMatchObject({
      code: 'CONFLICT',
      message: MSG.slotDuplicate,
    });
    expect(await refused({ slotId: 'not-a-uuid' })).toMatchObject({ code: 'BAD_REQUEST' });
    expect(await slotRow(slot.id)).toMatchObject({ date: '2026-11-22', startTime: '12:00', description: 'Haircut' });
    // Keeping the slot's own date and start is not a duplicate.
    await expect(business.slots.update({ ...base, endTime: '13:00' })).resolves.toEqual({ id: slot.id });
  });

  it('refuses requested, booked, declined and past slots', async () => {
    const { business, client, slot, owner } = await scene();
    const { id: bookingId } = await client.bookings.request({ slotId: slot.id });
    const change = { slotId: slot.id, date: '2026-11-22', startTime: '15:00', endTime: '15:30', description: 'X' };
    expect(outwardOf(await errorOf(business.slots.update(change)))).toMatchObject({
      code: 'CONFLICT',
      message: MSG.slotHasRequest,
    });
    await business.bookings.confirm({ bookingId });
    expect(outwardOf(await errorOf(business.slots.update(change)))).toMatchObject({ message: MSG.slotIsBooked });

    const declined = await createSlot(t.deps.db, owner.id, {
      date: '2026-11-23',
      startTime: '10:00',
      endTime: '10:30',
    });
    const { id: declinedBooking } = await client.bookings.request({ slotId: declined.id });
    await business.bookings.decline({ bookingId: declinedBooking });
    expect(outwardOf(await errorOf(business.slots.update({ ...change, slotId: declined.id })))).toMatchObject({
      message: MSG.slotNotEditable,
    });

    const past = await createSlot(t.deps.db, owner.id, { date: '2026-11-21', startTime: '09:00', endTime: '09:30' });
    expect(outwardOf(await errorOf(business.slots.update({ ...change, slotId: past.id })))).toMatchObject({
      message: MSG.slotNotEditable,
    });
    expect(await slotRow(past.id)).toMatchObject({ startTime: '09:00' });
  });

  it('is for the owner only', async () => {
    const { slot } = await scene();
    await expectOwnerOnly((caller) =>
      caller.slots.update({
        slotId: slot.id,
        date: '2026-11-22',
        startTime: '15:00',
        endTime: '15:30',
        description: 'X',
      }),
    );
    expect(await slotRow(slot.id)).toMatchObject({ startTime: '12:00', description: 'Haircut' });
  });
});

describe('slots.delete', () => {
  it('deletes an available slot', async () => {
    const { business, slot, profile } = await scene();
    await expect(business.slots.delete({ slotId: slot.id })).resolves.toEqual({ id: slot.id });
    expect(await slotRow(slot.id)).toBeUndefined();
    expect((await (await callerFor(t.deps, null)).businesses.bySlug({ slug: profile.slug })).slots).toEqual([]);
    expect(outwardOf(await errorOf(business.slots.delete({ slotId: slot.id })))).toMatchObject({
      code: 'NOT_FOUND',
      message: MSG.slotNotFound,
    });
  });

  it('keeps a slot with a pending request or a booking (ADR 0012)', async () => {
    const { business, client, slot } = await scene();
    const { id: bookingId } = await client.bookings.request({ slotId: slot.id });
    expect(outwardOf(await errorOf(business.slots.delete({ slotId: slot.id })))).toMatchObject({
      code: 'CONFLICT',
      message: MSG.slotHasRequest,
    });
    await business.bookings.approve({ bookingId });
    expect(outwardOf(await errorOf(business.slots.delete({ slotId: slot.id })))).toMatchObject({
      code: 'CONFLICT',
      message: MSG.slotIsBooked,
    });
    expect(await slotRow(slot.id)).toBeDefined();
    expect((await client.bookings.mine())[0]).toMatchObject({ id: bookingId, bucket: 'confirmed' });
  });

  it('deletes a declined slot; the customer still sees the declined booking from its archived copy', async () => {
    const { business, client, slot, profile } = await scene();
    const { id: bookingId } = await client.bookings.request({ slotId: slot.id });
    await business.bookings.decline({ bookingId });
    await business.slots.delete({ slotId: slot.id });
    const [row] = await t.deps.db.select().from(bookings).where(eq(bookings.id, bookingId));
    expect(row).toMatchObject({ slotId: null, archivedSlotDate: '2026-11-22', archivedSlotStartTime: '12:00' });
    expect((await client.bookings.mine())[0]).toMatchObject({
      id: bookingId,
      bucket: 'declined',
      date: '2026-11-22',
      businessName: profile.businessName,
    });
  });

  it('is for the owner only', async () => {
    const { slot } = await scene();
    await expectOwnerOnly((caller) => caller.slots.delete({ slotId: slot.id }));
    expect(await slotRow(slot.id)).toBeDefined();
  });

  it('racing a booking request, exactly one of them happens', async () => {
    for (let i = 0; i < 5; i++) {
      const { business, client, slot, customer } = await scene({
        date: '2026-11-23',
        startTime: '11:00',
        endTime: '11:30',
      });
      const [deleted, requested] = await Promise.allSettled([
        business.slots.delete({ slotId: slot.id }),
        client.bookings.request({ slotId: slot.id }),
      ]);
      const rows = await t.deps.db.select().from(bookings).where(eq(bookings.customerId, customer.id));
      if (deleted.status === 'fulfilled') {
        expect(requested.status).toBe('rejected');
        expect(await slotRow(slot.id)).toBeUndefined();
        expect(rows).toEqual([]);
      } else {
        expect(requested.status).toBe('fulfilled');
        expect(outwardOf(deleted.reason as TRPCError)).toMatchObject({ code: 'CONFLICT', message: MSG.slotHasRequest });
        expect(rows.map((r) => [r.slotId, r.status])).toEqual([[slot.id, 'pending']]);
      }
    }
  });
});

describe('slots.markAddedToSystem', () => {
  it("marks a booked slot as copied to the business's system, once or twice", async () => {
    const { business, client, slot } = await scene();
    const { id: bookingId } = await client.bookings.request({ slotId: slot.id });
    await business.bookings.confirm({ bookingId });
    await expect(business.slots.markAddedToSystem({ slotId: slot.id })).resolves.toEqual({
      id: slot.id,
      addedToSystem: true,
    });
    await expect(business.slots.markAddedToSystem({ slotId: slot.id })).resolves.toEqual({
      id: slot.id,
      addedToSystem: true,
    });
    expect(await slotRow(slot.id)).toMatchObject({ isBooked: true, addedToSystem: true });
    expect((await business.slots.listMine())[0]).toMatchObject({ category: 'booked', addedToSystem: true });
  });

  it('refuses a slot that is not booked', async () => {
    const { business, slot } = await scene();
    expect(outwardOf(await errorOf(business.slots.markAddedToSystem({ slotId: slot.id })))).toMatchObject({
      code: 'CONFLICT',
      message: MSG.slotNotBooked,
    });
    expect(await slotRow(slot.id)).toMatchObject({ addedToSystem: false });
  });

  it('is for the owner only', async () => {
    const { business, client, slot } = await scene();
    await business.bookings.confirm({ bookingId: (await client.bookings.request({ slotId: slot.id })).id });
    await expectOwnerOnly((caller) => caller.slots.markAddedToSystem({ slotId: slot.id }));
    expect(await slotRow(slot.id)).toMatchObject({ addedToSystem: false });
  });
});

describe('slots.listMine', () => {
  it('lists every slot oldest first with its category, tab, badge flags and pending request', async () => {
    const { user: owner } = await createBusiness(t.deps.db);
    const business = await callerFor(t.deps, owner.id);
    const customers = await Promise.all(
      ['Ann', 'Ben', 'Cat', 'Dan', 'Eve'].map((name) => createUser(t.deps.db, { role: 'customer', name })),
    );
    const [ann, ben, cat, dan, eve] = await Promise.all(customers.map((c) => callerFor(t.deps, c.id)));
    const make = (date: string, startTime: string) =>
      createSlot(t.deps.db, owner.id, { date, startTime, endTime: startTime.replace(':00', ':30') });

    const available = await make('2026-11-24', '10:00');
    const requested = await make('2026-11-23', '10:00');
    const confirmed = await make('2026-11-22', '16:00');
    const approved = await make('2026-11-22', '15:00');
    const declined = await make('2026-11-22', '14:00');
    const rejected = await make('2026-11-22', '13:00');
    const expiring = await make('2026-11-21', '11:00');
    const pastEmpty = await make('2026-11-20', '10:00');

    await ann!.bookings.request({ slotId: requested.id });
    await business.bookings.confirm({ bookingId: (await ben!.bookings.request({ slotId: confirmed.id })).id });
    await business.bookings.approve({ bookingId: (await cat!.bookings.request({ slotId: approved.id })).id });
    await business.bookings.decline({ bookingId: (await dan!.bookings.request({ slotId: declined.id })).id });
    await business.bookings.reject({ bookingId: (await eve!.bookings.request({ slotId: rejected.id })).id });
    await ann!.bookings.request({ slotId: expiring.id });
    t.clock.set(new Date('2026-11-21T11:05:00Z')); // the 11:00 request has expired unanswered
    try {
      const list = await business.slots.listMine();
      expect(list.map((s) => [s.id, s.category, s.unconfirmed, s.past])).toEqual([
        [pastEmpty.id, 'unbooked', false, true],
        [expiring.id, 'unbooked', true, true],
        [rejected.id, 'available', false, false],
        [declined.id, 'declined', false, false],
        [approved.id, 'booked', false, false],
        [confirmed.id, 'booked', false, false],
        [requested.id, 'requested', false, false],
        [available.id, 'available', false, false],
      ]);
      expect(list.map((s) => businessTabOf(s.category))).toEqual([
        'notBooked',
        'notBooked',
        'available',
        'notBooked',
        'booked',
        'booked',
        null,
        'available',
      ]);
      const byId = new Map(list.map((s) => [s.id, s]));
      expect(byId.get(requested.id)?.request).toEqual({
        bookingId: expect.any(String),
        customerName: 'Ann',
        customerEmail: customers[0]!.email,
      });
      expect(byId.get(expiring.id)?.request).toBeNull();
      expect(byId.get(available.id)?.request).toBeNull();
      expect(byId.get(approved.id)).toMatchObject({
        isBooked: true,
        customerName: 'Cat',
        customerEmail: customers[2]!.email,
        addedToSystem: false,
      });
    } finally {
      t.clock.set(START);
    }
  });

  it("shows nothing of another business's slots and refuses customers and visitors", async () => {
    await scene();
    const { user: other } = await createBusiness(t.deps.db);
    expect(await (await callerFor(t.deps, other.id)).slots.listMine()).toEqual([]);
    const customer = await createUser(t.deps.db, { role: 'customer' });
    expect((await errorOf((await callerFor(t.deps, customer.id)).slots.listMine())).code).toBe('FORBIDDEN');
    expect((await errorOf((await callerFor(t.deps, null)).slots.listMine())).code).toBe('UNAUTHORIZED');
  });
});
