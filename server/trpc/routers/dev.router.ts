/** Development-only tools: the mailbox of outbox messages. NOT_FOUND in production. */
import { latestOutboxMessages } from '../../email/outbox';
import { developmentProcedure } from '../procedures';
import { router } from '../trpc';

export const devRouter = router({
  /** The newest 100 outbox messages (intents left out): recipient, subject, time, HTML and text bodies, status. */
  mailbox: developmentProcedure.query(({ ctx }) => latestOutboxMessages(ctx.db)),
});
