/** The public business page's data, the owner's profile, and completing a missing profile. */
import { and, asc, eq, gte, isNotNull, notExists, or, sql, type Column, type Placeholder } from 'drizzle-orm';
import { MSG } from '../../../shared/messages';
import { scheduleToOpeningHours } from '../../../shared/opening-hours';
import { isReservedSlug, PUBLIC_SLUG_PATTERN } from '../../../shared/reserved-slugs';
import type { CompleteBusinessProfileInput } from '../../../shared/schemas/auth';
import { isPast, localNow } from '../../../shared/zoned-time';
import type { ServiceDeps } from '../../core/deps';
import { DomainError } from '../../core/errors';
import { pgConstraint, pgErrorCode, type DbOrTx } from '../../db/client';
import { preparedStatement } from '../../db/prepared';
import { bookings, businessProfiles, slots, users } from '../../db/schema/index';
import { queueGeocode } from '../geocoding/geocode-requests';
import { slugsInUse } from './slug-holds';
import { slugCandidate, slugFromName } from './slug';

/** The business_profiles columns everyone may see on the public page. */
export const publicBusinessColumns = {
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
 * SQL condition: no booking is active or declined by the business. With `is_booked = false` it makes a
 * slot open, on the public page and in Discover. `slotId`: where the slot's id is read (default `slots.id`).
 */
export function noActiveOrDeclinedBooking(db: DbOrTx, slotId: Column = slots.id) {
  return notExists(
    db
      .select({ one: sql`1` })
      .from(bookings)
      .where(
        and(
          eq(bookings.slotId, slotId),
          or(
            sql`${bookings.status} in ('pending', 'confirmed', 'completed')`,
            and(eq(bookings.status, 'cancelled'), eq(bookings.declinedByBusiness, true)),
          ),
        ),
      ),
  );
}

/** SQL condition: the slot is open and dated `today` or later; whether it started today is left to `isPast`. */
function requestableWhere(db: DbOrTx, today: string | Placeholder) {
  return and(eq(slots.isBooked, false), gte(slots.date, today), noActiveOrDeclinedBooking(db));
}

/** A slot as lists show it, in local time. */
export const slotColumns = {
  id: slots.id,
  date: slots.date,
  startTime: slots.startTime,
  endTime: slots.endTime,
  description: slots.description,
};

/** Includes today's slots that have started: the cache drops them when it shows the page (docs/decisions/0046). */
const upcomingRequestableSlots = preparedStatement<{ businessId: string; today: string }>()(
  'public_page_slots',
  (db, p) =>
    db
      .select(slotColumns)
      .from(slots)
      .where(and(eq(slots.businessId, p.businessId), requestableWhere(db, p.today)))
      .orderBy(asc(slots.date), asc(slots.startTime)),
);

/** Only a confirmed account's page is public: an unconfirmed sign-up's email and name are anyone's word. */
const publicBusinessBySlug = preparedStatement<{ slug: string }>()('public_business_by_slug', (db, p) =>
  db
    .select(publicBusinessColumns)
    .from(businessProfiles)
    .innerJoin(users, eq(users.id, businessProfiles.id))
    .where(and(eq(businessProfiles.slug, p.slug), isNotNull(users.emailVerifiedAt)))
    .limit(1),
);

/** True when slot `slotId` (of a business in `timezone`) may be requested now. */
export async function isSlotRequestable(db: DbOrTx, slotId: string, timezone: string, now: Date): Promise<boolean> {
  const [row] = await requestableSlotById(db, { slotId, today: localNow(timezone, now).date });
  return row !== undefined && !isPast(row.date, row.startTime, timezone, now);
}

const requestableSlotById = preparedStatement<{ slotId: string; today: string }>()('slot_requestable', (db, p) =>
  db
    .select(slotColumns)
    .from(slots)
    .where(and(eq(slots.id, p.slotId), requestableWhere(db, p.today)))
    .limit(1),
);

/** The business fields of the public page. */
export type PublicBusiness = Awaited<ReturnType<typeof getOwnBusiness>>;

/** The public page's data: the business and the slots it offers now. */
export interface PublicPage {
  business: PublicBusiness;
  slots: PublicSlot[];
}

/**
 * The public page read from the database for a `publicSlug`-normalised slug, today's started slots
 * included (the cache drops them). Null when no business has the slug, or its account is unconfirmed.
 */
export async function loadPublicPage(db: DbOrTx, slug: string, now: Date): Promise<PublicPage | null> {
  const [business] = await publicBusinessBySlug(db, { slug });
  if (!business) return null;
  const upcoming = await upcomingRequestableSlots(db, {
    businessId: business.id,
    today: localNow(business.timezone, now).date,
  });
  return { business, slots: upcoming };
}

/** `slug` trimmed and lower-cased, or null for a reserved word or non-slug: no look-up needed (docs/decisions/0020). */
export function publicSlug(slug: string): string | null {
  const normalised = slug.trim().toLowerCase();
  return isReservedSlug(normalised) || !PUBLIC_SLUG_PATTERN.test(normalised) ? null : normalised;
}

/**
 * The public page of `slug` from the per-process cache (docs/decisions/0046), with the slots not yet
 * started at `deps.now()`. Null for an unknown, reserved or malformed slug.
 */
export async function findPublicBusiness(
  deps: Pick<ServiceDeps, 'publicPages' | 'now'>,
  slug: string,
): Promise<PublicPage | null> {
  const normalised = publicSlug(slug);
  return normalised === null ? null : deps.publicPages.get(normalised, deps.now());
}

/** The public page's address of the business with `slug`, e.g. 'https://lastslot.example/demo-salon'. */
export function publicPageUrl(deps: Pick<ServiceDeps, 'appOrigin'>, slug: string): string {
  return `${deps.appOrigin}/${slug}`;
}

/** `findPublicBusiness`, throwing NOT_FOUND instead of answering null. */
export async function getPublicBusiness(
  deps: Pick<ServiceDeps, 'publicPages' | 'now'>,
  slug: string,
): Promise<PublicPage> {
  const page = await findPublicBusiness(deps, slug);
  if (!page) throw new DomainError('NOT_FOUND', MSG.businessNotFound);
  return page;
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

/**
 * The business_profiles row of the onboarding form's fields; `email` becomes its public
 * email_address (null: none shown).
 */
export function businessProfileRow(
  id: string,
  fields: CompleteBusinessProfileInput & { slug: string; email: string | null },
  now: Date,
): typeof businessProfiles.$inferInsert {
  return {
    id,
    businessName: fields.businessName,
    slug: fields.slug,
    description: fields.description,
    businessType: fields.category,
    address: fields.address,
    phoneNumber: fields.phone ?? null,
    emailAddress: fields.email,
    openingHours: scheduleToOpeningHours(fields.schedule),
    createdAt: now,
    updatedAt: now,
  };
}

/** The first of 'base', 'base-2', 'base-3', … neither reserved, taken nor held for a sign-up. */
async function firstFreeSlug(db: DbOrTx, base: string, now: Date): Promise<string> {
  for (let from = 1; ; from += 20) {
    const candidates = Array.from({ length: 20 }, (_, i) => slugCandidate(base, from + i));
    const used = await slugsInUse(db, candidates, now);
    const free = candidates.find((c) => !used.has(c) && !isReservedSlug(c));
    if (free) return free;
  }
}

/**
 * Creates the missing profile of a signed-in business user, its slug from the business name. Output:
 * { slug }. Throws CONFLICT when the user has a profile, also when two submissions race.
 */
export async function completeBusinessProfile(
  deps: Pick<ServiceDeps, 'db' | 'now'>,
  user: { id: string; email: string },
  input: CompleteBusinessProfileInput,
): Promise<{ slug: string }> {
  const alreadyComplete = () => new DomainError('CONFLICT', MSG.profileAlreadyComplete);
  const [existing] = await deps.db
    .select({ id: businessProfiles.id })
    .from(businessProfiles)
    .where(eq(businessProfiles.id, user.id))
    .limit(1);
  if (existing) throw alreadyComplete();
  const base = slugFromName(input.businessName);
  // Another business may take the chosen slug between the look-up and the insert: choose again.
  for (let attempt = 0; attempt < 5; attempt++) {
    const now = deps.now();
    const slug = await firstFreeSlug(deps.db, base, now);
    try {
      const inserted = await deps.db.transaction(async (tx) => {
        const rows = await tx
          .insert(businessProfiles)
          .values(businessProfileRow(user.id, { ...input, slug, email: user.email }, now))
          .onConflictDoNothing({ target: businessProfiles.id })
          .returning({ slug: businessProfiles.slug });
        if (rows.length > 0) await queueGeocode(tx, user.id, input.address, now);
        return rows;
      });
      if (inserted.length === 0) throw alreadyComplete();
      return { slug };
    } catch (err) {
      if (pgErrorCode(err) !== '23505' || pgConstraint(err) !== 'business_profiles_slug_unique') throw err;
    }
  }
  throw new Error(`no free slug found for '${base}' after 5 attempts`);
}
