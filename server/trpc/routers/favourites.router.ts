/** Favourites (dashboards spec §4 "Favourite", §7 "Favourites"). */
import { favouriteStatusInput, setFavouriteInput } from '../../../shared/schemas/favourites';
import { favouriteStatus, listFavourites, setFavourite } from '../../features/favourites/favourites.service';
import { customerProcedure, publicProcedure } from '../procedures';
import { router } from '../trpc';

export const favouritesRouter = router({
  /**
   * Like count of a business and whether the signed-in customer favourited it (false for everyone
   * else). Output { count, favourited }. NOT_FOUND 'Business not found'.
   */
  status: publicProcedure
    .input(favouriteStatusInput)
    .query(({ ctx, input }) =>
      favouriteStatus(ctx, ctx.user?.role === 'customer' ? ctx.user.id : null, input.businessId),
    ),

  /**
   * Customers only: favourite (true) or remove (false) a business; idempotent. Output the new
   * { count, favourited }. UNAUTHORIZED for visitors, FORBIDDEN for businesses, NOT_FOUND.
   */
  set: customerProcedure.input(setFavouriteInput).mutation(({ ctx, input }) => setFavourite(ctx, ctx.user.id, input)),

  /** Customers only: their favourite businesses, newest first. */
  mine: customerProcedure.query(({ ctx }) => listFavourites(ctx, ctx.user.id)),
});
