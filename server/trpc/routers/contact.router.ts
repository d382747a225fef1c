/** The contact form, 'Get in Touch' (ADR 0016). */
import { sendContactMessageInput } from '../../../shared/schemas/contact';
import { sendContactMessage, supportEmailFrom } from '../../features/contact/contact.service';
import { contactLimits, contactSenderProcedure } from '../procedures';
import { router } from '../trpc';

export const contactRouter = router({
  /** { subject, message } → { id }; emailed to support (sendContactMessage). */
  send: contactSenderProcedure
    .input(sendContactMessageInput)
    .use(contactLimits)
    .mutation(({ ctx, input }) => sendContactMessage(ctx, ctx.user, input, supportEmailFrom())),
});
