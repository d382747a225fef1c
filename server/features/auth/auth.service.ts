/**
 * Registration, email confirmation and login. Signing up with a registered email answers exactly like a
 * new sign-up and emails the owner instead (docs/decisions/0004).
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
import { holdSlug, slugsInUse } from '../businesses/slug-holds';
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

/** Output of both sign-ups: the lower-cased email, and whether its email was skipped. */
export interface SignUpResult {
  email: string;
  /** An email went to this address less than a minute ago, so none was queued now. */
  emailThrottled: boolean;
}

/**
 * Both sign-ups: creates the unconfirmed user and profile unless the email is registered, and queues
 * the confirmation, or for a registered email the notice (and runs `registered`); the answer is the
 * same either way.
 */
async function signUp(
  deps: ServiceDeps,
  account: { email: string; name: string; password: string; role: 'business' | 'customer' },
  createProfile: (tx: Tx, userId: string, now: Date) => Promise<void>,
  registered?: (tx: Tx, now: Date) => Promise<void>,
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
        await registered?.(tx, now);
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
 * Creates an unconfirmed customer account and queues its confirmation (/register). Never reveals
 * whether the email was registered; a throttled address skips the email instead of failing.
 */
export async function registerCustomer(deps: ServiceDeps, input: RegisterCustomerInput): Promise<SignUpResult> {
  return signUp(deps, { ...input, role: 'customer' }, async (tx, userId, now) => {
    await tx.insert(customerProfiles).values({ id: userId, fullName: input.name, email: input.email, createdAt: now });
  });
}

/**
 * Creates an unconfirmed business account with its profile (/complete-business-profile), as
 * `registerCustomer`; for a registered email the slug is held instead, as long as an unconfirmed
 * account would hold it (docs/decisions/0117). The profile's public contact email is
 * `input.contactEmail`: missing is the sign-in email, null is none. Throws CONFLICT (field slug) for
 * a taken, held or reserved slug.
 */
export async function registerBusiness(deps: ServiceDeps, input: RegisterBusinessInput): Promise<SignUpResult> {
  // Before anything about the email, so the answer never depends on whether it is registered.
  if (!(await isSlugAvailable(deps, input.slug))) {
    throw new DomainError('CONFLICT', MSG.usernameTaken, { field: 'slug' });
  }
  try {
    return await signUp(
      deps,
      { ...input, role: 'business' },
      async (tx, userId, now) => {
        // The public contact email: the one chosen at sign-up, none (null), or else the sign-in email (ADR 0096).
        const contactEmail = input.contactEmail === undefined ? input.email : input.contactEmail;
        await tx.insert(businessProfiles).values(businessProfileRow(userId, { ...input, email: contactEmail }, now));
        await queueGeocode(tx, userId, input.address, now);
      },
      (tx, now) => holdSlug(tx, input.slug, now),
    );
  } catch (err) {
    if (pgErrorCode(err) === '23505' && pgConstraint(err) === 'business_profiles_slug_unique') {
      throw new DomainError('CONFLICT', MSG.usernameTaken, { field: 'slug' });
    }
    throw err;
  }
}

/** True when `slug` is well-formed, not reserved, not used by any business and not held for a sign-up. */
export async function isSlugAvailable(deps: Pick<ServiceDeps, 'db' | 'now'>, slug: string): Promise<boolean> {
  const normalised = slug.trim().toLowerCase();
  if (!/^[a-z0-9-]{3,50}$/.test(normalised) || isReservedSlug(normalised)) return false;
  return !(await slugsInUse(deps.db, [normalised], deps.now())).has(normalised);
}

/** Outcome of an emailed /auth-redirect link (`confirmEmail`). */
export type ConfirmEmailResult =
  | { kind: 'email_confirmation'; session: { token: string; expiresAt: Date } }
  | { kind: 'email_change'; signedIn: boolean };

/**
 * Uses an emailed /auth-redirect token (docs/decisions/0009): a confirmation opens a session; an email
 * change moves the account to the new address, opens none, and says whether `callerUserId` is that account.
 * Throws BAD_REQUEST for an unknown, used or expired token; CONFLICT when the new address was taken
 * meanwhile (the token stays unused).
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
 * Asks for a fresh confirmation link to `email`, doing the same work whatever the address: an intent the
 * dispatcher resolves (docs/decisions/0033). Throws TOO_MANY_REQUESTS within a minute of the last request.
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
 * Checks email + password and opens a session: the cookie token and expiry. Throws TOO_MANY_REQUESTS
 * when throttled (docs/decisions/0031); UNAUTHORIZED for an unknown email or wrong password (same answer,
 * same time); FORBIDDEN with `details.role` for a right password on an unconfirmed account.
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
 * The delivery problem of the newest sign-up email to `email` within DELIVERY_LOOKBACK_MS, for
 * /check-email; null when sent, not yet tried, or none. Both sign-up paths send one, so the answer does
 * not tell whether the address has an account.
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
