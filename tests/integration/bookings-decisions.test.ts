/**
 * The business's answers to booking requests: the dialog's confirm and decline, the slot card's inline approve and
 * reject, the requests list, refusals for past slots, roles and other businesses, and concurrent
 * answers to one request making exactly one transition.
 */
import type { TRPCError } from '@trpc/server';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { customerProfiles, slots } from '../../server/db/schema/index';
import { MSG } from '../../shared/messages';
import {
  callerFor,
  createBusiness,
  createSlot,
  createUser,
  bookingRow as factoryBookingRow,
  pendingRequest as factoryPendingRequest,
} from '../factories/index';
import { emailsTo, errorOf, outwardOf } from '../setup/helpers';
import { useTestDeps } from '../setup/test-database';

const START = new Date('2026-11-21T10:00:00Z'); // Saturday 10:00 in London (GMT)
const t = useTestDeps(START);

type Answer = 'confirm' | 'decline' | 'approve' | 'reject';

const pendingRequest = (slot?: { date: string; startTime: string; endTime: string }) =>
  factoryPendingRequest(t.deps, slot);
const bookingRow = (id: string) => factoryBookingRow(t.deps.db, id);

async function slotRow(id: string) {
  const [row] = await t.deps.db.select().from(slots).where(eq(slots.id, id));
  return row!;
}

function answer(caller: Awaited<ReturnType<typeof callerFor>>, kind: Answer, bookingId: string) {
  return caller.bookings[kind]({ bookingId });
}

describe('bookings.approve (inline Approve on the slot card)', () => {
  it('completes the booking and books the slot with the customer, who sees it confirmed and is emailed', async () => {
    const { business, client, customer, slot, bookingId } = await pendingRequest();
    await expect(business.bookings.approve({ bookingId })).resolves.toEqual({ id: bookingId, status: 'completed' });
    expect(await bookingRow(bookingId)).toMatchObject({ status: 'completed', declinedByBusiness: false });
    expect(await slotRow(slot.id)).toMatchObject({
      isBooked: true,
      customerId: customer.id,
      customerName: 'Cara Customer',
      customerEmail: customer.email,
      addedToSystem: false,
    });
    expect((await business.slots.listMine())[0]).toMatchObject({ id: slot.id, category: 'booked' });
    expect(await business.bookings.requests()).toEqual([]);
    expect((await client.bookings.mine())[0]).toMatchObject({ id: bookingId, bucket: 'confirmed' });
    expect((await emailsTo(t.deps.db, customer.email)).map((m) => m.subject)).toEqual([
      'Booking request sent: Snip Studio',
      'Booking confirmed: Snip Studio',
      'Reminder: Fringe trim at Snip Studio',
    ]);
  });
});

describe('bookings.reject (inline Reject on the slot card)', () => {
  it('cancels without the declined flag: the slot is available and offered again; the customer is told', async () => {
    const { business, client, customer, slot, bookingId, profile } = await pendingRequest();
    await expect(business.bookings.reject({ bookingId })).resolves.toEqual({ id: bookingId, status: 'cancelled' });
    expect(await bookingRow(bookingId)).toMatchObject({ status: 'cancelled', declinedByBusiness: false });
    expect(await slotRow(slot.id)).toMatchObject({ isBooked: false, customerId: null });
    expect((await business.slots.listMine())[0]).toMatchObject({ id: slot.id, category: 'available' });
    const page = await (await callerFor(t.deps, null)).businesses.bySlug({ slug: profile.slug });
    expect(page.slots.map((s) => s.id)).toEqual([slot.id]);
    // In the customer's Archive as cancelled (docs/decisions/0036), and emailed.
    expect(await client.bookings.mine()).toMatchObject([{ id: bookingId, status: 'cancelled', bucket: 'archive' }]);
    expect((await emailsTo(t.deps.db, customer.email)).map((m) => m.kind)).toEqual([
      'request_received',
      'booking_declined',
    ]);
    // Someone else may now request it.
    const other = await callerFor(t.deps, (await createUser(t.deps.db, { role: 'customer' })).id);
    await expect(other.bookings.request({ slotId: slot.id })).resolves.toHaveProperty('id');
  });
});

describe('bookings.confirm and bookings.decline (the dialog)', () => {
  it("confirm copies the customer's name, email and phone to the slot", async () => {
    const { business, customer, slot, bookingId } = await pendingRequest();
    await t.deps.db
      .update(customerProfiles)
      .set({ phoneNumber: '07700 900123' })
      .where(eq(customerProfiles.id, customer.id));
    await business.bookings.confirm({ bookingId });
    expect(await bookingRow(bookingId)).toMatchObject({ status: 'confirmed' });
    expect(await slotRow(slot.id)).toMatchObject({
      isBooked: true,
      customerId: customer.id,
      customerEmail: customer.email,
      customerPhone: '07700 900123',
      addedToSystem: false,
    });
  });

  it('decline flags the booking as declined by the business; the slot is not offered again', async () => {
    const { business, client, slot, bookingId, profile } = await pendingRequest();
    await business.bookings.decline({ bookingId });
    expect(await bookingRow(bookingId)).toMatchObject({ status: 'cancelled', declinedByBusiness: true });
    expect((await business.slots.listMine())[0]).toMatchObject({ id: slot.id, category: 'declined' });
    expect((await client.bookings.mine())[0]).toMatchObject({ id: bookingId, bucket: 'declined' });
    expect((await (await callerFor(t.deps, null)).businesses.bySlug({ slug: profile.slug })).slots).toEqual([]);
  });
});

describe('every answer', () => {
  const answers: Answer[] = ['confirm', 'approve', 'decline', 'reject'];

  it.each(answers)('%s is refused once the slot has started, with its title, changing nothing', async (kind) => {
    const { business, bookingId, slot } = await pendingRequest({
      date: '2026-11-21',
      startTime: '11:00',
      endTime: '11:30',
    });
    t.clock.set(new Date('2026-11-21T11:00:00Z'));
    try {
      expect(outwardOf(await errorOf(answer(business, kind, bookingId)))).toEqual({
        code: 'PRECONDITION_FAILED',
        message: MSG.slotPassed,
        title: kind === 'confirm' || kind === 'approve' ? MSG.cannotConfirmPastTitle : MSG.cannotDeclinePastTitle,
        field: undefined,
      });
    } finally {
      t.clock.set(START);
    }
    expect(await bookingRow(bookingId)).toMatchObject({ status: 'pending', declinedByBusiness: false });
    expect(await slotRow(slot.id)).toMatchObject({ isBooked: false });
  });

  it.each(answers)('%s is refused to another business (NOT_FOUND), customers and visitors', async (kind) => {
    const { bookingId, client } = await pendingRequest();
    const { user: other } = await createBusiness(t.deps.db);
    expect(outwardOf(await errorOf(answer(await callerFor(t.deps, other.id), kind, bookingId)))).toMatchObject({
      code: 'NOT_FOUND',
      message: 'Booking not found',
    });
    expect((await errorOf(answer(client, kind, bookingId))).code).toBe('FORBIDDEN');
    expect((await errorOf(answer(await callerFor(t.deps, null), kind, bookingId))).code).toBe('UNAUTHORIZED');
    expect((await errorOf(answer(client, kind, 'nope'))).code).toBe('FORBIDDEN');
    expect(await bookingRow(bookingId)).toMatchObject({ status: 'pending' });
  });

  it.each(answers)('%s of a request already answered is a CONFLICT', async (kind) => {
    const { business, bookingId } = await pendingRequest();
    await business.bookings.reject({ bookingId });
    expect(outwardOf(await errorOf(answer(business, kind, bookingId)))).toMatchObject({
      code: 'CONFLICT',
      message: MSG.requestAlreadyHandled,
    });
  });

  it('given all at once to one request, exactly one happens and the slot matches it', async () => {
    for (let round = 0; round < 4; round++) {
      const { business, bookingId, slot } = await pendingRequest({
        date: '2026-11-23',
        startTime: '10:00',
        endTime: '10:30',
      });
      const order = [...answers.slice(round), ...answers.slice(0, round)];
      const results = await Promise.allSettled([...order, ...order].map((kind) => answer(business, kind, bookingId)));
      const won = results.flatMap((r, i) => (r.status === 'fulfilled' ? [[...order, ...order][i]!] : []));
      expect(won).toHaveLength(1);
      for (const r of results) {
        if (r.status === 'rejected') expect((r.reason as TRPCError).code).toBe('CONFLICT');
      }
      const row = await bookingRow(bookingId);
      const accepted = won[0] === 'confirm' || won[0] === 'approve';
      expect(row.status).toBe(
        { confirm: 'confirmed', approve: 'completed', decline: 'cancelled', reject: 'cancelled' }[won[0]!],
      );
      expect(row.declinedByBusiness).toBe(won[0] === 'decline');
      expect((await slotRow(slot.id)).isBooked).toBe(accepted);
    }
  });
});

describe('bookings.requests (Current Requests)', () => {
  it('lists pending requests newest first with slot and customer, leaving out past and answered ones', async () => {
    const { user: owner } = await createBusiness(t.deps.db);
    const business = await callerFor(t.deps, owner.id);
    const people = await Promise.all(
      ['Ann', 'Ben', 'Cat'].map((name) => createUser(t.deps.db, { role: 'customer', name })),
    );
    const make = (startTime: string, description: string) =>
      createSlot(t.deps.db, owner.id, { date: '2026-11-21', startTime, endTime: '17:30', description });
    const early = await make('11:00', 'Early');
    const later = await make('15:00', 'Later');
    const answered = await make('16:00', 'Answered');
    const request = async (i: number, slotId: string) =>
      (await callerFor(t.deps, people[i]!.id)).bookings.request({ slotId });
    const first = await request(0, later.id);
    t.clock.advance(60_000);
    const second = await request(1, early.id);
    t.clock.advance(60_000);
    await business.bookings.decline({ bookingId: (await request(2, answered.id)).id });
    try {
      expect(await business.bookings.requests()).toMatchObject([
        {
          id: second.id,
          slot: { id: early.id, date: '2026-11-21', startTime: '11:00', endTime: '17:30', description: 'Early' },
          customer: { name: 'Ben', email: people[1]!.email },
        },
        { id: first.id, slot: { description: 'Later' }, customer: { name: 'Ann', email: people[0]!.email } },
      ]);
      t.clock.set(new Date('2026-11-21T11:00:00Z')); // 'Early' has started
      expect((await business.bookings.requests()).map((r) => r.id)).toEqual([first.id]);
    } finally {
      t.clock.set(START);
    }
  });

  it('is refused to customers and visitors', async () => {
    const customer = await createUser(t.deps.db, { role: 'customer' });
    expect((await errorOf((await callerFor(t.deps, customer.id)).bookings.requests())).code).toBe('FORBIDDEN');
    expect((await errorOf((await callerFor(t.deps, null)).bookings.requests())).code).toBe('UNAUTHORIZED');
  });
});
