/**
 * Favourites: a customer bookmarks businesses, and may ask to be emailed when one adds a slot.
 * One like per customer and business (unique index); setting the same state twice changes nothing,
 * so double clicks are safe, and the count is a count of rows, never below zero.
 */
import { and, count, desc, eq } from 'drizzle-orm';
import { MSG } from '../../../shared/messages';
import type { ServiceDeps } from '../../core/deps';
import { DomainError } from '../../core/errors';
import { alertMatches, businessProfiles, customerLikes } from '../../db/schema/index';

export interface FavouriteStatus {
  /** Customers who favourited the business. */
  count: number;
  /** Whether the viewer (a customer) has; false for anyone else. */
  favourited: boolean;
  /** Whether the viewer asked to be emailed when the business adds a slot (docs/decisions/0086); false for anyone else. */
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

/**
 * The like count of `businessId`, whether `customerId` (null for visitors and businesses)
 * favourited it and whether they asked for its new slots by email. Throws NOT_FOUND 'Business not found'.
 */
export async function favouriteStatus(
  deps: Pick<ServiceDeps, 'db'>,
  customerId: string | null,
  businessId: string,
): Promise<FavouriteStatus> {
  await requireBusiness(deps, businessId);
  const [total] = await deps.db
    .select({ n: count() })
    .from(customerLikes)
    .where(eq(customerLikes.businessId, businessId));
  let mine: { notifyNewSlots: boolean } | undefined;
  if (customerId) {
    [mine] = await deps.db
      .select({ notifyNewSlots: customerLikes.notifyNewSlots })
      .from(customerLikes)
      .where(and(eq(customerLikes.businessId, businessId), eq(customerLikes.customerId, customerId)))
      .limit(1);
  }
  return { count: total?.n ?? 0, favourited: Boolean(mine), notifyNewSlots: mine?.notifyNewSlots ?? false };
}

/**
 * Favourites (`favourited` true) or removes (false) `businessId` for the customer. Idempotent:
 * inserting an existing like or deleting a missing one changes nothing. Output: the new status.
 * Throws NOT_FOUND 'Business not found'.
 */
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
  /** When the customer favourited it (UTC instant). */
  favouritedAt: Date;
  /** "Email me when this business adds a slot" (docs/decisions/0086). */
  notifyNewSlots: boolean;
}

/** The customer's favourite businesses, most recently favourited first (the dashboard panel). */
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
 * favourites.setAlert: turns "Email me when this business adds a slot" on (`notify` true) or off
 * for the customer's favourite `businessId` (docs/decisions/0086). Off drops the new slots it had
 * not emailed yet. Idempotent. Throws NOT_FOUND 'Business not found', PRECONDITION_FAILED
 * MSG.favouriteAlertNeedsFavourite when the business is not one of the customer's favourites.
 * Output: the new status.
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
