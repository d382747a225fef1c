/**
 * Address look-ups as retried background work (docs/decisions/0082): a request only queues one, never
 * a network call. The worker asks the geocoder outside any transaction and stores the answer unless the
 * request was replaced or withdrawn meanwhile. Failures back off from 30 s; an unknown address or the
 * last failure falls back to the offline gazetteer before 'failed'.
 */
import { and, asc, eq, lte, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { ServiceDeps } from '../../core/deps';
import { runEvery, type Passes } from '../../core/run-every';
import type { Db, Tx } from '../../db/client';
import { businessProfiles, geocodeRequests } from '../../db/schema/index';
import { discoverListing, listedAt, relistBusinessSlots } from '../discovery/listing.service';
import { offlineGeocoder, type Geocoder, type Located } from './geocoder';

export const MAX_GEOCODE_ATTEMPTS = 6;
const BASE_BACKOFF_MS = 30_000;
/** How long a claimed look-up is kept from other processes while this one runs it (ms). */
const CLAIM_MS = 5 * 60_000;
/** Look-ups one pass takes. */
const BATCH = 10;

/** Queues a look-up in the save's transaction, replacing any queued or failed one. */
export async function queueGeocode(tx: Tx, businessId: string, address: string, now: Date): Promise<void> {
  const fresh = { address, status: 'pending', attempts: 0, lastError: null, nextAttemptAt: now, createdAt: now };
  await tx
    .insert(geocodeRequests)
    .values({ businessId, ...fresh })
    .onConflictDoUpdate({ target: geocodeRequests.businessId, set: fresh });
}

/** Withdraws the business's queued or failed look-up: its location was set another way. */
export async function withdrawGeocode(tx: Tx, businessId: string): Promise<void> {
  await tx.delete(geocodeRequests).where(eq(geocodeRequests.businessId, businessId));
}

type Claimed = typeof geocodeRequests.$inferSelect;

/** Takes up to BATCH due look-ups, counting the attempt; SKIP LOCKED keeps processes apart. */
async function claimDue(db: Db, now: Date): Promise<Claimed[]> {
  const due = db
    .select({ id: geocodeRequests.businessId })
    .from(geocodeRequests)
    .where(and(eq(geocodeRequests.status, 'pending'), lte(geocodeRequests.nextAttemptAt, now)))
    .orderBy(asc(geocodeRequests.nextAttemptAt))
    .limit(BATCH)
    .for('update', { skipLocked: true });
  return db
    .update(geocodeRequests)
    .set({ attempts: sql`${geocodeRequests.attempts} + 1`, nextAttemptAt: new Date(now.getTime() + CLAIM_MS) })
    .where(sql`${geocodeRequests.businessId} in (${due})`)
    .returning();
}

/** The request row as claimed, not replaced or withdrawn since. */
const sameRequest = (claimed: Claimed) =>
  and(eq(geocodeRequests.businessId, claimed.businessId), eq(geocodeRequests.createdAt, claimed.createdAt));

/**
 * Stores the location unless the request changed meanwhile. Returns where it is listed now (`at`) and
 * before (`was`), null where not listed; undefined: not stored.
 */
async function store(db: Db, claimed: Claimed, found: Located, now: Date) {
  return db.transaction(async (tx) => {
    const [gone] = await tx
      .delete(geocodeRequests)
      .where(sameRequest(claimed))
      .returning({ id: geocodeRequests.businessId });
    if (!gone) return undefined;
    const was = (await discoverListing(tx, claimed.businessId, { lock: true }))?.at ?? null;
    const [profile] = await tx
      .update(businessProfiles)
      .set({
        latitude: found.latitude,
        longitude: found.longitude,
        locationPrecision: found.precision,
        locationSource: 'address',
        updatedAt: now,
      })
      .where(eq(businessProfiles.id, claimed.businessId))
      .returning({
        latitude: businessProfiles.latitude,
        longitude: businessProfiles.longitude,
        discoverable: businessProfiles.discoverable,
        billingListed: businessProfiles.billingListed,
      });
    if (!profile) return undefined;
    await relistBusinessSlots(tx, claimed.businessId, { timezoneChanged: false });
    return { at: listedAt(profile), was };
  });
}

/**
 * Runs the due look-ups once, publishing 'located' for each location stored. Returns how many it
 * settled (stored, failed or found replaced). Throws only when the database does.
 */
export async function runGeocodesOnce(params: {
  db: Db;
  geocoder: Geocoder;
  hub: ServiceDeps['hub'];
  logger: Logger;
  now?: Date;
}): Promise<number> {
  const { db, geocoder, logger } = params;
  const now = params.now ?? new Date();
  let settled = 0;
  for (const claimed of await claimDue(db, now)) {
    let found: Located | null = null;
    let failure: string | null = null;
    try {
      found = await geocoder.locate(claimed.address);
    } catch (err) {
      failure = err instanceof Error ? err.message.slice(0, 300) : 'look-up failed';
      logger.warn({ err, businessId: claimed.businessId, attempts: claimed.attempts }, 'address look-up failed');
      if (claimed.attempts < MAX_GEOCODE_ATTEMPTS) {
        const retryAt = new Date(now.getTime() + BASE_BACKOFF_MS * 2 ** (claimed.attempts - 1));
        await db
          .update(geocodeRequests)
          .set({ lastError: failure, nextAttemptAt: retryAt })
          .where(sameRequest(claimed));
        continue;
      }
    }
    if (!found && geocoder !== offlineGeocoder) found = await offlineGeocoder.locate(claimed.address);
    settled++;
    if (!found) {
      await db
        .update(geocodeRequests)
        .set({ status: 'failed', lastError: failure ?? 'address not found' })
        .where(sameRequest(claimed));
      continue;
    }
    const shown = await store(db, claimed, found, now);
    if (shown === undefined) continue;
    await params.hub.publish({
      kind: 'business',
      change: 'located',
      businessId: claimed.businessId,
      latitude: shown.at?.latitude ?? null,
      longitude: shown.at?.longitude ?? null,
      was: shown.was,
    });
  }
  return settled;
}

/** Runs `runGeocodesOnce` every `intervalMs` (ms) until `stop()`. */
export function startGeocodeWorker(params: {
  db: Db;
  geocoder: Geocoder;
  hub: ServiceDeps['hub'];
  logger: Logger;
  intervalMs?: number;
}): Passes {
  return runEvery(() => runGeocodesOnce(params), {
    intervalMs: params.intervalMs ?? 2_000,
    logger: params.logger,
    failure: 'background geocoder failed',
  });
}
