/** Absolute links in auth emails, to the client's /auth-redirect, /reset-password and /login routes. */
import type { ServiceDeps } from '../../core/deps';

type Origin = Pick<ServiceDeps, 'appOrigin'>;

/** Email confirmation and email change links. */
export function authRedirectLink(deps: Origin, token: string): string {
  return `${deps.appOrigin}/auth-redirect?token=${encodeURIComponent(token)}`;
}

/** Password reset links. */
export function resetPasswordLink(deps: Origin, token: string): string {
  return `${deps.appOrigin}/reset-password?token=${encodeURIComponent(token)}`;
}

/** /login. */
export function loginUrl(deps: Origin): string {
  return `${deps.appOrigin}/login`;
}

/** /forgot-password. */
export function forgotPasswordUrl(deps: Origin): string {
  return `${deps.appOrigin}/forgot-password`;
}
