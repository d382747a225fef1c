/** Slots of the signed-in business (dashboards spec §2 "Business dashboard", §5 "Slot form"). */
import { TRPCError } from '@trpc/server';
import { MSG } from '../../../shared/messages';
import { createSlotInput } from '../../../shared/schemas/slots';
import { DomainError } from '../../features/errors';
import { getOwnBusiness } from '../../features/businesses/businesses.service';
import { createSlot, listBusinessSlots } from '../../features/slots/slots.service';
import { businessProcedure, publicProcedure, router } from '../trpc';

/** Slot creation with the slot form's own refusals ('Authentication required', 'Email verification required'). */
const slotWriterProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.user || !ctx.session) {
    throw new TRPCError({
      code: 'UNAUTHORIZED',
      message: MSG.loginToAddSlots,
      cause: new DomainError('UNAUTHORIZED', MSG.loginToAddSlots, { title: MSG.authRequiredTitle }),
    });
  }
  if (ctx.user.role !== 'business') {
    throw new TRPCError({ code: 'FORBIDDEN', message: 'Only business accounts can add slots.' });
  }
  if (!ctx.user.isVerified) {
    throw new TRPCError({
      code: 'FORBIDDEN',
      message: MSG.verifyToAddSlots,
      cause: new DomainError('FORBIDDEN', MSG.verifyToAddSlots, { title: MSG.verifyTitle }),
    });
  }
  return next({ ctx: { ...ctx, user: ctx.user, session: ctx.session } });
});

export const slotsRouter = router({
  /** Adds a slot (date 'YYYY-MM-DD', times 'HH:MM' in the business's zone). Output { id }. */
  create: slotWriterProcedure.input(createSlotInput).mutation(({ ctx, input }) => createSlot(ctx, ctx.user.id, input)),

  /** All slots of the business with category (available, requested, booked, declined, unbooked). */
  listMine: businessProcedure.query(async ({ ctx }) => {
    const business = await getOwnBusiness(ctx.db, ctx.user.id);
    return listBusinessSlots(ctx.db, ctx.user.id, business.timezone, ctx.now());
  }),
});
