/** How the auth services apply the throttle to password checks and link emails (docs/decisions/0008). */
import { MSG } from '../../../shared/messages';
import type { ServiceDeps } from '../../core/deps';
import { DomainError } from '../../core/errors';
import { attemptSucceeded, refundAttempt, reserveAttempt, type AttemptKey } from './throttle';

/**
 * Runs `check` under the login limiter; throws TOO_MANY_REQUESTS without checking when a key is over.
 * Only 'wrong' stays counted.
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
    // A check that threw is not held against the user either.
    else if (outcome !== 'wrong') await refundAttempt(deps.throttle, keys);
  }
}

/** TOO_MANY_REQUESTS 'Email Limit Reached' for a resend, reset or email-change request. */
export function emailLimitError(): DomainError {
  return new DomainError('TOO_MANY_REQUESTS', MSG.emailLimitWait, { title: MSG.emailLimitTitle });
}

/** The kinds of link email, each limited separately per address. */
export type LinkEmailKind = 'confirmation' | 'reset' | 'email_change';

/**
 * Counts one link email of `kind` to `address`, whether or not it has an account, and runs
 * `send(allowed)`, which skips or throws `emailLimitError()` when not allowed. A throw refunds the count.
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
