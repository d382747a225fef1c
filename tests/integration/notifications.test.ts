/**
 * Every booking event writes exactly its notification rows to the outbox, in the transaction of
 * the change (docs/decisions/0050): who gets what, with which kind, dedupe key and wording, and
 * nothing for a refused or rolled-back change.
 */
import { asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bookings, emailOutbox } from '../../server/db/schema/index';
import { bookingRequestedEmail } from '../../server/email/templates';
import { queueNotification } from '../../server/features/notifications/notifications.service';
import { callerFor, createBusiness, createSlot, createUser, pendingRequest, TEST_PASSWORD } from '../factories/index';
import { errorOf, rendered } from '../setup/helpers';
import { useTestDeps } from '../setup/test-database';

const START = new Date('2026-11-21T10:00:00Z'); // Saturday 10:00 in London (GMT)
const t = useTestDeps(START);

/** Outbox rows about `bookingId`, by kind (the test clock stands still, so times tie). */
async function rowsAbout(bookingId: string) {
  const rows = await t.deps.db
    .select()
    .from(emailOutbox)
    .where(eq(emailOutbox.bookingId, bookingId))
    .orderBy(asc(emailOutbox.kind));
  return rows;
}
const summary = (rows: Awaited<ReturnType<typeof rowsAbout>>) => rows.map((r) => [r.toAddress, r.kind, r.dedupeKey]);
const outboxCount = async () => (await t.deps.db.select({ id: emailOutbox.id }).from(emailOutbox)).length;

describe('a booking request', () => {
  it('emails the business (link to the dashboard) and the customer, one row each, in UK wording', async () => {
    const { owner, customer, bookingId } = await pendingRequest(t.deps);
    const rows = await rowsAbout(bookingId);
    expect(summary(rows)).toEqual([
      [owner.email, 'booking_requested', `booking_requested:${bookingId}`],
      [customer.email, 'request_received', `request_received:${bookingId}`],
    ]);
    expect(rows.map((r) => r.userId)).toEqual([owner.id, customer.id]);
    const [toBusiness, toCustomer] = await Promise.all(rows.map(rendered));
    expect(toBusiness!.subject).toBe('New booking request');
    expect(toBusiness!.text).toContain('Cara Customer has requested Fringe trim at Snip Studio.');
    expect(toBusiness!.text).toContain('Sunday, 22nd November 2026, 12:00 pm - 12:30 pm');
    expect(toBusiness!.text).toContain('http://localhost:3000/dashboard');
    expect(toBusiness!.text).toContain('http://localhost:3000/unsubscribe/');
    expect(toCustomer!.subject).toBe('Booking request sent: Snip Studio');
    expect(toCustomer!.text).toContain('Your request for Fringe trim at Snip Studio has been sent.');
  });

  it('writes nothing when the request is refused (the transaction rolls back)', async () => {
    const { slot } = await pendingRequest(t.deps);
    const before = await outboxCount();
    const other = await callerFor(t.deps, (await createUser(t.deps.db, { role: 'customer' })).id);
    expect((await errorOf(other.bookings.request({ slotId: slot.id }))).code).toBe('CONFLICT');
    expect(await outboxCount()).toBe(before);
  });
});

describe("the business's answer", () => {
  it('confirm: the customer gets the confirmation with an .ics, and a reminder 2 hours before', async () => {
    const { customer, business, bookingId } = await pendingRequest(t.deps);
    await business.bookings.confirm({ bookingId });
    const rows = (await rowsAbout(bookingId)).filter((r) => r.toAddress === customer.email);
    expect(summary(rows)).toEqual([
      [customer.email, 'booking_confirmed', `booking_confirmed:${bookingId}`],
      [customer.email, 'booking_reminder', `booking_reminder:${bookingId}`],
      [customer.email, 'request_received', `request_received:${bookingId}`],
    ]);
    const confirmed = await rendered(rows[0]!);
    expect(confirmed.subject).toBe('Booking confirmed: Snip Studio');
    expect(confirmed.text).toContain('Snip Studio has confirmed your appointment.');
    expect(confirmed.attachments).toEqual([
      expect.objectContaining({ filename: 'appointment.ics', contentType: expect.stringContaining('text/calendar') }),
    ]);
    expect(confirmed.attachments![0]!.content).toContain(`UID:booking-${bookingId}@lastslot`);
    // 12:00 GMT on 22 November, less 2 hours.
    expect(rows[1]!.sendAfter.toISOString()).toBe('2026-11-22T10:00:00.000Z');
    expect(rows[1]!.subject).toBe('Reminder: Fringe trim at Snip Studio');
    expect((await t.deps.db.select().from(bookings).where(eq(bookings.id, bookingId)))[0]!.confirmedAt).not.toBeNull();
  });

  it('approve (inline) sends the same confirmation; no reminder when the start is under 2 hours away', async () => {
    const { customer, business, bookingId } = await pendingRequest(t.deps, {
      date: '2026-11-21',
      startTime: '11:30',
      endTime: '12:00',
    });
    await business.bookings.approve({ bookingId });
    expect(summary((await rowsAbout(bookingId)).filter((r) => r.toAddress === customer.email))).toEqual([
      [customer.email, 'booking_confirmed', `booking_confirmed:${bookingId}`],
      [customer.email, 'request_received', `request_received:${bookingId}`],
    ]);
  });

  it.each(['decline', 'reject'] as const)('%s: the customer is told, once', async (answer) => {
    const { customer, business, bookingId, profile } = await pendingRequest(t.deps);
    await business.bookings[answer]({ bookingId });
    const rows = (await rowsAbout(bookingId)).filter((r) => r.kind === 'booking_declined');
    expect(summary(rows)).toEqual([[customer.email, 'booking_declined', `booking_declined:${bookingId}`]]);
    const mail = await rendered(rows[0]!);
    expect(mail.subject).toBe('Booking request declined: Snip Studio');
    expect(mail.text).toContain('Unfortunately Snip Studio could not accept your request.');
    expect(mail.text).toContain(`http://localhost:3000/${profile.slug}`);
  });

  it('a refused answer (slot already started) writes nothing', async () => {
    const { business, bookingId } = await pendingRequest(t.deps);
    const before = await outboxCount();
    t.clock.set(new Date('2026-11-22T12:05:00Z'));
    try {
      expect((await errorOf(business.bookings.confirm({ bookingId }))).code).toBe('PRECONDITION_FAILED');
    } finally {
      t.clock.set(START);
    }
    expect(await outboxCount()).toBe(before);
  });
});

describe('the customer withdraws a pending request', () => {
  it('emails the business', async () => {
    const { owner, client, bookingId } = await pendingRequest(t.deps);
    await client.bookings.cancel({ bookingId });
    const rows = (await rowsAbout(bookingId)).filter((r) => r.kind === 'request_withdrawn');
    expect(summary(rows)).toEqual([[owner.email, 'request_withdrawn', `request_withdrawn:${bookingId}`]]);
    const mail = await rendered(rows[0]!);
    expect(mail.subject).toBe('Booking request withdrawn: Fringe trim');
    expect(mail.text).toContain('Cara Customer has withdrawn their request for Fringe trim.');
  });
});

describe('account deletion', () => {
  it('a business closing: customers with a confirmed appointment or an open request are told, and it is cancelled', async () => {
    const { owner, customer, business, bookingId: confirmedId } = await pendingRequest(t.deps);
    await business.bookings.confirm({ bookingId: confirmedId });
    const other = await createUser(t.deps.db, { role: 'customer', name: 'Olly Other' });
    const slot2 = await createSlot(t.deps.db, owner.id, { date: '2026-11-23', startTime: '09:00', endTime: '09:30' });
    const { id: pendingId } = await (await callerFor(t.deps, other.id)).bookings.request({ slotId: slot2.id });
    await business.account.delete({ confirmation: 'DELETE', currentPassword: TEST_PASSWORD });

    const [confirmedRow] = await t.deps.db.select().from(bookings).where(eq(bookings.id, confirmedId));
    expect(confirmedRow).toMatchObject({ status: 'cancelled', declinedByBusiness: false });
    const cancelled = (await rowsAbout(confirmedId)).filter((r) => r.kind === 'booking_cancelled');
    expect(summary(cancelled)).toEqual([[customer.email, 'booking_cancelled', `booking_cancelled:${confirmedId}`]]);
    const mail = await rendered(cancelled[0]!);
    expect(mail.subject).toBe('Appointment cancelled: Snip Studio');
    expect(mail.text).toContain(
      'Snip Studio has closed its LastSlot account, so your confirmed appointment is cancelled.',
    );
    expect(mail.text).toContain('Sunday, 22nd November 2026, 12:00 pm - 12:30 pm');

    const toOther = (await rowsAbout(pendingId)).filter((r) => r.kind === 'booking_cancelled');
    expect(summary(toOther)).toEqual([[other.email, 'booking_cancelled', `booking_cancelled:${pendingId}`]]);
    expect((await rendered(toOther[0]!)).subject).toBe('Booking request cancelled: Snip Studio');
  });

  it('a business closing leaves past confirmed appointments as they were, without email', async () => {
    const { business, bookingId } = await pendingRequest(t.deps, {
      date: '2026-11-21',
      startTime: '12:00',
      endTime: '12:30',
    });
    await business.bookings.confirm({ bookingId });
    t.clock.set(new Date('2026-11-21T13:00:00Z'));
    try {
      await business.account.delete({ confirmation: 'DELETE', currentPassword: TEST_PASSWORD });
    } finally {
      t.clock.set(START);
    }
    expect((await t.deps.db.select().from(bookings).where(eq(bookings.id, bookingId)))[0]!.status).toBe('confirmed');
    expect((await rowsAbout(bookingId)).filter((r) => r.kind === 'booking_cancelled')).toEqual([]);
  });

  it('a customer leaving: the business hears of the confirmed booking and of the withdrawn request', async () => {
    const { owner, customer, client, business, bookingId: confirmedId } = await pendingRequest(t.deps);
    await business.bookings.confirm({ bookingId: confirmedId });
    const slot2 = await createSlot(t.deps.db, owner.id, { date: '2026-11-23', startTime: '09:00', endTime: '09:30' });
    const { id: pendingId } = await client.bookings.request({ slotId: slot2.id });
    await client.account.delete({ confirmation: 'DELETE', currentPassword: TEST_PASSWORD });

    const deleted = (await rowsAbout(confirmedId)).filter((r) => r.kind === 'customer_deleted');
    expect(summary(deleted)).toEqual([[owner.email, 'customer_deleted', `customer_deleted:${confirmedId}`]]);
    const mail = await rendered(deleted[0]!);
    expect(mail.text).toContain(
      'Cara Customer, who has a confirmed booking with you, has deleted their LastSlot account.',
    );
    expect(mail.text).not.toContain(customer.email);
    const withdrawn = (await rowsAbout(pendingId)).filter((r) => r.kind === 'request_withdrawn');
    expect(summary(withdrawn)).toEqual([[owner.email, 'request_withdrawn', `request_withdrawn:${pendingId}`]]);
  });
});

describe('slot deletion', () => {
  it('never cancels a booking (booked and requested slots cannot be deleted), so it sends nothing', async () => {
    const { user } = await createBusiness(t.deps.db);
    const slot = await createSlot(t.deps.db, user.id, { date: '2026-11-22', startTime: '15:00', endTime: '15:30' });
    const before = await outboxCount();
    await (await callerFor(t.deps, user.id)).slots.delete({ slotId: slot.id });
    expect(await outboxCount()).toBe(before);
  });
});

describe('the outbox write', () => {
  it('commits with the change or not at all, and queues one row per event (dedupe key)', async () => {
    const { owner, bookingId } = await pendingRequest(t.deps);
    const queue = (tx: Parameters<Parameters<typeof t.deps.db.transaction>[0]>[0]) =>
      queueNotification(tx, t.deps, {
        kind: 'booking_requested',
        role: 'business',
        userId: owner.id,
        to: owner.email,
        bookingId,
        now: t.clock.now(),
        build: (footer) =>
          bookingRequestedEmail(owner.email, {
            footer,
            customerName: 'X',
            dashboardUrl: 'http://localhost:3000/dashboard',
            appointment: {
              businessName: 'B',
              description: 'D',
              date: '2026-11-22',
              startTime: '12:00',
              endTime: '12:30',
              address: null,
            },
          }),
      });
    const before = await outboxCount();
    await expect(
      t.deps.db.transaction(async (tx) => {
        await tx.delete(emailOutbox).where(eq(emailOutbox.bookingId, bookingId));
        await queue(tx);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await outboxCount()).toBe(before);
    // The same event again: ignored, still one row.
    await t.deps.db.transaction(queue);
    expect((await rowsAbout(bookingId)).filter((r) => r.kind === 'booking_requested')).toHaveLength(1);
  });
});
