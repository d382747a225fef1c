/**
 * Throttling and enumeration safety of the auth procedures (docs/decisions/0004 and 0008), on the real database-backed limiter. Date is faked and follows
 * the test clock, so the limiter's windows move with it.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  customerProfiles,
  emailOutbox,
  oneTimeTokens,
  rateLimits,
  sessions,
  users,
} from '../../server/db/schema/index';
import { MSG } from '../../shared/messages';
import { callerFor, createUser, recordingCookies, requestFrom, TEST_PASSWORD } from '../factories/index';
import { emailsTo, errorOf, linkToken, outwardOf, resolveEmailIntents } from '../setup/helpers';
import { useTestDeps } from '../setup/test-database';

const t = useTestDeps(new Date('2026-11-21T10:00:00Z'), { fakeDate: true });
const clock = t.clock;
const FIFTEEN_MINUTES = 15 * 60 * 1000;

const tooMany = { code: 'TOO_MANY_REQUESTS', message: MSG.tooManyAttempts, title: undefined, field: undefined };
const invalidLogin = { code: 'UNAUTHORIZED', message: MSG.loginInvalid, title: MSG.invalidCredentialsTitle };
const emailLimit = {
  code: 'TOO_MANY_REQUESTS',
  message: MSG.emailLimitWait,
  title: MSG.emailLimitTitle,
  field: undefined,
};

/** The outward answer of a login: 'ok' or the error's code, message and title. */
async function loginAnswer(email: string, password: string, ip?: string) {
  const caller = await callerFor(t.deps, null, undefined, ip ? requestFrom(ip) : undefined);
  return caller.auth.login({ email, password }).then(
    () => 'ok' as const,
    (err: unknown) => {
      const { code, message, title } = outwardOf(err as never);
      return { code, message, title };
    },
  );
}

async function failLogins(n: number, email: string, ip?: string) {
  for (let i = 0; i < n; i++) expect(await loginAnswer(email, `wrong-password-${i}`, ip)).toEqual(invalidLogin);
}

describe('login throttling per account', () => {
  it('refuses the 6th attempt after 5 failures, even with the right password, until 15 minutes pass', async () => {
    const user = await createUser(t.deps.db, { role: 'customer' });
    await failLogins(5, user.email);
    const cookies = recordingCookies();
    const refused = await errorOf(
      (await callerFor(t.deps, null, cookies.writer)).auth.login({ email: user.email, password: TEST_PASSWORD }),
    );
    expect(outwardOf(refused)).toEqual(tooMany);
    expect(cookies.calls).toEqual([]);
    expect(await t.deps.db.select().from(sessions).where(eq(sessions.userId, user.id))).toEqual([]);
    clock.advance(FIFTEEN_MINUTES - 1000);
    expect(await loginAnswer(user.email, TEST_PASSWORD)).toMatchObject({ code: 'TOO_MANY_REQUESTS' });
    clock.advance(1001);
    expect(await loginAnswer(user.email, TEST_PASSWORD)).toBe('ok');
  });

  it('counts the email whatever its case, and treats an unknown email exactly like a known one', async () => {
    const user = await createUser(t.deps.db, { role: 'business' });
    const known: unknown[] = [];
    const unknown: unknown[] = [];
    for (let i = 0; i < 7; i++) {
      known.push(await loginAnswer(i % 2 ? user.email.toUpperCase() : user.email, 'wrong-password'));
      unknown.push(await loginAnswer('nobody-here@example.test', 'wrong-password'));
    }
    expect(known).toEqual(unknown);
    expect(known.slice(4)).toEqual(
      [invalidLogin, tooMany, tooMany].map(({ code, message, title }) => ({ code, message, title })),
    );
  });

  it('forgets the failures after a successful login', async () => {
    const user = await createUser(t.deps.db, { role: 'customer' });
    await failLogins(4, user.email);
    expect(await loginAnswer(user.email, TEST_PASSWORD)).toBe('ok');
    await failLogins(4, user.email);
    expect(await loginAnswer(user.email, TEST_PASSWORD)).toBe('ok');
  });

  it('does not count a right password on an unconfirmed account', async () => {
    const user = await createUser(t.deps.db, { role: 'customer', verified: false });
    for (let i = 0; i < 7; i++) {
      expect(await loginAnswer(user.email, TEST_PASSWORD)).toEqual({
        code: 'FORBIDDEN',
        message: MSG.emailNotConfirmedLogin,
        title: undefined,
      });
    }
    await failLogins(5, user.email);
    expect(await loginAnswer(user.email, TEST_PASSWORD)).toMatchObject({ code: 'TOO_MANY_REQUESTS' });
  });

  it('lets exactly 5 of 10 concurrent wrong attempts be checked', async () => {
    const user = await createUser(t.deps.db, { role: 'customer' });
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => loginAnswer(user.email, `wrong-password-${i}`)),
    );
    expect(answers.filter((a) => typeof a === 'object' && a.code === 'UNAUTHORIZED')).toHaveLength(5);
    expect(answers.filter((a) => typeof a === 'object' && a.code === 'TOO_MANY_REQUESTS')).toHaveLength(5);
  });
});

describe('login throttling per IP address', () => {
  it('refuses an IP after 20 failures across different emails; other IPs and server calls are unaffected', async () => {
    const user = await createUser(t.deps.db, { role: 'customer' });
    for (let i = 0; i < 20; i++) {
      expect(await loginAnswer(`spray-${i}@example.test`, 'wrong-password', '203.0.113.50')).toEqual(invalidLogin);
    }
    expect(await loginAnswer(user.email, TEST_PASSWORD, '203.0.113.50')).toMatchObject({ code: 'TOO_MANY_REQUESTS' });
    expect(await loginAnswer('spray-new@example.test', 'wrong-password', '203.0.113.50')).toMatchObject({
      code: 'TOO_MANY_REQUESTS',
    });
    expect(await loginAnswer(user.email, TEST_PASSWORD, '198.51.100.20')).toBe('ok');
    expect(await loginAnswer(user.email, TEST_PASSWORD)).toBe('ok');
    clock.advance(FIFTEEN_MINUTES);
    expect(await loginAnswer(user.email, TEST_PASSWORD, '203.0.113.50')).toBe('ok');
  });

  it('does not count successful logins against the IP', async () => {
    const user = await createUser(t.deps.db, { role: 'business' });
    for (let i = 0; i < 22; i++) expect(await loginAnswer(user.email, TEST_PASSWORD, '192.0.2.77')).toBe('ok');
    expect(await loginAnswer('someone@example.test', 'wrong-password', '192.0.2.77')).toEqual(invalidLogin);
  });
});

describe('no lock-out by someone who knows the email (docs/decisions/0031)', () => {
  const tooManyAnswer = { code: tooMany.code, message: tooMany.message, title: undefined };

  /** Uses a fresh reset link for `email` to set `password`. */
  async function resetWithLink(email: string, password: string) {
    const anon = await callerFor(t.deps, null);
    await anon.auth.requestPasswordReset({ email });
    await resolveEmailIntents(t.deps);
    const mails = await emailsTo(t.deps.db, email, 'Reset your LastSlot password');
    await anon.auth.resetPassword({ token: linkToken(mails.at(-1)!.text, '/reset-password'), password });
  }

  it('5+ failures from one address do not stop the owner logging in from another', async () => {
    const user = await createUser(t.deps.db, { role: 'customer' });
    await failLogins(5, user.email, '203.0.113.66');
    expect(await loginAnswer(user.email, 'wrong-again', '203.0.113.66')).toEqual(tooManyAnswer);
    expect(await loginAnswer(user.email, TEST_PASSWORD, '203.0.113.66')).toEqual(tooManyAnswer);
    expect(await loginAnswer(user.email, TEST_PASSWORD, '198.51.100.66')).toBe('ok');
  });

  it('a reset link works while an address is locked out and unlocks it', async () => {
    const user = await createUser(t.deps.db, { role: 'customer' });
    await failLogins(5, user.email, '203.0.113.67');
    expect(await loginAnswer(user.email, TEST_PASSWORD, '203.0.113.67')).toEqual(tooManyAnswer);
    await resetWithLink(user.email, 'a-password-after-reset');
    expect(await loginAnswer(user.email, 'a-password-after-reset', '203.0.113.67')).toBe('ok');
  });

  it('refuses the account everywhere after 100 failures in a day from many addresses, until a reset link is used', async () => {
    const user = await createUser(t.deps.db, { role: 'business' });
    // Four addresses, each within its own allowance: every failure counts on the account.
    for (let n = 0; n < 4; n++) await failLogins(5, user.email, `192.0.2.${100 + n}`);
    const [count] = await t.deps.db
      .select()
      .from(rateLimits)
      .where(eq(rateLimits.key, `login_account:${user.email}`));
    expect(count?.points).toBe(20);
    // The rest of the day's 100, spent the same way (counted directly rather than by 80 more hashes).
    for (let i = 0; i < 80; i++) await t.deps.throttle.consume('loginAccount', user.email);
    expect(await loginAnswer(user.email, TEST_PASSWORD, '198.51.100.200')).toEqual(tooManyAnswer);
    clock.advance(2 * FIFTEEN_MINUTES);
    expect(await loginAnswer(user.email, TEST_PASSWORD, '198.51.100.201')).toEqual(tooManyAnswer);
    await resetWithLink(user.email, 'the-owner-is-back-in');
    expect(await loginAnswer(user.email, 'the-owner-is-back-in', '198.51.100.201')).toBe('ok');
  });
});

describe('email throttling (one link email per address per minute)', () => {
  it('answers a second reset request within a minute with Email Limit Reached, known or unknown address', async () => {
    const user = await createUser(t.deps.db, { role: 'customer' });
    const anon = await callerFor(t.deps, null);
    await anon.auth.requestPasswordReset({ email: user.email });
    await anon.auth.requestPasswordReset({ email: 'unknown-reset@example.test' });
    await resolveEmailIntents(t.deps);
    clock.advance(30_000);
    const known = await errorOf(anon.auth.requestPasswordReset({ email: user.email }));
    const unknown = await errorOf(anon.auth.requestPasswordReset({ email: 'unknown-reset@example.test' }));
    expect(outwardOf(known)).toEqual(emailLimit);
    expect(outwardOf(unknown)).toEqual(outwardOf(known));
    expect(await emailsTo(t.deps.db, user.email, 'Reset your LastSlot password')).toHaveLength(1);
    clock.advance(31_000);
    await expect(anon.auth.requestPasswordReset({ email: user.email })).resolves.toEqual({ email: user.email });
    await resolveEmailIntents(t.deps);
    expect(await emailsTo(t.deps.db, user.email, 'Reset your LastSlot password')).toHaveLength(2);
  });

  it('limits the confirmation resend, counting the sign-up email', async () => {
    const anon = await callerFor(t.deps, null);
    await anon.auth.registerCustomer({ name: 'Rae', email: 'rae@example.test', password: TEST_PASSWORD });
    expect(outwardOf(await errorOf(anon.auth.resendConfirmation({ email: 'rae@example.test' })))).toEqual(emailLimit);
    await expect(anon.auth.resendConfirmation({ email: 'not-rae@example.test' })).resolves.toEqual({ ok: true });
    clock.advance(61_000);
    await expect(anon.auth.resendConfirmation({ email: 'rae@example.test' })).resolves.toEqual({ ok: true });
    await resolveEmailIntents(t.deps);
    expect(await emailsTo(t.deps.db, 'rae@example.test', 'Confirm your email for LastSlot')).toHaveLength(2);
  });

  it('limits each kind of link email separately: a reset right after sign-up is sent', async () => {
    const anon = await callerFor(t.deps, null);
    await anon.auth.registerCustomer({ name: 'Kit', email: 'kit@example.test', password: TEST_PASSWORD });
    await expect(anon.auth.requestPasswordReset({ email: 'kit@example.test' })).resolves.toEqual({
      email: 'kit@example.test',
    });
    await resolveEmailIntents(t.deps);
    expect(await emailsTo(t.deps.db, 'kit@example.test', 'Reset your LastSlot password')).toHaveLength(1);
    expect(outwardOf(await errorOf(anon.auth.resendConfirmation({ email: 'kit@example.test' })))).toEqual(emailLimit);
  });

  it('lets a throttled sign-up succeed without its email, saying so, the same for a registered address', async () => {
    const anon = await callerFor(t.deps, null);
    const existing = await createUser(t.deps.db, { role: 'customer' });
    // A resend counts on the confirmation limit of an address, registered or not.
    await anon.auth.resendConfirmation({ email: 'sol@example.test' });
    await anon.auth.resendConfirmation({ email: existing.email });
    await resolveEmailIntents(t.deps);
    const before = (await t.deps.db.select().from(emailOutbox)).length;
    const fresh = await anon.auth.registerCustomer({ name: 'Sol', email: 'sol@example.test', password: TEST_PASSWORD });
    const taken = await anon.auth.registerCustomer({ name: 'Sol', email: existing.email, password: TEST_PASSWORD });
    expect(fresh).toEqual({ email: 'sol@example.test', emailThrottled: true });
    expect(taken).toEqual({ email: existing.email, emailThrottled: true });
    expect((await t.deps.db.select().from(emailOutbox)).length).toBe(before);
    const [sol] = await t.deps.db.select().from(users).where(eq(users.email, 'sol@example.test'));
    expect(sol).toMatchObject({ role: 'customer', emailVerifiedAt: null });
    expect(await t.deps.db.select().from(customerProfiles).where(eq(customerProfiles.id, sol!.id))).toHaveLength(1);
    expect(await t.deps.db.select().from(oneTimeTokens).where(eq(oneTimeTokens.userId, sol!.id))).toEqual([]);
    clock.advance(61_000);
    await anon.auth.resendConfirmation({ email: 'sol@example.test' });
    await resolveEmailIntents(t.deps);
    expect(await emailsTo(t.deps.db, 'sol@example.test', 'Confirm your email for LastSlot')).toHaveLength(1);
  });
});

describe('no account enumeration', () => {
  it('answers sign-up, reset request and login the same for registered and unknown emails', async () => {
    const user = await createUser(t.deps.db, { role: 'customer' });
    const anon = await callerFor(t.deps, null);
    const signUp = (email: string) => anon.auth.registerCustomer({ name: 'Eve', email, password: TEST_PASSWORD });
    expect(await signUp(user.email)).toEqual({ ...(await signUp('brand-new@example.test')), email: user.email });
    clock.advance(61_000);
    const knownReset = await anon.auth.requestPasswordReset({ email: user.email });
    const unknownReset = await anon.auth.requestPasswordReset({ email: 'no-account@example.test' });
    await resolveEmailIntents(t.deps);
    expect(knownReset).toEqual({ email: user.email });
    expect(unknownReset).toEqual({ email: 'no-account@example.test' });
    expect(await emailsTo(t.deps.db, 'no-account@example.test')).toEqual([]);
    expect(await loginAnswer(user.email, 'wrong-password')).toEqual(
      await loginAnswer('no-account@example.test', 'wrong-password'),
    );
  });
});
