/** Input schema of the contact form (dashboards spec §5 "Contact form"; limits in ADR 0016). */
import { z } from 'zod';
import { MSG } from '../messages';

export const CONTACT_SUBJECT_MAX = 150;
export const CONTACT_MESSAGE_MAX = 5000;

export const sendContactMessageInput = z.object({
  /** One line: inner whitespace (line breaks included) is folded to single spaces. */
  subject: z
    .string({ error: MSG.contactSubjectRequired })
    .transform((s) => s.replace(/\s+/g, ' ').trim())
    .pipe(z.string().min(1, MSG.contactSubjectRequired).max(CONTACT_SUBJECT_MAX, MSG.contactSubjectMax)),
  message: z
    .string({ error: MSG.contactMessageRequired })
    .trim()
    .min(1, MSG.contactMessageRequired)
    .max(CONTACT_MESSAGE_MAX, MSG.contactMessageMax),
});
export type SendContactMessageInput = z.infer<typeof sendContactMessageInput>;
