/**
 * The booking lifecycle. The database allows one active booking per slot, and each transition is a
 * conditional UPDATE on a locked row, so of concurrent calls exactly one wins.
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
 * Customer `customerId` requests a slot. Output: { id } of the pending booking; a retry with the same
 * `idempotencyKey` answers it again (docs/decisions/0034). Throws NOT_FOUND for an unknown slot,
 * CONFLICT when it is not requestable (a concurrent request won included), UNPROCESSABLE_CONTENT when
 * the key was used for a different request.
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

/** The slot with its business's zone, locked until the transaction ends. */
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

/** Loads and locks a booking of `businessId`, whatever its status, with its slot; NOT_FOUND otherwise. */
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

const STATUS_AFTER = { confirm: 'confirmed', approve: 'completed', decline: 'cancelled', reject: 'cancelled' } as const;

const CHANGE_AFTER = {
  confirm: 'confirmed',
  approve: 'approved',
  decline: 'declined',
  reject: 'rejected',
} as const satisfies Record<Decision, BookingChange>;

/**
 * Business `businessId` decides on its pending booking (docs/decisions/0012): 'confirm' and 'approve'
 * book the slot for the customer and withdraw their overlapping requests; 'decline' keeps the slot off
 * the public page, 'reject' offers it again. The customer is emailed either way. Output: { id, status };
 * a retry with the same key answers it again (docs/decisions/0034). Throws NOT_FOUND (not this
 * business's), PRECONDITION_FAILED for a past slot, CONFLICT when already handled or the slot is gone,
 * UNPROCESSABLE_CONTENT when the key was used for another answer.
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
    // Accepting may withdraw the customer's other requests: one customer's acceptances take turns, so
    // two businesses confirming overlapping requests at once cannot deadlock or both win.
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

/** Locks the booking's customer account, when it has one, until the transaction ends. */
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

interface WithdrawnRequest {
  facts: BookingFacts;
  slotId: string;
}

/**
 * The customer cannot be in two places at once: their other pending requests at any business that
 * overlap [start, end) of `confirmed` are withdrawn (not declined, so each slot is offered again)
 * (docs/decisions/0087). Each business's instants come from its own zone. Output: earliest first.
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
 * Customer `customerId` withdraws its pending request, so its slot is offered again
 * (docs/decisions/0017). Throws NOT_FOUND for unknown or someone else's booking, PRECONDITION_FAILED
 * once confirmed or completed, CONFLICT when already cancelled or declined.
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
 * The business's pending requests whose slot has not started, newest first: `{ id, notes, slot,
 * customer: { name, email } }[]`. No timestamps, so the answer is plain JSON (docs/decisions/0045).
 */
export async function listBusinessRequests(deps: Pick<ServiceDeps, 'db' | 'now'>, businessId: string) {
  const rows = await pendingRequestsOf(deps.db, { businessId });
  const now = deps.now();
  return rows
    .filter((r) => !isPast(r.slot.date, r.slot.startTime, r.timezone, now))
    .map(({ timezone: _tz, ...r }) => r);
}

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

/** The customer's bookings, archived copies included, each with its tab (`bucket`) and `expired`; newest slot first. */
export async function listCustomerBookings(deps: Pick<ServiceDeps, 'db' | 'now'>, customerId: string) {
  const rows = await bookingsOfCustomer(deps.db, { customerId });
  const now = deps.now();
  return rows
    .map((r) =>
      // Object.assign, not a spread followed by more keys: V8's slow path on Node 20 (slots.service.ts).
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
