/**
 * What each change tells the live streams (docs/decisions/0039): every booking transition and
 * slot change reaches its business and (for bookings) its customer as an event naming what
 * changed, with exactly the fields that subscriber may see; other businesses and customers, and
 * customers for slot-only changes, hear nothing of it.
 */
import { describe, expect, it } from 'vitest';
import type { BookingEvent } from '../../server/realtime/booking-events';
import { callerFor, createBusiness, createSlot, createUser, TEST_PASSWORD } from '../factories/index';
import { liveEvents } from '../setup/helpers';
import { useTestDeps } from '../setup/test-database';

const t = useTestDeps(new Date('2026-11-21T10:00:00Z')); // Saturday 10:00 in London (GMT)

type Stream = Awaited<ReturnType<typeof liveEvents>>;
let slotHour = 9;

/** A free slot of `businessId` on 22 November, each at its own hour (no live event: a factory row). */
function freeSlot(businessId: string) {
  slotHour += 1;
  const start = `${String(slotHour).padStart(2, '0')}:00`;
  return createSlot(t.deps.db, businessId, { date: '2026-11-22', startTime: start, endTime: `${slotHour}:30` });
}

/**
 * Proves `streams` heard nothing since their last read: a sentinel change of business `businessId`
 * and customer `customerId` is published, and it must be the next thing each of them hears
 * (events arrive in order, so anything heard before would come first).
 */
async function expectNothingElse(streams: Stream[], businessId: string, customerId: string) {
  const sentinel = { bookingId: crypto.randomUUID(), slotId: null, businessId, customerId };
  await t.deps.hub.publish({ kind: 'booking', change: 'requested', ...sentinel } satisfies BookingEvent);
  for (const s of streams) expect(await s.next()).toMatchObject({ kind: 'booking', bookingId: sentinel.bookingId });
}

describe('live events', () => {
  it('each booking transition and slot change says what changed, to its business and customer only', async () => {
    const { user: owner } = await createBusiness(t.deps.db);
    const { user: neighbour } = await createBusiness(t.deps.db);
    const customer = await createUser(t.deps.db, { role: 'customer' });
    const other = await createUser(t.deps.db, { role: 'customer' });
    const business = await callerFor(t.deps, owner.id);
    const client = await callerFor(t.deps, customer.id);
    const biz = await liveEvents(business);
    const cust = await liveEvents(client);
    const neighbourStream = await liveEvents(await callerFor(t.deps, neighbour.id));
    const otherStream = await liveEvents(await callerFor(t.deps, other.id));
    const all = [biz, cust, neighbourStream, otherStream];
    try {
      for (const s of all) expect(await s.next()).toEqual({ kind: 'resync' });

      /** Customer requests `slotId`; both sides hear 'requested'. */
      const request = async (slotId: string) => {
        const { id: bookingId } = await client.bookings.request({ slotId });
        expect(await biz.next()).toEqual({ kind: 'booking', change: 'requested', bookingId, slotId });
        expect(await cust.next()).toEqual({ kind: 'booking', change: 'requested', bookingId });
        return bookingId;
      };

      // Business answers: each decision is named; the customer learns only its booking's fate.
      for (const [decision, change] of [
        ['confirm', 'confirmed'],
        ['approve', 'approved'],
        ['decline', 'declined'],
        ['reject', 'rejected'],
      ] as const) {
        const { id: slotId } = await freeSlot(owner.id);
        const bookingId = await request(slotId);
        await business.bookings[decision]({ bookingId });
        expect(await biz.next()).toEqual({ kind: 'booking', change, bookingId, slotId });
        expect(await cust.next()).toEqual({ kind: 'booking', change, bookingId });
      }

      // The customer withdraws its request.
      const { id: withdrawnSlot } = await freeSlot(owner.id);
      const withdrawn = await request(withdrawnSlot);
      await client.bookings.cancel({ bookingId: withdrawn });
      expect(await biz.next()).toEqual({
        kind: 'booking',
        change: 'cancelled',
        bookingId: withdrawn,
        slotId: withdrawnSlot,
      });
      expect(await cust.next()).toEqual({ kind: 'booking', change: 'cancelled', bookingId: withdrawn });

      // Slot changes reach the business only.
      const { id: slotId } = await business.slots.create({
        date: '2026-11-23',
        startTime: '10:00',
        endTime: '11:00',
        description: 'Cut',
      });
      expect(await biz.next()).toEqual({ kind: 'slot', change: 'created', slotId });
      await business.slots.update({
        slotId,
        date: '2026-11-23',
        startTime: '11:00',
        endTime: '12:00',
        description: 'Cut',
      });
      expect(await biz.next()).toEqual({ kind: 'slot', change: 'updated', slotId });
      await business.slots.delete({ slotId });
      expect(await biz.next()).toEqual({ kind: 'slot', change: 'deleted', slotId });
      const { id: booked } = await freeSlot(owner.id);
      const bookingId = await request(booked);
      await business.bookings.confirm({ bookingId });
      expect(await biz.next()).toMatchObject({ change: 'confirmed', bookingId });
      expect(await cust.next()).toMatchObject({ change: 'confirmed', bookingId });
      await business.slots.markAddedToSystem({ slotId: booked });
      expect(await biz.next()).toEqual({ kind: 'slot', change: 'updated', slotId: booked });

      // The other business and customer heard nothing at all; the customer no slot change.
      await expectNothingElse([neighbourStream, otherStream], neighbour.id, other.id);
      await expectNothingElse([biz, cust], owner.id, customer.id);
    } finally {
      for (const s of all) await s.close();
    }
  });

  it("a business's deletion declines its pending requests; a customer's cancels them and clears its slots", async () => {
    const { user: gone } = await createBusiness(t.deps.db);
    const { user: kept } = await createBusiness(t.deps.db);
    const customer = await createUser(t.deps.db, { role: 'customer' });
    const leaving = await createUser(t.deps.db, { role: 'customer' });
    const client = await callerFor(t.deps, customer.id);
    const leaver = await callerFor(t.deps, leaving.id);
    const pendingAtGone = (await client.bookings.request({ slotId: (await freeSlot(gone.id)).id })).id;
    const pendingAtKept = await freeSlot(kept.id);
    const leaversRequest = (await leaver.bookings.request({ slotId: pendingAtKept.id })).id;
    const bookedAtKept = await freeSlot(kept.id);
    const leaversBooking = (await leaver.bookings.request({ slotId: bookedAtKept.id })).id;
    await (await callerFor(t.deps, kept.id)).bookings.confirm({ bookingId: leaversBooking });

    const cust = await liveEvents(client);
    const keptStream = await liveEvents(await callerFor(t.deps, kept.id));
    try {
      expect(await cust.next()).toEqual({ kind: 'resync' });
      expect(await keptStream.next()).toEqual({ kind: 'resync' });

      await (
        await callerFor(t.deps, gone.id)
      ).account.delete({ confirmation: 'DELETE', currentPassword: TEST_PASSWORD });
      expect(await cust.next()).toEqual({ kind: 'booking', change: 'declined', bookingId: pendingAtGone });

      await leaver.account.delete({ confirmation: 'DELETE', currentPassword: TEST_PASSWORD });
      expect(await keptStream.next()).toEqual({
        kind: 'booking',
        change: 'cancelled',
        bookingId: leaversRequest,
        slotId: pendingAtKept.id,
      });
      expect(await keptStream.next()).toEqual({ kind: 'slot', change: 'updated', slotId: bookedAtKept.id });

      // Neither heard of the other's change.
      await expectNothingElse([cust, keptStream], kept.id, customer.id);
    } finally {
      await cust.close();
      await keptStream.close();
    }
  });
});
