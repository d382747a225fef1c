/**
 * Route guards, run in `beforeLoad` from the cached auth.me.
 */
import { redirect } from '@tanstack/react-router';
import { trpcClient, type TrpcUtils } from '../../lib/trpc';
import { readPendingRegistration } from './pending-registration';

async function me(utils: TrpcUtils) {
  return utils.auth.me.fetch(undefined, { staleTime: 30_000 });
}

/**
 * Asks the server who is signed in now (bypassing any cached answer) and stores the answer, so
 * guards that run next see the new session. Call after login or email confirmation.
 */
export async function refreshMe(utils: TrpcUtils) {
  const fresh = await trpcClient.auth.me.query();
  utils.auth.me.setData(undefined, fresh);
  return fresh;
}

/** Protected: unregistered → /login; pending email → /check-email; profile incomplete → onboarding. */
export async function requireAuthenticated(utils: TrpcUtils) {
  const { authState, user } = await me(utils);
  if (authState === 'unregistered') throw redirect({ to: '/login' });
  if (authState === 'pending_email') throw redirect({ to: '/check-email' });
  if (authState === 'profile_incomplete') throw redirect({ to: '/complete-business-profile' });
  return { user: user! };
}

/**
 * Guest-only: authenticated → /dashboard; incomplete → onboarding; pending → /check-email.
 * /login passes `delayAuthenticated`: it shows 'already logged in' and moves on after about 1 s.
 */
export async function requireGuest(utils: TrpcUtils, options: { delayAuthenticated?: boolean } = {}) {
  const { authState } = await me(utils);
  if (authState === 'authenticated' && !options.delayAuthenticated) throw redirect({ to: '/dashboard' });
  if (authState === 'profile_incomplete') throw redirect({ to: '/complete-business-profile' });
  if (authState === 'pending_email') throw redirect({ to: '/check-email' });
}

/**
 * Profile completion: unregistered needs a valid pending registration (else /register);
 * authenticated → /dashboard; pending email → /check-email; profile incomplete sees the page.
 */
export async function requireProfileCompletion(utils: TrpcUtils) {
  const { authState } = await me(utils);
  if (authState === 'authenticated') throw redirect({ to: '/dashboard' });
  if (authState === 'pending_email') throw redirect({ to: '/check-email' });
  // Only the browser has the tab's pending registration; on the server the screen decides that part.
  if (authState === 'unregistered' && !import.meta.env.SSR && !readPendingRegistration())
    throw redirect({ to: '/register' });
}

/**
 * /check-email: for people waiting for their link. Signed-in users with a confirmed email have
 * nothing to wait for (→ /dashboard, or onboarding when the profile is incomplete).
 */
export async function requireAwaitingConfirmation(utils: TrpcUtils) {
  const { authState } = await me(utils);
  if (authState === 'authenticated') throw redirect({ to: '/dashboard' });
  if (authState === 'profile_incomplete') throw redirect({ to: '/complete-business-profile' });
}

/**
 * The landing page `/` (docs/decisions/0010): a signed-in user goes to /dashboard (or onboarding
 * when the profile is incomplete), visitors see the page. It asks the server afresh, since it is
 * where logout, account deletion and an expired session land, and a failure to ask shows the page
 * rather than an error.
 */
export async function redirectSignedInFromLanding(utils: TrpcUtils) {
  const answer = await utils.auth.me.fetch(undefined, { staleTime: 0 }).catch(() => null);
  if (!answer) return;
  if (answer.authState === 'authenticated') throw redirect({ to: '/dashboard' });
  if (answer.authState === 'profile_incomplete') throw redirect({ to: '/complete-business-profile' });
  if (answer.authState === 'pending_email') throw redirect({ to: '/check-email' });
}

/** /qrcode's guard: signed in (else /login, as requireAuthenticated); a customer goes to /dashboard. Returns { user }. */
export async function requireQrCodeViewer(utils: TrpcUtils) {
  const { user } = await requireAuthenticated(utils);
  if (user.role === 'customer') throw redirect({ to: '/dashboard', replace: true });
  return { user };
}
