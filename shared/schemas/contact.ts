/** Input schema of the contact form (limits in ADR 0016). */
import { z } from 'zod';
import { MSG } from '../messages';
import { CONTACT_MESSAGE_MAX, CONTACT_SUBJECT_MAX } from './limits';
import { safeText } from './text';

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
