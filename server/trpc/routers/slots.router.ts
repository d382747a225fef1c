/** The signed-in business's slots: the slot form, edits, deletion and the dashboard list. */
import { createSlotInput, slotIdInput, updateSlotInput } from '../../../shared/schemas/slots';
import {
  createSlot,
  deleteSlot,
  listBusinessSlots,
  markAddedToSystem,
  updateSlot,
} from '../../features/slots/slots.service';
import { businessProcedure, slotCreatorProcedure } from '../procedures';
import { router } from '../trpc';

export const slotsRouter = router({
  /** { date, startTime, endTime, description } (local to the business) → { id } (createSlot). */
  create: slotCreatorProcedure.input(createSlotInput).mutation(({ ctx, input }) => createSlot(ctx, ctx.user.id, input)),

  /** { slotId, date, startTime, endTime, description } → { id } (updateSlot). */
  update: businessProcedure.input(updateSlotInput).mutation(({ ctx, input }) => updateSlot(ctx, ctx.user.id, input)),

  /** { slotId } → { id } (deleteSlot). */
  delete: businessProcedure.input(slotIdInput).mutation(({ ctx, input }) => deleteSlot(ctx, ctx.user.id, input.slotId)),

  /** 'Booking confirmed in system': { slotId } → { id, addedToSystem: true } (markAddedToSystem). */
  markAddedToSystem: businessProcedure
    .input(slotIdInput)
    .mutation(({ ctx, input }) => markAddedToSystem(ctx, ctx.user.id, input.slotId)),

  /** → every slot of the business, oldest first, with its category and pending request (listBusinessSlots). */
  listMine: businessProcedure.query(({ ctx }) => listBusinessSlots(ctx, ctx.user.id)),
});
