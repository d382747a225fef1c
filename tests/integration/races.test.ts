/**
 * Races, judged on the final database: many customers requesting one slot, the business's answers
 * against the customer's withdrawal, and a slot's deletion against a request for it. Whatever the
 * interleaving, exactly one change wins, the losers get a 4xx (never a 500), every acknowledged
 * action is what the database shows, and booking and slot agree.
 *
 * On PGlite (the default) transactions run one at a time, so this proves the outcomes of every
 * serial order the calls happen to take, not true parallelism; on PostgreSQL (TEST_DATABASE_URL)
 * the same tests run with real concurrent transactions (row locks, the partial unique index).
 */
import { TRPCError } from '@trpc/server';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bookings, slots } from '../../server/db/schema/index';
import { callerFor, createBusiness, createSlot, createUser, pendingRequest } from '../factories/index';
import { useTestDeps } from '../setup/test-database';

const t = useTestDeps(new Date('2026-11-21T10:00:00Z')); // Saturday 10:00 in London (GMT)

type Settled<T> = { ok: true; value: T } | { ok: false; code: TRPCError['code'] };

/** Runs all calls at once; each outcome is its value or its tRPC code (anything else fails). */
async function race<T>(calls: Array<() => Promise<T>>): Promise<Array<Settled<T>>> {
  const results = await Promise.allSettled(calls.map((c) => c()));
  return results.map((r) => {
    if (r.status === 'fulfilled') return { ok: true, value: r.value };
    expect(r.reason).toBeInstanceOf(TRPCError);
    return { ok: false, code: (r.reason as TRPCError).code };
  });
}

async function slotRow(id: string) {
  const [row] = await t.deps.db.select().from(slots).where(eq(slots.id, id));
  return row;
}

/** Database-wide: no slot has two active bookings; a booked slot has one confirmed or completed. */
async function expectInvariants() {
  const doubled = await t.deps.db
    .select({ slotId: bookings.slotId, n: sql<number>`count(*)::int` })
    .from(bookings)
    .where(inArray(bookings.status, ['pending', 'confirmed', 'completed']))
    .groupBy(bookings.slotId)
    .having(sql`count(*) > 1`);
  expect(doubled).toEqual([]);
  const bookedWithout = await t.deps.db
    .select({ id: slots.id })
    .from(slots)
    .where(
      and(
        eq(slots.isBooked, true),
        sql`not exists (select 1 from ${bookings} b where b.slot_id = ${slots.id} and b.status in ('confirmed', 'completed'))`,
      ),
    );
  expect(bookedWithout).toEqual([]);
}

describe('races', () => {
  it('50 customers request one slot at once: one pending booking, 49 CONFLICT', async () => {
    const { user: owner } = await createBusiness(t.deps.db);
    const slot = await createSlot(t.deps.db, owner.id, { date: '2026-11-22', startTime: '10:00', endTime: '10:30' });
    const customers = await Promise.all(Array.from({ length: 50 }, () => createUser(t.deps.db, { role: 'customer' })));
    const callers = await Promise.all(customers.map((c) => callerFor(t.deps, c.id)));
    const outcomes = await race(callers.map((c) => () => c.bookings.request({ slotId: slot.id })));
    const won = outcomes.flatMap((o, i) => (o.ok ? [{ id: o.value.id, customerId: customers[i]!.id }] : []));
    expect(won).toHaveLength(1);
    expect(outcomes.filter((o) => !o.ok).map((o) => (o.ok ? null : o.code))).toEqual(Array(49).fill('CONFLICT'));
    const rows = await t.deps.db.select().from(bookings).where(eq(bookings.slotId, slot.id));
    expect(rows.map((r) => ({ id: r.id, customerId: r.customerId, status: r.status }))).toEqual([
      { ...won[0]!, status: 'pending' },
    ]);
    await expectInvariants();
  });

  it("confirm, decline and the customer's cancel at once: exactly one wins and the database shows it", async () => {
    const expected = {
      confirm: { status: 'confirmed', declinedByBusiness: false, isBooked: true },
      decline: { status: 'cancelled', declinedByBusiness: true, isBooked: false },
      cancel: { status: 'cancelled', declinedByBusiness: false, isBooked: false },
    } as const;
    type Action = keyof typeof expected;
    const orders: Action[][] = [
      ['confirm', 'decline', 'cancel'],
      ['decline', 'cancel', 'confirm'],
      ['cancel', 'confirm', 'decline'],
      ['confirm', 'cancel', 'decline'],
      ['cancel', 'decline', 'confirm'],
    ];
    for (const [round, order] of orders.entries()) {
      const { business, client, bookingId, slot, customer } = await pendingRequest(t.deps, {
        date: '2026-11-23',
        startTime: `1${round}:00`,
        endTime: `1${round}:30`,
      });
      const run: Record<Action, () => Promise<unknown>> = {
        confirm: () => business.bookings.confirm({ bookingId }),
        decline: () => business.bookings.decline({ bookingId }),
        cancel: () => client.bookings.cancel({ bookingId }),
      };
      const outcomes = await race(order.map((a) => run[a]));
      const won = order.filter((_, i) => outcomes[i]!.ok);
      expect(won, `round ${round}`).toHaveLength(1);
      for (const o of outcomes) if (!o.ok) expect(['CONFLICT', 'PRECONDITION_FAILED']).toContain(o.code);
      const [row] = await t.deps.db.select().from(bookings).where(eq(bookings.id, bookingId));
      const s = await slotRow(slot.id);
      const want = expected[won[0]!];
      expect({ status: row!.status, declinedByBusiness: row!.declinedByBusiness, isBooked: s!.isBooked }).toEqual(want);
      expect(s!.customerId).toBe(want.isBooked ? customer.id : null);
    }
    await expectInvariants();
  });

  it('a slot deleted while it is requested: either the request wins and the slot stays, or the slot is gone and the request is refused', async () => {
    for (let round = 0; round < 6; round++) {
      const { user: owner } = await createBusiness(t.deps.db);
      const slot = await createSlot(t.deps.db, owner.id, {
        date: '2026-11-24',
        startTime: '10:00',
        endTime: '10:30',
      });
      const business = await callerFor(t.deps, owner.id);
      const client = await callerFor(t.deps, (await createUser(t.deps.db, { role: 'customer' })).id);
      const request = () => client.bookings.request({ slotId: slot.id });
      const remove = () => business.slots.delete({ slotId: slot.id });
      const [req, del] =
        round % 2 === 0 ? await race<unknown>([request, remove]) : (await race<unknown>([remove, request])).reverse();
      const left = await slotRow(slot.id);
      const slotBookings = await t.deps.db.select().from(bookings).where(eq(bookings.slotId, slot.id));
      if (req!.ok) {
        // The request won: the slot has a pending request, so the deletion was refused.
        expect(del).toEqual({ ok: false, code: 'CONFLICT' });
        expect(left).toBeDefined();
        expect(slotBookings.map((b) => b.status)).toEqual(['pending']);
      } else {
        // The deletion won: the request found no slot.
        expect(del!.ok).toBe(true);
        expect(req!.code).toBe('NOT_FOUND');
        expect(left).toBeUndefined();
        expect(slotBookings).toEqual([]);
      }
    }
    await expectInvariants();
  });
});
