/**
 * Password reset (/forgot-password, /reset-password) and password change from settings,
 * docs/decisions/0009: links, token states, ended
 * sessions, notices, refusals.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { sessions, users } from '../../server/db/schema/index';
import { issueOneTimeToken } from '../../server/features/auth/one-time-tokens';
import { createSession } from '../../server/features/auth/session';
import { MSG } from '../../shared/messages';
import {
  callerFor,
  callerForToken,
  createUser,
  lastSetToken,
  recordingCookies,
  TEST_PASSWORD,
} from '../factories/index';
import { emailsTo, errorOf, latestEmailTo, linkToken, outwardOf, resolveEmailIntents } from '../setup/helpers';
import { useTestDeps } from '../setup/test-database';

const START = new Date('2026-11-21T10:00:00Z');
const t = useTestDeps(START, { fakeDate: true });
const clock = t.clock;
const HOUR = 60 * 60 * 1000;
const NEW_PASSWORD = 'a-brand-new-password';
const CHANGED_SUBJECT = 'Your LastSlot password was changed';

/** Asks for a reset link for `email` and returns the token of the emailed link. */
async function requestResetToken(email: string): Promise<string> {
  await (await callerFor(t.deps, null)).auth.requestPasswordReset({ email });
  await resolveEmailIntents(t.deps);
  const mail = await latestEmailTo(t.deps.db, email);
  expect(mail?.subject).toBe('Reset your LastSlot password');
  return linkToken(mail!.text, '/reset-password');
}

async function canLogin(email: string, password: string): Promise<boolean> {
  return (await callerFor(t.deps, null)).auth.login({ email, password }).then(
    () => true,
    () => false,
  );
}

async function sessionStillValid(token: string): Promise<boolean> {
  return callerForToken(t.deps, token).then(
    () => true,
    () => false,
  );
}

describe('auth.requestPasswordReset', () => {
  it('emails a one-hour link to /reset-password to a registered address, nothing to an unknown one', async () => {
    const user = await createUser(t.deps.db, { role: 'customer' });
    const anon = await callerFor(t.deps, null);
    await expect(anon.auth.requestPasswordReset({ email: user.email.toUpperCase() })).resolves.toEqual({
      email: user.email,
    });
    await resolveEmailIntents(t.deps);
    const mail = await latestEmailTo(t.deps.db, user.email);
    const token = linkToken(mail!.text, '/reset-password');
    expect(mail!.html).toContain(`http://localhost:3000/reset-password?token=${token}`);
    await expect(anon.auth.requestPasswordReset({ email: 'ghost@example.test' })).resolves.toEqual({
      email: 'ghost@example.test',
    });
    await resolveEmailIntents(t.deps);
    expect(await emailsTo(t.deps.db, 'ghost@example.test')).toEqual([]);
  });

  it('refuses a malformed address with its message', async () => {
    const anon = await callerFor(t.deps, null);
    expect((await errorOf(anon.auth.requestPasswordReset({ email: 'nope' }))).message).toBe(MSG.validEmail);
    expect((await errorOf(anon.auth.requestPasswordReset({ email: ' ' }))).message).toBe(MSG.emailRequired);
  });
});

describe('auth.checkResetToken', () => {
  it('reports valid without using the token, then invalid once used', async () => {
    const user = await createUser(t.deps.db, { role: 'customer' });
    const token = await requestResetToken(user.email);
    const anon = await callerFor(t.deps, null);
    await expect(anon.auth.checkResetToken({ token })).resolves.toEqual({ status: 'valid' });
    await expect(anon.auth.checkResetToken({ token })).resolves.toEqual({ status: 'valid' });
    await anon.auth.resetPassword({ token, password: NEW_PASSWORD });
    await expect(anon.auth.checkResetToken({ token })).resolves.toEqual({ status: 'invalid' });
  });

  it('reports expired after an hour, wrong_type for other links and invalid for unknown tokens', async () => {
    const user = await createUser(t.deps.db, { role: 'customer' });
    const token = await requestResetToken(user.email);
    const now = t.deps.now();
    const confirmation = await issueOneTimeToken(t.deps.db, { userId: user.id, purpose: 'email_confirmation', now });
    const change = await issueOneTimeToken(t.deps.db, {
      userId: user.id,
      purpose: 'email_change',
      now,
      newEmail: 'elsewhere@example.test',
    });
    const anon = await callerFor(t.deps, null);
    await expect(anon.auth.checkResetToken({ token: confirmation })).resolves.toEqual({ status: 'wrong_type' });
    await expect(anon.auth.checkResetToken({ token: change })).resolves.toEqual({ status: 'wrong_type' });
    await expect(anon.auth.checkResetToken({ token: 'no-such-token' })).resolves.toEqual({ status: 'invalid' });
    clock.advance(HOUR - 1);
    await expect(anon.auth.checkResetToken({ token })).resolves.toEqual({ status: 'valid' });
    clock.advance(1);
    await expect(anon.auth.checkResetToken({ token })).resolves.toEqual({ status: 'expired' });
  });
});

describe('auth.resetPassword', () => {
  it('sets the password, ends every session, clears the cookie and sends a notice', async () => {
    const user = await createUser(t.deps.db, { role: 'business' });
    const cookies = recordingCookies();
    const login = async () => {
      await (await callerFor(t.deps, null, cookies.writer)).auth.login({ email: user.email, password: TEST_PASSWORD });
      return lastSetToken(cookies.calls);
    };
    const [laptop, phone] = [await login(), await login()];
    const token = await requestResetToken(user.email);
    const resetCookies = recordingCookies();
    const caller = await callerForToken(t.deps, phone, resetCookies.writer);
    await expect(caller.auth.resetPassword({ token, password: NEW_PASSWORD })).resolves.toEqual({ ok: true });
    expect(resetCookies.calls).toEqual([{ kind: 'clear' }]);
    expect(await sessionStillValid(laptop)).toBe(false);
    expect(await sessionStillValid(phone)).toBe(false);
    expect(await t.deps.db.select().from(sessions).where(eq(sessions.userId, user.id))).toEqual([]);
    expect(await canLogin(user.email, TEST_PASSWORD)).toBe(false);
    expect(await canLogin(user.email, NEW_PASSWORD)).toBe(true);
    const [row] = await t.deps.db.select().from(users).where(eq(users.id, user.id));
    expect(row!.passwordHash).toMatch(/^\$argon2id\$/);
    expect(await emailsTo(t.deps.db, user.email, CHANGED_SUBJECT)).toHaveLength(1);
  });

  it('uses a token once', async () => {
    const user = await createUser(t.deps.db, { role: 'customer' });
    const token = await requestResetToken(user.email);
    const anon = await callerFor(t.deps, null);
    await anon.auth.resetPassword({ token, password: NEW_PASSWORD });
    const reuse = await errorOf(anon.auth.resetPassword({ token, password: 'yet-another-password' }));
    expect([reuse.code, reuse.message]).toEqual(['BAD_REQUEST', MSG.resetInvalid]);
    expect(await canLogin(user.email, NEW_PASSWORD)).toBe(true);
  });

  it('refuses expired, unknown and other-purpose tokens with their texts, and a short password', async () => {
    const user = await createUser(t.deps.db, { role: 'customer' });
    const token = await requestResetToken(user.email);
    const confirmation = await issueOneTimeToken(t.deps.db, {
      userId: user.id,
      purpose: 'email_confirmation',
      now: t.deps.now(),
    });
    const anon = await callerFor(t.deps, null);
    const reset = (tok: string, password = NEW_PASSWORD) => errorOf(anon.auth.resetPassword({ token: tok, password }));
    expect((await reset(token, 'short')).message).toBe(MSG.passwordMin);
    expect(outwardOf(await reset('unknown-token'))).toMatchObject({ code: 'BAD_REQUEST', message: MSG.resetInvalid });
    expect(outwardOf(await reset(confirmation))).toMatchObject({ code: 'BAD_REQUEST', message: MSG.resetWrongType });
    clock.advance(HOUR);
    expect(outwardOf(await reset(token))).toMatchObject({ code: 'BAD_REQUEST', message: MSG.resetExpired });
    expect(await canLogin(user.email, TEST_PASSWORD)).toBe(true);
  });

  it('voids the older link when a new one is requested', async () => {
    const user = await createUser(t.deps.db, { role: 'customer' });
    const first = await requestResetToken(user.email);
    clock.advance(61_000);
    const second = await requestResetToken(user.email);
    const anon = await callerFor(t.deps, null);
    await expect(anon.auth.checkResetToken({ token: first })).resolves.toEqual({ status: 'invalid' });
    expect((await errorOf(anon.auth.resetPassword({ token: first, password: NEW_PASSWORD }))).message).toBe(
      MSG.resetInvalid,
    );
    await expect(anon.auth.resetPassword({ token: second, password: NEW_PASSWORD })).resolves.toEqual({ ok: true });
  });

  it('confirms an unconfirmed email (the link proves the mailbox) so the new password logs in', async () => {
    const user = await createUser(t.deps.db, { role: 'customer', verified: false });
    const token = await requestResetToken(user.email);
    await (await callerFor(t.deps, null)).auth.resetPassword({ token, password: NEW_PASSWORD });
    const [row] = await t.deps.db.select().from(users).where(eq(users.id, user.id));
    expect(row!.emailVerifiedAt).toEqual(clock.now());
    expect(await canLogin(user.email, NEW_PASSWORD)).toBe(true);
  });

  it('forgets the failed logins of the account', async () => {
    const user = await createUser(t.deps.db, { role: 'customer' });
    const anon = await callerFor(t.deps, null);
    for (let i = 0; i < 5; i++) await errorOf(anon.auth.login({ email: user.email, password: 'wrong-password' }));
    expect((await errorOf(anon.auth.login({ email: user.email, password: TEST_PASSWORD }))).code).toBe(
      'TOO_MANY_REQUESTS',
    );
    const token = await requestResetToken(user.email);
    await anon.auth.resetPassword({ token, password: NEW_PASSWORD });
    expect(await canLogin(user.email, NEW_PASSWORD)).toBe(true);
  });
});

describe('auth.changePassword', () => {
  it('refuses visitors', async () => {
    const anon = await callerFor(t.deps, null);
    const err = await errorOf(anon.auth.changePassword({ currentPassword: TEST_PASSWORD, newPassword: NEW_PASSWORD }));
    expect(err.code).toBe('UNAUTHORIZED');
  });

  it('sets the password, ends every session and signs this device in again with a new session', async () => {
    const user = await createUser(t.deps.db, { role: 'customer' });
    const { token: otherDevice } = await createSession(t.deps.db, user.id, t.deps.now());
    const cookies = recordingCookies();
    await (await callerFor(t.deps, null, cookies.writer)).auth.login({ email: user.email, password: TEST_PASSWORD });
    const current = lastSetToken(cookies.calls);
    const caller = await callerForToken(t.deps, current, cookies.writer);
    await expect(
      caller.auth.changePassword({ currentPassword: TEST_PASSWORD, newPassword: NEW_PASSWORD }),
    ).resolves.toEqual({ ok: true });
    const fresh = lastSetToken(cookies.calls);
    expect(fresh).not.toBe(current);
    expect(await sessionStillValid(current)).toBe(false);
    expect(await sessionStillValid(otherDevice)).toBe(false);
    expect(await t.deps.db.select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(1);
    expect((await (await callerForToken(t.deps, fresh)).auth.me()).user?.id).toBe(user.id);
    expect(await canLogin(user.email, TEST_PASSWORD)).toBe(false);
    expect(await canLogin(user.email, NEW_PASSWORD)).toBe(true);
    expect(await emailsTo(t.deps.db, user.email, CHANGED_SUBJECT)).toHaveLength(1);
  });

  it('works for an unconfirmed account too', async () => {
    const user = await createUser(t.deps.db, { role: 'business', verified: false });
    const caller = await callerFor(t.deps, user.id);
    await expect(
      caller.auth.changePassword({ currentPassword: TEST_PASSWORD, newPassword: NEW_PASSWORD }),
    ).resolves.toEqual({ ok: true });
  });

  it('refuses a wrong current password on its field, counting it as a failed login', async () => {
    const user = await createUser(t.deps.db, { role: 'customer' });
    const caller = await callerFor(t.deps, user.id);
    const change = (currentPassword: string) =>
      errorOf(caller.auth.changePassword({ currentPassword, newPassword: NEW_PASSWORD }));
    for (let i = 0; i < 5; i++) {
      expect(outwardOf(await change(`wrong-${i}`))).toEqual({
        code: 'BAD_REQUEST',
        message: MSG.currentPasswordWrong,
        title: undefined,
        field: 'currentPassword',
      });
    }
    expect(outwardOf(await change(TEST_PASSWORD))).toMatchObject({
      code: 'TOO_MANY_REQUESTS',
      message: MSG.tooManyAttempts,
    });
    const login = await errorOf(
      (await callerFor(t.deps, null)).auth.login({ email: user.email, password: TEST_PASSWORD }),
    );
    expect(login.code).toBe('TOO_MANY_REQUESTS');
    expect(await emailsTo(t.deps.db, user.email, CHANGED_SUBJECT)).toEqual([]);
  });

  it('refuses a new password under 8 characters and a missing current password', async () => {
    const user = await createUser(t.deps.db, { role: 'customer' });
    const caller = await callerFor(t.deps, user.id);
    expect(
      (await errorOf(caller.auth.changePassword({ currentPassword: TEST_PASSWORD, newPassword: 'short' }))).message,
    ).toBe(MSG.passwordMin);
    expect(
      (await errorOf(caller.auth.changePassword({ currentPassword: '', newPassword: NEW_PASSWORD }))).message,
    ).toBe(MSG.currentPasswordRequired);
    expect(await canLogin(user.email, TEST_PASSWORD)).toBe(true);
  });
});
