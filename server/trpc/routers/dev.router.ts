/**
 * Development-only tools: the mailbox of outbox messages (docs/decisions/0005) and the account
 * maker the Playwright journeys sign in with (docs/decisions/0040). NOT_FOUND in production.
 */
import { createDevAccount, devAccountInput } from '../../features/auth/dev-accounts.service';
import { latestOutboxMessages } from '../../email/outbox';
import { withBodies } from '../../email/render';
import { replaceBrowserSession } from '../context';
import { developmentProcedure } from '../procedures';
import { router } from '../trpc';

export const devRouter = router({
  /**
   * The newest 100 outbox messages (intents left out): recipient, subject, time, send-after time,
   * HTML and text bodies (rendered here when still queued), attachments, kind, status.
   */
  mailbox: developmentProcedure.query(async ({ ctx }) =>
    (await withBodies(await latestOutboxMessages(ctx.db))).map(({ props: _props, template: _template, ...m }) => m),
  ),

  /**
   * A sign-up form's fields + { role, confirmed? } → { signedIn } (createDevAccount). A confirmed
   * account signs this browser in as it, ending its previous session, as a login does.
   */
  createAccount: developmentProcedure.input(devAccountInput).mutation(async ({ ctx, input }) => {
    const session = await createDevAccount(ctx, input);
    if (session) await replaceBrowserSession(ctx, session);
    return { signedIn: session !== null };
  }),
});
