/**
 * Email change from settings (the link goes to /auth-redirect), docs/decisions/0009: request, the link to the new address, notices to both addresses,
 * enumeration safety, expiry and reuse, refusals.
 */
import { and, eq, isNull } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { businessProfiles, customerProfiles, oneTimeTokens, users } from '../../server/db/schema/index';
import { issueOneTimeToken } from '../../server/features/auth/one-time-tokens';
import { MSG } from '../../shared/messages';
import {
  callerFor,
  callerForToken,
  createBusiness,
  createUser,
  lastSetToken,
  recordingCookies,
  TEST_PASSWORD,
} from '../factories/index';
import { emailsTo, errorOf, linkToken, outwardOf, resolveEmailIntents } from '../setup/helpers';
import { useTestDeps } from '../setup/test-database';

const t = useTestDeps(new Date('2026-11-21T10:00:00Z'), { fakeDate: true });
const clock = t.clock;
const DAY = 24 * 60 * 60 * 1000;
const LINK_SUBJECT = 'Confirm your new email for LastSlot';
const REQUESTED_SUBJECT = 'Your LastSlot email change was requested';
const IN_USE_SUBJECT = 'Someone tried to use your email for another LastSlot account';

let counter = 0;
const freshAddress = () => `moved-${++counter}-${Date.now()}@example.test`;

/** Requests a change of `userId`'s email to `newEmail` and returns the emailed link's token. */
async function requestChange(userId: string, newEmail: string): Promise<string> {
  const caller = await callerFor(t.deps, userId);
  await expect(caller.auth.requestEmailChange({ newEmail, currentPassword: TEST_PASSWORD })).resolves.toEqual({
    newEmail,
  });
  const [link] = await emailsTo(t.deps.db, newEmail, LINK_SUBJECT).then((m) => m.slice(-1));
  expect(link).toBeDefined();
  return linkToken(link!.text);
}

async function loginAnswer(email: string) {
  return (await callerFor(t.deps, null)).auth.login({ email, password: TEST_PASSWORD }).then(
    () => 'ok',
    (err: unknown) => (err as { code: string }).code,
  );
}

describe('auth.requestEmailChange', () => {
  it('refuses visitors and accounts whose email is not confirmed', async () => {
    const anon = await callerFor(t.deps, null);
    const input = { newEmail: freshAddress(), currentPassword: TEST_PASSWORD };
    expect((await errorOf(anon.auth.requestEmailChange(input))).code).toBe('UNAUTHORIZED');
    const unverified = await createUser(t.deps.db, { role: 'customer', verified: false });
    const refused = await errorOf((await callerFor(t.deps, unverified.id)).auth.requestEmailChange(input));
    expect([refused.code, refused.message]).toEqual(['FORBIDDEN', MSG.emailNotConfirmed]);
    expect(await emailsTo(t.deps.db, input.newEmail)).toEqual([]);
  });

  it('emails a 24-hour link to the new address and a notice to the current one, changing nothing yet', async () => {
    const user = await createUser(t.deps.db, { role: 'customer' });
    const newEmail = freshAddress();
    const token = await requestChange(user.id, newEmail);
    const [link] = await emailsTo(t.deps.db, newEmail);
    expect(link!.html).toContain(`http://localhost:3000/auth-redirect?token=${token}`);
    const [notice] = await emailsTo(t.deps.db, user.email, REQUESTED_SUBJECT);
    expect(notice!.text).toContain(newEmail);
    expect(await loginAnswer(user.email)).toBe('ok');
    const [row] = await t.deps.db
      .select()
      .from(oneTimeTokens)
      .where(and(eq(oneTimeTokens.userId, user.id), eq(oneTimeTokens.purpose, 'email_change')));
    expect(row).toMatchObject({ newEmail, usedAt: null, expiresAt: new Date(clock.now().getTime() + DAY) });
  });

  it('refuses the current address on its field (whatever its case) and a wrong current password', async () => {
    const user = await createUser(t.deps.db, { role: 'business' });
    const caller = await callerFor(t.deps, user.id);
    const same = await errorOf(
      caller.auth.requestEmailChange({ newEmail: user.email.toUpperCase(), currentPassword: TEST_PASSWORD }),
    );
    expect(outwardOf(same)).toEqual({
      code: 'BAD_REQUEST',
      message: MSG.sameEmail,
      title: undefined,
      field: 'newEmail',
    });
    const newEmail = freshAddress();
    const wrong = await errorOf(caller.auth.requestEmailChange({ newEmail, currentPassword: 'wrong-password' }));
    expect(outwardOf(wrong)).toEqual({
      code: 'BAD_REQUEST',
      message: MSG.currentPasswordWrong,
      title: undefined,
      field: 'currentPassword',
    });
    expect(await emailsTo(t.deps.db, newEmail)).toEqual([]);
    expect((await errorOf(caller.auth.requestEmailChange({ newEmail: '', currentPassword: 'x' }))).message).toBe(
      MSG.newEmailRequired,
    );
  });

  it('counts wrong current passwords on the login limiter', async () => {
    const user = await createUser(t.deps.db, { role: 'customer' });
    const caller = await callerFor(t.deps, user.id);
    const newEmail = freshAddress();
    for (let i = 0; i < 5; i++) {
      await errorOf(caller.auth.requestEmailChange({ newEmail, currentPassword: `wrong-${i}` }));
    }
    const refused = await errorOf(caller.auth.requestEmailChange({ newEmail, currentPassword: TEST_PASSWORD }));
    expect([refused.code, refused.message]).toEqual(['TOO_MANY_REQUESTS', MSG.tooManyAttempts]);
    expect(await emailsTo(t.deps.db, newEmail)).toEqual([]);
  });

  it('answers the same for an address with an account, emailing it a notice instead of a link', async () => {
    const user = await createUser(t.deps.db, { role: 'customer' });
    const other = await createUser(t.deps.db, { role: 'business' });
    const caller = await callerFor(t.deps, user.id);
    const free = freshAddress();
    const toFree = await caller.auth.requestEmailChange({ newEmail: free, currentPassword: TEST_PASSWORD });
    clock.advance(61_000);
    const toTaken = await caller.auth.requestEmailChange({ newEmail: other.email, currentPassword: TEST_PASSWORD });
    expect(toTaken).toEqual({ ...toFree, newEmail: other.email });
    const toOther = await emailsTo(t.deps.db, other.email);
    expect(toOther.map((m) => m.subject)).toEqual([IN_USE_SUBJECT]);
    expect(toOther[0]!.text).not.toMatch(/token=/);
    const notices = await emailsTo(t.deps.db, user.email, REQUESTED_SUBJECT);
    expect(notices).toHaveLength(2);
    // No live link to the taken address; the link to the free one was voided by the newer request.
    const live = await t.deps.db
      .select()
      .from(oneTimeTokens)
      .where(
        and(eq(oneTimeTokens.userId, user.id), eq(oneTimeTokens.purpose, 'email_change'), isNull(oneTimeTokens.usedAt)),
      );
    expect(live).toEqual([]);
  });

  it('sends at most one email a minute to the new address', async () => {
    const user = await createUser(t.deps.db, { role: 'customer' });
    const caller = await callerFor(t.deps, user.id);
    const newEmail = freshAddress();
    await caller.auth.requestEmailChange({ newEmail, currentPassword: TEST_PASSWORD });
    const limited = await errorOf(caller.auth.requestEmailChange({ newEmail, currentPassword: TEST_PASSWORD }));
    expect(outwardOf(limited)).toEqual({
      code: 'TOO_MANY_REQUESTS',
      message: MSG.emailLimitWait,
      title: MSG.emailLimitTitle,
      field: undefined,
    });
    clock.advance(61_000);
    await caller.auth.requestEmailChange({ newEmail, currentPassword: TEST_PASSWORD });
    expect(await emailsTo(t.deps.db, newEmail, LINK_SUBJECT)).toHaveLength(2);
  });
});

describe('auth.confirmEmail with an email change link', () => {
  it('moves a business to the new address (login, profile email), notifies the old one, keeps the session', async () => {
    const { user } = await createBusiness(t.deps.db);
    const newEmail = freshAddress();
    const token = await requestChange(user.id, newEmail);
    const login = recordingCookies();
    await (await callerFor(t.deps, null, login.writer)).auth.login({ email: user.email, password: TEST_PASSWORD });
    const sessionToken = lastSetToken(login.calls);
    const cookies = recordingCookies();
    const caller = await callerForToken(t.deps, sessionToken, cookies.writer);
    await expect(caller.auth.confirmEmail({ token })).resolves.toEqual({ kind: 'email_change', signedIn: true });
    expect(cookies.calls).toEqual([]);
    const [row] = await t.deps.db.select().from(users).where(eq(users.id, user.id));
    expect(row!.email).toBe(newEmail);
    const [profile] = await t.deps.db.select().from(businessProfiles).where(eq(businessProfiles.id, user.id));
    expect(profile!.emailAddress).toBe(newEmail);
    expect(await loginAnswer(user.email)).toBe('UNAUTHORIZED');
    expect(await loginAnswer(newEmail)).toBe('ok');
    expect((await (await callerForToken(t.deps, sessionToken)).auth.me()).user?.email).toBe(newEmail);
    const notices = await emailsTo(t.deps.db, user.email, `Your LastSlot email was changed to ${newEmail}`);
    expect(notices).toHaveLength(1);
  });

  it.each([
    ['that differs from its login', `bookings@salon.example.test`],
    ['none (no email shown, ADR 0096)', null],
  ])("keeps a business's public contact email %s", async (_label, contact) => {
    const { user } = await createBusiness(t.deps.db);
    await t.deps.db.update(businessProfiles).set({ emailAddress: contact }).where(eq(businessProfiles.id, user.id));
    const newEmail = freshAddress();
    await (await callerFor(t.deps, null)).auth.confirmEmail({ token: await requestChange(user.id, newEmail) });
    const [row] = await t.deps.db.select().from(users).where(eq(users.id, user.id));
    expect(row!.email).toBe(newEmail);
    const [profile] = await t.deps.db.select().from(businessProfiles).where(eq(businessProfiles.id, user.id));
    expect(profile!.emailAddress).toBe(contact);
  });

  it('moves a customer (profile email too) and tells a caller signed out or signed in as someone else', async () => {
    const customer = await createUser(t.deps.db, { role: 'customer' });
    const newEmail = freshAddress();
    const token = await requestChange(customer.id, newEmail);
    const stranger = await createUser(t.deps.db, { role: 'customer' });
    const anonToken = await requestChange(stranger.id, freshAddress());
    await expect((await callerFor(t.deps, stranger.id)).auth.confirmEmail({ token })).resolves.toEqual({
      kind: 'email_change',
      signedIn: false,
    });
    const [profile] = await t.deps.db.select().from(customerProfiles).where(eq(customerProfiles.id, customer.id));
    expect(profile!.email).toBe(newEmail);
    await expect((await callerFor(t.deps, null)).auth.confirmEmail({ token: anonToken })).resolves.toEqual({
      kind: 'email_change',
      signedIn: false,
    });
  });

  it('uses a link once, refuses it after 24 hours, and voids an older link on a new request', async () => {
    const user = await createUser(t.deps.db, { role: 'customer' });
    const first = await requestChange(user.id, freshAddress());
    clock.advance(61_000);
    const secondAddress = freshAddress();
    const second = await requestChange(user.id, secondAddress);
    const anon = await callerFor(t.deps, null);
    const failed = { code: 'BAD_REQUEST', message: MSG.confirmationFailed, title: MSG.confirmationFailedTitle };
    expect(outwardOf(await errorOf(anon.auth.confirmEmail({ token: first })))).toMatchObject(failed);
    clock.advance(DAY);
    expect(outwardOf(await errorOf(anon.auth.confirmEmail({ token: second })))).toMatchObject(failed);
    const [row] = await t.deps.db.select().from(users).where(eq(users.id, user.id));
    expect(row!.email).toBe(user.email);

    clock.advance(61_000);
    const third = await requestChange(user.id, secondAddress);
    await anon.auth.confirmEmail({ token: third });
    expect(outwardOf(await errorOf(anon.auth.confirmEmail({ token: third })))).toMatchObject(failed);
  });

  it('answers CONFLICT when the new address was taken meanwhile, changing nothing', async () => {
    const user = await createUser(t.deps.db, { role: 'customer' });
    const newEmail = freshAddress();
    const token = await requestChange(user.id, newEmail);
    await createUser(t.deps.db, { role: 'business', email: newEmail });
    const err = await errorOf((await callerFor(t.deps, user.id)).auth.confirmEmail({ token }));
    expect([err.code, err.message]).toEqual(['CONFLICT', MSG.emailInUse]);
    const [row] = await t.deps.db.select().from(users).where(eq(users.id, user.id));
    expect(row!.email).toBe(user.email);
    expect(await loginAnswer(user.email)).toBe('ok');
  });

  it('refuses a password reset token', async () => {
    const user = await createUser(t.deps.db, { role: 'customer' });
    const token = await issueOneTimeToken(t.deps.db, { userId: user.id, purpose: 'password_reset', now: clock.now() });
    const err = await errorOf((await callerFor(t.deps, null)).auth.confirmEmail({ token }));
    expect([err.code, err.message]).toEqual(['BAD_REQUEST', MSG.confirmationFailed]);
    await expect((await callerFor(t.deps, null)).auth.checkResetToken({ token })).resolves.toEqual({
      status: 'valid',
    });
  });

  it('stops working after a password change or reset', async () => {
    const anon = await callerFor(t.deps, null);
    const changer = await createUser(t.deps.db, { role: 'customer' });
    const afterChange = await requestChange(changer.id, freshAddress());
    await (
      await callerFor(t.deps, changer.id)
    ).auth.changePassword({
      currentPassword: TEST_PASSWORD,
      newPassword: 'a-brand-new-password',
    });
    expect((await errorOf(anon.auth.confirmEmail({ token: afterChange }))).message).toBe(MSG.confirmationFailed);

    const resetter = await createUser(t.deps.db, { role: 'business' });
    const afterReset = await requestChange(resetter.id, freshAddress());
    await anon.auth.requestPasswordReset({ email: resetter.email });
    await resolveEmailIntents(t.deps);
    const [resetMail] = await emailsTo(t.deps.db, resetter.email, 'Reset your LastSlot password');
    await anon.auth.resetPassword({
      token: linkToken(resetMail!.text, '/reset-password'),
      password: 'another-password',
    });
    expect((await errorOf(anon.auth.confirmEmail({ token: afterReset }))).message).toBe(MSG.confirmationFailed);
  });
});
