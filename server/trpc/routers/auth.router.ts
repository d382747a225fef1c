/** Accounts (accounts-and-access spec): session state, sign-up, confirmation, login, logout. */
import { z } from 'zod';
import {
  checkSlugInput,
  loginInput,
  registerBusinessInput,
  registerCustomerInput,
  resendConfirmationInput,
  tokenInput,
} from '../../../shared/schemas/auth';
import { invalidateSession } from '../../auth/session';
import {
  authStateOf,
  confirmEmail,
  isSlugAvailable,
  login,
  registerBusiness,
  registerCustomer,
  resendConfirmation,
} from '../../features/auth/auth.service';
import { publicProcedure, router } from '../trpc';

export const authRouter = router({
  /** The current user (accounts spec §3 "User") and auth state (§4), or unregistered. */
  me: publicProcedure.query(({ ctx }) => ({ user: ctx.user, authState: authStateOf(ctx.user) })),

  /** Customer sign-up: account created unconfirmed, confirmation emailed. Output { email }. */
  registerCustomer: publicProcedure
    .input(registerCustomerInput)
    .mutation(({ ctx, input }) => registerCustomer(ctx, input)),

  /** Business sign-up with its completed profile. CONFLICT 'This username is already taken'. */
  registerBusiness: publicProcedure
    .input(registerBusinessInput)
    .mutation(({ ctx, input }) => registerBusiness(ctx, input)),

  /** Slug availability for onboarding (accounts spec §4 "Slug availability states"). */
  checkSlug: publicProcedure
    .input(checkSlugInput)
    .query(async ({ ctx, input }) => ({ available: await isSlugAvailable(ctx, input.slug) })),

  /** Confirms the email from the link token and signs the user in (sets the session cookie). */
  confirmEmail: publicProcedure.input(tokenInput).mutation(async ({ ctx, input }) => {
    const session = await confirmEmail(ctx, input.token);
    ctx.cookies.setSession(session.token, session.expiresAt);
    return { ok: true as const };
  }),

  /** Sends a new confirmation link (same answer whether or not the address is registered). */
  resendConfirmation: publicProcedure
    .input(resendConfirmationInput)
    .mutation(({ ctx, input }) => resendConfirmation(ctx, input.email)),

  /** Email + password login; a new session every time (cookie). UNAUTHORIZED / FORBIDDEN per spec. */
  login: publicProcedure.input(loginInput).mutation(async ({ ctx, input }) => {
    if (ctx.session) await invalidateSession(ctx.db, ctx.session.id);
    const session = await login(ctx, input);
    ctx.cookies.setSession(session.token, session.expiresAt);
    return { ok: true as const };
  }),

  /** Ends the current session and clears the cookie; succeeds when already signed out too. */
  logout: publicProcedure.input(z.void()).mutation(async ({ ctx }) => {
    if (ctx.session) await invalidateSession(ctx.db, ctx.session.id);
    ctx.cookies.clearSession();
    return { ok: true as const };
  }),
});
