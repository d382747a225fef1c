/** Input schemas of the slot procedures, with the dashboards spec's messages (§5 "Slot form"). */
import { z } from 'zod';
import { MSG } from '../messages';
import { DATE_PATTERN, END_TIME_PATTERN, TIME_PATTERN, toMinutes } from '../time-of-day';

export const createSlotInput = z
  .object({
    date: z.string({ error: MSG.selectDate }).min(1, MSG.selectDate).regex(DATE_PATTERN, MSG.selectDate),
    startTime: z.string({ error: MSG.selectStart }).min(1, MSG.selectStart).regex(TIME_PATTERN, MSG.selectStart),
    endTime: z.string({ error: MSG.selectEnd }).min(1, MSG.selectEnd).regex(END_TIME_PATTERN, MSG.selectEnd),
    description: z
      .string({ error: MSG.descriptionRequired })
      .trim()
      .min(1, MSG.descriptionRequired)
      .max(300, MSG.descriptionMax),
  })
  .superRefine((v, ctx) => {
    if (!TIME_PATTERN.test(v.startTime) || !END_TIME_PATTERN.test(v.endTime)) return;
    const length = toMinutes(v.endTime) - toMinutes(v.startTime);
    if (length <= 0) ctx.addIssue({ code: 'custom', path: ['endTime'], message: MSG.endAfterStart });
    else if (length < 30) ctx.addIssue({ code: 'custom', path: ['endTime'], message: MSG.slotMin });
  });
export type CreateSlotInput = z.infer<typeof createSlotInput>;
