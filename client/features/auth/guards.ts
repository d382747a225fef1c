/**
 * Route guards (accounts spec §2 "Route guards"), run in `beforeLoad` from the cached auth.me.
 */
import { redirect } from '@tanstack/react-router';
import type { TrpcUtils } from '../../lib/trpc';
import { readPendingRegistration } from '../../lib/pending-registration';

async function me(utils: TrpcUtils) {
  return utils.auth.me.fetch(undefined, { staleTime: 30_000 });
}

/** Protected: unregistered → /login; pending email → /check-email; profile incomplete → onboarding. */
export async function requireAuthenticated(utils: TrpcUtils) {
  const { authState, user } = await me(utils);
  if (authState === 'unregistered') throw redirect({ to: '/login' });
  if (authState === 'pending_email') throw redirect({ to: '/check-email' });
  if (authState === 'profile_incomplete') throw redirect({ to: '/complete-business-profile' });
  return { user: user! };
}

/** Guest-only: authenticated → /dashboard; incomplete → onboarding; pending → /check-email. */
export async function requireGuest(utils: TrpcUtils) {
  const { authState } = await me(utils);
  if (authState === 'authenticated') throw redirect({ to: '/dashboard' });
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
  if (authState === 'unregistered' && !readPendingRegistration()) throw redirect({ to: '/register' });
}
