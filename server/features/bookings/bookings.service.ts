/**
 * The booking lifecycle: a customer requests a slot
 * (pending); the business confirms through the dialog (confirmed, slot booked), approves inline on
 * the slot card (completed, slot booked), declines through the dialog (cancelled, declined by the
 * business) or rejects inline (cancelled, not flagged: the slot is offered again). Double booking is
 * prevented by the database (one active booking per slot, partial unique index) and each
 * transition is a conditional UPDATE on a locked row, so concurrent calls make exactly one.
 */
import { and, desc, eq, inArray, lt, ne, sql } from 'drizzle-orm';
import { customerBucket } from '../../../shared/booking-buckets';
import { MSG } from '../../../shared/messages';
import type { RequestBookingInput } from '../../../shared/schemas/bookings';
import { isPast, zonedInstant } from '../../../shared/zoned-time';
import type { ServiceDeps } from '../../core/deps';
import { DomainError } from '../../core/errors';
import { pgErrorCode, type Tx } from '../../db/client';
import { preparedStatement } from '../../db/prepared';
import { bookings, businessProfiles, customerProfiles, slots, users } from '../../db/schema/index';
import type { BookingChange, BookingEvent } from '../../core/deps';
import { isSlotRequestable, slotColumns } from '../businesses/businesses.service';
import { idempotentTransaction } from '../idempotency/idempotency.service';
import {
  loadBookingFacts,
  notifyDecided,
  notifyRequested,
  notifyWithdrawn,
  type BookingFacts,
} from './booking-notifications';

const SLOT_TAKEN = 'This slot is no longer available. Please choose another time.';

/**
 * Customer `customerId` requests slot `input.slotId`. Output: { id } of the pending booking.
 * With `input.idempotencyKey`, a retry of the same request answers the same { id } without a second
 * booking or email (docs/decisions/0034-idempotent-booking-actions.md).
 * Throws NOT_FOUND for an unknown slot, CONFLICT when the slot is no longer requestable (booked,
 * started, requested by someone, declined) — including a concurrent request that won the race —
 * and UNPROCESSABLE_CONTENT when the key was used for a different request.
 */
export async function requestBooking(
  deps: ServiceDeps,
  customerId: string,
  input: RequestBookingInput,
): Promise<{ id: string }> {
  const { idempotencyKey: key, ...request } = input;
  const claim = key ? { userId: customerId, key, procedure: 'bookings.request', input: request } : null;
  let businessId: string | null = null;
  let result: { answer: { id: string }; replayed: boolean };
  try {
    result = await idempotentTransaction(deps, claim, async (tx) => {
      const now = deps.now();
      const [slot] = await lockRequestedSlot(tx, { slotId: input.slotId });
      if (!slot) throw new DomainError('NOT_FOUND', 'This slot no longer exists.');
      if (!(await isSlotRequestable(tx, slot.id, slot.timezone, now))) throw new DomainError('CONFLICT', SLOT_TAKEN);
      const [booking] = await insertPendingBooking(tx, {
        slotId: slot.id,
        businessId: slot.businessId,
        customerId,
        notes: input.notes ?? null,
        now,
      });
      const [facts] = await loadBookingFacts(tx, [booking!.id]);
      await notifyRequested(tx, deps, facts!, now);
      businessId = slot.businessId;
      return { id: booking!.id };
    });
  } catch (err) {
    if (pgErrorCode(err) === '23505') throw new DomainError('CONFLICT', SLOT_TAKEN);
    throw err;
  }
  if (!result.replayed) {
    const bookingId = result.answer.id;
    await publishAfterCommit(deps, { change: 'requested', bookingId, slotId: input.slotId, businessId, customerId });
  }
  return result.answer;
}

/** Announces a committed booking change live, then delivers the email it queued. */
async function publishAfterCommit(deps: ServiceDeps, event: Omit<Extract<BookingEvent, { kind: 'booking' }>, 'kind'>) {
  await deps.hub.publish({ kind: 'booking', ...event });
  deps.kickMailer();
}

/** Slot `slotId` with its business's zone, locked until the transaction ends (the booking request). */
const lockRequestedSlot = preparedStatement<{ slotId: string }>()('booking_request_lock_slot', (db, p) =>
  db
    .select({
      ...slotColumns,
      businessId: slots.businessId,
      timezone: businessProfiles.timezone,
    })
    .from(slots)
    .innerJoin(businessProfiles, eq(businessProfiles.id, slots.businessId))
    .where(eq(slots.id, p.slotId))
    .for('update', { of: slots })
    .limit(1),
);

/** A pending booking of `customerId` for slot `slotId`, requested at `now`; returns its id. */
const insertPendingBooking = preparedStatement<{
  slotId: string;
  businessId: string;
  customerId: string;
  notes: string | null;
  now: Date;
}>()('booking_request_insert', (db, p) =>
  db
    .insert(bookings)
    .values({
      slotId: p.slotId,
      businessId: p.businessId,
      customerId: p.customerId,
      status: 'pending',
      notes: p.notes,
      bookingDate: p.now,
      createdAt: p.now,
      updatedAt: p.now,
    })
    .returning({ id: bookings.id }),
);

/** Loads and locks a pending-or-other booking of `businessId` with its slot; NOT_FOUND otherwise. */
async function lockBusinessBooking(tx: Tx, businessId: string, bookingId: string) {
  const [row] = await tx
    .select({
      id: bookings.id,
      status: bookings.status,
      customerId: bookings.customerId,
      slotId: bookings.slotId,
      date: slots.date,
      startTime: slots.startTime,
      endTime: slots.endTime,
      description: slots.description,
      timezone: businessProfiles.timezone,
      businessName: businessProfiles.businessName,
      slug: businessProfiles.slug,
    })
    .from(bookings)
    .innerJoin(businessProfiles, eq(businessProfiles.id, bookings.businessId))
    .leftJoin(slots, eq(slots.id, bookings.slotId))
    .where(and(eq(bookings.id, bookingId), eq(bookings.businessId, businessId)))
    .for('update', { of: bookings })
    .limit(1);
  if (!row) throw new DomainError('NOT_FOUND', 'Booking not found');
  return row;
}

/** A business's answer to a pending request: the dialog's confirm/decline, the slot card's approve/reject. */
export type Decision = 'confirm' | 'approve' | 'decline' | 'reject';

/** Booking status each decision leads to. */
const STATUS_AFTER = { confirm: 'confirmed', approve: 'completed', decline: 'cancelled', reject: 'cancelled' } as const;

/** The live event's name for each decision. */
const CHANGE_AFTER = {
  confirm: 'confirmed',
  approve: 'approved',
  decline: 'declined',
  reject: 'rejected',
} as const satisfies Record<Decision, BookingChange>;

/**
 * Business `businessId` decides on its pending booking `bookingId`:
 * - 'confirm' (dialog): booking confirmed; slot booked with the customer's name, email, phone and
 *   id, added_to_system false; the customer is emailed.
 * - 'approve' (inline): the same, with status completed (ADR 0012).
 * - 'decline' (dialog): booking cancelled with declined_by_business; the slot is not offered again.
 * - 'reject' (inline): booking cancelled without the flag; the slot is offered again.
 * Declines and rejections email the customer. Accepting also withdraws the customer's other pending
 * requests that overlap this appointment in time (`withdrawOverlappingRequests`): their businesses
 * get the withdrawal email, and the customer's confirmation lists them. Throws NOT_FOUND 'Booking not found' (not this
 * business's booking), PRECONDITION_FAILED 'This slot time has already passed…' titled 'Cannot
 * confirm past appointment' / 'Cannot decline past appointment', CONFLICT when already handled or
 * when the slot is gone ('No slot found for this booking'), UNPROCESSABLE_CONTENT when
 * `idempotencyKey` was used for another answer or booking. Output: { id, status }; a retry with the
 * same key answers the first attempt's output again without a second change or email (ADR 0034).
 */
export async function decideBooking<D extends Decision>(
  deps: ServiceDeps,
  businessId: string,
  bookingId: string,
  decision: D,
  idempotencyKey?: string,
): Promise<{ id: string; status: (typeof STATUS_AFTER)[D] }> {
  const accepts = decision === 'confirm' || decision === 'approve';
  let customerId: string | null = null;
  let slotId: string | null = null;
  let withdrawn: WithdrawnRequest[] = [];
  const claim = idempotencyKey
    ? { userId: businessId, key: idempotencyKey, procedure: `bookings.${decision}`, input: { bookingId } }
    : null;
  const { answer, replayed } = await idempotentTransaction(deps, claim, async (tx) => {
    const now = deps.now();
    // Accepting may withdraw the customer's other requests: one customer's acceptances take turns,
    // so two businesses confirming overlapping requests at once cannot deadlock or both win.
    if (accepts) await lockBookingCustomer(tx, { businessId, bookingId });
    const b = await lockBusinessBooking(tx, businessId, bookingId);
    if (b.status !== 'pending') throw new DomainError('CONFLICT', MSG.requestAlreadyHandled);
    if (!b.slotId || !b.date || !b.startTime || !b.endTime) {
      throw new DomainError('CONFLICT', MSG.noSlotForBooking);
    }
    if (isPast(b.date, b.startTime, b.timezone, now)) {
      throw new DomainError('PRECONDITION_FAILED', MSG.slotPassed, {
        title: accepts ? MSG.cannotConfirmPastTitle : MSG.cannotDeclinePastTitle,
      });
    }
    const status = STATUS_AFTER[decision];
    const [updated] = await tx
      .update(bookings)
      .set({ status, declinedByBusiness: decision === 'decline', confirmedAt: accepts ? now : null, updatedAt: now })
      .where(and(eq(bookings.id, bookingId), eq(bookings.status, 'pending')))
      .returning({ id: bookings.id });
    if (!updated) throw new DomainError('CONFLICT', MSG.requestAlreadyHandled);
    customerId = b.customerId;
    slotId = b.slotId;
    const [customer] = b.customerId
      ? await tx
          .select({
            email: users.email,
            name: sql<string>`coalesce(${customerProfiles.fullName}, ${users.name})`,
            phone: customerProfiles.phoneNumber,
          })
          .from(users)
          .leftJoin(customerProfiles, eq(customerProfiles.id, users.id))
          .where(eq(users.id, b.customerId))
          .limit(1)
      : [];
    if (accepts) {
      await tx
        .update(slots)
        .set({
          isBooked: true,
          customerId: b.customerId,
          customerName: customer?.name ?? null,
          customerEmail: customer?.email ?? null,
          customerPhone: customer?.phone ?? null,
          addedToSystem: false,
          updatedAt: now,
        })
        .where(eq(slots.id, b.slotId));
    }
    const [facts] = await loadBookingFacts(tx, [bookingId]);
    withdrawn = accepts ? await withdrawOverlappingRequests(tx, deps, facts!, now) : [];
    await notifyDecided(
      tx,
      deps,
      facts!,
      accepts,
      now,
      withdrawn.map((w) => w.facts.appointment),
    );
    return { id: bookingId, status };
  });
  if (!replayed) {
    for (const w of withdrawn) {
      await deps.hub.publish({
        kind: 'booking',
        change: 'cancelled',
        bookingId: w.facts.bookingId,
        slotId: w.slotId,
        businessId: w.facts.businessId,
        customerId: w.facts.customerId,
      });
    }
    await publishAfterCommit(deps, { change: CHANGE_AFTER[decision], bookingId, slotId, businessId, customerId });
  }
  return answer;
}

/** Locks the account of booking `bookingId`'s customer (when it has one) until the transaction ends. */
const lockBookingCustomer = preparedStatement<{ businessId: string; bookingId: string }>()(
  'booking_decide_lock_customer',
  (db, p) =>
    db
      .select({ id: users.id })
      .from(users)
      .innerJoin(bookings, eq(bookings.customerId, users.id))
      .where(and(eq(bookings.id, p.bookingId), eq(bookings.businessId, p.businessId)))
      .for('no key update', { of: users }),
);

/** A request withdrawn because its customer was confirmed elsewhere at the same time. */
interface WithdrawnRequest {
  facts: BookingFacts;
  slotId: string;
}

/**
 * The customer of `confirmed` (just accepted) is not in two places at once: their other pending
 * requests, at any business, whose appointment overlaps [start, end) of `confirmed` are cancelled
 * as withdrawn by the customer (not declined, so each slot is offered again), and each business
 * gets the withdrawal email saying why. Instants come from each business's own zone. Output: the
 * withdrawn requests, earliest first.
 */
async function withdrawOverlappingRequests(
  tx: Tx,
  deps: ServiceDeps,
  confirmed: BookingFacts,
  now: Date,
): Promise<WithdrawnRequest[]> {
  if (!confirmed.customerId) return [];
  const { date, startTime, endTime } = confirmed.appointment;
  const start = zonedInstant(date, startTime, confirmed.timezone).getTime();
  const end = zonedInstant(date, endTime, confirmed.timezone).getTime();
  const candidates = await tx
    .select({
      id: bookings.id,
      slotId: slots.id,
      date: slots.date,
      endTime: slots.endTime,
      timezone: businessProfiles.timezone,
    })
    .from(bookings)
    .innerJoin(slots, eq(slots.id, bookings.slotId))
    .innerJoin(businessProfiles, eq(businessProfiles.id, bookings.businessId))
    .where(
      and(
        eq(bookings.customerId, confirmed.customerId),
        eq(bookings.status, 'pending'),
        ne(bookings.id, confirmed.bookingId),
        lt(slots.startsAt, new Date(end)),
      ),
    )
    .orderBy(slots.startsAt)
    .for('update', { of: bookings });
  const overlapping = candidates.filter((c) => zonedInstant(c.date, c.endTime, c.timezone).getTime() > start);
  if (overlapping.length === 0) return [];
  const ids = overlapping.map((c) => c.id);
  await tx
    .update(bookings)
    .set({ status: 'cancelled', declinedByBusiness: false, updatedAt: now })
    .where(and(inArray(bookings.id, ids), eq(bookings.status, 'pending')));
  const facts = new Map((await loadBookingFacts(tx, ids)).map((f) => [f.bookingId, f]));
  const withdrawn = overlapping.map((c) => ({ facts: facts.get(c.id)!, slotId: c.slotId }));
  for (const w of withdrawn) await notifyWithdrawn(tx, deps, w.facts, now, 'overlap');
  return withdrawn;
}

/**
 * Customer `customerId` withdraws its pending request `bookingId`: in one transaction the booking row is locked and, if it
 * is still pending, becomes cancelled with declined_by_business false, so its slot is offered
 * again (the public page only skips declined cancellations). The booking event is published after
 * commit so both dashboards refresh. Output: { id, status: 'cancelled' }.
 * Throws NOT_FOUND 'Booking not found' (unknown, or someone else's booking: no leak),
 * PRECONDITION_FAILED `MSG.confirmedNotCancellable` (confirmed or completed: the customer must
 * contact the business), CONFLICT `MSG.requestAlreadyHandled`
 * (already cancelled or declined). Both refusals carry the title 'Error cancelling request'.
 * Choices: docs/decisions/0017-customer-cancels-a-request.md.
 */
export async function cancelCustomerRequest(
  deps: ServiceDeps,
  customerId: string,
  bookingId: string,
): Promise<{ id: string; status: 'cancelled' }> {
  const { businessId, slotId } = await deps.db.transaction(async (tx) => {
    const [b] = await tx
      .select({ status: bookings.status, businessId: bookings.businessId, slotId: bookings.slotId })
      .from(bookings)
      .where(and(eq(bookings.id, bookingId), eq(bookings.customerId, customerId)))
      .for('update')
      .limit(1);
    if (!b) throw new DomainError('NOT_FOUND', 'Booking not found');
    const title = MSG.cancelRequestFailedTitle;
    if (b.status === 'confirmed' || b.status === 'completed') {
      throw new DomainError('PRECONDITION_FAILED', MSG.confirmedNotCancellable, { title });
    }
    if (b.status !== 'pending') throw new DomainError('CONFLICT', MSG.requestAlreadyHandled, { title });
    await tx
      .update(bookings)
      .set({ status: 'cancelled', declinedByBusiness: false, updatedAt: deps.now() })
      .where(eq(bookings.id, bookingId));
    const [facts] = await loadBookingFacts(tx, [bookingId]);
    await notifyWithdrawn(tx, deps, facts!, deps.now());
    return b;
  });
  await deps.hub.publish({ kind: 'booking', change: 'cancelled', bookingId, slotId, businessId, customerId });
  deps.kickMailer();
  return { id: bookingId, status: 'cancelled' };
}

/**
 * Pending requests of the business whose slot has not started, newest request first, with the
 * customer's name and email (the dashboard's Current Requests): `{ id, notes, slot: { id, date,
 * startTime, endTime, description }, customer: { name, email } }[]`, what the card shows. No
 * timestamps: the order carries the request time, and an answer of plain JSON skips superjson's
 * walk (docs/decisions/0045, 0069).
 */
export async function listBusinessRequests(deps: Pick<ServiceDeps, 'db' | 'now'>, businessId: string) {
  const rows = await pendingRequestsOf(deps.db, { businessId });
  const now = deps.now();
  return rows
    .filter((r) => !isPast(r.slot.date, r.slot.startTime, r.timezone, now))
    .map(({ timezone: _tz, ...r }) => r);
}

/** Pending bookings of `businessId` with slot, customer and the business's zone, newest first. */
const pendingRequestsOf = preparedStatement<{ businessId: string }>()('business_pending_requests', (db, p) =>
  db
    .select({
      id: bookings.id,
      notes: bookings.notes,
      slot: slotColumns,
      customer: {
        name: sql<string>`coalesce(${customerProfiles.fullName}, ${users.name}, 'Customer')`,
        email: users.email,
      },
      timezone: businessProfiles.timezone,
    })
    .from(bookings)
    .innerJoin(slots, eq(slots.id, bookings.slotId))
    .innerJoin(businessProfiles, eq(businessProfiles.id, bookings.businessId))
    .leftJoin(users, eq(users.id, bookings.customerId))
    .leftJoin(customerProfiles, eq(customerProfiles.id, bookings.customerId))
    .where(and(eq(bookings.businessId, p.businessId), eq(bookings.status, 'pending')))
    .orderBy(desc(bookings.createdAt)),
);

/**
 * The customer's own bookings with their slot (or its archived copy) and business, each with its
 * tab (`bucket`: confirmed | pending | declined | archive) and `expired` flag; newest slot first.
 */
export async function listCustomerBookings(deps: Pick<ServiceDeps, 'db' | 'now'>, customerId: string) {
  const rows = await bookingsOfCustomer(deps.db, { customerId });
  const now = deps.now();
  return rows
    .map((r) =>
      // Adds to the row rather than spreading it (a spread with added keys is slow per row on Node 20).
      Object.assign(
        r,
        customerBucket(
          {
            status: r.status,
            declinedByBusiness: r.declinedByBusiness,
            date: r.date,
            startTime: r.startTime,
            timezone: r.timezone,
          },
          now,
        ),
      ),
    )
    .sort((a, b) => `${b.date} ${b.startTime}`.localeCompare(`${a.date} ${a.startTime}`));
}

/** The customer's bookings with their slot and business, or the archived copies of both. */
const bookingsOfCustomer = preparedStatement<{ customerId: string }>()('customer_bookings', (db, p) =>
  db
    .select({
      id: bookings.id,
      status: bookings.status,
      declinedByBusiness: bookings.declinedByBusiness,
      createdAt: bookings.createdAt,
      date: sql<string | null>`coalesce(${slots.date}::text, ${bookings.archivedSlotDate}::text)`,
      startTime: sql<string | null>`coalesce(${slots.startTime}, ${bookings.archivedSlotStartTime})`,
      endTime: sql<string | null>`coalesce(${slots.endTime}, ${bookings.archivedSlotEndTime})`,
      description: sql<string | null>`coalesce(${slots.description}, ${bookings.archivedSlotDescription})`,
      businessName: sql<string | null>`coalesce(${businessProfiles.businessName}, ${bookings.archivedBusinessName})`,
      businessAddress: sql<string | null>`coalesce(${businessProfiles.address}, ${bookings.archivedBusinessAddress})`,
      businessSlug: businessProfiles.slug,
      timezone: sql<string>`coalesce(${businessProfiles.timezone}, ${bookings.archivedBusinessTimezone}, 'Europe/London')`,
    })
    .from(bookings)
    .leftJoin(slots, eq(slots.id, bookings.slotId))
    .leftJoin(businessProfiles, eq(businessProfiles.id, bookings.businessId))
    .where(eq(bookings.customerId, p.customerId)),
);
