/**
 * The customer's side of bookings (ADR 0017): bookings.cancel withdraws a pending request
 * (the slot is offered again, both dashboards hear of it), refusals for someone else's booking,
 * the wrong roles and confirmed bookings, a cancel racing a confirm; bookings.mine shows only the
 * caller's bookings, in the right tab, newest first.
 */
import type { TRPCError } from '@trpc/server';
import { eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { bookings, businessProfiles, slots } from '../../server/db/schema/index';
import { MSG } from '../../shared/messages';
import {
  callerFor,
  createBusiness,
  createSlot,
  createUser,
  bookingRow as factoryBookingRow,
  pendingRequest as factoryPendingRequest,
} from '../factories/index';
import { errorOf, outwardOf } from '../setup/helpers';
import { useTestDeps } from '../setup/test-database';

const START = new Date('2026-11-21T10:00:00Z'); // Saturday 10:00 in London (GMT)
const t = useTestDeps(START);

const pendingRequest = (slot?: { date: string; startTime: string; endTime: string }) =>
  factoryPendingRequest(t.deps, slot);
const bookingRow = (id: string) => factoryBookingRow(t.deps.db, id);

const publicSlotIds = async (slug: string) =>
  (await (await callerFor(t.deps, null)).businesses.bySlug({ slug })).slots.map((s) => s.id);

describe('bookings.cancel (the customer withdraws a pending request)', () => {
  it('cancels without the declined flag, offers the slot again and tells both dashboards', async () => {
    const { client, business, customer, owner, profile, slot, bookingId } = await pendingRequest();
    expect(await publicSlotIds(profile.slug)).toEqual([]);
    const publish = vi.spyOn(t.deps.hub, 'publish');
    try {
      await expect(client.bookings.cancel({ bookingId })).resolves.toEqual({ id: bookingId, status: 'cancelled' });
      expect(publish).toHaveBeenCalledWith({
        kind: 'booking',
        change: 'cancelled',
        bookingId,
        slotId: slot.id,
        businessId: owner.id,
        customerId: customer.id,
      });
    } finally {
      publish.mockRestore();
    }
    expect(await bookingRow(bookingId)).toMatchObject({ status: 'cancelled', declinedByBusiness: false });
    // Offered again on the public page, and available on the business's dashboard.
    expect(await publicSlotIds(profile.slug)).toEqual([slot.id]);
    expect(await business.bookings.requests()).toEqual([]);
    expect((await business.slots.listMine())[0]).toMatchObject({ id: slot.id, category: 'available' });
    const [s] = await t.deps.db.select().from(slots).where(eq(slots.id, slot.id));
    expect(s).toMatchObject({ isBooked: false, customerId: null, customerName: null });
    // Still visible to the customer: in Archive, cancelled (docs/decisions/0036).
    expect(await client.bookings.mine()).toMatchObject([
      { id: bookingId, status: 'cancelled', declinedByBusiness: false, bucket: 'archive', expired: false },
    ]);
    // Someone else (or the same customer) may request it now.
    await expect(client.bookings.request({ slotId: slot.id })).resolves.toHaveProperty('id');
  });

  it("answers NOT_FOUND for another customer's booking and for an unknown one, changing nothing", async () => {
    const { bookingId } = await pendingRequest();
    const stranger = await callerFor(t.deps, (await createUser(t.deps.db, { role: 'customer' })).id);
    expect(outwardOf(await errorOf(stranger.bookings.cancel({ bookingId })))).toMatchObject({
      code: 'NOT_FOUND',
      message: 'Booking not found',
    });
    expect((await errorOf(stranger.bookings.cancel({ bookingId: crypto.randomUUID() }))).code).toBe('NOT_FOUND');
    expect((await errorOf(stranger.bookings.cancel({ bookingId: 'not-a-uuid' }))).code).toBe('BAD_REQUEST');
    expect(await bookingRow(bookingId)).toMatchObject({ status: 'pending' });
  });

  it('is refused to businesses (even the one booked) and to visitors', async () => {
    const { business, bookingId } = await pendingRequest();
    expect((await errorOf(business.bookings.cancel({ bookingId }))).code).toBe('FORBIDDEN');
    expect((await errorOf((await callerFor(t.deps, null)).bookings.cancel({ bookingId }))).code).toBe('UNAUTHORIZED');
    expect(await bookingRow(bookingId)).toMatchObject({ status: 'pending' });
  });

  it.each(['confirm', 'approve'] as const)(
    'refuses a booking the business accepted (%s): contact the business; the slot stays booked',
    async (kind) => {
      const { client, business, slot, bookingId } = await pendingRequest();
      await business.bookings[kind]({ bookingId });
      expect(outwardOf(await errorOf(client.bookings.cancel({ bookingId })))).toEqual({
        code: 'PRECONDITION_FAILED',
        message: MSG.confirmedNotCancellable,
        title: MSG.cancelRequestFailedTitle,
        field: undefined,
      });
      expect((await bookingRow(bookingId)).status).toBe(kind === 'confirm' ? 'confirmed' : 'completed');
      const [s] = await t.deps.db.select().from(slots).where(eq(slots.id, slot.id));
      expect(s?.isBooked).toBe(true);
    },
  );

  it('refuses a request already declined or cancelled (CONFLICT); a declined slot is not offered again', async () => {
    const { client, business, profile, bookingId } = await pendingRequest();
    await business.bookings.decline({ bookingId });
    expect(outwardOf(await errorOf(client.bookings.cancel({ bookingId })))).toMatchObject({
      code: 'CONFLICT',
      message: MSG.requestAlreadyHandled,
      title: MSG.cancelRequestFailedTitle,
    });
    expect(await bookingRow(bookingId)).toMatchObject({ status: 'cancelled', declinedByBusiness: true });
    expect(await publicSlotIds(profile.slug)).toEqual([]);

    const second = await pendingRequest();
    await second.client.bookings.cancel({ bookingId: second.bookingId });
    expect((await errorOf(second.client.bookings.cancel({ bookingId: second.bookingId }))).code).toBe('CONFLICT');
  });

  it('racing a confirm, exactly one of them happens and the slot matches it', async () => {
    for (let round = 0; round < 6; round++) {
      const { client, business, slot, bookingId } = await pendingRequest({
        date: '2026-11-23',
        startTime: '10:00',
        endTime: '10:30',
      });
      const calls = [() => client.bookings.cancel({ bookingId }), () => business.bookings.confirm({ bookingId })];
      if (round % 2) calls.reverse();
      const results = await Promise.allSettled(calls.map((call) => call()));
      const won = results.filter((r) => r.status === 'fulfilled');
      expect(won).toHaveLength(1);
      const lost = results.find((r) => r.status === 'rejected')!;
      expect(['CONFLICT', 'PRECONDITION_FAILED']).toContain((lost.reason as TRPCError).code);
      const row = await bookingRow(bookingId);
      const [s] = await t.deps.db.select().from(slots).where(eq(slots.id, slot.id));
      if (row.status === 'cancelled') {
        expect(row.declinedByBusiness).toBe(false);
        expect(s?.isBooked).toBe(false);
      } else {
        expect(row.status).toBe('confirmed');
        expect(s?.isBooked).toBe(true);
      }
    }
  });
});

describe('bookings.mine (Your Appointments)', () => {
  it("lists only the caller's bookings, never another customer's", async () => {
    const { user: owner } = await createBusiness(t.deps.db);
    const [ann, ben] = await Promise.all(
      ['Ann', 'Ben'].map((name) => createUser(t.deps.db, { role: 'customer', name })),
    );
    const asAnn = await callerFor(t.deps, ann!.id);
    const asBen = await callerFor(t.deps, ben!.id);
    const a = await createSlot(t.deps.db, owner.id, { date: '2026-11-22', startTime: '10:00', endTime: '11:00' });
    const b = await createSlot(t.deps.db, owner.id, { date: '2026-11-22', startTime: '11:00', endTime: '12:00' });
    const annBooking = await asAnn.bookings.request({ slotId: a.id, notes: 'Ann only' });
    const benBooking = await asBen.bookings.request({ slotId: b.id, notes: 'Ben only' });
    expect((await asAnn.bookings.mine()).map((x) => x.id)).toEqual([annBooking.id]);
    expect((await asBen.bookings.mine()).map((x) => x.id)).toEqual([benBooking.id]);
    expect(JSON.stringify(await asAnn.bookings.mine())).not.toContain('Ben');
    const stranger = await callerFor(t.deps, (await createUser(t.deps.db, { role: 'customer' })).id);
    expect(await stranger.bookings.mine()).toEqual([]);
  });

  it("puts each booking in its tab; a past pending request is archived as 'Request Expired'", async () => {
    const { user: owner, profile } = await createBusiness(t.deps.db, { name: 'Tab Studio' });
    const customer = await createUser(t.deps.db, { role: 'customer' });
    const client = await callerFor(t.deps, customer.id);
    const business = await callerFor(t.deps, owner.id);
    const slot = (date: string, startTime: string, description: string) =>
      createSlot(t.deps.db, owner.id, { date, startTime, endTime: '17:30', description });
    const soon = await slot('2026-11-21', '11:00', 'Soon'); // starts in an hour
    const confirmed = await slot('2026-11-22', '10:00', 'Confirmed');
    const declined = await slot('2026-11-23', '10:00', 'Declined');
    const pending = await slot('2026-11-24', '10:00', 'Pending');
    const soonId = (await client.bookings.request({ slotId: soon.id })).id;
    const confirmedId = (await client.bookings.request({ slotId: confirmed.id })).id;
    const declinedId = (await client.bookings.request({ slotId: declined.id })).id;
    const pendingId = (await client.bookings.request({ slotId: pending.id })).id;
    await business.bookings.confirm({ bookingId: confirmedId });
    await business.bookings.decline({ bookingId: declinedId });

    const tabs = async () => (await client.bookings.mine()).map((b) => [b.description, b.bucket, b.expired]);
    // Newest slot date first.
    expect(await tabs()).toEqual([
      ['Pending', 'pending', false],
      ['Declined', 'declined', false],
      ['Confirmed', 'confirmed', false],
      ['Soon', 'pending', false],
    ]);
    expect((await client.bookings.mine())[0]).toMatchObject({
      id: pendingId,
      status: 'pending',
      businessName: 'Tab Studio',
      businessSlug: profile.slug,
      businessAddress: '1 Test Street, London, SW1A 1AA',
      date: '2026-11-24',
      startTime: '10:00',
      endTime: '17:30',
    });

    t.clock.set(new Date('2026-11-21T11:00:00Z')); // 'Soon' has started, unanswered
    try {
      const mine = await client.bookings.mine();
      expect(mine.find((b) => b.id === soonId)).toMatchObject({ bucket: 'archive', expired: true, status: 'pending' });
      t.clock.set(new Date('2026-11-25T12:00:00Z')); // everything is past
      expect(await tabs()).toEqual([
        ['Pending', 'archive', true],
        ['Declined', 'archive', false],
        ['Confirmed', 'archive', false],
        ['Soon', 'archive', true],
      ]);
    } finally {
      t.clock.set(START);
    }
  });

  it('orders bookings on the same day by start time, later first, whatever the request order', async () => {
    const { user: owner } = await createBusiness(t.deps.db);
    const customer = await createUser(t.deps.db, { role: 'customer' });
    const client = await callerFor(t.deps, customer.id);
    const times = ['14:00', '09:30', '16:00', '11:00'];
    for (const startTime of times) {
      const s = await createSlot(t.deps.db, owner.id, {
        date: '2026-11-23',
        startTime,
        endTime: '17:30',
        description: startTime,
      });
      await client.bookings.request({ slotId: s.id });
      t.clock.advance(60_000);
    }
    t.clock.set(START);
    expect((await client.bookings.mine()).map((b) => b.startTime)).toEqual(['16:00', '14:00', '11:00', '09:30']);
  });

  it("keeps judging 'past' in the business's own zone once the business is gone (archived time zone)", async () => {
    // 10:00 in London is 23:00 in Auckland: a 22:00 appointment there today has passed.
    const { user: owner } = await createBusiness(t.deps.db, { timezone: 'Pacific/Auckland' });
    const customer = await createUser(t.deps.db, { role: 'customer' });
    const s = await createSlot(t.deps.db, owner.id, { date: '2026-11-21', startTime: '22:00', endTime: '22:30' });
    await t.deps.db
      .insert(bookings)
      .values({ slotId: s.id, businessId: owner.id, customerId: customer.id, status: 'confirmed' });
    await t.deps.db.delete(businessProfiles).where(eq(businessProfiles.id, owner.id));
    const [booking] = await (await callerFor(t.deps, customer.id)).bookings.mine();
    expect(booking).toMatchObject({ date: '2026-11-21', startTime: '22:00', bucket: 'archive' });
  });

  it('is refused to businesses and visitors', async () => {
    const { user: owner } = await createBusiness(t.deps.db);
    expect((await errorOf((await callerFor(t.deps, owner.id)).bookings.mine())).code).toBe('FORBIDDEN');
    expect((await errorOf((await callerFor(t.deps, null)).bookings.mine())).code).toBe('UNAUTHORIZED');
  });
});
