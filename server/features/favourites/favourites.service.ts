/**
 * Favourites. One like per customer and business (unique index), so setting the same state twice
 * changes nothing and the count, a count of rows, never goes below zero.
 */
import { and, desc, eq } from 'drizzle-orm';
import { MSG } from '../../../shared/messages';
import type { ServiceDeps } from '../../core/deps';
import { DomainError } from '../../core/errors';
import { alertMatches, businessProfiles, customerLikes } from '../../db/schema/index';

export interface FavouriteStatus {
  count: number;
  /** False for anyone but a customer. */
  favourited: boolean;
  /** The viewer's "email me its new slots" (docs/decisions/0086); false for anyone but a customer. */
  notifyNewSlots: boolean;
}

async function requireBusiness(deps: Pick<ServiceDeps, 'db'>, businessId: string): Promise<void> {
  const [row] = await deps.db
    .select({ id: businessProfiles.id })
    .from(businessProfiles)
    .where(eq(businessProfiles.id, businessId))
    .limit(1);
  if (!row) throw new DomainError('NOT_FOUND', MSG.businessNotFound);
}

/** The business's like count and `customerId`'s choices (null for visitors and businesses). Throws NOT_FOUND. */
export async function favouriteStatus(
  deps: Pick<ServiceDeps, 'db'>,
  customerId: string | null,
  businessId: string,
): Promise<FavouriteStatus> {
  // One query for both: the business (NOT_FOUND without it) and its like count.
  const [business] = await deps.db
    .select({ likes: deps.db.$count(customerLikes, eq(customerLikes.businessId, businessProfiles.id)) })
    .from(businessProfiles)
    .where(eq(businessProfiles.id, businessId))
    .limit(1);
  if (!business) throw new DomainError('NOT_FOUND', MSG.businessNotFound);
  let mine: { notifyNewSlots: boolean } | undefined;
  if (customerId) {
    [mine] = await deps.db
      .select({ notifyNewSlots: customerLikes.notifyNewSlots })
      .from(customerLikes)
      .where(and(eq(customerLikes.businessId, businessId), eq(customerLikes.customerId, customerId)))
      .limit(1);
  }
  return { count: Number(business.likes), favourited: Boolean(mine), notifyNewSlots: mine?.notifyNewSlots ?? false };
}

/** Favourites or unfavourites a business, idempotently. Output: the new status. Throws NOT_FOUND. */
export async function setFavourite(
  deps: Pick<ServiceDeps, 'db' | 'now'>,
  customerId: string,
  input: { businessId: string; favourited: boolean },
): Promise<FavouriteStatus> {
  await requireBusiness(deps, input.businessId);
  if (input.favourited) {
    await deps.db
      .insert(customerLikes)
      .values({ customerId, businessId: input.businessId, createdAt: deps.now() })
      .onConflictDoNothing({ target: [customerLikes.customerId, customerLikes.businessId] });
  } else {
    await deps.db
      .delete(customerLikes)
      .where(and(eq(customerLikes.customerId, customerId), eq(customerLikes.businessId, input.businessId)));
  }
  return favouriteStatus(deps, customerId, input.businessId);
}

export interface FavouriteBusiness {
  businessId: string;
  businessName: string;
  slug: string;
  businessType: string;
  favouritedAt: Date;
  notifyNewSlots: boolean;
}

/** The customer's favourite businesses, most recently favourited first. */
export async function listFavourites(deps: Pick<ServiceDeps, 'db'>, customerId: string): Promise<FavouriteBusiness[]> {
  return deps.db
    .select({
      businessId: businessProfiles.id,
      businessName: businessProfiles.businessName,
      slug: businessProfiles.slug,
      businessType: businessProfiles.businessType,
      favouritedAt: customerLikes.createdAt,
      notifyNewSlots: customerLikes.notifyNewSlots,
    })
    .from(customerLikes)
    .innerJoin(businessProfiles, eq(businessProfiles.id, customerLikes.businessId))
    .where(eq(customerLikes.customerId, customerId))
    .orderBy(desc(customerLikes.createdAt), desc(customerLikes.id));
}

/**
 * favourites.setAlert: turns a favourite's new-slot email on or off (docs/decisions/0086); off drops the
 * slots not yet emailed. Idempotent. Output: the new status. Throws NOT_FOUND, or PRECONDITION_FAILED
 * when the business is not a favourite.
 */
export async function setFavouriteAlert(
  deps: Pick<ServiceDeps, 'db'>,
  customerId: string,
  input: { businessId: string; notify: boolean },
): Promise<FavouriteStatus> {
  await requireBusiness(deps, input.businessId);
  await deps.db.transaction(async (tx) => {
    const [like] = await tx
      .update(customerLikes)
      .set({ notifyNewSlots: input.notify })
      .where(and(eq(customerLikes.customerId, customerId), eq(customerLikes.businessId, input.businessId)))
      .returning({ id: customerLikes.id });
    if (!like) throw new DomainError('PRECONDITION_FAILED', MSG.favouriteAlertNeedsFavourite);
    if (!input.notify) await tx.delete(alertMatches).where(eq(alertMatches.likeId, like.id));
  });
  return favouriteStatus(deps, customerId, input.businessId);
}
