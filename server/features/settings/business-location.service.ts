/**
 * The business's Location card (docs/decisions/0081, 0082). Each change also brings the business's
 * slots in step in its transaction, then publishes a 'located' event.
 */
import { eq } from 'drizzle-orm';
import { businessTypeLabel } from '../../../shared/categories';
import type { LocationPrecision, LocationSource } from '../../../shared/discovery';
import { roundDegrees, type LatLng } from '../../../shared/geo';
import { MSG } from '../../../shared/messages';
import type { SetBusinessLocationInput } from '../../../shared/schemas/discovery';
import type { ServiceDeps } from '../../core/deps';
import { DomainError } from '../../core/errors';
import { profileLoadFailed } from './business-settings.service';
import type { DbOrTx, Tx } from '../../db/client';
import { businessProfiles, geocodeRequests } from '../../db/schema/index';
import { discoverListing, listedAt, relistBusinessSlots } from '../discovery/listing.service';
import { queueGeocode, withdrawGeocode } from '../geocoding/geocode-requests';

/** The Location card. */
export interface BusinessLocation {
  /** Degrees, or null when the business has no location yet. */
  latitude: number | null;
  longitude: number | null;
  precision: LocationPrecision | null;
  source: LocationSource | null;
  discoverable: boolean;
  /** Discoverable and located. */
  listed: boolean;
  /** The address a look-up would use. */
  address: string | null;
  /** 'pending': queued or retrying; null when none waits. */
  lookup: 'pending' | 'failed' | null;
}

type LocationDeps = Pick<ServiceDeps, 'db' | 'now' | 'hub'>;

/** The saved address, the profile row locked until `tx` ends. Throws NOT_FOUND without a profile. */
async function lockProfile(tx: Tx, businessId: string): Promise<{ address: string | null }> {
  const [row] = await tx
    .select({ address: businessProfiles.address })
    .from(businessProfiles)
    .where(eq(businessProfiles.id, businessId))
    .for('update')
    .limit(1);
  if (!row) throw profileLoadFailed();
  return row;
}

/** The business's Location card. Throws NOT_FOUND without a profile. */
export async function getBusinessLocation(deps: { db: DbOrTx }, businessId: string): Promise<BusinessLocation> {
  const [row] = await deps.db
    .select({
      latitude: businessProfiles.latitude,
      longitude: businessProfiles.longitude,
      precision: businessProfiles.locationPrecision,
      source: businessProfiles.locationSource,
      discoverable: businessProfiles.discoverable,
      billingListed: businessProfiles.billingListed,
      address: businessProfiles.address,
      lookup: geocodeRequests.status,
    })
    .from(businessProfiles)
    .leftJoin(geocodeRequests, eq(geocodeRequests.businessId, businessProfiles.id))
    .where(eq(businessProfiles.id, businessId))
    .limit(1);
  if (!row) throw profileLoadFailed();
  return {
    latitude: row.latitude,
    longitude: row.longitude,
    precision: row.precision as LocationPrecision | null,
    source: row.source as LocationSource | null,
    discoverable: row.discoverable,
    listed: listedAt(row) !== null,
    address: row.address,
    lookup: row.lookup as BusinessLocation['lookup'],
  };
}

/** Runs `change` on the locked profile, relists the slots, and publishes after commit. Throws NOT_FOUND. */
async function changeLocation(
  deps: LocationDeps,
  businessId: string,
  change: (tx: Tx, now: Date) => Promise<void>,
): Promise<BusinessLocation> {
  const { card, was } = await deps.db.transaction(async (tx) => {
    await lockProfile(tx, businessId);
    const was = (await discoverListing(tx, businessId))?.at ?? null;
    await change(tx, deps.now());
    await relistBusinessSlots(tx, businessId, { timezoneChanged: false });
    return { card: await getBusinessLocation({ db: tx }, businessId), was };
  });
  await publishLocated(deps, businessId, card, was);
  return card;
}

/** 'located' with where the business now shows in Discover and `was`, where it showed before (null: nowhere). */
async function publishLocated(
  deps: Pick<ServiceDeps, 'hub'>,
  businessId: string,
  card: BusinessLocation,
  was: LatLng | null,
) {
  const at = card.listed ? { latitude: card.latitude, longitude: card.longitude } : { latitude: null, longitude: null };
  await deps.hub.publish({ kind: 'business', change: 'located', businessId, ...at, was });
}

/**
 * Sets the position from the owner's device or the map pin, rounded to about 0.1 m; a queued address
 * look-up is withdrawn, as the owner's own position wins. Output: the Location card.
 */
export function setBusinessLocation(
  deps: LocationDeps,
  businessId: string,
  input: SetBusinessLocationInput,
): Promise<BusinessLocation> {
  return changeLocation(deps, businessId, async (tx, now) => {
    await tx
      .update(businessProfiles)
      .set({
        latitude: roundDegrees(input.latitude, 6),
        longitude: roundDegrees(input.longitude, 6),
        locationPrecision: 'exact',
        locationSource: input.source,
        updatedAt: now,
      })
      .where(eq(businessProfiles.id, businessId));
    await withdrawGeocode(tx, businessId);
  });
}

/** Turns "Show my slots in Discover" on or off for business `businessId`. Output: the Location card. */
export function setDiscoverable(
  deps: LocationDeps,
  businessId: string,
  discoverable: boolean,
): Promise<BusinessLocation> {
  return changeLocation(deps, businessId, async (tx, now) => {
    await tx.update(businessProfiles).set({ discoverable, updatedAt: now }).where(eq(businessProfiles.id, businessId));
  });
}

/**
 * Queues a background look-up of the saved address; the location arrives with a 'located' event.
 * Output: the Location card. Throws BAD_REQUEST (field address) when no address is saved.
 */
export async function locateFromAddress(deps: LocationDeps, businessId: string): Promise<BusinessLocation> {
  return deps.db.transaction(async (tx) => {
    const address = (await lockProfile(tx, businessId)).address?.trim();
    if (!address) throw new DomainError('BAD_REQUEST', MSG.locateNeedsAddress, { field: 'address' });
    await queueGeocode(tx, businessId, address, deps.now());
    return getBusinessLocation({ db: tx }, businessId);
  });
}

/**
 * After a profile save in `tx`: a new address of a business not located otherwise queues a look-up; a
 * new time zone recomputes every slot's start instant from its (possibly rewritten) local times; a new
 * category (`category`, stored as `businessType`) reaches the slots' copy of it.
 */
export async function followProfileChange(
  tx: Tx,
  businessId: string,
  before: { address: string | null; timezone: string; locationSource: string | null; businessType: string },
  after: { address: string | null; timezone: string; category: string },
  now: Date,
): Promise<void> {
  const address = after.address?.trim();
  const byAddress = before.locationSource === null || before.locationSource === 'address';
  if (address && address !== before.address?.trim() && byAddress) await queueGeocode(tx, businessId, address, now);
  const timezoneChanged = after.timezone !== before.timezone;
  if (timezoneChanged || businessTypeLabel(after.category) !== businessTypeLabel(before.businessType))
    await relistBusinessSlots(tx, businessId, { timezoneChanged });
}
