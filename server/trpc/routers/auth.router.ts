/**
 * Accounts (accounts-and-access spec): session state, sign-up, confirmation, login, logout,
 * password reset, password change and email change. Throttling: docs/decisions/0008; reset and
 * change flows: docs/decisions/0009; limits on calls that send email: docs/decisions/0029.
 */
import { z } from 'zod';
import {
  changePasswordInput,
  checkSlugInput,
  loginInput,
  registerBusinessInput,
  registerCustomerInput,
  requestEmailChangeInput,
  requestPasswordResetInput,
  resendConfirmationInput,
  resetPasswordInput,
  tokenInput,
} from '../../../shared/schemas/auth';
import {
  authStateOf,
  confirmEmail,
  isSlugAvailable,
  login,
  registerBusiness,
  registerCustomer,
  resendConfirmation,
  signUpEmailIssue,
} from '../../features/auth/auth.service';
import {
  changePassword,
  checkResetToken,
  requestEmailChange,
  requestPasswordReset,
  resetPassword,
} from '../../features/auth/credentials.service';
import { invalidateSession } from '../../features/auth/session';
import type { Context } from '../context';
import { authedProcedure, emailRequestLimits, publicProcedure, signUpLimits, verifiedProcedure } from '../procedures';
import { router } from '../trpc';

/**
 * Ends this browser's current session, if any (another account's included), then sets the cookie
 * of `next`, or clears it when null.
 */
async function replaceBrowserSession(ctx: Context, next: { token: string; expiresAt: Date } | null): Promise<void> {
  if (ctx.session) await invalidateSession(ctx.db, ctx.session.id);
  if (next) ctx.cookies.setSession(next.token, next.expiresAt);
  else ctx.cookies.clearSession();
}

/** What `auth.confirmEmail` tells the /auth-redirect screen. */
export type ConfirmEmailOutput = { kind: 'email_confirmation' } | { kind: 'email_change'; signedIn: boolean };

export const authRouter = router({
  /** The current user (accounts spec §3 "User") and auth state (§4), or unregistered. */
  me: publicProcedure.query(({ ctx }) => ({ user: ctx.user, authState: authStateOf(ctx.user) })),

  /**
   * Customer sign-up: account created unconfirmed, confirmation emailed unless the address is
   * email-throttled. Output { email, emailThrottled }; same answer for a registered email.
   */
  registerCustomer: publicProcedure
    .input(registerCustomerInput)
    .use(signUpLimits)
    .mutation(({ ctx, input }) => registerCustomer(ctx, input)),

  /**
   * Business sign-up with its completed profile. Output { email, emailThrottled }. CONFLICT 'This
   * username is already taken' (field slug).
   */
  registerBusiness: publicProcedure
    .input(registerBusinessInput)
    .use(signUpLimits)
    .mutation(({ ctx, input }) => registerBusiness(ctx, input)),

  /** Slug availability for onboarding (accounts spec §4 "Slug availability states"). */
  checkSlug: publicProcedure
    .input(checkSlugInput)
    .query(async ({ ctx, input }) => ({ available: await isSlugAvailable(ctx, input.slug) })),

  /**
   * Uses an /auth-redirect link token. Email confirmation: confirms, signs in (sets the session
   * cookie, ending the caller's previous session), output { kind: 'email_confirmation' }. Email change: moves the account to the new
   * address, no new session, output { kind: 'email_change', signedIn } (whether the caller's
   * session is that account's). BAD_REQUEST 'Email confirmation failed…' (title 'Confirmation
   * Failed') for a bad, used or expired token; CONFLICT 'This email address is already in use…'.
   */
  confirmEmail: publicProcedure.input(tokenInput).mutation(async ({ ctx, input }): Promise<ConfirmEmailOutput> => {
    const result = await confirmEmail(ctx, input.token, ctx.user?.id ?? null);
    if (result.kind === 'email_change') return { kind: 'email_change', signedIn: result.signedIn };
    await replaceBrowserSession(ctx, result.session);
    return { kind: 'email_confirmation' };
  }),

  /**
   * Sends a new confirmation link (same answer whether or not the address is registered). Output
   * { ok: true }. TOO_MANY_REQUESTS 'Email Limit Reached' within a minute of the last email.
   */
  resendConfirmation: publicProcedure
    .input(resendConfirmationInput)
    .use(emailRequestLimits('email'))
    .mutation(({ ctx, input }) => resendConfirmation(ctx, input.email)),

  /**
   * For /check-email: the delivery problem of the newest sign-up email to the address in the last
   * 30 minutes (accounts spec §8 "Email delivery"). Output { issue: 'limit' | 'service' |
   * 'delivery' | 'other' | null }.
   */
  signUpEmailStatus: publicProcedure
    .input(resendConfirmationInput)
    .query(({ ctx, input }) => signUpEmailIssue(ctx, input.email)),

  /**
   * Email + password login; a new session every time (cookie), the caller's previous session ended
   * only once the password is right. Output { ok: true }. UNAUTHORIZED 'Invalid email or
   * password'; FORBIDDEN 'Please confirm your email address before logging in' with data.details.role
   * for a right password on an unconfirmed email; TOO_MANY_REQUESTS 'You've
   * made too many login attempts…' after 5 failures for the email or 20 for the IP in 15 minutes.
   */
  login: publicProcedure.input(loginInput).mutation(async ({ ctx, input }) => {
    // A refused login leaves the caller's session alone; a successful one replaces it (rotation).
    await replaceBrowserSession(ctx, await login(ctx, input, ctx.request?.ip));
    return { ok: true as const };
  }),

  /** Ends the current session and clears the cookie; succeeds when already signed out too. */
  logout: publicProcedure.input(z.void()).mutation(async ({ ctx }) => {
    await replaceBrowserSession(ctx, null);
    return { ok: true as const };
  }),

  /**
   * /forgot-password: emails a reset link when the address has an account. Output { email }, the
   * same for unknown addresses. TOO_MANY_REQUESTS 'Email Limit Reached' within a minute.
   */
  requestPasswordReset: publicProcedure
    .input(requestPasswordResetInput)
    .use(emailRequestLimits('email'))
    .mutation(({ ctx, input }) => requestPasswordReset(ctx, input.email)),

  /** /reset-password link check without using it: { status: 'valid'|'expired'|'invalid'|'wrong_type' }. */
  checkResetToken: publicProcedure.input(tokenInput).query(({ ctx, input }) => checkResetToken(ctx, input.token)),

  /**
   * Sets a new password from a reset token; ends every session and clears the caller's cookie.
   * Output { ok: true }. BAD_REQUEST with the spec's expired / invalid / wrong-type link texts.
   */
  resetPassword: publicProcedure.input(resetPasswordInput).mutation(async ({ ctx, input }) => {
    await resetPassword(ctx, input);
    ctx.cookies.clearSession();
    return { ok: true as const };
  }),

  /**
   * Settings: new password with the current one. Ends every session, then signs this device in
   * again (new cookie). Output { ok: true }. BAD_REQUEST 'Your current password is incorrect.'
   * (field currentPassword); TOO_MANY_REQUESTS when the account's login attempts are used up.
   */
  changePassword: authedProcedure.input(changePasswordInput).mutation(async ({ ctx, input }) => {
    const session = await changePassword(ctx, ctx.user, input);
    ctx.cookies.setSession(session.token, session.expiresAt);
    return { ok: true as const };
  }),

  /**
   * Settings (confirmed email required): emails a change link to the new address and a notice to
   * the current one. Output { newEmail }, the same when the new address is taken. BAD_REQUEST
   * 'This is already your email address.' (field newEmail) or the current-password errors;
   * TOO_MANY_REQUESTS 'Email Limit Reached'.
   */
  requestEmailChange: verifiedProcedure
    .input(requestEmailChangeInput)
    .use(emailRequestLimits('newEmail'))
    .mutation(({ ctx, input }) => requestEmailChange(ctx, ctx.user, input)),
});
