/**
 * Which business usernames (slugs) are in use: a business's, or one held for a business sign-up whose
 * email was registered (docs/decisions/0117). Such a sign-up creates nothing, yet its username must
 * look as taken as a new sign-up's, for as long as an unconfirmed account keeps its own; else the
 * username's availability would tell whether the email has an account.
 */
import { and, gt, inArray, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { businessProfiles, slugHolds } from '../../db/schema/index';
import { UNCONFIRMED_SIGN_UP_MS } from '../auth/unconfirmed-sign-ups';

/**
 * Of `slugs` (normalised), those in use at `now`: each with the id of the business whose page it is,
 * or null when it is held for a sign-up.
 */
export async function slugsInUse(db: DbOrTx, slugs: string[], now: Date): Promise<Map<string, string | null>> {
  const owned = await db
    .select({ slug: businessProfiles.slug, id: businessProfiles.id })
    .from(businessProfiles)
    .where(inArray(businessProfiles.slug, slugs));
  const held = await db
    .select({ slug: slugHolds.slug })
    .from(slugHolds)
    .where(and(inArray(slugHolds.slug, slugs), gt(slugHolds.expiresAt, now)));
  const inUse = new Map<string, string | null>(held.map((h) => [h.slug, null]));
  for (const o of owned) inUse.set(o.slug, o.id);
  return inUse;
}

/** Holds `slug` (normalised) from `now` for UNCONFIRMED_SIGN_UP_MS, as an unconfirmed sign-up holds its own. */
export async function holdSlug(db: DbOrTx, slug: string, now: Date): Promise<void> {
  const expiresAt = new Date(now.getTime() + UNCONFIRMED_SIGN_UP_MS);
  await db
    .insert(slugHolds)
    .values({ slug, expiresAt })
    .onConflictDoUpdate({
      target: slugHolds.slug,
      set: { expiresAt: sql`greatest(${slugHolds.expiresAt}, excluded.expires_at)` },
    });
}

/** Removes the holds that have ended by `now` (housekeeping). */
export async function deleteExpiredSlugHolds(db: DbOrTx, now: Date): Promise<void> {
  await db.delete(slugHolds).where(lt(slugHolds.expiresAt, now));
}
