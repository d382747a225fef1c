/** Customers' favourite businesses and each business's like count. */
import { favouriteStatusInput, setFavouriteAlertInput, setFavouriteInput } from '../../../shared/schemas/favourites';
import {
  favouriteStatus,
  listFavourites,
  setFavourite,
  setFavouriteAlert,
} from '../../features/favourites/favourites.service';
import { customerProcedure, publicProcedure } from '../procedures';
import { router } from '../trpc';

export const favouritesRouter = router({
  /** { businessId } → { count, favourited, notifyNewSlots } (favouriteStatus; false for non-customers). */
  status: publicProcedure
    .input(favouriteStatusInput)
    .query(({ ctx, input }) =>
      favouriteStatus(ctx, ctx.user?.role === 'customer' ? ctx.user.id : null, input.businessId),
    ),

  /** { businessId, favourited } → the new { count, favourited } (setFavourite). */
  set: customerProcedure.input(setFavouriteInput).mutation(({ ctx, input }) => setFavourite(ctx, ctx.user.id, input)),

  /** → the customer's favourite businesses, newest first (listFavourites). */
  mine: customerProcedure.query(({ ctx }) => listFavourites(ctx, ctx.user.id)),

  /** { businessId, notify } → the new { count, favourited, notifyNewSlots } (setFavouriteAlert). */
  setAlert: customerProcedure
    .input(setFavouriteAlertInput)
    .mutation(({ ctx, input }) => setFavouriteAlert(ctx, ctx.user.id, input)),
});
