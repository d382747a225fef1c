/**
 * A customer may request several slots at once (Discover); when one is accepted, their other
 * pending requests that overlap it in time are withdrawn for them: those slots are offered again,
 * each business gets the withdrawal email saying why, the customer's confirmation lists them, and
 * both dashboards hear of it. Instants are compared across the businesses' own zones.
 */
import { describe, expect, it, vi } from 'vitest';
import { MSG } from '../../shared/messages';
import { bookingRow, callerFor, createBusiness, createSlot, createUser } from '../factories/index';
import { emailsTo, errorOf } from '../setup/helpers';
import { useTestDeps } from '../setup/test-database';

const START = new Date('2026-11-21T10:00:00Z'); // Saturday 10:00 in London (GMT)
const t = useTestDeps(START);

const DAY = '2026-11-22';

/** A business in `timezone` with one slot at local `startTime`-`endTime` on DAY. */
async function businessWithSlot(name: string, startTime: string, endTime: string, timezone = 'Europe/London') {
  const { user, profile } = await createBusiness(t.deps.db, { name, timezone });
  const slot = await createSlot(t.deps.db, user.id, { date: DAY, startTime, endTime, description: `${name} visit` });
  return { owner: user, profile, slot, caller: await callerFor(t.deps, user.id) };
}

/** A customer who requested every slot of `businesses`, in order; their booking ids in the same order. */
async function customerRequesting(...businesses: Array<{ slot: { id: string } }>) {
  const customer = await createUser(t.deps.db, { role: 'customer', name: 'Cara Customer' });
  const client = await callerFor(t.deps, customer.id);
  const ids: string[] = [];
  for (const b of businesses) ids.push((await client.bookings.request({ slotId: b.slot.id })).id);
  return { customer, client, ids };
}

const publicSlotIds = async (slug: string) =>
  (await (await callerFor(t.deps, null)).businesses.bySlug({ slug })).slots.map((s) => s.id);

describe('accepting a request withdraws the same customer’s overlapping requests', () => {
  it('withdraws overlapping requests in any zone, keeps adjacent ones, and tells everyone', async () => {
    const confirmed = await businessWithSlot('Alpha Cuts', '12:00', '12:30');
    const overlapping = await businessWithSlot('Beta Nails', '12:15', '12:45');
    const adjacent = await businessWithSlot('Gamma Brows', '12:30', '13:00');
    // 07:15 in New York is 12:15 in London on this day.
    const abroad = await businessWithSlot('Delta Spa', '07:15', '07:45', 'America/New_York');
    const earlier = await businessWithSlot('Echo Barbers', '11:00', '12:00');
    const { customer, ids } = await customerRequesting(confirmed, overlapping, adjacent, abroad, earlier);
    const [confirmedId, overlappingId, adjacentId, abroadId, earlierId] = ids as [
      string,
      string,
      string,
      string,
      string,
    ];

    const publish = vi.spyOn(t.deps.hub, 'publish');
    try {
      await expect(confirmed.caller.bookings.confirm({ bookingId: confirmedId })).resolves.toEqual({
        id: confirmedId,
        status: 'confirmed',
      });
      for (const [w, b] of [
        [overlappingId, overlapping],
        [abroadId, abroad],
      ] as const) {
        expect(publish).toHaveBeenCalledWith({
          kind: 'booking',
          change: 'cancelled',
          bookingId: w,
          slotId: b.slot.id,
          businessId: b.owner.id,
          customerId: customer.id,
        });
      }
    } finally {
      publish.mockRestore();
    }

    expect(await bookingRow(t.deps.db, overlappingId)).toMatchObject({
      status: 'cancelled',
      declinedByBusiness: false,
    });
    expect(await bookingRow(t.deps.db, abroadId)).toMatchObject({ status: 'cancelled', declinedByBusiness: false });
    expect(await bookingRow(t.deps.db, adjacentId)).toMatchObject({ status: 'pending' });
    expect(await bookingRow(t.deps.db, earlierId)).toMatchObject({ status: 'pending' });
    // The withdrawn slots go back to others.
    expect(await publicSlotIds(overlapping.profile.slug)).toEqual([overlapping.slot.id]);
    expect(await publicSlotIds(abroad.profile.slug)).toEqual([abroad.slot.id]);
    expect(await overlapping.caller.bookings.requests()).toEqual([]);

    // Each business hears why; the others hear nothing new.
    for (const b of [overlapping, abroad]) {
      const [withdrawal] = await emailsTo(t.deps.db, b.owner.email, 'Booking request withdrawn: ' + b.slot.description);
      expect(withdrawal?.text).toContain('Another business confirmed them for an appointment at the same time');
    }
    expect(await emailsTo(t.deps.db, adjacent.owner.email, 'Booking request withdrawn: Gamma Brows visit')).toEqual([]);

    // The customer's confirmation names what was withdrawn, and why.
    const [confirmation] = await emailsTo(t.deps.db, customer.email, 'Booking confirmed: Alpha Cuts');
    expect(confirmation?.text).toContain('You had also requested 2 other appointments at the same time');
    expect(confirmation?.text).toContain('Beta Nails visit');
    expect(confirmation?.text).toContain('Delta Spa visit');
    expect(confirmation?.text).not.toContain('Gamma Brows visit');
  });

  it('withdraws them on the slot card’s inline Approve too, and never on a decline', async () => {
    const first = await businessWithSlot('Foxtrot Hair', '15:00', '16:00');
    const second = await businessWithSlot('Golf Lashes', '15:30', '16:30');
    const { ids } = await customerRequesting(first, second);
    const [firstId, secondId] = ids as [string, string];

    await first.caller.bookings.decline({ bookingId: firstId });
    expect(await bookingRow(t.deps.db, secondId)).toMatchObject({ status: 'pending' });

    const third = await businessWithSlot('Hotel Tans', '09:00', '10:00');
    const fourth = await businessWithSlot('Indigo Brows', '09:30', '09:45');
    const { ids: more } = await customerRequesting(third, fourth);
    await third.caller.bookings.approve({ bookingId: more[0]! });
    expect(await bookingRow(t.deps.db, more[0]!)).toMatchObject({ status: 'completed' });
    expect(await bookingRow(t.deps.db, more[1]!)).toMatchObject({ status: 'cancelled', declinedByBusiness: false });
  });

  it('lets only one of two overlapping requests be accepted when both businesses answer at once', async () => {
    const one = await businessWithSlot('Juno Studio', '17:00', '17:30');
    const two = await businessWithSlot('Juliet Salon', '17:00', '17:30');
    const { ids } = await customerRequesting(one, two);
    const [oneId, twoId] = ids as [string, string];

    const results = await Promise.allSettled([
      one.caller.bookings.confirm({ bookingId: oneId }),
      two.caller.bookings.confirm({ bookingId: twoId }),
    ]);
    const won = results.filter((r) => r.status === 'fulfilled');
    expect(won).toHaveLength(1);
    const lost = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(lost.reason).toMatchObject({ code: 'CONFLICT', message: MSG.requestAlreadyHandled });
    const rows = [await bookingRow(t.deps.db, oneId), await bookingRow(t.deps.db, twoId)];
    expect(rows.map((r) => r.status).sort()).toEqual(['cancelled', 'confirmed']);
  });

  it('leaves other customers’ requests alone', async () => {
    const a = await businessWithSlot('Kilo Cuts', '18:00', '18:30');
    const b = await businessWithSlot('Lima Nails', '18:00', '18:30');
    const { ids: mine } = await customerRequesting(a);
    const { ids: theirs } = await customerRequesting(b);
    await a.caller.bookings.confirm({ bookingId: mine[0]! });
    expect(await bookingRow(t.deps.db, theirs[0]!)).toMatchObject({ status: 'pending' });
    expect((await errorOf(a.caller.bookings.confirm({ bookingId: mine[0]! }))).code).toBe('CONFLICT');
  });
});
