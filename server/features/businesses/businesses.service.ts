/** Public business page data and the owner's own profile (dashboards spec §2 "/{slug}"). */
import { and, asc, eq, gte, notExists, or, sql } from 'drizzle-orm';
import { isReservedSlug } from '../../../shared/reserved-slugs';
import { isPast, localNow } from '../../../shared/zoned-time';
import { MSG } from '../../../shared/messages';
import type { DbOrTx } from '../../db/client';
import { bookings, businessProfiles, slots } from '../../db/schema/index';
import { DomainError } from '../errors';

const publicBusinessColumns = {
  id: businessProfiles.id,
  businessName: businessProfiles.businessName,
  slug: businessProfiles.slug,
  businessType: businessProfiles.businessType,
  description: businessProfiles.description,
  address: businessProfiles.address,
  phoneNumber: businessProfiles.phoneNumber,
  emailAddress: businessProfiles.emailAddress,
  openingHours: businessProfiles.openingHours,
  timezone: businessProfiles.timezone,
};

export interface PublicSlot {
  id: string;
  date: string;
  startTime: string;
  endTime: string;
  description: string;
}

/**
 * SQL condition "this slot may be requested" (dashboards spec §5 "Slots offered on the public
 * page"): not booked, dated today or later in the business's zone, no active booking and not
 * declined by the business. Whether its start has passed today is checked in `isPast`.
 */
function requestableWhere(db: DbOrTx, today: string) {
  return and(
    eq(slots.isBooked, false),
    gte(slots.date, today),
    notExists(
      db
        .select({ one: sql`1` })
        .from(bookings)
        .where(
          and(
            eq(bookings.slotId, slots.id),
            or(
              sql`${bookings.status} in ('pending', 'confirmed', 'completed')`,
              and(eq(bookings.status, 'cancelled'), eq(bookings.declinedByBusiness, true)),
            ),
          ),
        ),
    ),
  );
}

const publicSlotColumns = {
  id: slots.id,
  date: slots.date,
  startTime: slots.startTime,
  endTime: slots.endTime,
  description: slots.description,
};

/** The business's slots a customer may request now, by date then start time. */
export async function requestableSlots(
  db: DbOrTx,
  businessId: string,
  timezone: string,
  now: Date,
): Promise<PublicSlot[]> {
  const today = localNow(timezone, now).date;
  const rows = await db
    .select(publicSlotColumns)
    .from(slots)
    .where(and(eq(slots.businessId, businessId), requestableWhere(db, today)))
    .orderBy(asc(slots.date), asc(slots.startTime));
  // Only today's slots can have started; later dates skip the zone arithmetic.
  return rows.filter((s) => s.date > today || !isPast(s.date, s.startTime, timezone, now));
}

/** True when slot `slotId` (of a business in `timezone`) may be requested now. */
export async function isSlotRequestable(db: DbOrTx, slotId: string, timezone: string, now: Date): Promise<boolean> {
  const [row] = await db
    .select(publicSlotColumns)
    .from(slots)
    .where(and(eq(slots.id, slotId), requestableWhere(db, localNow(timezone, now).date)))
    .limit(1);
  return row !== undefined && !isPast(row.date, row.startTime, timezone, now);
}

/**
 * The public page of `slug`: business fields shown to everyone plus its requestable slots.
 * Throws NOT_FOUND 'Business not found' for unknown or reserved slugs.
 */
export async function getPublicBusiness(db: DbOrTx, slug: string, now: Date) {
  const normalised = slug.trim().toLowerCase();
  if (isReservedSlug(normalised)) throw new DomainError('NOT_FOUND', MSG.businessNotFound);
  const [business] = await db
    .select(publicBusinessColumns)
    .from(businessProfiles)
    .where(eq(businessProfiles.slug, normalised))
    .limit(1);
  if (!business) throw new DomainError('NOT_FOUND', MSG.businessNotFound);
  const open = await requestableSlots(db, business.id, business.timezone, now);
  return { business, slots: open };
}

/** The signed-in business's own profile. Throws NOT_FOUND when it has none yet. */
export async function getOwnBusiness(db: DbOrTx, businessId: string) {
  const [business] = await db
    .select(publicBusinessColumns)
    .from(businessProfiles)
    .where(eq(businessProfiles.id, businessId))
    .limit(1);
  if (!business) throw new DomainError('NOT_FOUND', MSG.businessNotFound);
  return business;
}
