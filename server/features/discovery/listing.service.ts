/**
 * The slot row's copies of its start instant and, while listed, its business's coordinates and category
 * label (docs/decisions/0081, 0114).
 * `businessPlacement`'s share lock makes a concurrent location or time zone change wait for the slot's
 * transaction, and then update the new row too.
 */
import { eq, sql } from 'drizzle-orm';
import { businessTypeLabel } from '../../../shared/categories';
import type { LatLng } from '../../../shared/geo';
import { zonedInstant } from '../../../shared/zoned-time';
import { DomainError } from '../../core/errors';
import { MSG } from '../../../shared/messages';
import type { DbOrTx, Tx } from '../../db/client';
import { businessProfiles, slots } from '../../db/schema/index';

/**
 * A business as its slots carry it; `listedAt` is null while it does not show in Discover. `category`:
 * its category's label (`businessTypeLabel`), on its slots while listed.
 */
export interface BusinessPlacement {
  timezone: string;
  listedAt: LatLng | null;
  category: string;
}

/**
 * Where a business shows in Discover: its location when it has one, is discoverable and its
 * subscription lets it be listed (`billingListed`, docs/decisions/0100), else null.
 */
export function listedAt(profile: {
  latitude: number | null;
  longitude: number | null;
  discoverable: boolean;
  billingListed: boolean;
}): LatLng | null {
  if (!profile.discoverable || !profile.billingListed) return null;
  if (profile.latitude === null || profile.longitude === null) return null;
  return { latitude: profile.latitude, longitude: profile.longitude };
}

/** What Discover shows of a business: where (null: it is not listed) and `shown`, a digest of what its results show of it. */
export interface DiscoverListing {
  at: LatLng | null;
  shown: string;
}

/**
 * What Discover shows of business `businessId` now, or null without a profile. With `lock`, its profile
 * row is locked FOR UPDATE until the transaction ends (read it before changing where it shows).
 */
export async function discoverListing(
  db: DbOrTx,
  businessId: string,
  options: { lock?: boolean } = {},
): Promise<DiscoverListing | null> {
  const query = db
    .select({
      latitude: businessProfiles.latitude,
      longitude: businessProfiles.longitude,
      discoverable: businessProfiles.discoverable,
      billingListed: businessProfiles.billingListed,
      businessName: businessProfiles.businessName,
      slug: businessProfiles.slug,
      businessType: businessProfiles.businessType,
      timezone: businessProfiles.timezone,
    })
    .from(businessProfiles)
    .where(eq(businessProfiles.id, businessId))
    .$dynamic();
  const [row] = await (options.lock ? query.for('update') : query).limit(1);
  if (!row) return null;
  const at = listedAt(row);
  // The fields a Discover result shows of its business (discovery.service.ts `searchSlots`).
  const shown = JSON.stringify([row.businessName, row.slug, row.businessType, row.timezone, at]);
  return { at, shown };
}

/** The business's placement, its profile share-locked until `tx` ends. Throws NOT_FOUND without a profile. */
export async function businessPlacement(tx: Tx, businessId: string): Promise<BusinessPlacement> {
  const [row] = await tx
    .select({
      timezone: businessProfiles.timezone,
      latitude: businessProfiles.latitude,
      longitude: businessProfiles.longitude,
      discoverable: businessProfiles.discoverable,
      billingListed: businessProfiles.billingListed,
      businessType: businessProfiles.businessType,
    })
    .from(businessProfiles)
    .where(eq(businessProfiles.id, businessId))
    .for('share')
    .limit(1);
  if (!row) throw new DomainError('NOT_FOUND', MSG.businessNotFound);
  return { timezone: row.timezone, listedAt: listedAt(row), category: businessTypeLabel(row.businessType) };
}

/** A slot's Discover columns, from its local `date` ('YYYY-MM-DD') and `startTime` ('HH:MM'). */
export function slotDiscoveryColumns(placement: BusinessPlacement, date: string, startTime: string) {
  return {
    startsAt: zonedInstant(date, startTime, placement.timezone),
    ...listedColumns(placement),
  };
}

/** The slot columns that show a business in Discover: null while it is not listed. */
function listedColumns(placement: BusinessPlacement) {
  return {
    latitude: placement.listedAt?.latitude ?? null,
    longitude: placement.listedAt?.longitude ?? null,
    businessCategory: placement.listedAt ? placement.category : null,
  };
}

/**
 * Copies the business's placement (listed coordinates and category) onto its slots, start instants too
 * when `timezoneChanged`. Call in the transaction that changed the profile, after the change and any
 * rewrite of slots' local times.
 */
export async function relistBusinessSlots(
  tx: Tx,
  businessId: string,
  options: { timezoneChanged: boolean },
): Promise<void> {
  const placement = await businessPlacement(tx, businessId);
  await tx.update(slots).set(listedColumns(placement)).where(eq(slots.businessId, businessId));
  if (!options.timezoneChanged) return;
  const rows = await tx
    .select({ id: slots.id, date: slots.date, startTime: slots.startTime })
    .from(slots)
    .where(eq(slots.businessId, businessId));
  if (rows.length === 0) return;
  const instants = JSON.stringify(
    rows.map((r) => ({ id: r.id, starts_at: zonedInstant(r.date, r.startTime, placement.timezone).toISOString() })),
  );
  await tx
    .update(slots)
    .set({ startsAt: sql`x.starts_at` })
    .from(sql`jsonb_to_recordset(${instants}::text::jsonb) as x(id uuid, starts_at timestamptz)`)
    .where(sql`${slots.id} = x.id`);
}
