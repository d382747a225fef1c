/** Password reset, and password and email change from settings (docs/decisions/0009). */
import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import { MSG } from '../../../shared/messages';
import type { ChangePasswordInput, RequestEmailChangeInput, ResetPasswordInput } from '../../../shared/schemas/auth';
import type { ServiceDeps } from '../../core/deps';
import { DomainError } from '../../core/errors';
import { pgErrorCode, type DbOrTx } from '../../db/client';
import { businessProfiles, customerProfiles, users } from '../../db/schema/index';
import { enqueueEmail, enqueueEmailIntent } from '../../email/outbox';
import {
  emailChangedEmail,
  emailChangeLinkEmail,
  emailChangeRequestedEmail,
  emailInUseNoticeEmail,
  passwordChangedEmail,
} from '../../email/templates';
import { emailLimitError, throttledPasswordCheck, withEmailAllowance } from './limits';
import { authRedirectLink, forgotPasswordUrl, loginUrl } from './links';
import {
  consumeOneTimeToken,
  inspectOneTimeToken,
  issueOneTimeToken,
  voidOneTimeTokens,
  type TokenProblem,
} from './one-time-tokens';
import { hashPassword, verifyPassword } from './password';
import { createSession, invalidateUserSessions } from './session';
import { clearAccountLoginCounters, loginAttemptKeys } from './throttle';

/** The signed-in account a settings change applies to. */
export interface AccountRef {
  id: string;
  email: string;
  name: string;
}

/** Sets email_verified_at unless it is set already. */
export async function markEmailVerified(tx: DbOrTx, userId: string, now: Date): Promise<void> {
  await tx
    .update(users)
    .set({ emailVerifiedAt: now, updatedAt: now })
    .where(and(eq(users.id, userId), isNull(users.emailVerifiedAt)));
}

/** After a new password: a change requested by someone who had the account must not survive it. */
async function endSessionsAndPendingLinks(tx: DbOrTx, userId: string, now: Date): Promise<void> {
  await invalidateUserSessions(tx, userId);
  await voidOneTimeTokens(tx, { userId, purposes: ['password_reset', 'email_change'], now });
}

/**
 * Asks for a reset link to `email`, doing the same work whatever the address: an intent the dispatcher
 * resolves (docs/decisions/0033). Throws TOO_MANY_REQUESTS within a minute of the last request.
 */
export async function requestPasswordReset(deps: ServiceDeps, email: string): Promise<{ email: string }> {
  await withEmailAllowance(deps, 'reset', email, async (allowed) => {
    if (!allowed) throw emailLimitError();
    await enqueueEmailIntent(deps.db, 'password_reset', email, deps.now());
  });
  deps.kickMailer();
  return { email };
}

export type ResetTokenStatus = 'valid' | 'expired' | 'invalid' | 'wrong_type';

/** The state of a reset link's token, without using it (see `inspectOneTimeToken`). */
export async function checkResetToken(deps: ServiceDeps, token: string): Promise<{ status: ResetTokenStatus }> {
  return { status: await inspectOneTimeToken(deps.db, { token, purpose: 'password_reset', now: deps.now() }) };
}

const RESET_TOKEN_MESSAGE: Record<TokenProblem, string> = {
  expired: MSG.resetExpired,
  invalid: MSG.resetInvalid,
  used: MSG.resetInvalid,
  wrong_purpose: MSG.resetWrongType,
};

/**
 * Sets a new password from a reset token. Also confirms the email (the link proves control of the
 * mailbox), ends every session and clears the login throttle (docs/decisions/0031). Throws BAD_REQUEST
 * for an expired, unknown, used or other-purpose token.
 */
export async function resetPassword(deps: ServiceDeps, input: ResetPasswordInput): Promise<{ ok: true }> {
  const passwordHash = await hashPassword(input.password);
  const email = await deps.db.transaction(async (tx) => {
    const now = deps.now();
    const result = await consumeOneTimeToken(tx, { token: input.token, purpose: 'password_reset', now });
    if (!result.ok) throw new DomainError('BAD_REQUEST', RESET_TOKEN_MESSAGE[result.reason]);
    const [user] = await tx
      .update(users)
      .set({ passwordHash, updatedAt: now })
      .where(eq(users.id, result.userId))
      .returning({ email: users.email, name: users.name });
    await markEmailVerified(tx, result.userId, now);
    await endSessionsAndPendingLinks(tx, result.userId, now);
    await enqueueEmail(tx, passwordChangedEmail(user!.email, user!.name, forgotPasswordUrl(deps)), now);
    return user!.email;
  });
  await clearAccountLoginCounters(deps.throttle, email);
  deps.kickMailer();
  return { ok: true };
}

/**
 * Checks the signed-in user's current password under the login limiter. Throws TOO_MANY_REQUESTS, or
 * BAD_REQUEST (field currentPassword) for a wrong one, which counts as a failed login.
 */
export async function verifyCurrentPassword(
  deps: ServiceDeps,
  account: Pick<AccountRef, 'id' | 'email'>,
  password: string,
): Promise<void> {
  const outcome = await throttledPasswordCheck(deps, loginAttemptKeys(account.email), async () => {
    const [row] = await deps.db
      .select({ passwordHash: users.passwordHash })
      .from(users)
      .where(eq(users.id, account.id))
      .limit(1);
    return row && (await verifyPassword(row.passwordHash, password)) ? 'right' : 'wrong';
  });
  if (outcome === 'wrong') {
    throw new DomainError('BAD_REQUEST', MSG.currentPasswordWrong, { field: 'currentPassword' });
  }
}

/**
 * Changes the signed-in user's password, ending all its sessions. Output: this device's new session
 * (cookie token and expiry). Throws as `verifyCurrentPassword`.
 */
export async function changePassword(
  deps: ServiceDeps,
  account: AccountRef,
  input: ChangePasswordInput,
): Promise<{ token: string; expiresAt: Date }> {
  await verifyCurrentPassword(deps, account, input.currentPassword);
  const passwordHash = await hashPassword(input.newPassword);
  const session = await deps.db.transaction(async (tx) => {
    const now = deps.now();
    await tx.update(users).set({ passwordHash, updatedAt: now }).where(eq(users.id, account.id));
    await endSessionsAndPendingLinks(tx, account.id, now);
    await enqueueEmail(tx, passwordChangedEmail(account.email, account.name, forgotPasswordUrl(deps)), now);
    return createSession(tx, account.id, now);
  });
  deps.kickMailer();
  return session;
}

/**
 * Starts an email change: a link to the new address, or a notice when it has an account (same answer),
 * and a notice to the current one. Throws BAD_REQUEST (field newEmail) for the same address, as
 * `verifyCurrentPassword`, and TOO_MANY_REQUESTS within a minute of the last email to the new address.
 */
export async function requestEmailChange(
  deps: ServiceDeps,
  account: AccountRef,
  input: RequestEmailChangeInput,
): Promise<{ newEmail: string }> {
  const { newEmail } = input;
  if (newEmail === account.email) throw new DomainError('BAD_REQUEST', MSG.sameEmail, { field: 'newEmail' });
  await verifyCurrentPassword(deps, account, input.currentPassword);
  await withEmailAllowance(deps, 'email_change', newEmail, async (allowed) => {
    if (!allowed) throw emailLimitError();
    await deps.db.transaction(async (tx) => {
      const now = deps.now();
      // Voided on both paths, so an older link's fate does not tell whether the address is taken.
      await voidOneTimeTokens(tx, { userId: account.id, purposes: ['email_change'], now });
      const [owner] = await tx.select({ id: users.id }).from(users).where(eq(users.email, newEmail)).limit(1);
      if (owner) {
        await enqueueEmail(tx, emailInUseNoticeEmail(newEmail, loginUrl(deps)), now);
      } else {
        const token = await issueOneTimeToken(tx, { userId: account.id, purpose: 'email_change', now, newEmail });
        await enqueueEmail(tx, emailChangeLinkEmail(newEmail, account.name, authRedirectLink(deps, token)), now);
      }
      await enqueueEmail(
        tx,
        emailChangeRequestedEmail(account.email, account.name, newEmail, forgotPasswordUrl(deps)),
        now,
      );
    });
  });
  deps.kickMailer();
  return { newEmail };
}

/**
 * Moves account `userId` to `newEmail` in the caller's transaction and voids the links that went to the
 * old address. Throws CONFLICT when `newEmail` is taken. `businessEmailChanged`: the public contact
 * email moved too, so the caller announces the profile change after commit.
 */
export async function applyEmailChange(
  tx: DbOrTx,
  change: { userId: string; newEmail: string; now: Date },
): Promise<{ businessEmailChanged: boolean }> {
  const { userId, newEmail, now } = change;
  const inUse = new DomainError('CONFLICT', MSG.emailInUse);
  const [taken] = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.email, newEmail), ne(users.id, userId)))
    .limit(1);
  if (taken) throw inUse;
  const [old] = await tx.select({ email: users.email, name: users.name }).from(users).where(eq(users.id, userId));
  try {
    await tx.update(users).set({ email: newEmail, updatedAt: now }).where(eq(users.id, userId));
  } catch (err) {
    if (pgErrorCode(err) === '23505') throw inUse;
    throw err;
  }
  await markEmailVerified(tx, userId, now);
  // The contact email follows the login only where it was the login; none stays none
  // (docs/decisions/0036, 0096).
  const moved = await tx
    .update(businessProfiles)
    .set({ emailAddress: newEmail, updatedAt: now })
    .where(and(eq(businessProfiles.id, userId), sql`lower(${businessProfiles.emailAddress}) = ${old!.email}`))
    .returning({ id: businessProfiles.id });
  await tx.update(customerProfiles).set({ email: newEmail }).where(eq(customerProfiles.id, userId));
  await voidOneTimeTokens(tx, { userId, purposes: ['email_confirmation', 'password_reset'], now });
  await enqueueEmail(tx, emailChangedEmail(old!.email, old!.name, newEmail), now);
  return { businessEmailChanged: moved.length > 0 };
}
