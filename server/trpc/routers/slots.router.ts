/** Slots of the signed-in business (dashboards spec §2 "Business dashboard", §5 "Slot form", §6). */
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
  /**
   * Adds a slot: { date 'YYYY-MM-DD', startTime, endTime 'HH:MM' in the business's zone,
   * description } → { id }. UNAUTHORIZED 'Please log in to add booking slots', FORBIDDEN 'Please
   * verify your email before adding booking slots', BAD_REQUEST with the form's messages, CONFLICT
   * 'A slot with this date and time already exists.'.
   */
  create: slotCreatorProcedure.input(createSlotInput).mutation(({ ctx, input }) => createSlot(ctx, ctx.user.id, input)),

  /**
   * Edits an available slot: { slotId, date, startTime, endTime, description } → { id }. Same rules
   * and messages as create; NOT_FOUND 'Slot not found' (another business's); CONFLICT when the slot
   * is booked, requested, declined or past.
   */
  update: businessProcedure.input(updateSlotInput).mutation(({ ctx, input }) => updateSlot(ctx, ctx.user.id, input)),

  /**
   * Deletes a slot: { slotId } → { id }. NOT_FOUND 'Slot not found'; CONFLICT while it has a
   * pending request or a booking.
   */
  delete: businessProcedure.input(slotIdInput).mutation(({ ctx, input }) => deleteSlot(ctx, ctx.user.id, input.slotId)),

  /**
   * Marks a booked slot as added to the business's own system ('Booking confirmed in system'):
   * { slotId } → { id, addedToSystem: true }. NOT_FOUND 'Slot not found'; CONFLICT when not booked.
   */
  markAddedToSystem: businessProcedure
    .input(slotIdInput)
    .mutation(({ ctx, input }) => markAddedToSystem(ctx, ctx.user.id, input.slotId)),

  /**
   * All slots of the business, oldest first, each with category (available, requested, booked,
   * declined, unbooked), `unconfirmed`, `past` and, for a requested slot, its pending `request`.
   */
  listMine: businessProcedure.query(({ ctx }) => listBusinessSlots(ctx, ctx.user.id)),
});
