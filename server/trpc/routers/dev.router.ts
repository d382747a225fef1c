/** Development-only tools (docs/decisions/0005, 0040); NOT_FOUND in production. */
import { createDevAccount, devAccountInput } from '../../features/auth/dev-accounts.service';
import { latestOutboxMessages } from '../../email/outbox';
import { withBodies } from '../../email/render';
import { replaceBrowserSession } from '../context';
import { developmentProcedure } from '../procedures';
import { router } from '../trpc';

export const devRouter = router({
  /** → the newest 100 outbox messages, rendered here when still queued (latestOutboxMessages). */
  mailbox: developmentProcedure.query(async ({ ctx }) =>
    (await withBodies(await latestOutboxMessages(ctx.db))).map(({ props: _props, template: _template, ...m }) => m),
  ),

  /** A sign-up form's fields + { role, confirmed? } → { signedIn }; a confirmed account signs this browser in. */
  createAccount: developmentProcedure.input(devAccountInput).mutation(async ({ ctx, input }) => {
    const session = await createDevAccount(ctx, input);
    if (session) await replaceBrowserSession(ctx, session);
    return { signedIn: session !== null };
  }),
});
