/**
 * Idempotent booking actions (docs/decisions/0034-idempotent-booking-actions.md): a retry of a
 * booking request or of a business's answer, sent with the same idempotency key after its answer
 * was lost, gets the same answer and makes one row and one email; concurrent duplicates apply
 * once; a key reused with a different input is refused; keys are per user, are not kept when the
 * change is rolled back, and expire after 24 hours.
 */
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bookings, idempotencyKeys } from '../../server/db/schema/index';
import { deleteExpiredIdempotencyKeys } from '../../server/features/idempotency/idempotency.service';
import { MSG } from '../../shared/messages';
import { bookingRow, callerFor, createBusiness, createSlot, createUser } from '../factories/index';
import { emailsTo, errorOf, outwardOf } from '../setup/helpers';
import { useTestDeps } from '../setup/test-database';

const START = new Date('2026-11-21T10:00:00Z'); // Saturday 10:00 in London (GMT)
const t = useTestDeps(START);

/** A business with one free slot (22 November, 12:00-12:30) and a signed-in customer. */
async function openSlot(startTime = '12:00', endTime = '12:30') {
  const { user: owner } = await createBusiness(t.deps.db, { name: 'Snip Studio' });
  const slot = await createSlot(t.deps.db, owner.id, { date: '2026-11-22', startTime, endTime });
  const customer = await createUser(t.deps.db, { role: 'customer', name: 'Cara Customer' });
  return { owner, slot, customer, client: await callerFor(t.deps, customer.id) };
}

const bookingsOf = (slotId: string) => t.deps.db.select().from(bookings).where(eq(bookings.slotId, slotId));
const keyRows = (userId: string, key: string) =>
  t.deps.db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));

describe('bookings.request with an idempotency key', () => {
  it('a retry with the same key answers the same id: one booking row, one email to the business', async () => {
    const { owner, slot, client } = await openSlot();
    const key = randomUUID();
    const first = await client.bookings.request({ slotId: slot.id, notes: 'First visit', idempotencyKey: key });
    const retry = await client.bookings.request({ slotId: slot.id, notes: 'First visit', idempotencyKey: key });
    expect(retry).toEqual(first);
    expect((await bookingsOf(slot.id)).map((b) => b.id)).toEqual([first.id]);
    expect(await emailsTo(t.deps.db, owner.email)).toHaveLength(1);
  });

  it('concurrent attempts with the same key make one booking and all get its id', async () => {
    const { owner, slot, client } = await openSlot('13:00', '13:30');
    const key = randomUUID();
    const answers = await Promise.all(
      [1, 2, 3, 4, 5].map(() => client.bookings.request({ slotId: slot.id, idempotencyKey: key })),
    );
    const rows = await bookingsOf(slot.id);
    expect(rows).toHaveLength(1);
    expect(answers).toEqual(answers.map(() => ({ id: rows[0]!.id })));
    expect(await emailsTo(t.deps.db, owner.email)).toHaveLength(1);
  });

  it('the same key with a different input is refused (422) and changes nothing', async () => {
    const { owner, slot, client } = await openSlot('14:00', '14:30');
    const other = await createSlot(t.deps.db, owner.id, { date: '2026-11-22', startTime: '15:00', endTime: '15:30' });
    const key = randomUUID();
    await client.bookings.request({ slotId: slot.id, notes: 'Short', idempotencyKey: key });
    for (const input of [
      { slotId: other.id, idempotencyKey: key },
      { slotId: slot.id, notes: 'Something else', idempotencyKey: key },
    ]) {
      expect(outwardOf(await errorOf(client.bookings.request(input)))).toMatchObject({
        code: 'UNPROCESSABLE_CONTENT',
        message: MSG.idempotencyKeyReused,
      });
    }
    expect(await bookingsOf(other.id)).toEqual([]);
    expect(await bookingsOf(slot.id)).toHaveLength(1);
    expect(await emailsTo(t.deps.db, owner.email)).toHaveLength(1);
  });

  it("one customer's key does not collide with another's", async () => {
    const { owner, slot, client } = await openSlot('16:00', '16:30');
    const otherSlot = await createSlot(t.deps.db, owner.id, {
      date: '2026-11-22',
      startTime: '17:00',
      endTime: '17:30',
    });
    const other = await callerFor(t.deps, (await createUser(t.deps.db, { role: 'customer' })).id);
    const key = randomUUID();
    const mine = await client.bookings.request({ slotId: slot.id, idempotencyKey: key });
    const theirs = await other.bookings.request({ slotId: otherSlot.id, idempotencyKey: key });
    expect(theirs.id).not.toBe(mine.id);
    expect(await bookingsOf(otherSlot.id)).toHaveLength(1);
    expect(await bookingsOf(slot.id)).toHaveLength(1);
  });

  it('a refused attempt keeps no key: a retry is answered afresh', async () => {
    const { slot, customer, client } = await openSlot('11:00', '11:30');
    const rival = await callerFor(t.deps, (await createUser(t.deps.db, { role: 'customer' })).id);
    const { id: rivalBooking } = await rival.bookings.request({ slotId: slot.id });
    const key = randomUUID();
    expect((await errorOf(client.bookings.request({ slotId: slot.id, idempotencyKey: key }))).code).toBe('CONFLICT');
    expect(await keyRows(customer.id, key)).toEqual([]);
    // The rival withdraws; the same action retried with the same key now succeeds.
    await rival.bookings.cancel({ bookingId: rivalBooking });
    const { id } = await client.bookings.request({ slotId: slot.id, idempotencyKey: key });
    expect((await bookingRow(t.deps.db, id)).status).toBe('pending');
    expect(await keyRows(customer.id, key)).toHaveLength(1);
  });

  it('without a key every call is a new request (no replay)', async () => {
    const { slot, client } = await openSlot('09:00', '09:30');
    await client.bookings.request({ slotId: slot.id });
    expect((await errorOf(client.bookings.request({ slotId: slot.id }))).code).toBe('CONFLICT');
  });
});

describe("the business's answers with an idempotency key", () => {
  it.each(['confirm', 'decline', 'approve', 'reject'] as const)(
    '%s retried with the same key answers the same, with one transition and one email',
    async (kind) => {
      const { owner, slot, customer, client } = await openSlot('15:30', '16:00');
      const { id: bookingId } = await client.bookings.request({ slotId: slot.id });
      const business = await callerFor(t.deps, owner.id);
      const key = randomUUID();
      const first = await business.bookings[kind]({ bookingId, idempotencyKey: key });
      const again = await Promise.all([
        business.bookings[kind]({ bookingId, idempotencyKey: key }),
        business.bookings[kind]({ bookingId, idempotencyKey: key }),
      ]);
      expect(again).toEqual([first, first]);
      expect((await bookingRow(t.deps.db, bookingId)).status).toBe(first.status);
      // The request's acknowledgement, then one answer (plus its reminder when accepted).
      expect((await emailsTo(t.deps.db, customer.email)).map((m) => m.kind).sort()).toEqual(
        kind === 'confirm' || kind === 'approve'
          ? ['booking_confirmed', 'booking_reminder', 'request_received']
          : ['booking_declined', 'request_received'],
      );
      // A different answer with the same key is refused; a new key meets the usual CONFLICT.
      const otherKind = kind === 'confirm' ? 'decline' : 'confirm';
      expect((await errorOf(business.bookings[otherKind]({ bookingId, idempotencyKey: key }))).code).toBe(
        'UNPROCESSABLE_CONTENT',
      );
      expect((await errorOf(business.bookings[kind]({ bookingId, idempotencyKey: randomUUID() }))).code).toBe(
        'CONFLICT',
      );
    },
  );

  it('an answer refused for a past slot keeps no key; the same key works once the refusal no longer holds', async () => {
    const { owner, slot, client } = await openSlot('10:30', '11:00');
    const { id: bookingId } = await client.bookings.request({ slotId: slot.id });
    const business = await callerFor(t.deps, owner.id);
    const key = randomUUID();
    t.clock.set(new Date('2026-11-22T11:00:00Z')); // the slot has started
    try {
      expect((await errorOf(business.bookings.confirm({ bookingId, idempotencyKey: key }))).code).toBe(
        'PRECONDITION_FAILED',
      );
    } finally {
      t.clock.set(START);
    }
    expect(await keyRows(owner.id, key)).toEqual([]);
    await expect(business.bookings.confirm({ bookingId, idempotencyKey: key })).resolves.toEqual({
      id: bookingId,
      status: 'confirmed',
    });
  });
});

describe('expiry', () => {
  it('a key is replayed for 24 hours; then it is forgotten (a new request may take it) and swept', async () => {
    const { owner, slot, customer, client } = await openSlot('17:30', '18:00');
    const later = await createSlot(t.deps.db, owner.id, { date: '2026-11-23', startTime: '10:00', endTime: '10:30' });
    const key = randomUUID();
    const first = await client.bookings.request({ slotId: slot.id, idempotencyKey: key });
    t.clock.advance(24 * 60 * 60_000 - 1);
    try {
      expect(await client.bookings.request({ slotId: slot.id, idempotencyKey: key })).toEqual(first);
      expect(await deleteExpiredIdempotencyKeys(t.deps.db, t.deps.now())).toBe(0);
      t.clock.advance(1); // 24 hours on: forgotten
      const fresh = await client.bookings.request({ slotId: later.id, idempotencyKey: key });
      expect(fresh.id).not.toBe(first.id);
      t.clock.advance(24 * 60 * 60_000);
      expect(await deleteExpiredIdempotencyKeys(t.deps.db, t.deps.now())).toBeGreaterThanOrEqual(1);
      expect(await keyRows(customer.id, key)).toEqual([]);
    } finally {
      t.clock.set(START);
    }
  });
});
