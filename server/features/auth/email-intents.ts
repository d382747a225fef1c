/** The deferred half of password reset and confirmation resend (docs/decisions/0033). */
import { eq } from 'drizzle-orm';
import type { ServiceDeps } from '../../core/deps';
import type { Tx } from '../../db/client';
import { users } from '../../db/schema/index';
import { enqueueEmail, type EmailIntent } from '../../email/outbox';
import { confirmationEmail, passwordResetEmail } from '../../email/templates';
import { authRedirectLink, resetPasswordLink } from './links';
import { issueOneTimeToken } from './one-time-tokens';

/**
 * Resolves one intent in the dispatcher's transaction: a reset link for any account, a confirmation
 * link for an unconfirmed one; anything else is dropped. A link's lifetime starts when it is written.
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
