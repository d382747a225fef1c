/**
 * Auth procedures needed by the booking loop: sign-up of both roles, the emailed
 * confirmation link, login and logout with cookie sessions.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { businessProfiles, sessions, users } from '../../server/db/schema/index';
import { MSG } from '../../shared/messages';
import {
  businessSignUp,
  callerFor,
  callerForToken,
  createBusiness,
  recordingCookies,
  TEST_PASSWORD,
} from '../factories/index';
import { errorOf, latestEmailTo as latestEmailIn, linkToken as tokenFrom, resolveEmailIntents } from '../setup/helpers';
import { useTestDeps } from '../setup/test-database';

const t = useTestDeps(new Date('2026-11-21T10:00:00Z'), { fakeDate: true });
const clock = t.clock;
const latestEmailTo = (address: string) => latestEmailIn(t.deps.db, address);

const businessInput = (email: string, slug: string) => businessSignUp(email, { slug });

describe('customer sign-up and confirmation', () => {
  it('creates an unconfirmed account, emails a link that signs the user in once', async () => {
    const anon = await callerFor(t.deps, null);
    await expect(
      anon.auth.registerCustomer({ name: 'Cara', email: '  Cara@Example.TEST ', password: TEST_PASSWORD }),
    ).resolves.toEqual({ email: 'cara@example.test', emailThrottled: false });
    const [user] = await t.deps.db.select().from(users).where(eq(users.email, 'cara@example.test'));
    expect(user).toMatchObject({ role: 'customer', emailVerifiedAt: null });
    expect(user!.passwordHash).toMatch(/^\$argon2id\$/);

    await expect(anon.auth.login({ email: 'cara@example.test', password: TEST_PASSWORD })).rejects.toThrow(
      MSG.emailNotConfirmedLogin,
    );

    const mail = await latestEmailTo('cara@example.test');
    expect(mail?.subject).toBe('Confirm your email for LastSlot');
    const token = tokenFrom(mail!.text);
    expect(mail!.html).toContain(`http://localhost:3000/auth-redirect?token=${token}`);

    const cookies = recordingCookies();
    const confirmCaller = await callerFor(t.deps, null, cookies.writer);
    await expect(confirmCaller.auth.confirmEmail({ token })).resolves.toEqual({ kind: 'email_confirmation' });
    const set = cookies.calls[0];
    expect(set?.kind).toBe('set');
    const me = await (await callerForToken(t.deps, (set as { token: string }).token)).auth.me();
    expect(me).toMatchObject({
      authState: 'authenticated',
      user: { email: 'cara@example.test', role: 'customer', isVerified: true, name: 'Cara' },
    });

    const reuse = await errorOf(confirmCaller.auth.confirmEmail({ token }));
    expect(reuse.message).toBe(MSG.confirmationFailed);
  });

  it('answers a sign-up with a registered email like a new one and emails the owner instead', async () => {
    const anon = await callerFor(t.deps, null);
    await anon.auth.registerCustomer({ name: 'Dee', email: 'dee@example.test', password: TEST_PASSWORD });
    clock.advance(61_000);
    await expect(
      anon.auth.registerCustomer({ name: 'Mallory', email: 'dee@example.test', password: 'another-password' }),
    ).resolves.toEqual({ email: 'dee@example.test', emailThrottled: false });
    expect(await t.deps.db.select().from(users).where(eq(users.email, 'dee@example.test'))).toHaveLength(1);
    expect((await latestEmailTo('dee@example.test'))?.subject).toBe('Someone tried to sign up with your email');
  });

  it("rejects bad input with the fields' messages and stores nothing", async () => {
    const anon = await callerFor(t.deps, null);
    expect(
      (await errorOf(anon.auth.registerCustomer({ name: ' ', email: 'x@example.test', password: TEST_PASSWORD })))
        .message,
    ).toBe(MSG.fullNameRequired);
    expect(
      (await errorOf(anon.auth.registerCustomer({ name: 'X', email: 'not-an-email', password: TEST_PASSWORD })))
        .message,
    ).toBe(MSG.validEmail);
    expect(
      (await errorOf(anon.auth.registerCustomer({ name: 'X', email: 'x@example.test', password: 'short' }))).message,
    ).toBe(MSG.passwordMin);
    expect(await t.deps.db.select().from(users).where(eq(users.email, 'x@example.test'))).toEqual([]);
  });

  it('expired confirmation links fail and a resent link voids the older one', async () => {
    const anon = await callerFor(t.deps, null);
    await anon.auth.registerCustomer({ name: 'Eve', email: 'eve@example.test', password: TEST_PASSWORD });
    const first = tokenFrom((await latestEmailTo('eve@example.test'))!.text);
    clock.advance(60_000);
    await anon.auth.resendConfirmation({ email: 'eve@example.test' });
    await resolveEmailIntents(t.deps);
    const second = tokenFrom((await latestEmailTo('eve@example.test'))!.text);
    expect(second).not.toBe(first);
    expect((await errorOf(anon.auth.confirmEmail({ token: first }))).message).toBe(MSG.confirmationFailed);
    clock.advance(24 * 60 * 60 * 1000 + 1);
    try {
      expect((await errorOf(anon.auth.confirmEmail({ token: second }))).code).toBe('BAD_REQUEST');
    } finally {
      clock.set(new Date('2026-11-21T10:00:00Z'));
    }
    const [user] = await t.deps.db.select().from(users).where(eq(users.email, 'eve@example.test'));
    expect(user?.emailVerifiedAt).toBeNull();
  });
});

describe('business sign-up', () => {
  it('creates the account and its profile with the opening hours of the active days', async () => {
    const anon = await callerFor(t.deps, null);
    await anon.auth.registerBusiness(businessInput('bea@example.test', 'bea-cuts'));
    const [profile] = await t.deps.db.select().from(businessProfiles).where(eq(businessProfiles.slug, 'bea-cuts'));
    expect(profile).toMatchObject({
      businessName: 'Bea Cuts',
      businessType: 'Barber Shop',
      phoneNumber: null,
      timezone: 'Europe/London',
      openingHours: {
        monday: { open: '09:00', close: '17:00' },
        friday: { open: '09:00', close: '17:00' },
      },
    });
    expect(profile!.openingHours.saturday).toBeUndefined();
    expect((await anon.auth.checkSlug({ slug: 'bea-cuts' })).available).toBe(false);
    expect((await anon.auth.checkSlug({ slug: 'free-slug' })).available).toBe(true);
    expect((await anon.auth.checkSlug({ slug: 'dashboard' })).available).toBe(false);
  });

  it('shows the sign-in email on the public page unless another or none is chosen (ADR 0096)', async () => {
    const anon = await callerFor(t.deps, null);
    const contactOf = async (slug: string) => {
      const [row] = await t.deps.db.select().from(businessProfiles).where(eq(businessProfiles.slug, slug));
      return row?.emailAddress;
    };
    await anon.auth.registerBusiness(businessInput('Dora@Example.test', 'dee-default'));
    expect(await contactOf('dee-default')).toBe('dora@example.test');
    await anon.auth.registerBusiness(
      businessSignUp('owner@example.test', { slug: 'dee-chosen', contactEmail: ' Hello@Dee-Cuts.test ' }),
    );
    expect(await contactOf('dee-chosen')).toBe('hello@dee-cuts.test');
    await anon.auth.registerBusiness(businessSignUp('private@example.test', { slug: 'dee-none', contactEmail: null }));
    expect(await contactOf('dee-none')).toBeNull();
    await anon.auth.registerBusiness(businessSignUp('blank@example.test', { slug: 'dee-blank', contactEmail: '' }));
    expect(await contactOf('dee-blank')).toBeNull();
    // The public page shows what was chosen, once the account is confirmed (ADR 0117).
    for (const email of ['owner@example.test', 'private@example.test'])
      await anon.auth.confirmEmail({ token: tokenFrom((await latestEmailTo(email))!.text) });
    expect((await anon.businesses.bySlug({ slug: 'dee-chosen' })).business.emailAddress).toBe('hello@dee-cuts.test');
    expect((await anon.businesses.bySlug({ slug: 'dee-none' })).business.emailAddress).toBeNull();
  });

  it('refuses a public contact email the settings would refuse, creating nothing', async () => {
    const anon = await callerFor(t.deps, null);
    for (const [contactEmail, message] of [
      ['not-an-email', MSG.validEmail],
      ['hello\u001b@dee.test', MSG.textControlCharacters],
      ['hello@dee.test\r\nBcc: x@y.test', MSG.textOneLine],
    ] as const) {
      const err = await errorOf(
        anon.auth.registerBusiness(businessSignUp('refused@example.test', { slug: 'dee-refused', contactEmail })),
      );
      expect([err.code, err.message]).toEqual(['BAD_REQUEST', message]);
    }
    expect(await t.deps.db.select().from(users).where(eq(users.email, 'refused@example.test'))).toEqual([]);
  });

  it('refuses a taken or reserved slug with its conflict text', async () => {
    const anon = await callerFor(t.deps, null);
    const taken = await errorOf(anon.auth.registerBusiness(businessInput('other@example.test', 'bea-cuts')));
    expect(taken.code).toBe('CONFLICT');
    expect(taken.message).toBe(MSG.usernameTaken);
    const reserved = await errorOf(anon.auth.registerBusiness(businessInput('other2@example.test', 'login')));
    expect(reserved.message).toBe(MSG.usernameTaken);
    expect(await t.deps.db.select().from(users).where(eq(users.email, 'other@example.test'))).toEqual([]);
    expect((await errorOf(anon.auth.registerBusiness(businessInput('o3@example.test', 'ab')))).message).toBe(
      MSG.usernameMin,
    );
    expect((await errorOf(anon.auth.registerBusiness(businessInput('o3@example.test', 'bad slug!')))).message).toBe(
      MSG.usernameChars,
    );
  });

  it('answers a taken slug the same whether or not the email is registered', async () => {
    const anon = await callerFor(t.deps, null);
    const registered = await errorOf(anon.auth.registerBusiness(businessInput('bea@example.test', 'bea-cuts')));
    const fresh = await errorOf(anon.auth.registerBusiness(businessInput('new-owner@example.test', 'bea-cuts')));
    expect([registered.code, registered.message]).toEqual([fresh.code, fresh.message]);
  });

  it('a business without a profile is profile_incomplete', async () => {
    const { user } = await createBusiness(t.deps.db);
    await t.deps.db.delete(businessProfiles).where(eq(businessProfiles.id, user.id));
    expect((await (await callerFor(t.deps, user.id)).auth.me()).authState).toBe('profile_incomplete');
  });
});

describe('login and logout', () => {
  it('opens a new session per login and ends it on logout', async () => {
    const { user } = await createBusiness(t.deps.db);
    const cookies = recordingCookies();
    const anon = await callerFor(t.deps, null, cookies.writer);
    await anon.auth.login({ email: user.email.toUpperCase(), password: TEST_PASSWORD });
    await anon.auth.login({ email: user.email, password: TEST_PASSWORD });
    const tokens = cookies.calls.flatMap((c) => (c.kind === 'set' ? [c.token] : []));
    expect(new Set(tokens).size).toBe(2);
    const second = tokens[1]!;
    expect((await t.deps.db.select().from(sessions).where(eq(sessions.userId, user.id))).length).toBe(2);

    const signedIn = await callerForToken(t.deps, second, cookies.writer);
    expect((await signedIn.auth.me()).user?.id).toBe(user.id);
    await signedIn.auth.logout();
    expect(cookies.calls.at(-1)).toEqual({ kind: 'clear' });
    await expect(callerForToken(t.deps, second)).rejects.toThrow('test session not found');
  });

  it('gives the same answer for an unknown email and a wrong password', async () => {
    const { user } = await createBusiness(t.deps.db);
    const anon = await callerFor(t.deps, null);
    const wrong = await errorOf(anon.auth.login({ email: user.email, password: 'wrong-password' }));
    const unknown = await errorOf(anon.auth.login({ email: 'nobody@example.test', password: 'wrong-password' }));
    expect([wrong.code, wrong.message]).toEqual(['UNAUTHORIZED', MSG.loginInvalid]);
    expect([unknown.code, unknown.message]).toEqual([wrong.code, wrong.message]);
  });

  it('treats sessions past 30 days as signed out and renews sessions under 15 days', async () => {
    const { user } = await createBusiness(t.deps.db);
    const cookies = recordingCookies();
    await (await callerFor(t.deps, null, cookies.writer)).auth.login({ email: user.email, password: TEST_PASSWORD });
    const token = (cookies.calls[0] as { token: string }).token;
    clock.advance(20 * 24 * 60 * 60 * 1000);
    try {
      await callerForToken(t.deps, token); // renews to now + 30 days
      const [row] = await t.deps.db.select().from(sessions).where(eq(sessions.userId, user.id));
      expect(row!.expiresAt.getTime()).toBe(clock.now().getTime() + 30 * 24 * 60 * 60 * 1000);
      clock.advance(31 * 24 * 60 * 60 * 1000);
      await expect(callerForToken(t.deps, token)).rejects.toThrow('test session not found');
    } finally {
      clock.set(new Date('2026-11-21T10:00:00Z'));
    }
  });
});
