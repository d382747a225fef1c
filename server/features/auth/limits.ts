/**
 * How the auth services apply the throttle (docs/decisions/0008): password attempts (login, and the
 * current password asked by password and email change) and emails carrying a link.
 */
import { MSG } from '../../../shared/messages';
import type { ServiceDeps } from '../../core/deps';
import { DomainError } from '../../core/errors';
import { attemptSucceeded, refundAttempt, reserveAttempt, type AttemptKey } from './throttle';

/**
 * Runs one password check under the login limiter. The attempt is counted on `keys` before
 * `check` runs; when a key is already exhausted the password is not checked and TOO_MANY_REQUESTS
 * 'You've made too many login attempts…' is thrown. `check` resolves 'right' (the account's
 * failures from this client are forgotten), 'wrong' (the failure stays counted) or 'not_counted' (taken back).
 */
export async function throttledPasswordCheck<T extends 'right' | 'wrong' | 'not_counted'>(
  deps: Pick<ServiceDeps, 'throttle'>,
  keys: AttemptKey[],
  check: () => Promise<T>,
): Promise<T> {
  if (!(await reserveAttempt(deps.throttle, keys))) {
    throw new DomainError('TOO_MANY_REQUESTS', MSG.tooManyAttempts);
  }
  let outcome: T | undefined;
  try {
    outcome = await check();
    return outcome;
  } finally {
    if (outcome === 'right') await attemptSucceeded(deps.throttle, keys);
    // A check that threw (database trouble) is not held against the user either.
    else if (outcome !== 'wrong') await refundAttempt(deps.throttle, keys);
  }
}

/**
 * TOO_MANY_REQUESTS 'Email Limit Reached' for a resend, reset
 * or email-change request. Its text asks to wait a minute; the sign-up variant (MSG.emailLimit,
 * 'Your account was likely created…') is shown by the client after a throttled sign-up.
 */
export function emailLimitError(): DomainError {
  return new DomainError('TOO_MANY_REQUESTS', MSG.emailLimitWait, { title: MSG.emailLimitTitle });
}

/** The kinds of link email, each limited separately per address. */
export type LinkEmailKind = 'confirmation' | 'reset' | 'email_change';

/**
 * Counts one link email of `kind` to `address` (at most one of each kind a minute, counted whether
 * or not the address has an account, so a reset right after sign-up is allowed) and runs
 * `send(allowed)`. `allowed` is false when the address is throttled;
 * `send` then either skips the email or throws `emailLimitError()`. When `send` throws after an
 * allowed count, the count is given back (nothing was sent).
 */
export async function withEmailAllowance<T>(
  deps: Pick<ServiceDeps, 'throttle'>,
  kind: LinkEmailKind,
  address: string,
  send: (allowed: boolean) => Promise<T>,
): Promise<T> {
  const key = `${kind}:${address}`;
  const allowed = await deps.throttle.consume('email', key);
  try {
    return await send(allowed);
  } catch (err) {
    if (allowed) await deps.throttle.refund('email', key);
    throw err;
  }
}
