/** Business profiles: the public page, the owner's profile and completing a missing profile. */
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
  /** { slug } → { business, slots } of the public page, from the cache (getPublicBusiness). */
  bySlug: publicProcedure.input(bySlugInput).query(({ ctx, input }) => getPublicBusiness(ctx, input.slug)),

  /** → the signed-in business's profile (getOwnBusiness). */
  mine: businessProcedure.query(({ ctx }) => getOwnBusiness(ctx.db, ctx.user.id)),

  /** The onboarding form → { slug } of the new profile (completeBusinessProfile). */
  completeProfile: businessProcedure
    .input(completeBusinessProfileInput)
    .mutation(({ ctx, input }) => completeBusinessProfile(ctx, ctx.user, input)),
});
