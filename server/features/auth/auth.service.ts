/**
 * Registration, email confirmation and login (accounts spec §2, §4, §8; BRIEF §4).
 * Enumeration-safe: signing up with a registered email answers exactly like a new sign-up and
 * emails the owner instead (docs/decisions/0004).
 */
import { and, eq, isNull } from 'drizzle-orm';
import { MSG } from '../../../shared/messages';
import { scheduleToOpeningHours } from '../../../shared/opening-hours';
import { isReservedSlug } from '../../../shared/reserved-slugs';
import type { RegisterBusinessInput, RegisterCustomerInput, LoginInput } from '../../../shared/schemas/auth';
import { consumeOneTimeToken, issueOneTimeToken } from '../../auth/one-time-tokens';
import { hashPassword, verifyDummyPassword, verifyPassword } from '../../auth/password';
import { createSession, type SessionUser } from '../../auth/session';
import { pgConstraint, pgErrorCode, type DbOrTx } from '../../db/client';
import { businessProfiles, customerProfiles, users } from '../../db/schema/index';
import { enqueueEmail } from '../../email/outbox';
import { alreadyRegisteredEmail, confirmationEmail } from '../../email/templates';
import { DomainError } from '../errors';
import type { ServiceDeps } from '../context';

export type AuthState = 'unregistered' | 'pending_email' | 'profile_incomplete' | 'authenticated';

/** Auth state of the current user (accounts spec §4 "Auth states"). */
export function authStateOf(user: SessionUser | null): AuthState {
  if (!user) return 'unregistered';
  if (!user.isVerified || !user.email) return 'pending_email';
  if (user.role === 'business' && (!user.businessName || !user.businessSlug)) return 'profile_incomplete';
  return 'authenticated';
}

function confirmLink(deps: ServiceDeps, token: string): string {
  return `${deps.appOrigin}/auth-redirect?token=${encodeURIComponent(token)}`;
}

async function emailExisting(deps: ServiceDeps, tx: DbOrTx, email: string): Promise<void> {
  await enqueueEmail(
    tx,
    alreadyRegisteredEmail(email, `${deps.appOrigin}/login`, `${deps.appOrigin}/forgot-password`),
    deps.now(),
  );
}

/**
 * Creates a customer account (unconfirmed) and queues its confirmation email.
 * Input: name, email (lower-cased), password (8-128). Output: { email }. Never reveals whether the
 * email was registered already.
 */
export async function registerCustomer(deps: ServiceDeps, input: RegisterCustomerInput): Promise<{ email: string }> {
  const passwordHash = await hashPassword(input.password);
  await deps.db.transaction(async (tx) => {
    const now = deps.now();
    const [user] = await tx
      .insert(users)
      .values({ email: input.email, passwordHash, role: 'customer', name: input.name, createdAt: now, updatedAt: now })
      .onConflictDoNothing({ target: users.email })
      .returning({ id: users.id });
    if (!user) return emailExisting(deps, tx, input.email);
    await tx.insert(customerProfiles).values({ id: user.id, fullName: input.name, email: input.email, createdAt: now });
    const token = await issueOneTimeToken(tx, { userId: user.id, purpose: 'email_confirmation', now });
    await enqueueEmail(tx, confirmationEmail(input.email, input.name, confirmLink(deps, token)), now);
  });
  deps.kickMailer();
  return { email: input.email };
}

/**
 * Creates a business account with its profile from the pending registration plus the onboarding
 * form (accounts spec §2 "/complete-business-profile"), unconfirmed, and queues the confirmation.
 * Throws CONFLICT 'This username is already taken' (field slug) for a taken or reserved slug.
 */
export async function registerBusiness(deps: ServiceDeps, input: RegisterBusinessInput): Promise<{ email: string }> {
  // The slug is checked before anything about the email, so the answer never depends on whether
  // the email is registered.
  if (!(await isSlugAvailable(deps, input.slug))) {
    throw new DomainError('CONFLICT', MSG.usernameTaken, { field: 'slug' });
  }
  const passwordHash = await hashPassword(input.password);
  try {
    await deps.db.transaction(async (tx) => {
      const now = deps.now();
      const [user] = await tx
        .insert(users)
        .values({
          email: input.email,
          passwordHash,
          role: 'business',
          name: input.name,
          createdAt: now,
          updatedAt: now,
        })
        .onConflictDoNothing({ target: users.email })
        .returning({ id: users.id });
      if (!user) return emailExisting(deps, tx, input.email);
      await tx.insert(businessProfiles).values({
        id: user.id,
        businessName: input.businessName,
        slug: input.slug,
        description: input.description,
        businessType: input.category,
        address: input.address,
        phoneNumber: input.phone ?? null,
        emailAddress: input.email,
        openingHours: scheduleToOpeningHours(input.schedule),
        createdAt: now,
        updatedAt: now,
      });
      const token = await issueOneTimeToken(tx, { userId: user.id, purpose: 'email_confirmation', now });
      await enqueueEmail(tx, confirmationEmail(input.email, input.name, confirmLink(deps, token)), now);
    });
  } catch (err) {
    if (pgErrorCode(err) === '23505' && pgConstraint(err) === 'business_profiles_slug_unique') {
      throw new DomainError('CONFLICT', MSG.usernameTaken, { field: 'slug' });
    }
    throw err;
  }
  deps.kickMailer();
  return { email: input.email };
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

/**
 * Confirms the email of the token's user and signs them in (accounts spec §2 "/auth-redirect").
 * Output: the new session's cookie token and expiry. Throws BAD_REQUEST 'Email confirmation
 * failed…' for an unknown, used or expired token.
 */
export async function confirmEmail(deps: ServiceDeps, token: string): Promise<{ token: string; expiresAt: Date }> {
  return deps.db.transaction(async (tx) => {
    const now = deps.now();
    const result = await consumeOneTimeToken(tx, { token, purpose: 'email_confirmation', now });
    if (!result.ok) {
      throw new DomainError('BAD_REQUEST', MSG.confirmationFailed, { title: MSG.confirmationFailedTitle });
    }
    await tx
      .update(users)
      .set({ emailVerifiedAt: now, updatedAt: now })
      .where(and(eq(users.id, result.userId), isNull(users.emailVerifiedAt)));
    return createSession(tx, result.userId, now);
  });
}

/**
 * Sends a fresh confirmation link to an unconfirmed account (voiding the older one). Answers the
 * same for unknown or already confirmed addresses. Output: { ok: true }.
 */
export async function resendConfirmation(deps: ServiceDeps, email: string): Promise<{ ok: true }> {
  await deps.db.transaction(async (tx) => {
    const now = deps.now();
    const [user] = await tx
      .select({ id: users.id, name: users.name, verified: users.emailVerifiedAt })
      .from(users)
      .where(eq(users.email, email))
      .limit(1);
    if (!user || user.verified) return;
    const token = await issueOneTimeToken(tx, { userId: user.id, purpose: 'email_confirmation', now });
    await enqueueEmail(tx, confirmationEmail(email, user.name, confirmLink(deps, token)), now);
  });
  deps.kickMailer();
  return { ok: true };
}

/**
 * Checks email + password and opens a new session. Throws UNAUTHORIZED 'Invalid email or password'
 * for an unknown email or wrong password (same answer, same time), FORBIDDEN 'Please confirm your
 * email address before logging in' for a correct password on an unconfirmed account.
 */
export async function login(deps: ServiceDeps, input: LoginInput): Promise<{ token: string; expiresAt: Date }> {
  const [user] = await deps.db
    .select({ id: users.id, passwordHash: users.passwordHash, verified: users.emailVerifiedAt })
    .from(users)
    .where(eq(users.email, input.email))
    .limit(1);
  if (!user) {
    await verifyDummyPassword(input.password);
    throw new DomainError('UNAUTHORIZED', MSG.loginInvalid, { title: MSG.invalidCredentialsTitle });
  }
  if (!(await verifyPassword(user.passwordHash, input.password))) {
    throw new DomainError('UNAUTHORIZED', MSG.loginInvalid, { title: MSG.invalidCredentialsTitle });
  }
  if (!user.verified) throw new DomainError('FORBIDDEN', MSG.emailNotConfirmedLogin);
  return createSession(deps.db, user.id, deps.now());
}
