/**
 * The deferred half of password reset and confirmation resend (docs/decisions/0033): the
 * dispatcher hands each queued intent to `resolveAccountEmailIntent`, which decides, after the
 * request was answered, whether the address gets an email.
 */
import { eq } from 'drizzle-orm';
import type { ServiceDeps } from '../../core/deps';
import type { Tx } from '../../db/client';
import { users } from '../../db/schema/index';
import { enqueueEmail, type EmailIntent } from '../../email/outbox';
import { confirmationEmail, passwordResetEmail } from '../../email/templates';
import { authRedirectLink, resetPasswordLink } from './links';
import { issueOneTimeToken } from './one-time-tokens';

/**
 * Resolves one intent inside the dispatcher's transaction `tx`:
 * - password_reset: an account with that address gets a reset link (1 hour, voiding older ones);
 * - email_confirmation: an unconfirmed account gets a new confirmation link (24 hours, voiding the
 *   older one).
 * Anything else (no account; already confirmed) is dropped without a trace. Links are issued at
 * resolution time (`deps.now()`), so their lifetime starts when the email is written.
 */
export async function resolveAccountEmailIntent(
  deps: Pick<ServiceDeps, 'now' | 'appOrigin'>,
  tx: Tx,
  intent: EmailIntent,
): Promise<void> {
  const now = deps.now();
  const [user] = await tx
    .select({ id: users.id, name: users.name, verified: users.emailVerifiedAt })
    .from(users)
    .where(eq(users.email, intent.to))
    .limit(1);
  if (!user) return;
  if (intent.kind === 'password_reset') {
    const token = await issueOneTimeToken(tx, { userId: user.id, purpose: 'password_reset', now });
    await enqueueEmail(tx, passwordResetEmail(intent.to, user.name, resetPasswordLink(deps, token)), now);
    return;
  }
  if (user.verified) return;
  const token = await issueOneTimeToken(tx, { userId: user.id, purpose: 'email_confirmation', now });
  await enqueueEmail(tx, confirmationEmail(intent.to, user.name, authRedirectLink(deps, token)), now);
}
