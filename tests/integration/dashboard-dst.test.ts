/**
 * "Past", "today" and "the next half hour" are the business's wall-clock notions, also
 * on the days the clocks change: Europe/London springs forward on 29 March 2026 (01:00 GMT becomes
 * 02:00 BST) and falls back on 25 October 2026 (02:00 BST becomes 01:00 GMT). Each expectation
 * below would come out differently if the server read times in UTC or kept the other day's offset.
 */
import { describe, expect, it } from 'vitest';
import { MSG } from '../../shared/messages';
import { callerFor, createBusiness, createSlot, createUser } from '../factories/index';
import { errorOf, outwardOf } from '../setup/helpers';
import { useTestDeps } from '../setup/test-database';

const t = useTestDeps(new Date('2026-03-29T08:10:00Z'));

const ALL_DAY: Parameters<typeof createBusiness>[1] = {
  openingHours: Object.fromEntries(
    ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [
      d,
      { open: '09:00', close: '18:00' },
    ]),
  ),
};

async function londonBusiness() {
  const { user, profile } = await createBusiness(t.deps.db, ALL_DAY);
  return { owner: user, profile, business: await callerFor(t.deps, user.id) };
}

const slotAt = (date: string, startTime: string, endTime: string) => ({ date, startTime, endTime, description: 'Cut' });

describe('spring forward (London, Sunday 29 March 2026)', () => {
  it('08:10 UTC is 09:10 BST: 09:00 is past, 09:30 is the first start', async () => {
    t.clock.set(new Date('2026-03-29T08:10:00Z'));
    const { business } = await londonBusiness();
    expect(outwardOf(await errorOf(business.slots.create(slotAt('2026-03-29', '09:00', '10:00'))))).toMatchObject({
      code: 'BAD_REQUEST',
      message: MSG.slotPast,
    });
    await expect(business.slots.create(slotAt('2026-03-29', '09:30', '10:00'))).resolves.toHaveProperty('id');
  });

  it('a request for 10:00 BST can be confirmed until 09:00 UTC and no later', async () => {
    t.clock.set(new Date('2026-03-29T08:10:00Z'));
    const { owner, business, profile } = await londonBusiness();
    const slot = await createSlot(t.deps.db, owner.id, { date: '2026-03-29', startTime: '10:00', endTime: '10:30' });
    const other = await createSlot(t.deps.db, owner.id, { date: '2026-03-29', startTime: '11:00', endTime: '11:30' });
    const customer = await callerFor(t.deps, (await createUser(t.deps.db, { role: 'customer' })).id);
    const { id: late } = await customer.bookings.request({ slotId: slot.id });
    const { id: inTime } = await customer.bookings.request({ slotId: other.id });

    t.clock.set(new Date('2026-03-29T08:59:00Z')); // 09:59 BST
    expect((await business.slots.listMine()).map((s) => [s.startTime, s.category])).toEqual([
      ['10:00', 'requested'],
      ['11:00', 'requested'],
    ]);
    t.clock.set(new Date('2026-03-29T09:00:00Z')); // 10:00 BST
    expect(outwardOf(await errorOf(business.bookings.confirm({ bookingId: late })))).toMatchObject({
      code: 'PRECONDITION_FAILED',
      title: MSG.cannotConfirmPastTitle,
    });
    await expect(business.bookings.confirm({ bookingId: inTime })).resolves.toMatchObject({ status: 'confirmed' });
    expect((await business.slots.listMine()).map((s) => [s.startTime, s.category, s.unconfirmed])).toEqual([
      ['10:00', 'unbooked', true],
      ['11:00', 'booked', false],
    ]);
    expect((await business.bookings.requests()).map((r) => r.id)).toEqual([]);
    const page = await (await callerFor(t.deps, null)).businesses.bySlug({ slug: profile.slug });
    expect(page.slots).toEqual([]);
  });

  it('the evening before, 23:30 UTC is still 28 March: the window runs 29 March to 1 April', async () => {
    t.clock.set(new Date('2026-03-28T23:30:00Z'));
    const { business } = await londonBusiness();
    await expect(business.slots.create(slotAt('2026-04-01', '09:00', '09:30'))).resolves.toHaveProperty('id');
    expect(outwardOf(await errorOf(business.slots.create(slotAt('2026-04-02', '09:00', '09:30'))))).toMatchObject({
      message: MSG.selectDate,
    });
  });
});

describe('fall back (London, Sunday 25 October 2026)', () => {
  it('23:30 UTC on the 24th is already 00:30 BST on the 25th: "today" is the 25th', async () => {
    t.clock.set(new Date('2026-10-24T23:30:00Z'));
    const { business } = await londonBusiness();
    expect(outwardOf(await errorOf(business.slots.create(slotAt('2026-10-24', '17:00', '17:30'))))).toMatchObject({
      message: MSG.slotPast,
    });
    await expect(business.slots.create(slotAt('2026-10-28', '09:00', '09:30'))).resolves.toHaveProperty('id');
    expect(outwardOf(await errorOf(business.slots.create(slotAt('2026-10-29', '09:00', '09:30'))))).toMatchObject({
      message: MSG.selectDate,
    });
  });

  it('after the change 08:50 UTC is 08:50 GMT: a 09:00 slot is still ahead, and past at 09:00 UTC', async () => {
    t.clock.set(new Date('2026-10-25T08:50:00Z'));
    const { owner, business, profile } = await londonBusiness();
    const slot = await createSlot(t.deps.db, owner.id, { date: '2026-10-25', startTime: '09:00', endTime: '09:30' });
    const anon = await callerFor(t.deps, null);
    expect((await anon.businesses.bySlug({ slug: profile.slug })).slots.map((s) => s.id)).toEqual([slot.id]);
    expect((await business.slots.listMine())[0]).toMatchObject({ category: 'available', past: false });
    // 'the next half hour' after 08:50 local is 09:00 (09:30 if the BST offset were kept).
    await expect(business.slots.create(slotAt('2026-10-25', '09:30', '10:00'))).resolves.toHaveProperty('id');
    t.clock.set(new Date('2026-10-25T09:00:00Z'));
    expect((await business.slots.listMine())[0]).toMatchObject({ category: 'unbooked', past: true });
    expect((await anon.businesses.bySlug({ slug: profile.slug })).slots.map((s) => s.startTime)).toEqual(['09:30']);
    expect(
      outwardOf(await errorOf(business.slots.update({ slotId: slot.id, ...slotAt('2026-10-25', '11:00', '11:30') }))),
    ).toMatchObject({ code: 'CONFLICT', message: MSG.slotNotEditable });
  });
});

describe('another zone', () => {
  it('a business in Tokyo has its own "today" and "past"', async () => {
    // Saturday 21 November 2026, 23:30 UTC = Sunday 22 November, 08:30 in Tokyo.
    t.clock.set(new Date('2026-11-21T23:30:00Z'));
    const { user } = await createBusiness(t.deps.db, { ...ALL_DAY, timezone: 'Asia/Tokyo' });
    const business = await callerFor(t.deps, user.id);
    expect(outwardOf(await errorOf(business.slots.create(slotAt('2026-11-21', '17:00', '17:30'))))).toMatchObject({
      message: MSG.slotPast,
    });
    await expect(business.slots.create(slotAt('2026-11-22', '09:00', '09:30'))).resolves.toHaveProperty('id');
  });
});
