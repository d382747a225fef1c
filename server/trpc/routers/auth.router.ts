/** Accounts (docs/decisions/0008, 0009, 0029, 0031). */
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
import { replaceBrowserSession } from '../context';
import { authedProcedure, emailRequestLimits, publicProcedure, signUpLimits, verifiedProcedure } from '../procedures';
import { router } from '../trpc';

/** What `auth.confirmEmail` tells the /auth-redirect screen. */
export type ConfirmEmailOutput = { kind: 'email_confirmation' } | { kind: 'email_change'; signedIn: boolean };

export const authRouter = router({
  /** → { user, authState } of the caller (user null for visitors). */
  me: publicProcedure.query(({ ctx }) => ({ user: ctx.user, authState: authStateOf(ctx.user) })),

  /** Customer sign-up form → { email, emailThrottled } (registerCustomer). */
  registerCustomer: publicProcedure
    .input(registerCustomerInput)
    .use(signUpLimits)
    .mutation(({ ctx, input }) => registerCustomer(ctx, input)),

  /** Business sign-up form with its profile → { email, emailThrottled } (registerBusiness). */
  registerBusiness: publicProcedure
    .input(registerBusinessInput)
    .use(signUpLimits)
    .mutation(({ ctx, input }) => registerBusiness(ctx, input)),

  /** { slug } → { available } for the onboarding form. */
  checkSlug: publicProcedure
    .input(checkSlugInput)
    .query(async ({ ctx, input }) => ({ available: await isSlugAvailable(ctx, input.slug) })),

  /** { token } of an /auth-redirect link → ConfirmEmailOutput; only a confirmation signs this browser in. */
  confirmEmail: publicProcedure.input(tokenInput).mutation(async ({ ctx, input }): Promise<ConfirmEmailOutput> => {
    const result = await confirmEmail(ctx, input.token, ctx.user?.id ?? null);
    if (result.kind === 'email_change') return { kind: 'email_change', signedIn: result.signedIn };
    await replaceBrowserSession(ctx, result.session);
    return { kind: 'email_confirmation' };
  }),

  /** { email } → { ok: true }; a new confirmation link (resendConfirmation). */
  resendConfirmation: publicProcedure
    .input(resendConfirmationInput)
    .use(emailRequestLimits('email'))
    .mutation(({ ctx, input }) => resendConfirmation(ctx, input.email)),

  /** { email } → { issue } of the newest sign-up email to it, for /check-email (signUpEmailIssue). */
  signUpEmailStatus: publicProcedure
    .input(resendConfirmationInput)
    .query(({ ctx, input }) => signUpEmailIssue(ctx, input.email)),

  /** { email, password } → { ok: true } and a new session cookie, replacing the caller's (login). */
  login: publicProcedure.input(loginInput).mutation(async ({ ctx, input }) => {
    // A refused login throws first, leaving the caller's session alone.
    await replaceBrowserSession(ctx, await login(ctx, input, ctx.request?.ip));
    return { ok: true as const };
  }),

  /** → { ok: true }; ends the session and clears the cookie (also when already signed out). */
  logout: publicProcedure.input(z.void()).mutation(async ({ ctx }) => {
    await replaceBrowserSession(ctx, null);
    return { ok: true as const };
  }),

  /** { email } → { email }; a reset link when the address has an account (requestPasswordReset). */
  requestPasswordReset: publicProcedure
    .input(requestPasswordResetInput)
    .use(emailRequestLimits('email'))
    .mutation(({ ctx, input }) => requestPasswordReset(ctx, input.email)),

  /** { token } → { status } of a reset link, without using it (checkResetToken). */
  checkResetToken: publicProcedure.input(tokenInput).query(({ ctx, input }) => checkResetToken(ctx, input.token)),

  /** { token, password } → { ok: true }; every session ends, the cookie is cleared (resetPassword). */
  resetPassword: publicProcedure.input(resetPasswordInput).mutation(async ({ ctx, input }) => {
    await resetPassword(ctx, input);
    ctx.cookies.clearSession();
    return { ok: true as const };
  }),

  /** { currentPassword, newPassword, ... } → { ok: true } and this device's new session (changePassword). */
  changePassword: authedProcedure.input(changePasswordInput).mutation(async ({ ctx, input }) => {
    const session = await changePassword(ctx, ctx.user, input);
    ctx.cookies.setSession(session.token, session.expiresAt);
    return { ok: true as const };
  }),

  /** { newEmail, currentPassword } → { newEmail }; a change link to the new address (requestEmailChange). */
  requestEmailChange: verifiedProcedure
    .input(requestEmailChangeInput)
    .use(emailRequestLimits('newEmail'))
    .mutation(({ ctx, input }) => requestEmailChange(ctx, ctx.user, input)),
});
