/** The contact form, 'Get in Touch' (dashboards spec §2 "/contact", §5 "Contact form", §7). */
import { sendContactMessageInput } from '../../../shared/schemas/contact';
import { sendContactMessage, supportEmailFrom } from '../../features/contact/contact.service';
import { contactLimits, contactSenderProcedure } from '../procedures';
import { router } from '../trpc';

export const contactRouter = router({
  /**
   * Sends a message to support. Input { subject (1-150 chars, one line), message (1-5000 chars) },
   * both trimmed. Output { id }. Errors: BAD_REQUEST with the field's message ('Subject is
   * required', 'Message is required', ...); UNAUTHORIZED 'You must be logged in to send a
   * message.'; TOO_MANY_REQUESTS MSG.contactLimit after 5 messages in an hour from the
   * user or 20 from the client IP (docs/decisions/0029).
   */
  send: contactSenderProcedure
    .input(sendContactMessageInput)
    .use(contactLimits)
    .mutation(({ ctx, input }) => sendContactMessage(ctx, ctx.user, input, supportEmailFrom())),
});
