/** The contact form, 'Get in Touch' (dashboards spec §2 "/contact", §5 "Contact form", §7). */
import { TRPCError } from '@trpc/server';
import { MSG } from '../../../shared/messages';
import { sendContactMessageInput } from '../../../shared/schemas/contact';
import { DomainError } from '../../core/errors';
import { sendContactMessage, supportEmailFrom } from '../../features/contact/contact.service';
import { emailSendingLimits, publicProcedure, router } from '../trpc';

/** Signed in, any role, confirmed or not; refuses visitors with the spec's own text. */
const contactSenderProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.user || !ctx.session) {
    throw new TRPCError({
      code: 'UNAUTHORIZED',
      message: MSG.contactLoginRequired,
      cause: new DomainError('UNAUTHORIZED', MSG.contactLoginRequired),
    });
  }
  return next({ ctx: { ...ctx, user: ctx.user, session: ctx.session } });
});

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
    .use(emailSendingLimits({ ipRule: 'contactIp', ipMessage: MSG.contactLimit }))
    .mutation(({ ctx, input }) => sendContactMessage(ctx, ctx.user, input, supportEmailFrom())),
});
