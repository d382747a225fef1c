/** Slot creation and the business's slot list (dashboards spec §2 "Business dashboard", §5). */
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { MSG } from '../../../shared/messages';
import type { CreateSlotInput } from '../../../shared/schemas/slots';
import { slotCategory } from '../../../shared/slot-categories';
import { dateChoices, endTimeChoices, startTimeChoices } from '../../../shared/slot-rules';
import { isPast } from '../../../shared/zoned-time';
import { pgConstraint, pgErrorCode, type DbOrTx } from '../../db/client';
import { bookings, slots } from '../../db/schema/index';
import { getOwnBusiness } from '../businesses/businesses.service';
import { DomainError } from '../errors';
import type { ServiceDeps } from '../context';

/**
 * Adds an unbooked slot for `businessId`. The same rules as the form, in the business's zone:
 * date among the offered dates, start a half hour not past and before closing, end from start +
 * 30 minutes to closing. Throws BAD_REQUEST with the spec's message, CONFLICT 'A slot with this date
 * and time already exists.' for a duplicate. Output: the new slot's id.
 */
export async function createSlot(
  deps: Pick<ServiceDeps, 'db' | 'now'>,
  businessId: string,
  input: CreateSlotInput,
): Promise<{ id: string }> {
  const business = await getOwnBusiness(deps.db, businessId);
  const now = deps.now();
  if (isPast(input.date, input.startTime, business.timezone, now)) {
    throw new DomainError('BAD_REQUEST', MSG.slotPast, { field: 'startTime' });
  }
  if (!dateChoices(business.openingHours, business.timezone, now).includes(input.date)) {
    throw new DomainError('BAD_REQUEST', MSG.selectDate, { field: 'date' });
  }
  if (!startTimeChoices(input.date, business.openingHours, business.timezone, now).includes(input.startTime)) {
    throw new DomainError('BAD_REQUEST', MSG.selectStart, { field: 'startTime' });
  }
  if (!endTimeChoices(input.date, input.startTime, business.openingHours).includes(input.endTime)) {
    throw new DomainError('BAD_REQUEST', MSG.selectEnd, { field: 'endTime' });
  }
  try {
    const [row] = await deps.db
      .insert(slots)
      .values({
        businessId,
        date: input.date,
        startTime: input.startTime,
        endTime: input.endTime,
        description: input.description,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: slots.id });
    return { id: row!.id };
  } catch (err) {
    if (pgErrorCode(err) === '23505' && pgConstraint(err) === 'slots_business_date_start_unique') {
      throw new DomainError('CONFLICT', MSG.slotDuplicate);
    }
    throw err;
  }
}

/**
 * Every slot of the business with its display category, oldest first (the business tabs' order).
 * Times are the business's local wall-clock values.
 */
export async function listBusinessSlots(db: DbOrTx, businessId: string, timezone: string, now: Date) {
  const rows = await db
    .select({
      id: slots.id,
      date: slots.date,
      startTime: slots.startTime,
      endTime: slots.endTime,
      description: slots.description,
      isBooked: slots.isBooked,
      addedToSystem: slots.addedToSystem,
      customerName: slots.customerName,
      customerEmail: slots.customerEmail,
    })
    .from(slots)
    .where(eq(slots.businessId, businessId))
    .orderBy(asc(slots.date), asc(slots.startTime));
  const ids = rows.map((r) => r.id);
  const flags =
    ids.length === 0
      ? []
      : await db
          .select({
            slotId: bookings.slotId,
            pending: sql<boolean>`bool_or(${bookings.status} = 'pending')`,
            declined: sql<boolean>`bool_or(${bookings.status} = 'cancelled' and ${bookings.declinedByBusiness})`,
          })
          .from(bookings)
          .where(and(eq(bookings.businessId, businessId), inArray(bookings.slotId, ids)))
          .groupBy(bookings.slotId);
  const bySlot = new Map(flags.map((f) => [f.slotId, f]));
  return rows.map((r) => {
    const f = bySlot.get(r.id);
    const { category, unconfirmed, past } = slotCategory(
      {
        ...r,
        hasPendingRequest: Boolean(f?.pending),
        hasDeclinedRequest: Boolean(f?.declined),
        timezone,
      },
      now,
    );
    return { ...r, category, unconfirmed, past };
  });
}
