/**
 * Accounts edge cases (docs/decisions/0004, 0010):
 * the role carried by a login refused for an unconfirmed email, sessions kept on a failed login and
 * replaced on a successful one or on confirmation, the 128-character password limit and
 * untrimmed passwords on every path, business sign-up refusals, and resend answers.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../server/core/errors';
import { users } from '../../server/db/schema/index';
import { MSG } from '../../shared/messages';
import {
  businessSignUp,
  callerFor,
  callerForToken,
  createUser,
  lastSetToken,
  recordingCookies,
  TEST_PASSWORD,
} from '../factories/index';
import { emailsTo, errorOf, latestEmailTo, linkToken, resolveEmailIntents } from '../setup/helpers';
import { useTestDeps } from '../setup/test-database';

const t = useTestDeps(new Date('2026-11-21T10:00:00Z'), { fakeDate: true });
const clock = t.clock;

const P128 = 'p'.repeat(120) + '-1234567';
const P129 = P128 + 'x';
const SPACED = '  spaced password  ';

const businessInput = businessSignUp;

function detailsOf(err: { cause?: unknown }) {
  return err.cause instanceof DomainError ? err.cause.options.details : undefined;
}

async function stillSignedIn(token: string): Promise<boolean> {
  return callerForToken(t.deps, token).then(
    () => true,
    () => false,
  );
}

/** A caller signed in as `userId` (a real session row) whose cookie writes are recorded. */
async function signedIn(userId: string) {
  const cookies = recordingCookies();
  return { caller: await callerFor(t.deps, userId, cookies.writer), cookies };
}

/** Confirms `email` with the link of its newest email; returns the new session token. */
async function confirmLatest(email: string): Promise<string> {
  const mail = await latestEmailTo(t.deps.db, email);
  const cookies = recordingCookies();
  await (await callerFor(t.deps, null, cookies.writer)).auth.confirmEmail({ token: linkToken(mail!.text) });
  return lastSetToken(cookies.calls);
}

describe('login refused for an unconfirmed email', () => {
  it('tells the role only to a caller who gave the right password', async () => {
    const business = await createUser(t.deps.db, { role: 'business', verified: false });
    const customer = await createUser(t.deps.db, { role: 'customer', verified: false });
    const anon = await callerFor(t.deps, null);

    const biz = await errorOf(anon.auth.login({ email: business.email, password: TEST_PASSWORD }));
    expect([biz.code, biz.message, detailsOf(biz)]).toEqual([
      'FORBIDDEN',
      MSG.emailNotConfirmedLogin,
      { role: 'business' },
    ]);
    const cust = await errorOf(anon.auth.login({ email: customer.email, password: TEST_PASSWORD }));
    expect([cust.code, cust.message, detailsOf(cust)]).toEqual([
      'FORBIDDEN',
      MSG.emailNotConfirmedLogin,
      { role: 'customer' },
    ]);

    const wrong = await errorOf(anon.auth.login({ email: business.email, password: 'not-the-password' }));
    expect([wrong.code, wrong.message, detailsOf(wrong)]).toEqual(['UNAUTHORIZED', MSG.loginInvalid, undefined]);
  });
});

describe('sessions around login and confirmation', () => {
  it('keeps the caller signed in when a login fails, and replaces the session when one succeeds', async () => {
    const me = await createUser(t.deps.db, { role: 'customer' });
    const other = await createUser(t.deps.db, { role: 'business' });
    const unconfirmed = await createUser(t.deps.db, { role: 'customer', verified: false });
    const loginCookies = recordingCookies();
    await (await callerFor(t.deps, null, loginCookies.writer)).auth.login({ email: me.email, password: TEST_PASSWORD });
    const token = lastSetToken(loginCookies.calls);
    const cookies = recordingCookies();
    const caller = await callerForToken(t.deps, token, cookies.writer);

    await errorOf(caller.auth.login({ email: other.email, password: 'wrong-password' }));
    await errorOf(caller.auth.login({ email: unconfirmed.email, password: TEST_PASSWORD }));
    await errorOf(caller.auth.login({ email: 'nobody@example.test', password: TEST_PASSWORD }));
    expect(cookies.calls).toEqual([]);
    expect(await stillSignedIn(token)).toBe(true);

    await caller.auth.login({ email: other.email, password: TEST_PASSWORD });
    expect(await stillSignedIn(token)).toBe(false);
    const fresh = lastSetToken(cookies.calls);
    expect(fresh).not.toBe(token);
    expect((await (await callerForToken(t.deps, fresh)).auth.me()).user?.id).toBe(other.id);
  });

  it('ends the caller session when a confirmation link opens a new one', async () => {
    const me = await createUser(t.deps.db, { role: 'business' });
    const loginCookies = recordingCookies();
    await (await callerFor(t.deps, null, loginCookies.writer)).auth.login({ email: me.email, password: TEST_PASSWORD });
    const token = lastSetToken(loginCookies.calls);
    const cookies = recordingCookies();
    const caller = await callerForToken(t.deps, token, cookies.writer);

    const anon = await callerFor(t.deps, null);
    await anon.auth.registerCustomer({ name: 'Nia', email: 'nia@example.test', password: TEST_PASSWORD });
    const mail = await latestEmailTo(t.deps.db, 'nia@example.test');
    await expect(caller.auth.confirmEmail({ token: linkToken(mail!.text) })).resolves.toEqual({
      kind: 'email_confirmation',
    });
    expect(await stillSignedIn(token)).toBe(false);
    const me2 = await (await callerForToken(t.deps, lastSetToken(cookies.calls))).auth.me();
    expect(me2.user?.email).toBe('nia@example.test');
  });

  it('keeps the caller session when the confirmation link is refused', async () => {
    const me = await createUser(t.deps.db, { role: 'customer' });
    const { caller, cookies } = await signedIn(me.id);
    expect((await errorOf(caller.auth.confirmEmail({ token: 'unknown-token' }))).message).toBe(MSG.confirmationFailed);
    expect(cookies.calls).toEqual([]);
    expect((await caller.auth.me()).user?.id).toBe(me.id);
  });
});

describe('passwords: at most 128 characters, never trimmed', () => {
  it('sign-up accepts 128, refuses 129, and keeps leading and trailing spaces for login', async () => {
    const anon = await callerFor(t.deps, null);
    const long = await errorOf(anon.auth.registerCustomer({ name: 'Lou', email: 'lou@example.test', password: P129 }));
    expect([long.code, long.message]).toEqual(['BAD_REQUEST', MSG.passwordMax]);
    const longBiz = await errorOf(anon.auth.registerBusiness(businessInput('lob@example.test', { password: P129 })));
    expect(longBiz.message).toBe(MSG.passwordMax);
    expect(await t.deps.db.select().from(users).where(eq(users.email, 'lou@example.test'))).toHaveLength(0);

    await anon.auth.registerCustomer({ name: 'Lou', email: 'lou@example.test', password: P128 });
    await anon.auth.registerBusiness(businessInput('sam@example.test', { password: SPACED }));
    await confirmLatest('lou@example.test');
    await confirmLatest('sam@example.test');

    await expect(anon.auth.login({ email: 'lou@example.test', password: P128 })).resolves.toEqual({ ok: true });
    await expect(anon.auth.login({ email: 'sam@example.test', password: SPACED })).resolves.toEqual({ ok: true });
    for (const trimmed of [SPACED.trim(), SPACED.trimStart(), SPACED.trimEnd()]) {
      expect((await errorOf(anon.auth.login({ email: 'sam@example.test', password: trimmed }))).code).toBe(
        'UNAUTHORIZED',
      );
    }
  });

  it('reset accepts 128, refuses 129, and keeps spaces', async () => {
    const user = await createUser(t.deps.db, { role: 'customer' });
    const anon = await callerFor(t.deps, null);
    await anon.auth.requestPasswordReset({ email: user.email });
    await resolveEmailIntents(t.deps);
    const token = linkToken((await latestEmailTo(t.deps.db, user.email))!.text, '/reset-password');
    expect((await errorOf(anon.auth.resetPassword({ token, password: P129 }))).message).toBe(MSG.passwordMax);
    await anon.auth.resetPassword({ token, password: SPACED });
    expect((await errorOf(anon.auth.login({ email: user.email, password: SPACED.trim() }))).code).toBe('UNAUTHORIZED');
    await expect(anon.auth.login({ email: user.email, password: SPACED })).resolves.toEqual({ ok: true });

    clock.advance(61_000);
    await anon.auth.requestPasswordReset({ email: user.email });
    await resolveEmailIntents(t.deps);
    const second = linkToken((await latestEmailTo(t.deps.db, user.email))!.text, '/reset-password');
    await anon.auth.resetPassword({ token: second, password: P128 });
    await expect(anon.auth.login({ email: user.email, password: P128 })).resolves.toEqual({ ok: true });
  });

  it('change accepts 128, refuses 129, and keeps spaces', async () => {
    const user = await createUser(t.deps.db, { role: 'business' });
    const { caller } = await signedIn(user.id);
    const long = await errorOf(caller.auth.changePassword({ currentPassword: TEST_PASSWORD, newPassword: P129 }));
    expect([long.code, long.message]).toEqual(['BAD_REQUEST', MSG.passwordMax]);
    await caller.auth.changePassword({ currentPassword: TEST_PASSWORD, newPassword: SPACED });
    const anon = await callerFor(t.deps, null);
    expect((await errorOf(anon.auth.login({ email: user.email, password: SPACED.trim() }))).code).toBe('UNAUTHORIZED');
    const cookies = recordingCookies();
    await (await callerFor(t.deps, null, cookies.writer)).auth.login({ email: user.email, password: SPACED });
    const again = await callerForToken(t.deps, lastSetToken(cookies.calls));
    await again.auth.changePassword({ currentPassword: SPACED, newPassword: P128 });
    await expect(anon.auth.login({ email: user.email, password: P128 })).resolves.toEqual({ ok: true });
  });
});

describe('business sign-up refusals', () => {
  const cases: Array<[string, Record<string, unknown>, string]> = [
    ['a description over 300 characters', { description: 'd'.repeat(301) }, MSG.descriptionMax],
    ['an empty description', { description: '   ' }, MSG.descriptionRequired],
    ['a slug with other characters', { slug: 'bea_cuts!' }, MSG.usernameChars],
    ['a slug with a space', { slug: 'bea cuts' }, MSG.usernameChars],
    ['a slug under 3 characters', { slug: 'ab' }, MSG.usernameMin],
    ['a slug of 30 characters', { slug: 'a'.repeat(30) }, MSG.usernameMax],
    ['an empty slug', { slug: '' }, MSG.usernameRequired],
    ['an unknown category', { category: 'Dog Grooming' }, MSG.categoryRequired],
    ['an empty category', { category: '' }, MSG.categoryRequired],
    ['a missing address', { address: undefined }, MSG.addressRequired],
    ['a blank address', { address: '  ' }, MSG.addressRequired],
    ['a missing business name', { businessName: undefined }, MSG.businessNameRequired],
  ];

  it.each(cases)('refuses %s with its text and creates nothing', async (_label, overrides, message) => {
    const email = `refused-${Math.random().toString(36).slice(2, 8)}@example.test`;
    const err = await errorOf(
      (await callerFor(t.deps, null)).auth.registerBusiness(
        businessInput(email, overrides) as Parameters<
          Awaited<ReturnType<typeof callerFor>>['auth']['registerBusiness']
        >[0],
      ),
    );
    expect([err.code, err.message]).toEqual(['BAD_REQUEST', message]);
    expect(await t.deps.db.select().from(users).where(eq(users.email, email))).toHaveLength(0);
    expect(await emailsTo(t.deps.db, email)).toHaveLength(0);
  });

  it('accepts a 29-character slug, lower-cased, and a 300-character description', async () => {
    const slug = 'Abc-' + 'd'.repeat(25);
    await (
      await callerFor(t.deps, null)
    ).auth.registerBusiness(businessInput('edge@example.test', { slug, description: 'x'.repeat(300) }));
    const [user] = await t.deps.db.select().from(users).where(eq(users.email, 'edge@example.test'));
    expect(user?.role).toBe('business');
    expect(await (await callerFor(t.deps, null)).auth.checkSlug({ slug: slug.toLowerCase() })).toEqual({
      available: false,
    });
  });
});

describe('resendConfirmation', () => {
  it('answers an already confirmed address exactly like an unknown one, emailing neither', async () => {
    const confirmed = await createUser(t.deps.db, { role: 'customer' });
    const anon = await callerFor(t.deps, null);
    const forConfirmed = await anon.auth.resendConfirmation({ email: confirmed.email });
    const forUnknown = await anon.auth.resendConfirmation({ email: 'nobody-here@example.test' });
    await resolveEmailIntents(t.deps);
    expect(forConfirmed).toEqual(forUnknown);
    expect(await emailsTo(t.deps.db, confirmed.email)).toHaveLength(0);
    expect(await emailsTo(t.deps.db, 'nobody-here@example.test')).toHaveLength(0);
    // Within the minute both are throttled alike too.
    const a = await errorOf(anon.auth.resendConfirmation({ email: confirmed.email }));
    const b = await errorOf(anon.auth.resendConfirmation({ email: 'nobody-here@example.test' }));
    expect([a.code, a.message]).toEqual([b.code, b.message]);
  });
});
