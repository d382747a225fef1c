/**
 * businesses.bySlug, the public page's one call (ADR 0019, 0020): reserved and unknown slugs are
 * NOT_FOUND; only requestable slots are listed (never one with a pending request, a declined
 * request, a booked one or a past one), by date then start, with the public columns only.
 */
import { describe, expect, it } from 'vitest';
import { bookings } from '../../server/db/schema/index';
import { MSG } from '../../shared/messages';
import { RESERVED_SLUGS } from '../../shared/reserved-slugs';
import { callerFor, createBusiness, createSlot, createUser } from '../factories/index';
import { errorOf, outwardOf } from '../setup/helpers';
import { useTestDeps } from '../setup/test-database';

const t = useTestDeps(new Date('2026-11-21T10:00:00Z')); // Saturday 10:00 in London (GMT)

describe('businesses.bySlug', () => {
  it("answers NOT_FOUND 'Business not found' for reserved and unknown slugs", async () => {
    await createBusiness(t.deps.db);
    const anon = await callerFor(t.deps, null);
    const slugs = ['dashboard', 'login', 'settings', 'admin', 'pricing', 'Dashboard', 'no-such-business', 'ab'];
    for (const slug of slugs) {
      expect(outwardOf(await errorOf(anon.businesses.bySlug({ slug }))), slug).toMatchObject({
        code: 'NOT_FOUND',
        message: MSG.businessNotFound,
      });
    }
    expect(RESERVED_SLUGS.has('dashboard')).toBe(true);
  });

  it('finds a business whatever the case and surrounding spaces of the slug', async () => {
    const { profile } = await createBusiness(t.deps.db, { name: 'Case Studio' });
    const anon = await callerFor(t.deps, null);
    const page = await anon.businesses.bySlug({ slug: ` ${profile.slug.toUpperCase()} ` });
    expect(page.business).toMatchObject({ id: profile.id, businessName: 'Case Studio', slug: profile.slug });
  });

  it('lists only requestable slots, by date then start, with public columns only', async () => {
    const { user: owner, profile } = await createBusiness(t.deps.db);
    const customer = await createUser(t.deps.db, { role: 'customer' });
    const other = await createUser(t.deps.db, { role: 'customer' });
    const slot = (date: string, startTime: string, endTime: string, description: string) =>
      createSlot(t.deps.db, owner.id, { date, startTime, endTime, description });

    const later = await slot('2026-11-23', '09:00', '09:30', 'Open, Monday');
    const open = await slot('2026-11-22', '14:00', '14:30', 'Open, Sunday afternoon');
    const early = await slot('2026-11-22', '09:00', '09:30', 'Open, Sunday morning');
    const todayAhead = await slot('2026-11-21', '10:30', '11:00', 'Open, later today');
    await slot('2026-11-21', '09:30', '10:00', 'Started already today');
    await slot('2026-11-20', '15:00', '15:30', 'Yesterday');
    const pending = await slot('2026-11-22', '10:00', '10:30', 'Pending request');
    const declined = await slot('2026-11-22', '11:00', '11:30', 'Declined request');
    const confirmed = await slot('2026-11-22', '12:00', '12:30', 'Confirmed booking');
    const approved = await slot('2026-11-22', '13:00', '13:30', 'Approved inline');
    const rejected = await slot('2026-11-23', '10:00', '10:30', 'Rejected inline, offered again');
    const withdrawn = await slot('2026-11-23', '11:00', '11:30', 'Withdrawn by the customer, offered again');

    const client = await callerFor(t.deps, customer.id);
    const business = await callerFor(t.deps, owner.id);
    await client.bookings.request({ slotId: pending.id });
    const { id: toDecline } = await client.bookings.request({ slotId: declined.id });
    await business.bookings.decline({ bookingId: toDecline });
    const { id: toConfirm } = await client.bookings.request({ slotId: confirmed.id });
    await business.bookings.confirm({ bookingId: toConfirm });
    const { id: toApprove } = await (await callerFor(t.deps, other.id)).bookings.request({ slotId: approved.id });
    await business.bookings.approve({ bookingId: toApprove });
    const { id: toReject } = await client.bookings.request({ slotId: rejected.id });
    await business.bookings.reject({ bookingId: toReject });
    // A request the customer withdrew: cancelled, not declined by the business.
    await t.deps.db.insert(bookings).values({
      slotId: withdrawn.id,
      businessId: owner.id,
      customerId: other.id,
      status: 'cancelled',
      declinedByBusiness: false,
      bookingDate: t.clock.now(),
    });

    const page = await (await callerFor(t.deps, null)).businesses.bySlug({ slug: profile.slug });
    expect(page.slots.map((s) => s.description)).toEqual([
      'Open, later today',
      'Open, Sunday morning',
      'Open, Sunday afternoon',
      'Open, Monday',
      'Rejected inline, offered again',
      'Withdrawn by the customer, offered again',
    ]);
    expect(page.slots.map((s) => s.id).slice(0, 4)).toEqual([todayAhead.id, early.id, open.id, later.id]);
    for (const s of page.slots)
      expect(Object.keys(s).sort()).toEqual(['date', 'description', 'endTime', 'id', 'startTime']);
    expect(Object.keys(page.business)).not.toContain('subscriptionStatus');

    // Once its start passes, today's slot is no longer offered.
    t.clock.set(new Date('2026-11-21T10:30:00Z'));
    const after = await (await callerFor(t.deps, null)).businesses.bySlug({ slug: profile.slug });
    expect(after.slots.map((s) => s.id)).not.toContain(todayAhead.id);
    expect(after.slots).toHaveLength(5);
  });

  it('gives the same page to visitors, customers, other businesses and the owner', async () => {
    const { user: owner, profile } = await createBusiness(t.deps.db);
    const { user: neighbour } = await createBusiness(t.deps.db);
    const customer = await createUser(t.deps.db, { role: 'customer' });
    await createSlot(t.deps.db, owner.id, { date: '2026-11-22', startTime: '09:00', endTime: '09:30' });
    const pages = await Promise.all(
      [null, customer.id, neighbour.id, owner.id].map(async (id) =>
        (await callerFor(t.deps, id)).businesses.bySlug({ slug: profile.slug }),
      ),
    );
    for (const p of pages.slice(1)) expect(p).toEqual(pages[0]);
    expect(pages[0]!.slots).toHaveLength(1);
  });
});
