/**
 * What the Discover search reads off each slot row (docs/decisions/0081): the slot's start
 * instant, and its business's coordinates while the business shows in Discover. Slot writes take
 * them from `businessPlacement` (read under a share lock, so a concurrent change of the business's
 * location or time zone waits for the slot's transaction and then updates the new row too); a
 * business's own changes copy them onto its slots with `relistBusinessSlots`.
 */
import { eq, sql } from 'drizzle-orm';
import type { LatLng } from '../../../shared/geo';
import { zonedInstant } from '../../../shared/zoned-time';
import { DomainError } from '../../core/errors';
import { MSG } from '../../../shared/messages';
import type { Tx } from '../../db/client';
import { businessProfiles, slots } from '../../db/schema/index';

/** A business as its slots carry it: its time zone, and its coordinates while it shows in Discover (else null). */
export interface BusinessPlacement {
  timezone: string;
  listedAt: LatLng | null;
}

/** The coordinates a business shows in Discover at: its location when it has one and is discoverable, else null. */
export function listedAt(profile: {
  latitude: number | null;
  longitude: number | null;
  discoverable: boolean;
}): LatLng | null {
  if (!profile.discoverable || profile.latitude === null || profile.longitude === null) return null;
  return { latitude: profile.latitude, longitude: profile.longitude };
}

/**
 * The placement of business `businessId`, its profile row share-locked until `tx` ends. Throws
 * NOT_FOUND MSG.businessNotFound when it has no profile.
 */
export async function businessPlacement(tx: Tx, businessId: string): Promise<BusinessPlacement> {
  const [row] = await tx
    .select({
      timezone: businessProfiles.timezone,
      latitude: businessProfiles.latitude,
      longitude: businessProfiles.longitude,
      discoverable: businessProfiles.discoverable,
    })
    .from(businessProfiles)
    .where(eq(businessProfiles.id, businessId))
    .for('share')
    .limit(1);
  if (!row) throw new DomainError('NOT_FOUND', MSG.businessNotFound);
  return { timezone: row.timezone, listedAt: listedAt(row) };
}

/**
 * The Discover columns of a slot at local `date` ('YYYY-MM-DD') and `startTime` ('HH:MM') of a
 * business placed at `placement`: `startsAt` (UTC instant) and the business's listed coordinates.
 */
export function slotDiscoveryColumns(placement: BusinessPlacement, date: string, startTime: string) {
  return {
    startsAt: zonedInstant(date, startTime, placement.timezone),
    latitude: placement.listedAt?.latitude ?? null,
    longitude: placement.listedAt?.longitude ?? null,
  };
}

/**
 * Copies business `businessId`'s placement (as stored in `tx`) onto every one of its slots: its
 * listed coordinates (null when hidden or unlocated), and, when `timezoneChanged`, each slot's
 * start instant: its local date and start read in the new zone. Call in the transaction that
 * changed the profile, after the change (and after any rewrite of slots' local times).
 */
export async function relistBusinessSlots(
  tx: Tx,
  businessId: string,
  options: { timezoneChanged: boolean },
): Promise<void> {
  const placement = await businessPlacement(tx, businessId);
  await tx
    .update(slots)
    .set({ latitude: placement.listedAt?.latitude ?? null, longitude: placement.listedAt?.longitude ?? null })
    .where(eq(slots.businessId, businessId));
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
