/** Business settings (docs/decisions/0013). */
import { eq } from 'drizzle-orm';
import { businessTypeLabel } from '../../../shared/categories';
import { MSG } from '../../../shared/messages';
import {
  defaultWeeklySchedule,
  scheduleToOpeningHours,
  WEEKDAYS,
  type OpeningHours,
  type WeeklySchedule,
} from '../../../shared/opening-hours';
import { isReservedSlug } from '../../../shared/reserved-slugs';
import { SLUG_PATTERN, type UpdateBusinessProfileInput } from '../../../shared/schemas/settings';
import type { ServiceDeps } from '../../core/deps';
import { DomainError } from '../../core/errors';
import { pgConstraint, pgErrorCode, type DbOrTx } from '../../db/client';
import { businessProfiles, users } from '../../db/schema/index';
import { publicBusinessColumns } from '../businesses/businesses.service';
import { slugsInUse } from '../businesses/slug-holds';
import { keepBookedInstants, notifyKeptBookings, type KeptBooking } from './time-zone-change';
import { followProfileChange } from './business-location.service';

/** A payment-customer id set by hand to work around a billing problem ('manual-fix…'). */
export function isManualFixCustomerId(id: string): boolean {
  return /^manual[-_ ]?fix/i.test(id.trim());
}

/** Whether the Billing card shows: a real payment-customer id and a subscription not canceled. */
export function billingVisible(profile: { stripeCustomerId: string | null; subscriptionStatus: string }): boolean {
  const id = profile.stripeCustomerId?.trim();
  return Boolean(id) && !isManualFixCustomerId(id!) && profile.subscriptionStatus.toLowerCase() !== 'canceled';
}

/** The weekly schedule form from stored opening hours; closed days keep the form's default times. */
export function openingHoursToSchedule(hours: OpeningHours): WeeklySchedule {
  const schedule = defaultWeeklySchedule();
  for (const day of WEEKDAYS) {
    const stored = hours[day];
    schedule[day] = stored
      ? { isActive: true, start: stored.open, end: stored.close }
      : { ...schedule[day], isActive: false };
  }
  return schedule;
}

/** NOT_FOUND for a business without a profile. */
export const profileLoadFailed = () =>
  new DomainError('NOT_FOUND', MSG.businessProfileLoadFailed, { title: MSG.errorLoadingProfileTitle });

/**
 * The signed-in business's settings: profile fields, contact name and email of the account, weekly
 * schedule and `showBilling`. Throws NOT_FOUND without a profile.
 */
export async function getBusinessSettings(deps: Pick<ServiceDeps, 'db'>, businessId: string) {
  const [row] = await deps.db
    .select({
      ...publicBusinessColumns,
      stripeCustomerId: businessProfiles.stripeCustomerId,
      subscriptionStatus: businessProfiles.subscriptionStatus,
      contactName: users.name,
      accountEmail: users.email,
    })
    .from(businessProfiles)
    .innerJoin(users, eq(users.id, businessProfiles.id))
    .where(eq(businessProfiles.id, businessId))
    .limit(1);
  if (!row) throw profileLoadFailed();
  const { id: _id, stripeCustomerId, subscriptionStatus, businessType, openingHours, ...fields } = row;
  return {
    ...fields,
    category: businessTypeLabel(businessType),
    schedule: openingHoursToSchedule(openingHours),
    showBilling: billingVisible({ stripeCustomerId, subscriptionStatus }),
  };
}

export type SlugCheck = { status: 'valid' } | { status: 'invalid' | 'taken'; message: string };

/**
 * Business URL availability: 'valid' when well-formed and free or already the business's own; 'taken'
 * when another business has it or it is held for a sign-up (docs/decisions/0117).
 */
export async function checkBusinessSlug(
  deps: Pick<ServiceDeps, 'db' | 'now'>,
  businessId: string,
  slug: string,
): Promise<SlugCheck> {
  const normalised = slug.trim().toLowerCase();
  if (!SLUG_PATTERN.test(normalised)) return { status: 'invalid', message: MSG.slugFormat };
  const inUse = await slugsInUse(deps.db, [normalised], deps.now());
  if (inUse.get(normalised) === businessId) return { status: 'valid' };
  if (isReservedSlug(normalised)) return { status: 'invalid', message: MSG.slugReserved };
  if (inUse.has(normalised)) return { status: 'taken', message: MSG.slugTaken };
  return { status: 'valid' };
}

const inUse = () =>
  new DomainError('CONFLICT', MSG.slugOrNameInUse, { title: MSG.errorUpdatingProfileTitle, field: 'slug' });

/**
 * Saves the Business Information card in one transaction. A new time zone keeps upcoming booked or
 * requested slots at their instant and emails their customers; other slots keep their local times
 * (docs/decisions/0078). Output: { slug, slugChanged }. Throws NOT_FOUND without a profile; BAD_REQUEST
 * (field slug) for a reserved slug; CONFLICT when another business or a sign-up holds the slug, even concurrently;
 * CONFLICT (field timezone) as `keepBookedInstants`.
 */
export async function updateBusinessProfile(
  deps: Pick<ServiceDeps, 'db' | 'now' | 'hub' | 'appOrigin' | 'kickMailer'>,
  businessId: string,
  input: UpdateBusinessProfileInput,
): Promise<{ slug: string; slugChanged: boolean }> {
  let saved: { slug: string; slugChanged: boolean; kept: KeptBooking[] };
  try {
    saved = await deps.db.transaction(async (tx) => {
      const now = deps.now();
      const [current] = await tx
        .select({
          slug: businessProfiles.slug,
          address: businessProfiles.address,
          timezone: businessProfiles.timezone,
          locationSource: businessProfiles.locationSource,
          businessType: businessProfiles.businessType,
        })
        .from(businessProfiles)
        .where(eq(businessProfiles.id, businessId))
        .for('update')
        .limit(1);
      if (!current) throw profileLoadFailed();
      const slugChanged = current.slug !== input.slug;
      if (slugChanged) await assertSlugFree(tx, businessId, input.slug, now);
      const zone = { businessId, from: current.timezone, to: input.timezone, now };
      const kept = zone.from === zone.to ? [] : await keepBookedInstants(tx, zone);
      await tx
        .update(businessProfiles)
        .set({
          businessName: input.businessName,
          slug: input.slug,
          businessType: input.category,
          description: input.description,
          address: input.address,
          phoneNumber: input.phone,
          emailAddress: input.email,
          timezone: input.timezone,
          updatedAt: now,
        })
        .where(eq(businessProfiles.id, businessId));
      await tx.update(users).set({ name: input.contactName, updatedAt: now }).where(eq(users.id, businessId));
      await followProfileChange(tx, businessId, current, input, now);
      await notifyKeptBookings(tx, deps, kept, zone.from, now);
      return { slug: input.slug, slugChanged, kept };
    });
  } catch (err) {
    if (pgErrorCode(err) === '23505' && pgConstraint(err) === 'business_profiles_slug_unique') throw inUse();
    throw err;
  }
  await deps.hub.publish({ kind: 'business', change: 'updated', businessId });
  for (const { slotId } of saved.kept) await deps.hub.publish({ kind: 'slot', change: 'updated', slotId, businessId });
  if (saved.kept.length > 0) deps.kickMailer();
  return { slug: saved.slug, slugChanged: saved.slugChanged };
}

async function assertSlugFree(tx: DbOrTx, businessId: string, slug: string, now: Date): Promise<void> {
  if (isReservedSlug(slug)) {
    throw new DomainError('BAD_REQUEST', MSG.slugReserved, { title: MSG.validationErrorTitle, field: 'slug' });
  }
  const owners = await slugsInUse(tx, [slug], now);
  if (owners.has(slug) && owners.get(slug) !== businessId) throw inUse();
}

/** Saves the Business Hours card; only active days are stored. Throws NOT_FOUND without a profile. */
export async function updateBusinessHours(
  deps: Pick<ServiceDeps, 'db' | 'now' | 'hub'>,
  businessId: string,
  schedule: WeeklySchedule,
): Promise<{ openingHours: OpeningHours }> {
  const openingHours = scheduleToOpeningHours(schedule);
  const updated = await deps.db
    .update(businessProfiles)
    .set({ openingHours, updatedAt: deps.now() })
    .where(eq(businessProfiles.id, businessId))
    .returning({ id: businessProfiles.id });
  if (updated.length === 0) throw profileLoadFailed();
  await deps.hub.publish({ kind: 'business', change: 'updated', businessId });
  return { openingHours };
}
