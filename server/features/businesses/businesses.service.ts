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
 * Slots a customer may request now (dashboards spec §5 "Slots offered on the public page"): not
 * booked, not started (business zone), no active booking, not declined by the business. Sorted by
 * date then start time.
 */
export async function requestableSlots(
  db: DbOrTx,
  businessId: string,
  timezone: string,
  now: Date,
): Promise<PublicSlot[]> {
  const today = localNow(timezone, now).date;
  const rows = await db
    .select({
      id: slots.id,
      date: slots.date,
      startTime: slots.startTime,
      endTime: slots.endTime,
      description: slots.description,
    })
    .from(slots)
    .where(
      and(
        eq(slots.businessId, businessId),
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
      ),
    )
    .orderBy(asc(slots.date), asc(slots.startTime));
  return rows.filter((s) => !isPast(s.date, s.startTime, timezone, now));
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
