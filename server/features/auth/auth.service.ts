/**
 * Registration, email confirmation and login.
 * Enumeration-safe: signing up with a registered email answers exactly like a new sign-up and
 * emails the owner instead (docs/decisions/0004). Password attempts and link emails are throttled
 * (docs/decisions/0008); password reset and change, email change: credentials.service.ts.
 */
import { and, desc, eq, gte, inArray } from 'drizzle-orm';
import { MSG } from '../../../shared/messages';
import { isReservedSlug } from '../../../shared/reserved-slugs';
import type { RegisterBusinessInput, RegisterCustomerInput, LoginInput } from '../../../shared/schemas/auth';
import type { ServiceDeps } from '../../core/deps';
import { DomainError } from '../../core/errors';
import { pgConstraint, pgErrorCode, type DbOrTx, type Tx } from '../../db/client';
import { businessProfiles, customerProfiles, emailOutbox, users } from '../../db/schema/index';
import { classifyDeliveryError, type DeliveryIssue } from '../../email/delivery-issue';
import { enqueueEmail, enqueueEmailIntent } from '../../email/outbox';
import {
  ALREADY_REGISTERED_SUBJECT,
  alreadyRegisteredEmail,
  CONFIRMATION_SUBJECT,
  confirmationEmail,
} from '../../email/templates';
import { businessProfileRow } from '../businesses/businesses.service';
import { queueGeocode } from '../geocoding/geocode-requests';
import { applyEmailChange, markEmailVerified } from './credentials.service';
import { emailLimitError, throttledPasswordCheck, withEmailAllowance } from './limits';
import { authRedirectLink, forgotPasswordUrl, loginUrl } from './links';
import { consumeOneTimeToken, issueOneTimeToken } from './one-time-tokens';
import { hashPassword, verifyDummyPassword, verifyPassword } from './password';
import { createSession, type SessionUser } from './session';
import { loginAttemptKeys } from './throttle';

export type AuthState = 'unregistered' | 'pending_email' | 'profile_incomplete' | 'authenticated';

/** Auth state of the current user: what the client lets them do next. */
export function authStateOf(user: SessionUser | null): AuthState {
  if (!user) return 'unregistered';
  if (!user.isVerified || !user.email) return 'pending_email';
  if (user.role === 'business' && (!user.businessName || !user.businessSlug)) return 'profile_incomplete';
  return 'authenticated';
}

async function emailExisting(deps: ServiceDeps, tx: DbOrTx, email: string): Promise<void> {
  await enqueueEmail(tx, alreadyRegisteredEmail(email, loginUrl(deps), forgotPasswordUrl(deps)), deps.now());
}

/** Output of both sign-ups: the lower-cased email, and whether its email was skipped (throttled). */
export interface SignUpResult {
  email: string;
  /** True when an email went to this address less than a minute ago, so none was queued now. */
  emailThrottled: boolean;
}

/**
 * The common part of both sign-ups (docs/decisions/0004, 0008): hashes the password, creates the
 * unconfirmed user unless the email is registered, runs `createProfile` in the same transaction,
 * and queues the confirmation (or, for a registered email, the "someone tried to sign up" notice)
 * unless the address had an email in the last minute. The answer is the same either way.
 */
async function signUp(
  deps: ServiceDeps,
  account: { email: string; name: string; password: string; role: 'business' | 'customer' },
  createProfile: (tx: Tx, userId: string, now: Date) => Promise<void>,
): Promise<SignUpResult> {
  const passwordHash = await hashPassword(account.password);
  const emailThrottled = await withEmailAllowance(deps, 'confirmation', account.email, async (allowed) => {
    await deps.db.transaction(async (tx) => {
      const now = deps.now();
      const [user] = await tx
        .insert(users)
        .values({
          email: account.email,
          passwordHash,
          role: account.role,
          name: account.name,
          createdAt: now,
          updatedAt: now,
        })
        .onConflictDoNothing({ target: users.email })
        .returning({ id: users.id });
      if (!user) {
        if (allowed) await emailExisting(deps, tx, account.email);
        return;
      }
      await createProfile(tx, user.id, now);
      if (!allowed) return;
      const token = await issueOneTimeToken(tx, { userId: user.id, purpose: 'email_confirmation', now });
      await enqueueEmail(tx, confirmationEmail(account.email, account.name, authRedirectLink(deps, token)), now);
    });
    return !allowed;
  });
  if (!emailThrottled) deps.kickMailer();
  return { email: account.email, emailThrottled };
}

/**
 * Creates a customer account (unconfirmed) and queues its confirmation email (/register).
 * Input: name, email (lower-cased), password (8-128). Output: { email,
 * emailThrottled }. Never reveals whether the email was registered already; does not fail when
 * the address is email-throttled (the email is skipped, `emailThrottled: true`).
 */
export async function registerCustomer(deps: ServiceDeps, input: RegisterCustomerInput): Promise<SignUpResult> {
  return signUp(deps, { ...input, role: 'customer' }, async (tx, userId, now) => {
    await tx.insert(customerProfiles).values({ id: userId, fullName: input.name, email: input.email, createdAt: now });
  });
}

/**
 * Creates a business account with its profile from the pending registration plus the onboarding
 * form (/complete-business-profile), unconfirmed, and queues the confirmation.
 * Output as `registerCustomer`. Throws CONFLICT 'This username is already taken' (field slug) for
 * a taken or reserved slug, whether or not the email is registered.
 */
export async function registerBusiness(deps: ServiceDeps, input: RegisterBusinessInput): Promise<SignUpResult> {
  // The slug is checked before anything about the email, so the answer never depends on whether
  // the email is registered.
  if (!(await isSlugAvailable(deps, input.slug))) {
    throw new DomainError('CONFLICT', MSG.usernameTaken, { field: 'slug' });
  }
  try {
    return await signUp(deps, { ...input, role: 'business' }, async (tx, userId, now) => {
      await tx.insert(businessProfiles).values(businessProfileRow(userId, input, now));
      // Discover places the new business by its address, in the background (docs/decisions/0082).
      await queueGeocode(tx, userId, input.address, now);
    });
  } catch (err) {
    if (pgErrorCode(err) === '23505' && pgConstraint(err) === 'business_profiles_slug_unique') {
      throw new DomainError('CONFLICT', MSG.usernameTaken, { field: 'slug' });
    }
    throw err;
  }
}

/** True when `slug` is well-formed, not reserved and not used by any business. */
export async function isSlugAvailable(deps: Pick<ServiceDeps, 'db'>, slug: string): Promise<boolean> {
  const normalised = slug.trim().toLowerCase();
  if (!/^[a-z0-9-]{3,50}$/.test(normalised) || isReservedSlug(normalised)) return false;
  const [row] = await deps.db
    .select({ id: businessProfiles.id })
    .from(businessProfiles)
    .where(eq(businessProfiles.slug, normalised))
    .limit(1);
  return !row;
}

/** Outcome of an emailed /auth-redirect link (`confirmEmail`). */
export type ConfirmEmailResult =
  | { kind: 'email_confirmation'; session: { token: string; expiresAt: Date } }
  | { kind: 'email_change'; signedIn: boolean };

/**
 * Uses an emailed /auth-redirect token (docs/decisions/0009).
 * - email_confirmation: confirms the email and opens a new session (returned for the cookie).
 * - email_change: moves the account to the token's new address (users and profile email columns),
 *   marks it confirmed, queues a notice to the old address, opens no session; `signedIn` tells
 *   whether `callerUserId` (the caller's current session) is that account. When the business's
 *   public contact email moved too, a business 'updated' event is published after commit.
 * Throws BAD_REQUEST 'Email confirmation failed…' (title 'Confirmation Failed') for an unknown,
 * used or expired token or one of another purpose; CONFLICT 'This email address is already in
 * use by another account.' when the new address was taken meanwhile (the token stays unused).
 */
export async function confirmEmail(
  deps: ServiceDeps,
  token: string,
  callerUserId: string | null = null,
): Promise<ConfirmEmailResult> {
  let changedBusinessId: string | null = null;
  const outcome = await deps.db.transaction(async (tx): Promise<ConfirmEmailResult> => {
    changedBusinessId = null;
    const now = deps.now();
    const result = await consumeOneTimeToken(tx, { token, purpose: ['email_confirmation', 'email_change'], now });
    if (!result.ok || (result.purpose === 'email_change' && !result.newEmail)) {
      throw new DomainError('BAD_REQUEST', MSG.confirmationFailed, { title: MSG.confirmationFailedTitle });
    }
    if (result.purpose === 'email_change') {
      const { businessEmailChanged } = await applyEmailChange(tx, {
        userId: result.userId,
        newEmail: result.newEmail!,
        now,
      });
      if (businessEmailChanged) changedBusinessId = result.userId;
      return { kind: 'email_change', signedIn: callerUserId === result.userId };
    }
    await markEmailVerified(tx, result.userId, now);
    return { kind: 'email_confirmation', session: await createSession(tx, result.userId, now) };
  });
  // The public page shows the business's contact email.
  if (changedBusinessId) await deps.hub.publish({ kind: 'business', change: 'updated', businessId: changedBusinessId });
  if (outcome.kind === 'email_change') deps.kickMailer();
  return outcome;
}

/**
 * Asks for a fresh confirmation link to `email`. Does the same work whatever the address: counts
 * the per-address email allowance and queues one outbox intent; the dispatcher later sends the
 * link (voiding the older one) when the address has an unconfirmed account, and drops it for an
 * unknown or confirmed one (`resolveAccountEmailIntent`, docs/decisions/0033). Output: { ok: true }.
 * Throws TOO_MANY_REQUESTS 'Email Limit Reached' when a request for this address came less than a
 * minute ago.
 */
export async function resendConfirmation(deps: ServiceDeps, email: string): Promise<{ ok: true }> {
  await withEmailAllowance(deps, 'confirmation', email, async (allowed) => {
    if (!allowed) throw emailLimitError();
    await enqueueEmailIntent(deps.db, 'email_confirmation', email, deps.now());
  });
  deps.kickMailer();
  return { ok: true };
}

/**
 * Checks email + password and opens a new session. Failures are throttled per account and
 * client `ip` together, per `ip` and per account from anywhere (docs/decisions/0008, 0031): when
 * any is exhausted, TOO_MANY_REQUESTS 'You've made too many login attempts…' is thrown before the
 * password is checked. Throws UNAUTHORIZED 'Invalid email or password' for an unknown email or
 * wrong password (same answer, same time, both counted), FORBIDDEN 'Please confirm your email
 * address before logging in' for a right password on an unconfirmed account (not counted), with
 * `details.role` ('business' | 'customer') so the client can say what waits for the confirmation.
 * A right password forgets the account's failures from this client. Output: the session's cookie
 * token and expiry.
 */
export async function login(
  deps: ServiceDeps,
  input: LoginInput,
  ip?: string,
): Promise<{ token: string; expiresAt: Date }> {
  let userId = '';
  let role: 'business' | 'customer' = 'customer';
  const outcome = await throttledPasswordCheck(deps, loginAttemptKeys(input.email, ip), async () => {
    const [user] = await deps.db
      .select({ id: users.id, passwordHash: users.passwordHash, verified: users.emailVerifiedAt, role: users.role })
      .from(users)
      .where(eq(users.email, input.email))
      .limit(1);
    if (!user) {
      await verifyDummyPassword(input.password);
      return 'wrong';
    }
    if (!(await verifyPassword(user.passwordHash, input.password))) return 'wrong';
    userId = user.id;
    role = user.role;
    return user.verified ? 'right' : 'not_counted';
  });
  if (outcome === 'wrong') {
    throw new DomainError('UNAUTHORIZED', MSG.loginInvalid, { title: MSG.invalidCredentialsTitle });
  }
  // Only a caller who gave the right password learns the role (for the banner's sentence).
  if (outcome === 'not_counted') throw new DomainError('FORBIDDEN', MSG.emailNotConfirmedLogin, { details: { role } });
  return createSession(deps.db, userId, deps.now());
}

/** How far back /check-email looks for a sign-up email's delivery problem. */
const DELIVERY_LOOKBACK_MS = 30 * 60 * 1000;

/**
 * The delivery problem of the newest sign-up email (confirmation link, or the notice a registered
 * address gets instead) sent to `email` in the last 30 minutes, for /check-email. Output: { issue: 'limit' | 'service' | 'delivery' | 'other' | null }; null
 * when it was sent, is still waiting for its first attempt, or there is none. Both sign-up paths
 * send one of these emails, so the answer does not tell whether the address has an account.
 */
export async function signUpEmailIssue(
  deps: Pick<ServiceDeps, 'db' | 'now'>,
  email: string,
): Promise<{ issue: DeliveryIssue | null }> {
  const since = new Date(deps.now().getTime() - DELIVERY_LOOKBACK_MS);
  const [latest] = await deps.db
    .select({ status: emailOutbox.status, lastError: emailOutbox.lastError })
    .from(emailOutbox)
    .where(
      and(
        eq(emailOutbox.toAddress, email),
        inArray(emailOutbox.subject, [CONFIRMATION_SUBJECT, ALREADY_REGISTERED_SUBJECT]),
        gte(emailOutbox.createdAt, since),
      ),
    )
    .orderBy(desc(emailOutbox.createdAt))
    .limit(1);
  if (!latest || latest.status === 'sent') return { issue: null };
  return { issue: classifyDeliveryError(latest.lastError) };
}
