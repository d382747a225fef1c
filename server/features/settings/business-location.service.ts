/**
 * The business's Location card (docs/decisions/0081, 0082): where the business is, how precise
 * that is and where it came from, the "Show my slots in Discover" switch, and the address look-up
 * waiting or failed. Setting the position from the owner's device or the map pin, switching
 * Discover on or off, and asking for a look-up of the address each save in one transaction that
 * also brings the business's slots in step, then tell Discover (a business 'located' event).
 */
import { eq } from 'drizzle-orm';
import type { LocationPrecision, LocationSource } from '../../../shared/discovery';
import { roundDegrees } from '../../../shared/geo';
import { MSG } from '../../../shared/messages';
import type { SetBusinessLocationInput } from '../../../shared/schemas/discovery';
import type { ServiceDeps } from '../../core/deps';
import { DomainError } from '../../core/errors';
import { profileLoadFailed } from './business-settings.service';
import type { DbOrTx, Tx } from '../../db/client';
import { businessProfiles, geocodeRequests } from '../../db/schema/index';
import { listedAt, relistBusinessSlots } from '../discovery/listing.service';
import { queueGeocode, withdrawGeocode } from '../geocoding/geocode-requests';

/** The Location card. */
export interface BusinessLocation {
  /** Degrees, or null when the business has no location yet. */
  latitude: number | null;
  longitude: number | null;
  precision: LocationPrecision | null;
  source: LocationSource | null;
  /** "Show my slots in Discover" (on by default). */
  discoverable: boolean;
  /** Whether its slots show in Discover now: discoverable and located. */
  listed: boolean;
  /** The address a look-up would use (Business Information's), or null when none is saved. */
  address: string | null;
  /** The address look-up: 'pending' (queued or retrying), 'failed' (not found), or null when none waits. */
  lookup: 'pending' | 'failed' | null;
}

type LocationDeps = Pick<ServiceDeps, 'db' | 'now' | 'hub'>;

/** Business `businessId`'s saved address, its profile row locked until `tx` ends. Throws NOT_FOUND when it has no profile. */
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

/**
 * The Location card of business `businessId`. Throws NOT_FOUND 'Could not load your business
 * profile' when it has no profile.
 */
export async function getBusinessLocation(deps: { db: DbOrTx }, businessId: string): Promise<BusinessLocation> {
  const [row] = await deps.db
    .select({
      latitude: businessProfiles.latitude,
      longitude: businessProfiles.longitude,
      precision: businessProfiles.locationPrecision,
      source: businessProfiles.locationSource,
      discoverable: businessProfiles.discoverable,
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

/**
 * Runs `change` on business `businessId`'s profile row (locked) in one transaction, then copies
 * its placement onto its slots, and after commit publishes a business 'located' event with where
 * it now shows in Discover. Output: the Location card. Throws NOT_FOUND when it has no profile.
 */
async function changeLocation(
  deps: LocationDeps,
  businessId: string,
  change: (tx: Tx, now: Date) => Promise<void>,
): Promise<BusinessLocation> {
  const card = await deps.db.transaction(async (tx) => {
    await lockProfile(tx, businessId);
    await change(tx, deps.now());
    await relistBusinessSlots(tx, businessId, { timezoneChanged: false });
    return getBusinessLocation({ db: tx }, businessId);
  });
  await publishLocated(deps, businessId, card);
  return card;
}

/** Tells every process (the Discover streams) where business `businessId` now shows, if anywhere. */
async function publishLocated(deps: Pick<ServiceDeps, 'hub'>, businessId: string, card: BusinessLocation) {
  const at = card.listed ? { latitude: card.latitude, longitude: card.longitude } : { latitude: null, longitude: null };
  await deps.hub.publish({ kind: 'business', change: 'located', businessId, ...at });
}

/**
 * Sets business `businessId`'s position from its owner's device or the map pin: degrees rounded to
 * 6 places (about 0.1 m), precision 'exact', source as given; a queued address look-up is
 * withdrawn (the owner's own position wins). Output: the Location card.
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
 * "Locate from my address": queues a look-up of business `businessId`'s saved address, run in the
 * background after this answers (the card then shows `lookup: 'pending'`; the location arrives
 * with a 'located' event). Throws BAD_REQUEST 'Add your address under Business Information
 * first…' (field address) when no address is saved. Output: the Location card.
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
 * After a profile save in `tx` (the new row written): a changed `address` of a business located
 * by its address (or not located yet) queues a look-up of the new one; a changed time zone sets
 * every slot's start instant to its local date and start in the new zone, so a slot that keeps its
 * local times (open, declined, past) moves, and one `keepBookedInstants` rewrote keeps its
 * instant. `before` is the row as it was, `after` as saved.
 */
export async function followProfileChange(
  tx: Tx,
  businessId: string,
  before: { address: string | null; timezone: string; locationSource: string | null },
  after: { address: string | null; timezone: string },
  now: Date,
): Promise<void> {
  const address = after.address?.trim();
  const byAddress = before.locationSource === null || before.locationSource === 'address';
  if (address && address !== before.address?.trim() && byAddress) await queueGeocode(tx, businessId, address, now);
  if (after.timezone !== before.timezone) await relistBusinessSlots(tx, businessId, { timezoneChanged: true });
}
