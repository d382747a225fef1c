/**
 * The booking loop at router level: a business publishes a slot, a customer requests
 * it, the business confirms or declines; refusals for the wrong role, the wrong business and
 * double booking; live events (each transition's event: live-events.test.ts).
 */
import { TRPCError } from '@trpc/server';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bookings, slots } from '../../server/db/schema/index';
import { MSG } from '../../shared/messages';
import { callerFor, createBusiness, createSlot, createUser } from '../factories/index';
import { liveEvents } from '../setup/helpers';
import { useTestDeps } from '../setup/test-database';

const t = useTestDeps(new Date('2026-11-21T10:00:00Z')); // Saturday 10:00 in London (GMT)
const clock = t.clock;

async function expectTrpcError(p: Promise<unknown>, code: TRPCError['code'], message?: string) {
  const err = await p.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(TRPCError);
  expect((err as TRPCError).code).toBe(code);
  if (message) expect((err as TRPCError).message).toBe(message);
}

const RESYNC = { kind: 'resync' };

describe('the booking loop', () => {
  it('goes from published slot to confirmed booking, visible to both sides and live', async () => {
    const { user: owner, profile } = await createBusiness(t.deps.db);
    const customer = await createUser(t.deps.db, { role: 'customer', name: 'Cara Customer' });
    const business = await callerFor(t.deps, owner.id);
    const client = await callerFor(t.deps, customer.id);

    // Subscribed first: publishing the slot sends the business a slot event, which would
    // otherwise race the subscription and arrive after it.
    const businessEvents = await liveEvents(business);
    const customerEvents = await liveEvents(client);
    expect(await businessEvents.next()).toEqual(RESYNC);
    expect(await customerEvents.next()).toEqual(RESYNC);

    const { id: slotId } = await business.slots.create({
      date: '2026-11-22',
      startTime: '10:00',
      endTime: '11:00',
      description: 'Cut and finish',
    });
    expect(await businessEvents.next()).toEqual({ kind: 'slot', change: 'created', slotId });
    const page = await (await callerFor(t.deps, null)).businesses.bySlug({ slug: profile.slug });
    expect(page.business.businessName).toBe(profile.businessName);
    expect(page.slots.map((s) => s.id)).toEqual([slotId]);

    const { id: bookingId } = await client.bookings.request({ slotId });
    expect(await businessEvents.next()).toEqual({
      kind: 'booking',
      change: 'requested',
      bookingId,
      slotId,
    });
    expect(await customerEvents.next()).toEqual({ kind: 'booking', change: 'requested', bookingId });

    const requests = await business.bookings.requests();
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({
      id: bookingId,
      customer: { name: 'Cara Customer', email: customer.email },
      slot: { id: slotId, date: '2026-11-22', startTime: '10:00', endTime: '11:00' },
    });
    expect((await client.bookings.mine()).map((b) => [b.id, b.bucket])).toEqual([[bookingId, 'pending']]);
    // A requested slot is no longer offered.
    expect((await (await callerFor(t.deps, null)).businesses.bySlug({ slug: profile.slug })).slots).toEqual([]);

    await expect(business.bookings.confirm({ bookingId })).resolves.toEqual({ id: bookingId, status: 'confirmed' });
    expect(await customerEvents.next()).toEqual({ kind: 'booking', change: 'confirmed', bookingId });

    const mine = await client.bookings.mine();
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      id: bookingId,
      status: 'confirmed',
      bucket: 'confirmed',
      businessName: profile.businessName,
    });
    const [slot] = await t.deps.db.select().from(slots).where(eq(slots.id, slotId));
    expect(slot).toMatchObject({
      isBooked: true,
      customerId: customer.id,
      customerName: 'Cara Customer',
      customerEmail: customer.email,
      addedToSystem: false,
    });
    const listed = await business.slots.listMine();
    expect(listed.find((s) => s.id === slotId)?.category).toBe('booked');
    expect(await business.bookings.requests()).toEqual([]);

    await businessEvents.close();
    await customerEvents.close();
  });

  it('declines a request: cancelled, declined by the business, and the slot is not offered again', async () => {
    const { user: owner, profile } = await createBusiness(t.deps.db);
    const customer = await createUser(t.deps.db, { role: 'customer' });
    const slot = await createSlot(t.deps.db, owner.id, { date: '2026-11-22', startTime: '12:00', endTime: '12:30' });
    const { id: bookingId } = await (await callerFor(t.deps, customer.id)).bookings.request({ slotId: slot.id });
    await expect((await callerFor(t.deps, owner.id)).bookings.decline({ bookingId })).resolves.toEqual({
      id: bookingId,
      status: 'cancelled',
    });
    const [row] = await t.deps.db.select().from(bookings).where(eq(bookings.id, bookingId));
    expect(row).toMatchObject({ status: 'cancelled', declinedByBusiness: true });
    expect((await (await callerFor(t.deps, customer.id)).bookings.mine())[0]?.bucket).toBe('declined');
    expect((await (await callerFor(t.deps, null)).businesses.bySlug({ slug: profile.slug })).slots).toEqual([]);
  });
});

describe('refusals', () => {
  it('a customer cannot confirm or decline', async () => {
    const { user: owner } = await createBusiness(t.deps.db);
    const customer = await createUser(t.deps.db, { role: 'customer' });
    const slot = await createSlot(t.deps.db, owner.id, { date: '2026-11-22', startTime: '13:00', endTime: '13:30' });
    const client = await callerFor(t.deps, customer.id);
    const { id: bookingId } = await client.bookings.request({ slotId: slot.id });
    await expectTrpcError(client.bookings.confirm({ bookingId }), 'FORBIDDEN');
    await expectTrpcError(client.bookings.decline({ bookingId }), 'FORBIDDEN');
    const [row] = await t.deps.db.select().from(bookings).where(eq(bookings.id, bookingId));
    expect(row?.status).toBe('pending');
  });

  it("another business cannot see or confirm a business's request", async () => {
    const { user: owner } = await createBusiness(t.deps.db);
    const { user: other } = await createBusiness(t.deps.db);
    const customer = await createUser(t.deps.db, { role: 'customer' });
    const slot = await createSlot(t.deps.db, owner.id, { date: '2026-11-22', startTime: '14:00', endTime: '14:30' });
    const { id: bookingId } = await (await callerFor(t.deps, customer.id)).bookings.request({ slotId: slot.id });
    const intruder = await callerFor(t.deps, other.id);
    await expectTrpcError(intruder.bookings.confirm({ bookingId }), 'NOT_FOUND', 'Booking not found');
    await expectTrpcError(intruder.bookings.decline({ bookingId }), 'NOT_FOUND');
    expect(await intruder.bookings.requests()).toEqual([]);
    const [row] = await t.deps.db.select().from(bookings).where(eq(bookings.id, bookingId));
    expect(row?.status).toBe('pending');
  });

  it('nobody double-books a slot, even with concurrent requests', async () => {
    const { user: owner } = await createBusiness(t.deps.db);
    const slot = await createSlot(t.deps.db, owner.id, { date: '2026-11-22', startTime: '15:00', endTime: '15:30' });
    const customers = await Promise.all([1, 2, 3, 4].map(() => createUser(t.deps.db, { role: 'customer' })));
    const callers = await Promise.all(customers.map((c) => callerFor(t.deps, c.id)));
    const results = await Promise.allSettled(callers.map((c) => c.bookings.request({ slotId: slot.id })));
    const ok = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(ok).toHaveLength(1);
    expect(refused).toHaveLength(3);
    for (const r of refused) expect((r.reason as TRPCError).code).toBe('CONFLICT');
    const active = await t.deps.db.select().from(bookings).where(eq(bookings.slotId, slot.id));
    expect(active).toHaveLength(1);
  });

  it('the same customer cannot request a slot twice', async () => {
    const { user: owner } = await createBusiness(t.deps.db);
    const slot = await createSlot(t.deps.db, owner.id, { date: '2026-11-22', startTime: '16:00', endTime: '16:30' });
    const client = await callerFor(t.deps, (await createUser(t.deps.db, { role: 'customer' })).id);
    await client.bookings.request({ slotId: slot.id });
    await expectTrpcError(client.bookings.request({ slotId: slot.id }), 'CONFLICT');
  });

  it('concurrent confirm and decline of one request make exactly one transition', async () => {
    const { user: owner } = await createBusiness(t.deps.db);
    const slot = await createSlot(t.deps.db, owner.id, { date: '2026-11-22', startTime: '16:30', endTime: '17:00' });
    const { id: bookingId } = await (
      await callerFor(t.deps, (await createUser(t.deps.db, { role: 'customer' })).id)
    ).bookings.request({ slotId: slot.id });
    const business = await callerFor(t.deps, owner.id);
    const results = await Promise.allSettled([
      business.bookings.confirm({ bookingId }),
      business.bookings.decline({ bookingId }),
      business.bookings.confirm({ bookingId }),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results) if (r.status === 'rejected') expect((r.reason as TRPCError).code).toBe('CONFLICT');
  });

  it('a visitor, an unverified customer and a business cannot request', async () => {
    const { user: owner } = await createBusiness(t.deps.db);
    const slot = await createSlot(t.deps.db, owner.id, { date: '2026-11-23', startTime: '10:00', endTime: '10:30' });
    await expectTrpcError(
      (await callerFor(t.deps, null)).bookings.request({ slotId: slot.id }),
      'UNAUTHORIZED',
      MSG.loginToBook,
    );
    const unverified = await createUser(t.deps.db, { role: 'customer', verified: false });
    await expectTrpcError(
      (await callerFor(t.deps, unverified.id)).bookings.request({ slotId: slot.id }),
      'FORBIDDEN',
      MSG.verifyToBook,
    );
    await expectTrpcError((await callerFor(t.deps, owner.id)).bookings.request({ slotId: slot.id }), 'FORBIDDEN');
    expect(await t.deps.db.select().from(bookings).where(eq(bookings.slotId, slot.id))).toEqual([]);
  });

  it('refuses a request for a slot that has started, and confirming once the slot has passed', async () => {
    const { user: owner } = await createBusiness(t.deps.db);
    const customer = await createUser(t.deps.db, { role: 'customer' });
    const started = await createSlot(t.deps.db, owner.id, { date: '2026-11-21', startTime: '09:30', endTime: '10:30' });
    await expectTrpcError((await callerFor(t.deps, customer.id)).bookings.request({ slotId: started.id }), 'CONFLICT');

    const soon = await createSlot(t.deps.db, owner.id, { date: '2026-11-21', startTime: '11:00', endTime: '11:30' });
    const { id: bookingId } = await (await callerFor(t.deps, customer.id)).bookings.request({ slotId: soon.id });
    const business = await callerFor(t.deps, owner.id);
    clock.advance(2 * 60 * 60 * 1000); // 12:00, the slot has started
    try {
      await expectTrpcError(business.bookings.confirm({ bookingId }), 'PRECONDITION_FAILED', MSG.slotPassed);
      await expectTrpcError(business.bookings.decline({ bookingId }), 'PRECONDITION_FAILED', MSG.slotPassed);
    } finally {
      clock.set(new Date('2026-11-21T10:00:00Z'));
    }
  });
});

describe('slots.create', () => {
  it('applies the slot form rules with their messages', async () => {
    const { user: owner } = await createBusiness(t.deps.db);
    const business = await callerFor(t.deps, owner.id);
    const base = { date: '2026-11-22', startTime: '10:00', endTime: '11:00', description: 'Colour' };
    await expectTrpcError(
      business.slots.create({ ...base, description: '  ' }),
      'BAD_REQUEST',
      MSG.descriptionRequired,
    );
    await expectTrpcError(business.slots.create({ ...base, endTime: '10:00' }), 'BAD_REQUEST', MSG.endAfterStart);
    await expectTrpcError(business.slots.create({ ...base, date: '' }), 'BAD_REQUEST', MSG.selectDate);
    await expectTrpcError(
      business.slots.create({ ...base, date: '2026-11-21', startTime: '09:00', endTime: '09:30' }),
      'BAD_REQUEST',
      MSG.slotPast,
    );
    await expectTrpcError(
      business.slots.create({ ...base, startTime: '10:15', endTime: '11:15' }),
      'BAD_REQUEST',
      MSG.selectStart,
    );
    await expectTrpcError(business.slots.create({ ...base, endTime: '19:00' }), 'BAD_REQUEST', MSG.selectEnd);
    await business.slots.create(base);
    await expectTrpcError(business.slots.create(base), 'CONFLICT', MSG.slotDuplicate);
    expect(await business.slots.listMine()).toHaveLength(1);
  });

  it("refuses unverified businesses, customers and visitors with the slot form's messages", async () => {
    const input = { date: '2026-11-22', startTime: '10:00', endTime: '11:00', description: 'Colour' };
    const { user: unverified } = await createBusiness(t.deps.db, { verified: false });
    await expectTrpcError(
      (await callerFor(t.deps, unverified.id)).slots.create(input),
      'FORBIDDEN',
      MSG.verifyToAddSlots,
    );
    await expectTrpcError((await callerFor(t.deps, null)).slots.create(input), 'UNAUTHORIZED', MSG.loginToAddSlots);
    const customer = await createUser(t.deps.db, { role: 'customer' });
    await expectTrpcError((await callerFor(t.deps, customer.id)).slots.create(input), 'FORBIDDEN');
  });
});
