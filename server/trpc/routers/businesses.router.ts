/**
 * Business profiles: the public page (dashboards spec §2 "/{slug}"), the owner's profile and the
 * logged-in completion of a missing profile (accounts spec §2 "/complete-business-profile").
 */
import { completeBusinessProfileInput } from '../../../shared/schemas/auth';
import { bySlugInput } from '../../../shared/schemas/bookings';
import {
  completeBusinessProfile,
  getOwnBusiness,
  getPublicBusiness,
} from '../../features/businesses/businesses.service';
import { businessProcedure, publicProcedure } from '../procedures';
import { router } from '../trpc';

export const businessesRouter = router({
  /** Public page data: business fields and requestable slots. NOT_FOUND 'Business not found'. */
  bySlug: publicProcedure
    .input(bySlugInput)
    .query(({ ctx, input }) => getPublicBusiness(ctx.db, input.slug, ctx.now())),

  /** The signed-in business's profile (name, slug, timezone, opening hours, ...). */
  mine: businessProcedure.query(({ ctx }) => getOwnBusiness(ctx.db, ctx.user.id)),

  /**
   * Creates the signed-in business user's missing profile (confirmed email not required); the
   * slug is derived from the business name. Output { slug }. CONFLICT 'Your business profile is
   * already complete.'; FORBIDDEN for customers; UNAUTHORIZED for visitors.
   */
  completeProfile: businessProcedure
    .input(completeBusinessProfileInput)
    .mutation(({ ctx, input }) => completeBusinessProfile(ctx, ctx.user, input)),
});
