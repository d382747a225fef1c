/**
 * Development-only tools: the mailbox of outbox messages (docs/decisions/0005) and the account
 * maker the Playwright journeys sign in with (docs/decisions/0040). Every procedure here answers
 * NOT_FOUND in production.
 */
import { TRPCError } from '@trpc/server';
import { desc, eq, notLike } from 'drizzle-orm';
import { z } from 'zod';
import { registerBusinessInput, registerCustomerInput } from '../../../shared/schemas/auth';
import { createSession, invalidateSession } from '../../auth/session';
import { emailOutbox, users } from '../../db/schema/index';
import { EMAIL_INTENT_PREFIX } from '../../email/outbox';
import { registerBusiness, registerCustomer } from '../../features/auth/auth.service';
import { markEmailVerified } from '../../features/auth/credentials.service';
import { publicProcedure, router } from '../trpc';

/** A procedure that exists outside production only: NOT_FOUND when the server runs in production. */
const devProcedure = publicProcedure.use(({ ctx, next }) => {
  if (ctx.isProduction) throw new TRPCError({ code: 'NOT_FOUND', message: 'Not found' });
  return next();
});

/** `dev.createAccount`'s input: a sign-up form's fields, the role, and whether it is confirmed. */
export const devAccountInput = z.discriminatedUnion('role', [
  registerCustomerInput.extend({ role: z.literal('customer'), confirmed: z.boolean().default(true) }),
  registerBusinessInput.extend({ role: z.literal('business'), confirmed: z.boolean().default(true) }),
]);

export const devRouter = router({
  /** The newest 100 outbox messages (intents left out): recipient, subject, time, HTML and text bodies, status. */
  mailbox: devProcedure.query(async ({ ctx }) =>
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
      .limit(100),
  ),

  /**
   * Makes a new account as the sign-up form would (customer: name, email, password; business: the
   * same plus the onboarding profile fields), through the sign-up services, so its confirmation
   * email is queued as usual. When `confirmed` (the default) the email is marked confirmed and the
   * caller is signed in as the new account: a new session, its cookie set, the caller's previous
   * session ended, as a login does. An unconfirmed account gets no session (the app never gives
   * one before confirmation). Output { signedIn }. CONFLICT 'This email is already registered'
   * (nothing changes); CONFLICT 'This username is already taken' for a business's taken slug;
   * input errors as the sign-up forms'.
   */
  createAccount: devProcedure.input(devAccountInput).mutation(async ({ ctx, input }) => {
    const userWithEmail = () =>
      ctx.db.select({ id: users.id }).from(users).where(eq(users.email, input.email)).limit(1);
    // The sign-up services answer a registered email as a new one (docs/decisions/0004); here it
    // must be refused, or the caller would be signed in to someone else's account.
    if ((await userWithEmail()).length > 0) {
      throw new TRPCError({ code: 'CONFLICT', message: 'This email is already registered' });
    }
    if (input.role === 'business') await registerBusiness(ctx, input);
    else await registerCustomer(ctx, input);
    if (!input.confirmed) return { signedIn: false };

    const [user] = await userWithEmail();
    const session = await ctx.db.transaction(async (tx) => {
      const now = ctx.now();
      await markEmailVerified(tx, user!.id, now);
      return createSession(tx, user!.id, now);
    });
    if (ctx.session) await invalidateSession(ctx.db, ctx.session.id);
    ctx.cookies.setSession(session.token, session.expiresAt);
    return { signedIn: true };
  }),
});
