/**
 * What a business's time zone change does to its slots (docs/decisions/0078). An upcoming slot someone
 * relies on keeps its instant, rewritten in the new zone's local times, and its customer is told. Every
 * other slot keeps its local times, which is what a business correcting a wrong zone means by them.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import { MSG } from '../../../shared/messages';
import { isPast, sameInstantsIn, zonedInstant, type LocalTimes } from '../../../shared/zoned-time';
import type { ServiceDeps } from '../../core/deps';
import { DomainError } from '../../core/errors';
import type { Tx } from '../../db/client';
import { bookings, slots } from '../../db/schema/index';
import { appointmentWhen } from '../../email/templates';
import { loadBookingFacts, notifyTimeZoneChanged } from '../bookings/booking-notifications';

/** A booking whose slot kept its instants under new local times. */
export interface KeptBooking {
  bookingId: string;
  slotId: string;
  before: LocalTimes;
}

/** A slot's key in slots_business_date_start_unique, within one business. */
const placeOf = (t: Pick<LocalTimes, 'date' | 'startTime'>) => `${t.date} ${t.startTime}`;

const refused = (message: string) =>
  new DomainError('CONFLICT', message, { title: MSG.errorUpdatingProfileTitle, field: 'timezone' });

/**
 * Before the new zone is written: rewrites each upcoming slot with an active booking to the local times
 * its instants have in `to`, and raises its booking's calendar revision. Output: the bookings rewritten.
 * Throws CONFLICT (field timezone), changing nothing, when `to` cannot write a slot's instants (crossing
 * midnight, a repeated hour) or another slot holds a rewritten slot's new start.
 */
export async function keepBookedInstants(
  tx: Tx,
  p: { businessId: string; from: string; to: string; now: Date },
): Promise<KeptBooking[]> {
  const active = await tx
    .select({
      bookingId: bookings.id,
      slotId: slots.id,
      date: slots.date,
      startTime: slots.startTime,
      endTime: slots.endTime,
    })
    .from(bookings)
    .innerJoin(slots, eq(slots.id, bookings.slotId))
    .where(and(eq(bookings.businessId, p.businessId), inArray(bookings.status, ['pending', 'confirmed', 'completed'])))
    .for('update');
  const moves: Array<KeptBooking & { after: LocalTimes; startsAt: Date; from: string; to: string }> = [];
  for (const { bookingId, slotId, ...before } of active) {
    if (isPast(before.date, before.startTime, p.from, p.now)) continue;
    const after = sameInstantsIn(before, p.from, p.to);
    if (!after) throw refused(MSG.timezoneCannotKeepBooking(appointmentWhen(before), p.to));
    if (placeOf(after) === placeOf(before) && after.endTime === before.endTime) continue;
    const startsAt = zonedInstant(before.date, before.startTime, p.from);
    moves.push({ bookingId, slotId, before, after, startsAt, from: placeOf(before), to: placeOf(after) });
  }
  if (moves.length === 0) return [];

  // The business's other slots at the new places stay where they are, so they are in the way.
  const moving = new Set(moves.map((m) => m.slotId));
  const there = await tx
    .select({ id: slots.id, date: slots.date, startTime: slots.startTime })
    .from(slots)
    .where(and(eq(slots.businessId, p.businessId), inArray(slots.date, [...new Set(moves.map((m) => m.after.date))])));
  const taken = new Set(there.filter((s) => !moving.has(s.id)).map(placeOf));
  const blocked = moves.find((m) => taken.has(m.to));
  if (blocked) {
    const newStart = appointmentWhen(blocked.after);
    throw refused(MSG.timezoneSlotInTheWay(appointmentWhen(blocked.before), p.to, newStart));
  }

  const order = moveOrder(moves);
  if (!order) throw new Error('time zone change: the slots to rewrite wait on each other in a ring');
  for (const m of order) {
    await tx
      .update(slots)
      .set({ ...m.after, startsAt: m.startsAt, updatedAt: p.now })
      .where(eq(slots.id, m.slotId));
  }
  await tx
    .update(bookings)
    .set({ calendarRevision: sql`${bookings.calendarRevision} + 1`, updatedAt: p.now })
    .where(
      inArray(
        bookings.id,
        moves.map((m) => m.bookingId),
      ),
    );
  return moves.map(({ bookingId, slotId, before }) => ({ bookingId, slotId, before }));
}

/**
 * An order in which `moves` can be written one at a time without two slots sharing a place, as the
 * unique index checks each row. Null for a ring of moves, which only offsets changing direction within
 * hours could make.
 */
export function moveOrder<M extends { from: string; to: string }>(moves: M[]): M[] | null {
  const holder = new Map(moves.map((m) => [m.from, m]));
  const order: M[] = [];
  let waiting = moves;
  while (waiting.length > 0) {
    const ready = waiting.filter((m) => (holder.get(m.to) ?? m) === m);
    if (ready.length === 0) return null;
    for (const m of ready) {
      holder.delete(m.from);
      order.push(m);
    }
    waiting = waiting.filter((m) => !ready.includes(m));
  }
  return order;
}

/** After the new zone is written: tells each customer of `kept` (`notifyTimeZoneChanged`). */
export async function notifyKeptBookings(
  tx: Tx,
  deps: Pick<ServiceDeps, 'appOrigin'>,
  kept: KeptBooking[],
  from: string,
  now: Date,
): Promise<void> {
  const before = new Map(kept.map((k) => [k.bookingId, k.before]));
  const facts = await loadBookingFacts(
    tx,
    kept.map((k) => k.bookingId),
  );
  for (const f of facts) {
    await notifyTimeZoneChanged(tx, deps, f, { ...before.get(f.bookingId)!, timeZone: from }, now);
  }
}
