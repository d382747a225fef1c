/** Business profiles: the public page (dashboards spec §2 "/{slug}") and the owner's profile. */
import { bySlugInput } from '../../../shared/schemas/bookings';
import { getOwnBusiness, getPublicBusiness } from '../../features/businesses/businesses.service';
import { businessProcedure, publicProcedure, router } from '../trpc';

export const businessesRouter = router({
  /** Public page data: business fields and requestable slots. NOT_FOUND 'Business not found'. */
  bySlug: publicProcedure
    .input(bySlugInput)
    .query(({ ctx, input }) => getPublicBusiness(ctx.db, input.slug, ctx.now())),

  /** The signed-in business's profile (name, slug, timezone, opening hours, ...). */
  mine: businessProcedure.query(({ ctx }) => getOwnBusiness(ctx.db, ctx.user.id)),
});
