/** Input schema of the contact form (dashboards spec §5 "Contact form"; limits in ADR 0016). */
import { z } from 'zod';
import { MSG } from '../messages';
import { safeText } from './text';

export const CONTACT_SUBJECT_MAX = 150;
export const CONTACT_MESSAGE_MAX = 5000;

export const sendContactMessageInput = z.object({
  /** One line: inner whitespace (line breaks included) is folded to single spaces. */
  subject: safeText({ error: MSG.contactSubjectRequired, multiline: true })
    .transform((s) => s.replace(/\s+/g, ' ').trim())
    .pipe(z.string().min(1, MSG.contactSubjectRequired).max(CONTACT_SUBJECT_MAX, MSG.contactSubjectMax)),
  message: safeText({ error: MSG.contactMessageRequired, multiline: true })
    .trim()
    .min(1, MSG.contactMessageRequired)
    .max(CONTACT_MESSAGE_MAX, MSG.contactMessageMax),
});
export type SendContactMessageInput = z.infer<typeof sendContactMessageInput>;
