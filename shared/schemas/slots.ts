/** Input schemas of the slot procedures, with the slot form's messages. */
import { z } from 'zod';
import { MSG } from '../messages';
import { DESCRIPTION_MAX } from './limits';
import { safeText } from './text';
import { MIN_SLOT_MINUTES } from '../slot-rules';
import { DATE_PATTERN, END_TIME_PATTERN, TIME_PATTERN, toMinutes } from '../time-of-day';

/**
 * The slot form's fields: date 'YYYY-MM-DD', start 'HH:MM', end 'HH:MM' (or '24:00'), description.
 * The description is one line, as the form's field is: it becomes email subjects and calendar
 * event titles ('Reminder: {description} at {business}').
 */
const slotFields = {
  date: safeText({ error: MSG.selectDate }).min(1, MSG.selectDate).regex(DATE_PATTERN, MSG.selectDate),
  startTime: safeText({ error: MSG.selectStart }).min(1, MSG.selectStart).regex(TIME_PATTERN, MSG.selectStart),
  endTime: safeText({ error: MSG.selectEnd }).min(1, MSG.selectEnd).regex(END_TIME_PATTERN, MSG.selectEnd),
  description: safeText({ error: MSG.descriptionRequired })
    .trim()
    .min(1, MSG.descriptionRequired)
    .max(DESCRIPTION_MAX, MSG.descriptionMax),
};

/** End after start ('End time must be after start time'), at least 30 minutes ('Slots must be…'). */
function checkSlotLength(v: { startTime: string; endTime: string }, ctx: z.RefinementCtx) {
  if (!TIME_PATTERN.test(v.startTime) || !END_TIME_PATTERN.test(v.endTime)) return;
  const length = toMinutes(v.endTime) - toMinutes(v.startTime);
  if (length <= 0) ctx.addIssue({ code: 'custom', path: ['endTime'], message: MSG.endAfterStart });
  else if (length < MIN_SLOT_MINUTES) ctx.addIssue({ code: 'custom', path: ['endTime'], message: MSG.slotMin });
}

/** slots.create: a new slot of the signed-in business. */
export const createSlotInput = z.object(slotFields).superRefine(checkSlotLength);
export type CreateSlotInput = z.infer<typeof createSlotInput>;

/** slots.update: new date, times and description of one of the business's available slots. */
export const updateSlotInput = z
  .object({ slotId: z.uuid(MSG.slotNotFound), ...slotFields })
  .superRefine(checkSlotLength);
export type UpdateSlotInput = z.infer<typeof updateSlotInput>;

/** slots.delete, slots.markAddedToSystem: one slot of the signed-in business. */
export const slotIdInput = z.object({ slotId: z.uuid(MSG.slotNotFound) });
export type SlotIdInput = z.infer<typeof slotIdInput>;
