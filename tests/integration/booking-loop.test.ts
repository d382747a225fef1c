/**
 * The booking loop at router level: a business publishes a slot, a customer requests
 * it, the business confirms or declines; refusals for the wrong role, the wrong business and
 * double booking; live events.
 */
import { TRPCError } from '@trpc/server';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bookings, slots } from '../../server/db/schema/index';
import { MSG } from '../../shared/messages';
import { callerFor, createBusiness, createSlot, createUser } from '../factories/index';
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

/** Reads the next event of a subscription iterator, failing after `ms` (no event = a bug). */
async function nextEvent<T>(it: AsyncIterator<T>, ms = 5000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('no event arrived')), ms);
  });
  try {
    const r = await Promise.race([it.next(), timeout]);
    if (r.done) throw new Error('subscription ended');
    return r.value;
  } finally {
    clearTimeout(timer);
  }
}

/** createCaller yields tracked events as [id, data, symbol] tuples; HTTP clients see { id, data }. */
function dataOf(event: unknown): { bookingId: string | null } {
  return (Array.isArray(event) ? event[1] : (event as { data: unknown }).data) as { bookingId: string | null };
}

describe('the booking loop', () => {
  it('goes from published slot to confirmed booking, visible to both sides and live', async () => {
    const { user: owner, profile } = await createBusiness(t.deps.db);
    const customer = await createUser(t.deps.db, { role: 'customer', name: 'Cara Customer' });
    const business = await callerFor(t.deps, owner.id);
    const client = await callerFor(t.deps, customer.id);

    // Subscribed first: publishing the slot sends the business a change event (bookingId null),
    // which would otherwise race the subscription and arrive after it.
    const businessEvents = (await business.bookings.onChange())[Symbol.asyncIterator]();
    const customerEvents = (await client.bookings.onChange())[Symbol.asyncIterator]();
    expect(dataOf(await nextEvent(businessEvents)).bookingId).toBeNull(); // sync
    expect(dataOf(await nextEvent(customerEvents)).bookingId).toBeNull();

    const { id: slotId } = await business.slots.create({
      date: '2026-11-22',
      startTime: '10:00',
      endTime: '11:00',
      description: 'Cut and finish',
    });
    expect(dataOf(await nextEvent(businessEvents)).bookingId).toBeNull(); // the slot change
    const page = await (await callerFor(t.deps, null)).businesses.bySlug({ slug: profile.slug });
    expect(page.business.businessName).toBe(profile.businessName);
    expect(page.slots.map((s) => s.id)).toEqual([slotId]);

    const { id: bookingId } = await client.bookings.request({ slotId });
    expect(dataOf(await nextEvent(businessEvents)).bookingId).toBe(bookingId);

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
    expect(dataOf(await nextEvent(customerEvents)).bookingId).toBe(bookingId);

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

    await businessEvents.return?.();
    await customerEvents.return?.();
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

describe('live updates of the business dashboard', () => {
  it("slot changes reach the business's open dashboards (not other businesses'); inline answers reach the customer", async () => {
    const { user: owner } = await createBusiness(t.deps.db);
    const { user: neighbour } = await createBusiness(t.deps.db);
    const customer = await createUser(t.deps.db, { role: 'customer' });
    const business = await callerFor(t.deps, owner.id);
    const client = await callerFor(t.deps, customer.id);
    const events = (await business.bookings.onChange())[Symbol.asyncIterator]();
    const neighbourEvents = (await (await callerFor(t.deps, neighbour.id)).bookings.onChange())[Symbol.asyncIterator]();
    const customerEvents = (await client.bookings.onChange())[Symbol.asyncIterator]();
    expect(dataOf(await nextEvent(events)).bookingId).toBeNull(); // sync
    expect(dataOf(await nextEvent(neighbourEvents)).bookingId).toBeNull();
    expect(dataOf(await nextEvent(customerEvents)).bookingId).toBeNull();
    try {
      const { id: slotId } = await business.slots.create({
        date: '2026-11-22',
        startTime: '10:00',
        endTime: '11:00',
        description: 'Cut',
      });
      expect(dataOf(await nextEvent(events)).bookingId).toBeNull();
      await business.slots.update({
        slotId,
        date: '2026-11-22',
        startTime: '11:00',
        endTime: '12:00',
        description: 'Cut',
      });
      expect(dataOf(await nextEvent(events)).bookingId).toBeNull();

      const { id: first } = await client.bookings.request({ slotId });
      expect(dataOf(await nextEvent(events)).bookingId).toBe(first);
      await business.bookings.reject({ bookingId: first });
      expect(dataOf(await nextEvent(events)).bookingId).toBe(first);
      expect(dataOf(await nextEvent(customerEvents)).bookingId).toBe(first); // requested
      expect(dataOf(await nextEvent(customerEvents)).bookingId).toBe(first); // rejected

      const { id: second } = await client.bookings.request({ slotId });
      expect(dataOf(await nextEvent(events)).bookingId).toBe(second);
      await business.bookings.approve({ bookingId: second });
      expect(dataOf(await nextEvent(events)).bookingId).toBe(second);
      expect(dataOf(await nextEvent(customerEvents)).bookingId).toBe(second); // requested
      expect(dataOf(await nextEvent(customerEvents)).bookingId).toBe(second); // approved
      await business.slots.markAddedToSystem({ slotId });
      expect(dataOf(await nextEvent(events)).bookingId).toBeNull();

      const spare = await createSlot(t.deps.db, owner.id, { date: '2026-11-23', startTime: '10:00', endTime: '10:30' });
      await business.slots.delete({ slotId: spare.id });
      expect(dataOf(await nextEvent(events)).bookingId).toBeNull();
      // The neighbour heard none of it, the customer nothing of the slot-only changes: the next
      // event each of them gets is the following booking of their own.
      const neighbourSlot = await createSlot(t.deps.db, neighbour.id, {
        date: '2026-11-23',
        startTime: '11:00',
        endTime: '11:30',
      });
      const { id: third } = await client.bookings.request({ slotId: neighbourSlot.id });
      expect(dataOf(await nextEvent(neighbourEvents)).bookingId).toBe(third);
      expect(dataOf(await nextEvent(customerEvents)).bookingId).toBe(third);
    } finally {
      await events.return?.();
      await neighbourEvents.return?.();
      await customerEvents.return?.();
    }
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
