/** Development-only tools: the mailbox of outbox messages (BRIEF §5). NOT_FOUND in production. */
import { TRPCError } from '@trpc/server';
import { desc, notLike } from 'drizzle-orm';
import { emailOutbox } from '../../db/schema/index';
import { EMAIL_INTENT_PREFIX } from '../../email/outbox';
import { publicProcedure, router } from '../trpc';

export const devRouter = router({
  /** The newest 100 outbox messages (intents left out): recipient, subject, time, HTML and text bodies, status. */
  mailbox: publicProcedure.query(async ({ ctx }) => {
    if (ctx.isProduction) throw new TRPCError({ code: 'NOT_FOUND', message: 'Not found' });
    return (
      ctx.db
        .select({
          id: emailOutbox.id,
          to: emailOutbox.toAddress,
          subject: emailOutbox.subject,
          html: emailOutbox.html,
          text: emailOutbox.text,
          status: emailOutbox.status,
          createdAt: emailOutbox.createdAt,
        })
        .from(emailOutbox)
        // Intents are requests not yet resolved into a message (docs/decisions/0033): nothing to show.
        .where(notLike(emailOutbox.subject, `${EMAIL_INTENT_PREFIX}%`))
        .orderBy(desc(emailOutbox.createdAt))
        .limit(100)
    );
  }),
});
